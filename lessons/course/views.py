"""The course at /learn/: the units and lessons with the learner's progress, and each lesson's
page with its steps (exercises, a guided hand, a check), answered in the page.

A lesson's steps are taken in order; the page shows the first not done (or, with ``?step=``,
one already done, to look at it again). The rule set is the learner's choice among those the
lesson is offered under (``?rules=``, carried by every link and form of the page); the
exercises follow it. No GET makes anything (the one thing a GET writes is a guided hand's
progress marked done once its hand is over): a session, a progress row, a question or a table
is made by a POST ("Begin", "Deal the hand"), within the limits of its kind (the trainer's
drills, the practice tables). An answer is graded by the engine and stored once
(:meth:`AskedQuestion.record_answer`): a replayed POST, a second tab or the back button find
the step as it is and change nothing. With htmx the step's fragment is swapped; without
JavaScript every POST redirects to the lesson's page.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games.guided import guided_deal_seed
from games.http import HtmxHttpRequest
from games.links import RuleLinks, rule_url
from games.loo.rulesets import PRESETS
from games.models import PracticeTable
from games.owners import owner_for
from games.practice import service as practice_tables
from lessons.course.learning import StepState, ask, lesson_states, mark_done, progress_for
from lessons.course.models import Lesson, Progress, Step, StepKind, Unit
from lessons.models import Passage
from lessons.trainer.forms import AnswerForm
from lessons.trainer.models import AskedQuestion, StaleQuestion
from lessons.trainer.presenting import asking_context, graded_context
from lessons.trainer.reviews import review_for_request
from lessons.trainer.views import may_ask, practise_url

LESSON = "course/lesson.html"

NOT_MADE = "No question could be made just now. Nothing was recorded; try again."
ANSWERED = "You had already answered this question: your first answer stands."
NOT_YET = "Do the steps before this one first."
STALE = (
    "This question can no longer be asked: the question bank has changed since it was made. "
    "Ask for another."
)


# -- the course ---------------------------------------------------------------------------------


@require_safe
def show_course(request: HtmxHttpRequest) -> HttpResponse:
    """The units and lessons in order, each lesson with the learner's progress; where to
    resume; the rules most often missed."""
    units = list(Unit.objects.prefetch_related("lessons__steps"))
    done: dict[str, Progress] = {
        p.step_id: p for p in Progress.objects.for_request(request).filter(done__isnull=False)
    }
    rows = []
    for unit in units:
        lessons = []
        for lesson in unit.lessons.all():
            steps = list(lesson.steps.all())
            finished = sum(1 for s in steps if s.key in done)
            exercises = [s for s in steps if s.kind == StepKind.EXERCISE]
            stars = sum(1 for s in exercises if done.get(s.key) and done[s.key].first_try)
            state = {
                "star_text": "★" * stars,
                "lesson": lesson,
                "steps": len(steps),
                "done": finished,
                "stars": stars,
                "exercises": len(exercises),
                "complete": finished == len(steps),
            }
            lessons.append(state)
        rows.append((unit, lessons))
    resume = _resume([state for _, lessons in rows for state in lessons])
    record = AskedQuestion.objects.for_request(request).record()
    review = [
        (r, rule_url(r.rule), practise_url(f"rule:{r.rule}", *r.last[:2]))
        for r in record.to_review()
    ]
    context = {"units": rows, "resume": resume, "started": bool(done), "review": review}
    return render(request, "course/course.html", context)


def _resume(lessons: list[dict[str, Any]]) -> Lesson | None:
    """Where to go on: the first lesson in course order that is not finished, begun or not.
    Each lesson builds on those before it, so a lesson skipped or left half done comes before
    any later one the learner has worked on."""
    return next((s["lesson"] for s in lessons if not s["complete"]), None)


# -- a lesson -----------------------------------------------------------------------------------


def _preset(request: HtmxHttpRequest, lesson: Lesson) -> str:
    """The rule set chosen (``?rules=``: every link and form of a lesson carries it), if the
    lesson is offered under it; else the one the learner last answered a lesson's question
    under; else the lesson's first. Never kept in the session: a GET stores nothing (a reader
    who only follows a link makes no session)."""
    wanted = request.GET.get("rules", "")
    if wanted in lesson.presets:
        return wanted
    return _last_answered_under(request, lesson.presets) or lesson.presets[0]


def _last_answered_under(request: HtmxHttpRequest, presets: list[str]) -> str | None:
    """The rule set of the learner's latest question in the course among ``presets`` (one
    query; none without an account or a session)."""
    steps = Progress.objects.for_request(request).values("questions")
    latest = AskedQuestion.objects.filter(pk__in=steps, rules__in=presets).order_by("-asked")
    return latest.values_list("rules", flat=True).first()


def _lesson_url(lesson: Lesson, preset: str, step: Step | None = None) -> str:
    query = {"rules": preset}
    anchor = ""
    if step is not None:
        query["step"] = step.key
        anchor = f"#step-{step.key}"
    return f"{lesson.get_absolute_url()}?{urlencode(query)}{anchor}"


@require_safe
@vary_on_headers("HX-Request")
def show_lesson(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    lesson = get_object_or_404(Lesson.objects.select_related("unit"), slug=slug)
    preset = _preset(request, lesson)
    states = lesson_states(request, lesson)
    _finish_guided_hands(states)
    current = _current(states, request.GET.get("step"))
    return _render_lesson(request, lesson, preset, states, current)


def _current(states: list[StepState], wanted: str | None) -> StepState | None:
    """The step the page opens: the one asked for if the steps before it are done, else the
    first not done (None: the lesson is complete)."""
    first_open = next((s for s in states if not s.done), None)
    for i, state in enumerate(states):
        if state.step.key == wanted and all(s.done for s in states[:i]):
            return state
    return first_open


def _finish_guided_hands(states: list[StepState]) -> None:
    """A guided hand is done when the hand at its table is over."""
    for state in states:
        p = state.progress
        if state.step.kind != StepKind.GUIDED_HAND or p is None or p.done or p.table_id is None:
            continue
        table = PracticeTable.objects.filter(pk=p.table_id).first()
        if table is not None and table.hands.exists():
            mark_done(p)


def _render_lesson(
    request: HtmxHttpRequest,
    lesson: Lesson,
    preset: str,
    states: list[StepState],
    current: StepState | None,
    *,
    form: AnswerForm | None = None,
) -> HttpResponse:
    units = list(Unit.objects.prefetch_related("lessons"))
    order = [le for u in units for le in u.lessons.all()]
    index = next(i for i, le in enumerate(order) if le.slug == lesson.slug)
    quotes = _quotes(lesson)
    links = RuleLinks.of(preset, lesson.game)
    context: dict[str, Any] = {
        "lesson": lesson,
        "preset": preset,
        "states": states,
        "current": current,
        "quotes": quotes,
        "previous": order[index - 1] if index else None,
        "following": order[index + 1] if index + 1 < len(order) else None,
        "complete": all(s.done for s in states),
        "taught": [links.link(r) for r in lesson.teaches],
        "preset_title": PRESETS[preset].title,
        "next_step": _after(states, current),
        "summary": _summary(states),
    }
    if current is not None:
        context.update(_step_context(request, lesson, preset, current, form))
    template = f"{LESSON}#lesson-step" if request.htmx else LESSON
    return render(request, template, context)


def _summary(states: list[StepState]) -> dict[str, Any]:
    """How the lesson went: stars of the exercises, the check's score; and each step's number
    among those of its kind ("Exercise 2 of 3")."""
    exercises = [s for s in states if s.step.kind == StepKind.EXERCISE]
    check = next((s for s in states if s.step.kind == StepKind.CHECK), None)
    for state in states:
        same = [s for s in states if s.step.kind == state.step.kind]
        state.number, state.of = same.index(state) + 1, len(same)
    return {
        "stars": sum(1 for s in exercises if s.star),
        "star_text": "★" * sum(1 for s in exercises if s.star),
        "exercises": len(exercises),
        "right": check.progress.right if check and check.progress and check.done else None,
        "count": check.count if check else 0,
    }


def _after(states: list[StepState], current: StepState | None) -> StepState | None:
    """The step after ``current``."""
    if current is None:
        return None
    i = states.index(current)
    return states[i + 1] if i + 1 < len(states) else None


def _quotes(lesson: Lesson) -> list[Passage]:
    found = {
        (p.source_id, p.key): p
        for p in Passage.objects.select_related("source").filter(
            source_id__in={s for s, _ in lesson.quotes}, key__in={k for _, k in lesson.quotes}
        )
    }
    quotes = [found[(s, k)] for s, k in lesson.quotes if (s, k) in found]
    for p in quotes:
        # A note's mark points into the source's page (its notes are there), and its id
        # belongs to that page.
        page = reverse("lessons:source-detail", args=[p.source_id])
        p.quote_html = p.html.replace('href="#', f'href="{page}#').replace(
            ' id="note-', ' data-note="'
        )
    return quotes


def _step_context(
    request: HtmxHttpRequest,
    lesson: Lesson,
    preset: str,
    state: StepState,
    form: AnswerForm | None,
) -> dict[str, Any]:
    """What the current step shows: its question (asked, or graded with what follows), the
    guided hand's table, or the check's score."""
    step = state.step
    context: dict[str, Any] = {"state": state}
    if step.kind == StepKind.GUIDED_HAND:
        p = state.progress
        context["table"] = (
            PracticeTable.objects.filter(pk=p.table_id).first() if p and p.table_id else None
        )
        return context
    waiting = state.pending_under(preset)
    elsewhere = state.pending
    context["waiting"] = waiting is not None
    if waiting is None and elsewhere is not None:
        # A question waits under another rule set: offer one under this one.
        context["elsewhere"] = elsewhere
    shown = waiting or (None if elsewhere else state.latest)
    if shown is None:
        return context
    context["asked"] = shown
    try:
        q = shown.to_engine()
    except StaleQuestion:
        context["stale"] = STALE
        return context
    if shown.is_answered:
        context.update(graded_context(shown, q))
    else:
        url = reverse("course:answer", args=[lesson.slug, step.key, shown.pk])
        context.update(asking_context(shown, q, answer_url=f"{url}?rules={preset}", form=form))
    return context


def _load(
    request: HtmxHttpRequest, slug: str, key: str
) -> tuple[Lesson, Step, str, list[StepState]]:
    lesson = get_object_or_404(Lesson, slug=slug)
    step = get_object_or_404(Step, lesson=lesson, key=key)
    return lesson, step, _preset(request, lesson), lesson_states(request, lesson)


def _after_post(
    request: HtmxHttpRequest, lesson: Lesson, step: Step, preset: str, said: list[tuple[str, int]]
) -> HttpResponse:
    """With htmx the lesson's step fragment, as it now stands; without, a redirect to the
    lesson's page at the step, with what happened as messages."""
    if request.htmx:
        for text, level in said:
            messages.add_message(request, level, text)
        states = lesson_states(request, lesson)
        current = _current(states, step.key)
        return _render_lesson(request, lesson, preset, states, current)
    for text, level in said:
        messages.add_message(request, level, text)
    return redirect(_lesson_url(lesson, preset, step))


