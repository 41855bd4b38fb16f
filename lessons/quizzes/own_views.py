"""A teacher's questions of his own: "My questions", and the card-table editor, a plain form
per step (works without JavaScript): (1) the rule set, the game and what to ask; (2) the
cards, from pickers grouped by suit; (3) a preview as a student sees it, with the engine's
answer and its explanation; then save (a POST, counted by loo_site.limits).

The steps are GET forms that carry what the earlier ones chose (nothing is stored before
the save, which checks everything again). The engine's refusal is shown on the cards' form,
with the cards kept. Another teacher's question is a 404; a co-teacher sees and uses his
colleagues' questions, and only their owner edits or deletes them.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.forms import MultipleChoiceField
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from games.http import AuthenticatedHttpRequest
from games.loo.catalogue import UnknownRule
from games.loo.questions import QuestionError
from lessons.quizzes import own
from lessons.quizzes.own_forms import PositionForm, StartForm, TitleForm, pairs_of
from lessons.quizzes.own_models import OwnQuestion
from lessons.trainer import bank

TEMPLATES = "quizzes/own/"


def _require_teacher(request: AuthenticatedHttpRequest) -> None:
    if not hasattr(request.user, "teacher"):
        raise PermissionDenied("Only teachers make questions.")


def _editing(request: AuthenticatedHttpRequest, data: QueryDict) -> OwnQuestion | None:
    """The question being edited (its owner's only: a 404 for anyone else), if any."""
    pk = data.get("question", "")
    return own.for_owner(request.user, int(pk)) if pk.isdigit() else None


@login_required
@require_safe
def list_own(request: AuthenticatedHttpRequest) -> HttpResponse:
    """My questions: the teacher's, then his co-teachers'."""
    _require_teacher(request)
    questions = list(own.visible(request.user).annotate(asked=own.used_in_answers()))
    context = {
        "mine": [q for q in questions if q.owner_id == request.user.pk],
        "shared": [q for q in questions if q.owner_id != request.user.pk],
    }
    return render(request, TEMPLATES + "list.html", context)


@login_required
@require_safe
def start_own(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Step 1: the rule set, the game and what to ask (kept when coming back to change them)."""
    _require_teacher(request)
    editing = _editing(request, request.GET)
    initial = {k: request.GET[k] for k in HEAD if k in request.GET}
    return _render_start(request, StartForm(initial=initial), editing, request.GET)


#: The first step's fields, and the question being edited: what the later steps carry.
HEAD = ("rules", "game", "kind")
#: The fields that set a table (lessons.quizzes.own.TABLE), and what no step sends on.
TABLE = ("players", "dealer")
NOT_CARRIED = ("question", "csrfmiddlewaretoken", "title")


def _render_start(
    request: AuthenticatedHttpRequest,
    form: StartForm,
    editing: OwnQuestion | None,
    data: QueryDict | None = None,
) -> HttpResponse:
    """The first step; the cards chosen already, if any, are carried on to the second."""
    carried = [
        (k, v)
        for k, values in (data or QueryDict()).lists()
        if k not in (*HEAD, "question")
        for v in values
    ]
    context = {"form": form, "editing": editing, "carried": carried}
    return render(request, TEMPLATES + "start.html", context)


def _head(
    request: AuthenticatedHttpRequest, data: QueryDict
) -> tuple[StartForm, OwnQuestion | None]:
    _require_teacher(request)
    return StartForm(data), _editing(request, data)


@login_required
@require_safe
def own_cards(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Step 2: the cards, as far as the question needs them (the earlier choices kept)."""
    head, editing = _head(request, request.GET)
    if not head.is_valid():
        return _render_start(request, head, editing, request.GET)
    form = _position_form(head, initial=_initial(head, request.GET))
    return _render_cards(request, head, form, editing, request.GET)


def _position_form(head: StartForm, **kwargs: Any) -> PositionForm:
    data = head.cleaned_data
    return PositionForm(data["kind"], data["rules"], data["game"], **kwargs)


def _initial(head: StartForm, query: QueryDict) -> dict[str, Any]:
    """A form's first values from a query (coming back to change the cards, or an edit; the
    fields drawn for the table the query names)."""
    blank = _position_form(head, initial={k: query.get(k) for k in TABLE if k in query})
    return {
        name: query.getlist(name) if isinstance(field, MultipleChoiceField) else query[name]
        for name, field in blank.fields.items()
        if name in query
    }


def _render_cards(
    request: AuthenticatedHttpRequest,
    head: StartForm,
    form: PositionForm,
    editing: OwnQuestion | None,
    data: QueryDict,
    refusal: str = "",
) -> HttpResponse:
    kind = head.cleaned_data["kind"]
    context = {
        "head": head.cleaned_data,
        "head_pairs": _head_pairs(head, editing),
        "form": form,
        "pickers": form.pickers(),
        "editing": editing,
        "refusal": refusal,
        "asks": own.ASKS[kind],
        "kind_name": bank.kind_name(kind),
        "step_name": own.step_name(kind),
        # The table's own form sends on what the cards' form was last sent with.
        "carried": [
            (k, v)
            for k, values in data.lists()
            if k not in (*HEAD, *TABLE, *NOT_CARRIED)
            for v in values
        ],
    }
    return render(request, TEMPLATES + "cards.html", context)


def _head_pairs(head: StartForm, editing: OwnQuestion | None) -> list[tuple[str, str]]:
    pairs = [(k, head.cleaned_data[k]) for k in ("rules", "game", "kind")]
    return pairs + ([("question", str(editing.pk))] if editing else [])


@login_required
@require_safe
def preview_own(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Step 3: the question as a student sees it, the engine's answer and why; or the cards'
    form again with what is wrong (the engine's reason, when it refuses the position)."""
    head, editing = _head(request, request.GET)
    if not head.is_valid():
        return _render_start(request, head, editing, request.GET)
    form = _position_form(head, data=request.GET)
    if not form.is_valid():
        return _render_cards(request, head, form, editing, request.GET)
    draft = form.draft()
    try:
        q = draft.question()
    except own.Refused as refused:
        return _render_cards(request, head, form, editing, request.GET, refusal=str(refused))
    pairs = pairs_of(draft) + ([("question", str(editing.pk))] if editing else [])
    title = editing.current.title if editing and editing.current else ""
    context = {
        **preview_context(own.preview(q)),
        "pairs": pairs,
        "query": urlencode(pairs),
        "title_form": TitleForm(initial={"title": title}),
        "editing": editing,
        "step_name": own.step_name(draft.kind),
    }
    return render(request, TEMPLATES + "preview.html", context)


@login_required
@require_POST
def save_own(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Save what the preview showed, checked again: a new question, or a new version of the
    one being edited. A position the engine refuses is shown with its reason; nothing is
    stored."""
    head, editing = _head(request, request.POST)
    if not head.is_valid():
        return _render_start(request, head, editing, request.POST)
    form = _position_form(head, data=request.POST)
    title = TitleForm(request.POST)
    if not (form.is_valid() and title.is_valid()):
        return _render_cards(
            request, head, form, editing, request.POST, refusal=_first_error(title)
        )
    try:
        saved = own.save(request.user, form.draft(), title.cleaned_data["title"], editing)
    except own.Refused as refused:
        return _render_cards(request, head, form, editing, request.POST, refusal=str(refused))
    assert saved.current is not None
    if editing:
        text = f"Saved “{saved}” as version {saved.current.number}: answers given keep theirs."
    else:
        text = f"Saved “{saved}”. Put it in a quiz from the quiz's form."
    messages.success(request, text)
    return redirect(saved)


def preview_context(preview: own.Preview | None) -> dict[str, Any]:
    """What ``quizzes/own/parts.html#preview`` needs: the partials of a question asked and
    answered take a row (for its ids) and the choices ticked."""
    return {
        "preview": preview,
        "asked_stub": SimpleNamespace(pk="preview"),
        "answer_stub": SimpleNamespace(pk="answer"),
        "nothing_chosen": (),
    }


def _first_error(form: TitleForm) -> str:
    return next((str(e) for errors in form.errors.values() for e in errors), "")


@login_required
@require_safe
def show_own(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A question: as a student sees it, the engine's answer, its versions and its use."""
    _require_teacher(request)
    question = own.for_viewer(request.user, pk)
    version = question.current
    assert version is not None
    draft = own.Draft.of(version)
    try:
        shown: own.Preview | None = own.preview(version.to_engine(0))
        stale = ""
    except (QuestionError, UnknownRule) as error:  # the engine no longer asks it
        shown, stale = None, str(error)
    mine = question.owner_id == request.user.pk
    context = {
        "question": question,
        "version": version,
        **preview_context(shown),
        "stale": stale,
        "mine": mine,
        "in_use": question.in_use,
        "edit_query": urlencode([*pairs_of(draft), ("question", str(question.pk))]),
        "edit_url": reverse("quizzes:own-cards"),
    }
    return render(request, TEMPLATES + "question.html", context)


@login_required
@require_POST
def delete_own(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Delete a question no quiz lists and no student was asked (its owner only)."""
    _require_teacher(request)
    question = own.for_owner(request.user, pk)
    title = str(question)
    if not own.delete(question):
        messages.error(request, f"“{title}” is in use (a quiz lists it, or students answered it).")
        return redirect(question)
    messages.success(request, f"Deleted “{title}”.")
    return redirect("quizzes:own-list")
