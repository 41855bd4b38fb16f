"""The edition's pages around a source: its downloads (TEI P5 and plain text, public-domain
texts only) and a reader's report of an error in a passage.

A report needs no account. It is counted against the limits of ``lessons:report-error``
(loo_site.limits.CREATING) before the view runs, stored for staff only (the admin), and
answered with a plain acknowledgement that repeats nothing the reader wrote.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from games.http import HtmxHttpRequest
from lessons.edition import citable, cite, locator
from lessons.forms import ErrorReportForm
from lessons.models import ErrorReport, Passage, Source
from lessons.tei import plain_document, tei_document


def _public_domain(slug: str) -> tuple[Source, list[Passage]]:
    source = get_object_or_404(Source, slug=slug)
    if source.modern:
        raise Http404("A modern text is under copyright: it cannot be downloaded.")
    return source, list(source.passages.all())


def _download(request: HtmxHttpRequest, slug: str, kind: str) -> HttpResponse:
    found, passages = _public_domain(slug)
    permalink = request.build_absolute_uri(found.get_absolute_url())
    make, content_type, name = {
        "tei": (tei_document, "application/tei+xml", f"{found.slug}.tei.xml"),
        "text": (plain_document, "text/plain", f"{found.slug}.txt"),
    }[kind]
    response = HttpResponse(
        make(found, passages, permalink), content_type=f"{content_type}; charset=utf-8"
    )
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@require_safe
def download_tei(request: HtmxHttpRequest, source: str) -> HttpResponse:
    """``/sources/<source>/tei.xml``: the text as TEI P5."""
    return _download(request, source, "tei")


@require_safe
def download_text(request: HtmxHttpRequest, source: str) -> HttpResponse:
    """``/sources/<source>/text.txt``: the text as plain UTF-8."""
    return _download(request, source, "text")


def _passage(source: str, key: str) -> Passage:
    passage = get_object_or_404(Passage.objects.select_related("source"), source=source, key=key)
    if not citable(passage):
        raise Http404("Only a passage of the text can be reported.")
    return passage


@require_http_methods(["GET", "HEAD", "POST"])
def report_error(request: HtmxHttpRequest, source: str, key: str) -> HttpResponse:
    """``/sources/<source>/<passage>/report/``: the form, and storing what it sends."""
    passage = _passage(source, key)
    form = ErrorReportForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        ErrorReport.objects.create(
            passage=passage,
            source_slug=passage.source_id,
            passage_key=passage.key,
            what=form.cleaned_data["what"],
            evidence=form.cleaned_data["evidence"].strip(),
        )
        return redirect("lessons:report-thanks", source=source, key=key)
    url = request.build_absolute_uri(passage.get_absolute_url())
    return render(
        request,
        "lessons/report_error.html",
        {
            "passage": passage,
            "source": passage.source,
            "where": locator(passage),
            "form": form,
            "cite": cite(passage.source, passage, url),
            # The words only: the page has none of the marks' notes to link to.
            "paragraphs": passage.plain.split("\n\n"),
        },
        status=400 if form.is_bound else 200,
    )


@require_safe
def report_thanks(request: HtmxHttpRequest, source: str, key: str) -> HttpResponse:
    passage = _passage(source, key)
    return render(
        request,
        "lessons/report_thanks.html",
        {
            "passage": passage,
            "source": passage.source,
            "where": locator(passage),
            "back": reverse("lessons:source-detail", args=[source]) + f"#{passage.key}",
        },
    )
