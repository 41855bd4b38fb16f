"""The two modern pages (Parlett's, White Knuckle's) measured as a reader meets them (issue 39):
every page a visitor can reach is rendered and read as text, quoted or not, and each run of
eight or more consecutive words of a modern page found anywhere on the site counts (case,
punctuation and spaces aside: ``markup.words``). Of each page's rules text such runs cover at
most 15%, and none is longer than 12 words.

test_copyright.py counts only what the site puts in quotation marks; a paraphrase that keeps
the page's words unquoted escaped it (Parlett's rules text was 29.9% covered that way, the
longest run 24 words on ``/compare/?a=hoffmann&b=parlett`` and ``/rules/must-trump/``).

"Every page": the session's crawl (tests/crawl.py: every rule, source, term and lesson under
each rule set, the lists, searches and timeline), the comparisons of every pair of sources,
the course, and the trainer's source questions, asked and answered, over a fixed sample of
seeds of every rule they ask about. All is read once for the module (``reader_site``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoDbBlocker

from games.loo.questions import question
from games.loo.questions.source import _source_rules, game_of
from lessons import markup
from lessons.trainer import bank
from lessons.trainer.models import AskedQuestion
from tests.crawl import Crawl
from tests.lessons.test_copyright import MODERN, rules_text

#: The shortest run of a modern page's words that counts: eight words in a row.
RUN = 8
#: At most this share of a modern page's rules text is covered by such runs.
CAP = 0.15
#: No run longer than this.
LONGEST = 12
#: The source questions' seeds, for every rule a source question asks about.
SEEDS = range(4)

_HIDDEN = re.compile(r"<(script|style|template)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")


def visible_text(html: str) -> str:
    """A page's text as a reader meets it: tags out, entities read."""
    return unescape(_TAG.sub(" ", _HIDDEN.sub(" ", html)))


@dataclass(frozen=True)
class Run:
    """A run of a modern page's words found on a page of the site."""

    start: int  # the first word's index in the modern rules text
    length: int
    url: str


def _grams(words: list[str]) -> dict[tuple[str, ...], list[int]]:
    index: dict[tuple[str, ...], list[int]] = {}
    for i in range(len(words) - RUN + 1):
        index.setdefault(tuple(words[i : i + RUN]), []).append(i)
    return index


def runs(text: list[str], url: str, page: list[str]) -> Iterator[Run]:
    """Each maximal run of ``RUN`` or more words of ``text`` found as such in ``page``."""
    index = _grams(page)
    i = 0
    while i <= len(text) - RUN:
        best = 0
        for p in index.get(tuple(text[i : i + RUN]), ()):
            n = RUN
            while i + n < len(text) and p + n < len(page) and text[i + n] == page[p + n]:
                n += 1
            best = max(best, n)
        if best:
            yield Run(i, best, url)
            # The next run may start inside this one (found elsewhere in the page).
        i += 1


@dataclass(frozen=True)
class Measure:
    words: int
    covered: int
    longest: Run | None
    #: The longest run found at each start, by start.
    found: dict[int, Run]

    @property
    def share(self) -> float:
        return self.covered / self.words


def measure(text: list[str], pages: dict[str, list[str]]) -> Measure:
    covered = [False] * len(text)
    longest: Run | None = None
    found: dict[int, Run] = {}
    vocabulary = set(text)
    for url, page in pages.items():
        if len(vocabulary.intersection(page)) < RUN:
            continue
        for run in runs(text, url, page):
            covered[run.start : run.start + run.length] = [True] * run.length
            if run.start not in found or run.length > found[run.start].length:
                found[run.start] = run
            if longest is None or run.length > longest.length:
                longest = run
    return Measure(len(text), sum(covered), longest, found)


