"""The rule trainer: questions from the engine's bank, one at a time, graded at once.

The learner chooses what to practise (``/trainer/``); each question is a stored
:class:`AskedQuestion` (its identity, never its answer) at ``/trainer/q/<pk>/``, which shows
the question or, once answered, the graded answer with the engine's explanations and the next
question's button. With htmx the answer and the next question swap the ``trainer-question``
fragment (and the record, out of band); without JavaScript every POST redirects to the
question's page, its outcome a message there.

Whatever is refused (a forged choice, another learner's question, a second answer, a question
the engine can no longer make) is said plainly and changes nothing stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from games.http import HtmxHttpRequest
from games.links import RuleLinks, rule_url
from games.loo import catalogue
from games.loo.questions import Question
from games.loo.rulesets import DEFAULT_PRESET, GAME_NAMES, PRESETS
from games.owners import owner_for
from lessons.trainer import bank, prepared, reviews
from lessons.trainer.forms import AnswerForm, CoverageForm, DrillForm
from lessons.trainer.models import AskedQuestion, Record, RuleRecord, RuleReview, StaleQuestion
from lessons.trainer.presenting import asking_context, graded_context
from loo_site import limits

#: What a request did or refused, said above the question: (text, message level).
Said = Sequence[tuple[str, int]]

TRAINER = "trainer/trainer.html"
QUESTION = "trainer/question.html"

ANSWERED = "You had already answered this question: your first answer stands."
UNANSWERED = "Answer this question before the next one."
STALE = (
    "This question can no longer be asked: the question bank has changed since it was made. "
    "Nothing was recorded; ask for a new question."
)
NOT_FOUND = (
    "There is no such question among yours: it may belong to another browser session or "
    "account. Start again from the trainer."
)
TOO_MANY_DRILLS = "Too many drills have been started from your network."
NOT_MADE = (
    "No question about {what} could be made just now. Nothing was recorded; try again, or "
    "choose other rules."
)


def practise_url(scope: str, preset: str, game: str, kind: str = "") -> str:
    """The trainer's chooser, set to practise ``scope`` under ``preset`` at ``game``."""
    query = urlencode({"scope": scope, "rules": preset, "game": game, "kind": kind})
    return f"{reverse('trainer:choose')}?{query}"


# -- access -------------------------------------------------------------------------------------


def _get_question_for_learner(request: HtmxHttpRequest, pk: int) -> AskedQuestion | None:
    """The question ``pk`` if it was asked of this user or browser session."""
    return AskedQuestion.objects.for_request(request).filter(pk=pk).first()


def _not_found(request: HtmxHttpRequest) -> HttpResponse:
    if request.htmx:
        return HttpResponse(NOT_FOUND, status=404, content_type="text/plain; charset=utf-8")
    return render(request, "trainer/missing.html", {"message": NOT_FOUND}, status=404)


# -- choosing what to practise ------------------------------------------------------------------


@require_safe
def show_trainer(request: HtmxHttpRequest) -> HttpResponse:
    """Choose a rule, a group or any rule, a rule set and a game; the learner's record."""
    prepared.warm()  # the slow kinds' pools, made ahead while the learner chooses
    if request.GET:
        form = DrillForm(request.GET)
        form.is_valid()  # a link with an unknown rule, rule set or game: say so
    else:
        form = DrillForm(initial=_last_drill(request))
    return _render_trainer(request, form)


def _last_drill(request: HtmxHttpRequest) -> dict[str, str]:
    """The chooser starts where the learner last was."""
    last = AskedQuestion.objects.for_request(request).first()
    if last is None or not last.scope:
        return {}
    return {"scope": last.scope, "rules": last.rules, "game": last.game, "kind": last.wanted_kind}


def _render_trainer(request: HtmxHttpRequest, form: DrillForm, said: str = "") -> HttpResponse:
    record = AskedQuestion.objects.for_request(request).record()
    review = [(r, rule_url(r.rule), _practise_again(r)) for r in record.to_review()]
    latest = AskedQuestion.objects.for_request(request).filter(answered__isnull=True).first()
    due = RuleReview.objects.for_request(request).due().count()
    context = {
        "form": form,
        "record": record,
        "review": review,
        "latest": latest,
        "due": due,
        "said": said,
    }
    return render(request, TRAINER, context)


def _practise_again(missed: RuleRecord) -> str:
    """The chooser set to drill a missed rule where it was last asked."""
    preset, game, kind = missed.last
    return _drill_url(missed.rule, preset, game, kind)


def _drill_url(rule_id: str, preset: str, game: str, kind: str) -> str:
    """The chooser set to drill ``rule_id``: with any kind about the play if one asks about it
    there, else with ``kind`` (a rule only the source questions ask about)."""
    if bank.Drill(bank.RULE + rule_id, preset, game).askable():
        kind = ""
    return practise_url(bank.RULE + rule_id, preset, game, kind)