@require_POST
def start_step(request: HtmxHttpRequest, slug: str, key: str) -> HttpResponse:
    """Ask the step's (next) question: the first of an exercise or a check, another try at an
    exercise answered wrong, the check's next question. Asked once: a second click finds the
    question the first one asked."""
    lesson, step, preset, states = _load(request, slug, key)
    state = next(s for s in states if s.step.key == step.key)
    if not all(s.done for s in states[: states.index(state)]):
        return _after_post(request, lesson, step, preset, [(NOT_YET, messages.ERROR)])
    if step.kind == StepKind.GUIDED_HAND:
        return _deal_guided_hand(request, lesson, step, preset, state)
    if state.done or state.pending_under(preset) is not None:
        return _after_post(request, lesson, step, preset, [])
    if step.kind == StepKind.CHECK and len(state.answered) >= state.count:
        return _after_post(request, lesson, step, preset, [])
    if refused := may_ask(request):
        return refused
    owner, session_key = owner_for(request)
    progress = progress_for(request, step, owner, session_key)
    asked = ask(step, preset, owner, session_key, again=bool(state.answered))
    if asked is None:
        return _after_post(request, lesson, step, preset, [(NOT_MADE, messages.ERROR)])
    progress.questions.add(asked)
    return _after_post(request, lesson, step, preset, [])