def _source_question_pages(client: Client) -> Iterator[tuple[str, str]]:
    """Every rule a source question asks about, over ``SEEDS``: the question as asked and as
    answered (its explanation quotes each source's entry)."""
    session = client.session
    session.save()
    client.cookies["sessionid"] = session.session_key or ""
    key = client.session.session_key or ""
    for rule_id, seed in itertools.product(_source_rules(), SEEDS):
        q = question("source", "parlett", game=game_of(rule_id), rule=rule_id, seed=seed)
        asked = AskedQuestion.store(
            q, session_key=key, drill=bank.Drill(bank.RULE + rule_id, "parlett", q.game, "source")
        )
        url = asked.get_absolute_url()
        yield f"{url} (asked: {rule_id} {seed})", client.get(url).content.decode()
        client.post(reverse("trainer:question-answer", args=[asked.pk]), {"response": q.answer})
        yield f"{url} (answered: {rule_id} {seed})", client.get(url).content.decode()


def _more_pages(client: Client) -> Iterator[tuple[str, str]]:
    from lessons.course.models import Lesson
    from lessons.models import Source

    slugs = sorted(Source.objects.values_list("slug", flat=True))
    for a, b in itertools.combinations(slugs, 2):
        url = f"/compare/?a={a}&b={b}"
        yield url, client.get(url).content.decode()
    for url in [
        reverse("course:home"),
        *(lesson.get_absolute_url() for lesson in Lesson.objects.all()),
    ]:
        yield url, client.get(url).content.decode()
    yield from _source_question_pages(client)


@pytest.fixture(scope="module")
def reader_site(site_pages: Crawl, django_db_blocker: DjangoDbBlocker) -> dict[str, list[str]]:
    """The words of every page a visitor reaches, by address (read once for the module, in a
    transaction rolled back at its end)."""
    pages = {
        url: markup.words(visible_text(page.html))
        for url, page in site_pages.visitor.items()
        if page.status == 200 and "html" in page.headers.get("Content-Type", "")
    }
    with django_db_blocker.unblock(), transaction.atomic():
        for url, html in _more_pages(Client()):
            pages[url] = markup.words(visible_text(html))
        transaction.set_rollback(True)
    return pages


def _said(run: Run, text: list[str]) -> str:
    return (
        f"{run.length} words at {run.url}: {' '.join(text[run.start : run.start + run.length])!r}"
    )


def _report(source: str, m: Measure, text: list[str]) -> str:
    """The figures, and the runs that start where no longer run already covers."""
    where = _said(m.longest, text) if m.longest else "none"
    runs, end = [], 0
    for start in sorted(m.found):
        run = m.found[start]
        if start + run.length > end:
            runs.append(_said(run, text))
            end = start + run.length
    listed = "".join(f"\n  {said}" for said in runs)
    return f"{source}: {m.share:.1%} of {m.words} words covered; the longest run {where}{listed}"


@pytest.mark.django_db
@pytest.mark.parametrize("source", MODERN)
def test_the_site_repeats_at_most_a_few_words_of_a_modern_page_in_a_row(
    source: str, reader_site: dict[str, list[str]]
) -> None:
    text = markup.words(rules_text(source))
    m = measure(text, reader_site)
    print(_report(source, m, text))
    assert m.share <= CAP, _report(source, m, text)
    assert m.longest is None or m.longest.length <= LONGEST, _report(source, m, text)


@pytest.mark.django_db
@pytest.mark.parametrize("source", MODERN)
def test_the_measure_finds_a_modern_page_copied_into_a_page_unquoted(
    source: str, reader_site: dict[str, list[str]]
) -> None:
    """The measure can fail: a third of the page's sentences, copied into one page in our
    prose (no quotation marks), is found as runs well over the cap."""
    text = markup.words(rules_text(source))
    sentences = re.split(r"(?<=[.!?])\s+", " ".join(rules_text(source).split()))
    copied = markup.words(" and so ".join(sentences[: len(sentences) // 3]))
    m = measure(text, {**reader_site, "/copied/": copied})
    assert m.share > CAP
    assert m.longest is not None and m.longest.length > LONGEST
    assert m.longest.url == "/copied/"
    seven = markup.words(" zz ".join(" ".join(text[i : i + RUN - 1]) for i in range(0, 700, RUN)))
    assert measure(text, {"/sevens/": seven}).covered == 0