@require_POST
def ask_question(request: HtmxHttpRequest) -> HttpResponse:
    """A first question for what the learner chose; then its page."""
    form = DrillForm(request.POST)
    if not form.is_valid():
        return _render_trainer(request, form)
    drill = form.drill()
    if refused := may_ask(request, TOO_MANY_DRILLS):
        return refused
    q = _ask(drill)
    if q is None:
        form.add_error(None, NOT_MADE.format(what=drill.name))
        return _render_trainer(request, form)
    owner, session_key = owner_for(request)
    asked = AskedQuestion.store(q, owner=owner, session_key=session_key, drill=drill)
    return redirect(asked)


def may_ask(request: HtmxHttpRequest, what: str | None = None) -> HttpResponse | None:
    """Before a new question is made, whatever asks for it (a drill, its next question, a
    lesson's step): each stores a question (and, for someone not logged in, a session), so
    each counts against one limit per address, before any work. The answer to give instead
    when it is reached (the 429 page; with htmx its sentence alone, which the page shows
    where it says what failed), else None, the question counted."""
    return limits.check(request, "drills-per-address", what=what)


@require_POST
def ask_next_question(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The question after ``pk``, for the same drill. Asked once: a second click (or a
    replayed POST) finds the question the first one asked."""
    previous = _get_question_for_learner(request, pk)
    if previous is None:
        return _not_found(request)
    if not previous.is_answered:
        return _after_post(request, previous, said=[(UNANSWERED, messages.ERROR)])
    following = AskedQuestion.objects.filter(previous=previous).first()
    if following is None:
        if refused := may_ask(request):
            return refused
        drill = bank.Drill(
            previous.scope or bank.ANY, previous.rules, previous.game, previous.wanted_kind
        )
        q = _ask(drill)
        if q is None:
            error = NOT_MADE.format(what=bank.scope_name(previous.scope))
            return _after_post(request, previous, said=[(error, messages.ERROR)])
        owner, session_key = owner_for(request)
        following = AskedQuestion.store(
            q, owner=owner, session_key=session_key, drill=drill, previous=previous
        )
    if request.htmx:
        return push_url(_render_question(request, following), following.get_absolute_url())
    return redirect(following)


def _ask(drill: bank.Drill) -> Question | None:
    """A question for ``drill``, made ahead if its pool has one (``prepared``); a seed whose
    search finds none (rare: the bank searches a bounded number of deals) gives way to
    another, a few times."""
    return prepared.ask(drill)


# -- a question ---------------------------------------------------------------------------------


@require_safe
@vary_on_headers("HX-Request")
def show_question(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    asked = _get_question_for_learner(request, pk)
    if asked is None:
        return _not_found(request)
    return _render_question(request, asked)


@require_POST
def answer_question(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Grade the learner's answer and store it, once."""
    asked = _get_question_for_learner(request, pk)
    if asked is None:
        return _not_found(request)
    if asked.is_answered:
        return _after_post(request, asked, said=[(ANSWERED, messages.WARNING)])
    try:
        q = asked.to_engine()
    except StaleQuestion:
        return _after_post(request, asked)  # its page says why
    form = AnswerForm(q, request.POST)
    if not form.is_valid():
        return _after_post(request, asked, form=form)
    graded = asked.record_answer(q, form.response())
    if graded is None:
        return _after_post(request, asked, said=[(ANSWERED, messages.WARNING)])
    reviews.review_for_request(
        request, asked.topic, graded.correct, rules=q.rules, game=q.game, kind=q.kind
    )
    return _after_post(request, asked)


def _after_post(
    request: HtmxHttpRequest,
    asked: AskedQuestion,
    *,
    form: AnswerForm | None = None,
    said: Said = (),
) -> HttpResponse:
    """With htmx, the question's fragment (status 200, so that htmx swaps it) with what
    happened; without, a redirect to its page with the same as messages."""
    if request.htmx:
        return _render_question(request, asked, form=form, said=said)
    for text, level in said:
        messages.add_message(request, level, text)
    for errors in form.errors.values() if form is not None else ():
        for text in errors:
            messages.error(request, str(text))
    return redirect(asked)


def _render_question(
    request: HtmxHttpRequest,
    asked: AskedQuestion,
    *,
    form: AnswerForm | None = None,
    said: Said = (),
) -> HttpResponse:
    said = [*((m.message, m.level) for m in messages.get_messages(request)), *said]
    flashed = [(text, messages.DEFAULT_TAGS[level]) for text, level in said]
    context: dict[str, Any] = {
        "asked": asked,
        "flashed": flashed,
        "drill": bank.scope_name(asked.scope),
        "practise_url": practise_url(
            asked.scope or bank.ANY, asked.rules, asked.game, asked.wanted_kind
        ),
        "kind_name": bank.kind_name(asked.wanted_kind) if asked.wanted_kind else "",
        "next_url": reverse("trainer:question-next", args=[asked.pk]),
        "stale": "",
    }
    try:
        q = asked.to_engine()
    except StaleQuestion:
        context["stale"] = STALE
    else:
        if asked.is_answered:
            context.update(graded_context(asked, q))
            context["due"] = RuleReview.objects.for_request(request).due().count()
        else:
            answer_url = reverse("trainer:question-answer", args=[asked.pk])
            context.update(asking_context(asked, q, answer_url=answer_url, form=form))
    context.update(_record_context(request, asked))
    template = f"{QUESTION}#trainer-update" if request.htmx else QUESTION
    return render(request, template, context)


def _record_context(request: HtmxHttpRequest, asked: AskedQuestion) -> dict[str, Any]:
    """The learner's record; on the question's rule only once it is answered (before, the
    rule would give the answer away)."""
    record: Record = AskedQuestion.objects.for_request(request).record()
    on_topic = record.on(asked.topic) if asked.is_answered else None
    return {"record": record, "on_topic": on_topic}


# -- reviews that come back ------------------------------------------------------------------------

NOTHING_DUE = "No rule is due for review just now: nothing was asked."
NO_REVIEW_MADE = (
    "No question about the rules due for review could be made just now. Nothing was recorded; "
    "try again, or choose what to practise."
)


@require_POST
def review_due(request: HtmxHttpRequest) -> HttpResponse:
    """A drill on the rules due for review: a question about the longest overdue rule that
    can be asked where it was last answered about (its next questions drill the same rule)."""
    due = list(RuleReview.objects.for_request(request).due()[:20])
    if not due:
        return _render_trainer(request, DrillForm(initial=_last_drill(request)), NOTHING_DUE)
    if refused := may_ask(request, TOO_MANY_DRILLS):
        return refused
    # Any kind about the play; else a kind asked for only by name (the texts', the coach's:
    # a rule only those ask about).
    kinds = ["", *(k for k in bank.kinds() if k not in bank.play_kinds())]
    drills = [bank.Drill(bank.RULE + r.rule, r.rules, r.game, k) for r in due for k in kinds]
    for drill in drills:
        try:
            if not drill.askable():
                continue
        except (KeyError, ValueError):  # a rule set, game or rule no longer known
            continue
        q = _ask(drill)
        if q is not None:
            owner, session_key = owner_for(request)
            asked = AskedQuestion.store(q, owner=owner, session_key=session_key, drill=drill)
            return redirect(asked)
    return _render_trainer(request, DrillForm(initial=_last_drill(request)), NO_REVIEW_MADE)


@require_safe
@never_cache  # one learner's own record: no shared computer's cache or proxy keeps it
def show_reviews(request: HtmxHttpRequest) -> HttpResponse:
    """The learner's dashboard: each rule's state (due, learning, known, new), weakest
    first, with its page and a drill; and how many are in each state, as a chart."""
    states = reviews.dashboard(RuleReview.objects.for_request(request))
    rows = [(s, _review_drill_url(s)) for s in states]
    counts = reviews.counts(states)
    most = max((n for _, _, n in counts), default=0) or 1
    chart = [(state, name, n, round(100 * n / most)) for state, name, n in counts]
    # The rules never asked are listed apart, folded: seventy rows of "not asked yet" buried
    # the few a learner has met (seen on a phone).
    context = {
        "rows": [(s, drill) for s, drill in rows if s.row is not None],
        "new_rows": [(s, drill) for s, drill in rows if s.row is None],
        "chart": chart,
        "due": counts[0][2],
    }
    return render(request, "trainer/reviews.html", context)


def _review_drill_url(state: reviews.RuleState) -> str:
    """The chooser set to drill the rule where it was last asked about (a new rule: under
    the default rule set at three-card Loo)."""
    if state.row is None:
        return practise_url(bank.RULE + state.rule, DEFAULT_PRESET, "three-card")
    return _drill_url(state.rule, state.row.rules, state.row.game, "")


# -- what each kind asks about --------------------------------------------------------------------


@require_safe
def show_coverage(request: HtmxHttpRequest) -> HttpResponse:
    """For a rule set (``?rules=``) at each of its games, the rules each kind of question
    can ask about, each linked to its page and to the trainer set to practise it there."""
    form = CoverageForm(request.GET)
    preset = PRESETS[form.preset()]
    kinds = bank.kinds()
    order = {r.id: i for i, r in enumerate(catalogue.rules())}
    tables = []
    for game in bank.games_of(preset.id):
        covered = bank.coverage(preset.id, game)
        # A column only for a kind that asks about something here (flushes are five-card
        # Loo's; penalties only under a source that states them): the others are named.
        asking = [k for k in kinds if covered.get(k)]
        ids = sorted({r for k in asking for r in covered[k]}, key=order.__getitem__)
        links = RuleLinks.of(preset.id, game)
        rows = [
            (
                links.link(r),
                _drill_url(r, preset.id, game, next(k for k in asking if r in covered[k])),
                [r in covered[k] for k in asking],
            )
            for r in ids
        ]
        title = f"{GAME_NAMES[game][:1].upper()}{GAME_NAMES[game][1:]}"
        tables.append(
            {
                "id": game,
                "title": title,
                "rows": rows,
                "kinds": [(k, bank.kind_name(k)) for k in asking],
                "silent": [bank.kind_name(k) for k in kinds if k not in asking],
            }
        )
    context = {
        "form": form,
        "preset": preset,
        "presets": list(PRESETS.values()),
        "tables": tables,
    }
    return render(request, "trainer/coverage.html", context)