def _deal_guided_hand(
    request: HtmxHttpRequest, lesson: Lesson, step: Step, preset: str, state: StepState
) -> HttpResponse:
    """The guided hand's practice table, dealt from the seed found for the rule set (and the
    stacked deal, the start, the agreed variations and the laws mode the hand names: the
    loader checked the rule comes up so); the same table again if there is one under that
    rule set. A new table is dealt within the limits and caps of every practice table
    (:func:`games.practice.service.reserve_table`), before any work."""
    dealt = state.progress.table_id if state.progress else None
    table = PracticeTable.objects.for_request(request).filter(pk=dealt).first() if dealt else None
    if table is not None and table.rules == preset:
        return redirect(table)

    try:
        practice_tables.reserve_table(request)
    except practice_tables.TooManyTables as refusal:
        return refusal.response
    except practice_tables.SessionFull as refusal:
        return _after_post(request, lesson, step, preset, [(str(refusal), messages.ERROR)])
    owner, session_key = owner_for(request)
    progress = progress_for(request, step, owner, session_key)
    data = step.data
    guided = step.guided(preset)
    seed = int(data["seeds"][preset])
    table = PracticeTable.deal_new(
        game=lesson.game,
        rules=preset,
        players=data["players"],
        seed=seed,
        engine_seed=guided_deal_seed(seed),
        opponents=guided.opponents,
        laws=guided.laws,
        owner=owner,
        session_key=session_key,
        guide=_guide(lesson, step, preset),
        first_pack=guided.pack,
        start=guided.start,
        options=dict(guided.options),
    )
    Progress.objects.filter(pk=progress.pk).update(table=table)
    return redirect(table)


def _guide(lesson: Lesson, step: Step, preset: str) -> dict[str, Any]:
    """The guided table's ``guide`` (``PracticeTable.guide``, :mod:`games.practice.guidance`): the
    lesson, its banner and rule, the way back; where the hand asks only what has been taught,
    the lesson that teaches declaring (the table declares for him) and what it asks."""
    data = step.data
    guide: dict[str, Any] = {
        "lesson": lesson.title,
        "banner": data["banner"],
        "rule": data["rule"],
        "back": _lesson_url(lesson, preset, step),
    }
    teaches = Lesson.objects.filter(slug=data.get("declares", "")).first()
    if teaches is not None:
        guide["declares"] = {"lesson": teaches.title, "url": _lesson_url(teaches, preset)}
    if data.get("asks"):
        guide["asks"] = data["asks"]
    return guide


@require_POST
def answer(request: HtmxHttpRequest, slug: str, key: str, pk: int) -> HttpResponse:
    """Grade the answer to the step's question and store it once; an exercise right is done
    (a star if at the first try), a check is done when its questions are all answered."""
    lesson, step, preset, states = _load(request, slug, key)
    state = next(s for s in states if s.step.key == step.key)
    asked = next((q for q in state.questions if q.pk == pk), None)
    if asked is None:
        raise Http404("There is no such question in this step among yours.")
    if asked.is_answered:
        return _after_post(request, lesson, step, preset, [(ANSWERED, messages.WARNING)])
    try:
        q = asked.to_engine()
    except StaleQuestion:
        return _after_post(request, lesson, step, preset, [(STALE, messages.ERROR)])
    form = AnswerForm(q, request.POST)
    if not form.is_valid():
        if request.htmx:
            current = _current(states, step.key)
            return _render_lesson(request, lesson, preset, states, current, form=form)
        for errors in form.errors.values():
            for text in errors:
                messages.error(request, text)  # type: ignore[arg-type]
        return redirect(_lesson_url(lesson, preset, step))
    graded = asked.record_answer(q, form.response())
    if graded is None:
        return _after_post(request, lesson, step, preset, [(ANSWERED, messages.WARNING)])
    review_for_request(
        request, asked.topic, graded.correct, rules=q.rules, game=q.game, kind=q.kind
    )
    assert state.progress is not None
    answered = state.answered  # this one included: record_answer marked it answered
    if step.kind == StepKind.EXERCISE and graded.correct:
        mark_done(state.progress, first_try=len(answered) == 1)
    elif step.kind == StepKind.CHECK and len(answered) >= state.count:
        right = sum(1 for a in answered if a.correct)
        mark_done(state.progress, right=right)
    return _after_post(request, lesson, step, preset, [])
