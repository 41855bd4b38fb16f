"""Quizzes and assignments: a teacher builds a quiz and assigns it (or a lesson) to a class; a
student takes it one question per page (htmx, or plain forms without JavaScript); the teacher
sees the results, the gradebook, and downloads them as CSV.

Access goes through helpers that raise Http404 for anything not one's own: another teacher's
quiz or class, another student's attempt, a class one is not in. What a student may not see
yet (the right answers, whether an answer was right) is never put in a page's context.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, prefetch_related_objects
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games.http import AuthenticatedHttpRequest
from games.links import rule_name
from games.loo.questions import Question
from games.models import new_seed
from lessons.classes.access import class_for_teacher, classes_joined, classes_taught
from lessons.classes.models import Membership, SchoolClass
from lessons.quizzes import (
    exceptions,
    grades,
    mastery,
    own,
    reports,
    student_work,
    timing,
)
from lessons.quizzes.forms import AssignmentForm, ReportForm
from lessons.quizzes.models import (
    Answer,
    Assignment,
    Attempt,
    AttemptRefused,
    Feedback,
    ProblemReport,
    Quiz,
    StaleAnswer,
)
from lessons.quizzes.own_forms import OwnQuizForm
from lessons.quizzes.signals import attempt_ended
from lessons.quizzes.zones import spoken, teacher_zone
from lessons.trainer.forms import AnswerForm
from lessons.trainer.presenting import asking_context, graded_context, shown
from lessons.trainer.reviews import review_for_request

#: Answers reviewed on one page of a student's results (whole attempts: at least one), each
#: made again by the engine.
ANSWERS_PER_PAGE = 60

STALE = "This question can no longer be made: the question bank has changed since."
REVISABLE = "You can change your answers until you submit the attempt."
FIRST_STANDS = "Your first answer to each question stands: you see at once whether it is right."

# -- access -------------------------------------------------------------------------------------


def _require_teacher(request: AuthenticatedHttpRequest) -> None:
    if not hasattr(request.user, "teacher"):
        raise PermissionDenied("Only teachers make quizzes.")


def _quiz_for_teacher(request: AuthenticatedHttpRequest, pk: int) -> Quiz:
    quiz = Quiz.objects.filter(pk=pk, teacher=request.user).select_related("current").first()
    if quiz is None or quiz.current is None:
        raise Http404("No such quiz.")
    return quiz


def _assignment_in(classes: Any, pk: int) -> Assignment:
    """The assignment ``pk`` if it belongs to one of ``classes``; Http404 otherwise."""
    found = (
        Assignment.objects.filter(pk=pk, school_class__in=classes)
        .select_related("school_class__teacher__teacher", "quiz__current", "lesson")
        .first()
    )
    if found is None:
        raise Http404("No such assignment.")
    return found


def _assignment_for_teacher(request: AuthenticatedHttpRequest, pk: int) -> Assignment:
    return _assignment_in(classes_taught(request.user), pk)


def _assignment_for_student(request: AuthenticatedHttpRequest, pk: int) -> Assignment:
    return _assignment_in(classes_joined(request.user), pk)


def _attempt_for_student(request: AuthenticatedHttpRequest, pk: int) -> Attempt:
    """The student's own attempt ``pk``, in a class he is still in, with its answers (two
    queries: every answer of the attempt is read from the one list)."""
    found = (
        Attempt.objects.filter(
            pk=pk,
            student=request.user,
            assignment__school_class__memberships__student=request.user,
        )
        .select_related("assignment__school_class__teacher__teacher")
        .prefetch_related("answers")
        .first()
    )
    if found is None:
        raise Http404("No such attempt.")
    return found


def _answer_of(attempt: Attempt, number: int) -> Answer:
    """Question ``number`` (from 1) of the attempt."""
    for answer in attempt.answers.all():
        if answer.number == number:
            return answer
    raise Http404("No such question.")


def _in_zone(
    request: AuthenticatedHttpRequest, zone: Any, template: str, context: dict[str, Any]
) -> Any:
    """Render with dates in the teacher's time zone (forms read them in it too)."""
    with timezone.override(zone):
        context.setdefault("zone", str(zone))
        return render(request, template, context)


# -- quizzes ------------------------------------------------------------------------------------


@login_required
@require_safe
def list_quizzes(request: AuthenticatedHttpRequest) -> HttpResponse:
    _require_teacher(request)
    quizzes = Quiz.objects.filter(teacher=request.user).select_related("current")
    return render(request, "quizzes/quiz_list.html", {"quizzes": quizzes})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def new_quiz(request: AuthenticatedHttpRequest) -> HttpResponse:
    _require_teacher(request)
    form = OwnQuizForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        quiz = Quiz.objects.create(teacher=request.user)
        own.set_quiz_questions(
            quiz.save_version(**form.version_fields(new_seed())), form.cleaned_data["own_questions"]
        )
        messages.success(request, "Quiz saved. Preview its questions below, then assign it.")
        return redirect(quiz)
    return render(request, "quizzes/quiz_form.html", {"form": form, "quiz": None})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def edit_quiz(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    quiz = _quiz_for_teacher(request, pk)
    assert quiz.current is not None
    form = (
        OwnQuizForm(request.POST, user=request.user)
        if request.method == "POST"
        else OwnQuizForm.for_quiz(quiz.current, request.user)
    )
    if request.method == "POST" and form.is_valid():
        before = quiz.current.number
        version = quiz.save_version(**form.version_fields(new_seed()))
        own.set_quiz_questions(version, form.cleaned_data["own_questions"])
        if version.number != before:
            messages.success(
                request,
                f"Students had started this quiz, so it is now version {version.number}: their "
                "attempts keep the version they took.",
            )
        else:
            messages.success(request, "Quiz saved.")
        return redirect(quiz)
    return render(request, "quizzes/quiz_form.html", {"form": form, "quiz": quiz})


@login_required
@require_safe
def show_quiz(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The quiz and a sample of its questions, answers included (the teacher's preview)."""
    quiz = _quiz_for_teacher(request, pk)
    version = quiz.current
    assert version is not None
    sample = []
    for i, q in enumerate(version.sample(5)):
        sample.append(_teacher_view(q, i))
    classes = classes_taught(request.user).filter(archived__isnull=True)
    # Then the questions of one's own it asks, each as the engine answers it.
    own_sample = [
        _teacher_view(q.current.to_engine(0), len(sample) + i)
        for i, q in enumerate(own.quiz_questions(version))
        if q.current is not None
    ]
    context = {
        "quiz": quiz,
        "version": version,
        "sample": sample + own_sample,
        "own_count": len(own_sample),
        "classes": classes,
    }
    return render(request, "quizzes/quiz.html", context)


@dataclass
class TeacherQuestion:
    number: int
    shown: Any
    answers: list[str]
    explanations: list[str]
    topic: str


def _teacher_view(q: Question, index: int) -> TeacherQuestion:
    page = shown(q)
    labels = {c.id: c.text for c in page.choices}
    return TeacherQuestion(
        number=index + 1,
        shown=page,
        answers=[labels.get(a, a) for a in q.answer],
        explanations=[a.render(q.seat) for a in q.explanations],
        topic=rule_name(q.topic) if q.topic else "",
    )


# -- a class's assignments (the teacher) ----------------------------------------------------------


@login_required
@require_safe
def list_class_assignments(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    school_class = class_for_teacher(request.user, pk)
    zone = teacher_zone(request.user)
    with timezone.override(zone):
        form = AssignmentForm(_quizzes_of(request), initial=_default_dates())
    return _render_class_assignments(request, school_class, form)


def _quizzes_of(request: AuthenticatedHttpRequest, keep: Quiz | None = None) -> list[Quiz]:
    """The teacher's own quizzes (a co-teacher assigns his own), and ``keep``: the quiz of an
    assignment he edits, whoever wrote it (the owner's, for a co-teacher)."""
    mine = list(
        Quiz.objects.filter(teacher=request.user, current__isnull=False).select_related("current")
    )
    return mine + [keep] if keep is not None and keep not in mine else mine


def _default_dates() -> dict[str, Any]:
    now = timezone.localtime().replace(second=0, microsecond=0)
    return {"opens": now, "closes": now + timedelta(days=7), "attempts": 1}


def _render_class_assignments(
    request: AuthenticatedHttpRequest, school_class: SchoolClass, form: AssignmentForm
) -> HttpResponse:
    assignments = (
        Assignment.objects.filter(school_class=school_class)
        .select_related("quiz__current", "lesson")
        .annotate(started=Count("attempts__student", distinct=True))
    )
    context = {"school_class": school_class, "assignments": assignments, "form": form}
    return _in_zone(request, teacher_zone(request.user), "quizzes/class_assignments.html", context)


@login_required
@require_POST
def assign(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    school_class = class_for_teacher(request.user, pk)
    if school_class.archived is not None:
        messages.error(request, "This class is archived: bring it back to set it new work.")
        return redirect("quizzes:class-assignments", school_class.pk)
    with timezone.override(teacher_zone(request.user)):
        form = AssignmentForm(_quizzes_of(request), request.POST)
        valid = form.is_valid()
    if not valid:
        return _render_class_assignments(request, school_class, form)
    assignment = form.save(commit=False)
    assignment.school_class = school_class
    assignment.save()
    messages.success(request, f"Assigned “{assignment.title}” to {school_class.name}.")
    return redirect("quizzes:class-assignments", school_class.pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def edit_assignment(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Change an assignment's dates, limits, grading or feedback (what it is, once students
    have started it, stays); attempts in progress get their deadlines again."""
    assignment = _assignment_for_teacher(request, pk)
    with timezone.override(teacher_zone(request.user)):
        form = AssignmentForm(
            _quizzes_of(request, assignment.quiz), request.POST or None, instance=assignment
        )
        valid = request.method == "POST" and form.is_valid()
    if valid:
        form.save()
        changed = assignment.reset_deadlines()
        text = f"Saved “{assignment.title}”."
        if changed:
            text += f" Attempts in progress given the new end: {changed}."
        messages.success(request, text)
        return redirect("quizzes:class-assignments", assignment.school_class_id)
    context = {"assignment": assignment, "form": form}
    return _in_zone(request, teacher_zone(request.user), "quizzes/assignment_form.html", context)


@login_required
@require_POST
def delete_assignment(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Delete an assignment with its attempts and answers (the form asks to confirm)."""
    assignment = _assignment_for_teacher(request, pk)
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm that its results are deleted too.")
        return redirect("quizzes:assignment-edit", assignment.pk)
    class_pk, title = assignment.school_class_id, assignment.title
    assignment.delete()
    messages.success(request, f"Deleted “{title}” and its results.")
    return redirect("quizzes:class-assignments", class_pk)


# -- the student's side ---------------------------------------------------------------------------


@login_required
@require_safe
def list_my_assignments(request: AuthenticatedHttpRequest) -> HttpResponse:
    rows = student_work.rows_for(request.user, classes_joined(request.user))
    return render(request, "quizzes/my_assignments.html", {"rows": rows})


@login_required
@require_safe
def show_assignment(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A student's assignment: its dates and rules, his attempts, and the button to start."""
    assignment = _assignment_for_student(request, pk)
    now = timezone.now()
    attempts = list(
        Attempt.objects.filter(assignment=assignment, student=request.user).with_scores()
    )
    current = next((a for a in attempts if not a.is_over(now)), None)
    finished = [a for a in attempts if a.is_over(now)]
    terms = assignment.terms_for(request.user)
    # The one source of the refusals: no "Start" button the server would refuse.
    refusal = ""
    if current is None and assignment.quiz_id is not None:
        refusal = assignment.refusal_for(request.user, attempts, terms, now)
    may_start = current is None and assignment.quiz_id is not None and not refusal
    rows = [
        {
            "attempt": a,
            "score": (a.right, a.total) if assignment.shows_score(True, now) else None,
        }
        for a in finished
    ]
    kept = None
    if assignment.shows_score(True, now) and finished:
        kept = grades.whole(
            grades.kept(assignment, [grades.score(a.right, a.total) for a in finished])
        )
    lesson_done = False
    if assignment.lesson_id:
        lesson_done = bool(reports.lessons_done([request.user.pk], [assignment.lesson]))  # type: ignore[list-item]
    context = {
        "assignment": assignment,
        "current": current,
        "rows": rows,
        "kept": kept,
        "may_start": may_start,
        "refusal": refusal,
        "terms": terms,
        "closes_words": spoken(terms.closes, assignment.time_zone()),
        "current_ends": spoken(current.deadline, assignment.time_zone()) if current else "",
        "lesson_done": lesson_done,
        "now": now,
    }
    return _in_zone(request, assignment.time_zone(), "quizzes/assignment.html", context)


@login_required
@require_POST
def start_attempt(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assignment = _assignment_for_student(request, pk)
    try:
        attempt = Attempt.start(assignment, request.user)
    except AttemptRefused as refused:
        messages.error(request, str(refused))
        return redirect(assignment)
    return redirect(attempt)


@login_required
@require_safe
@vary_on_headers("HX-Request")
def show_attempt(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    attempt = _attempt_for_student(request, pk)
    try:
        number = int(request.GET.get("q", "0"))
    except ValueError:
        number = 0
    return _render_attempt(request, attempt, number)


def _render_attempt(
    request: AuthenticatedHttpRequest,
    attempt: Attempt,
    number: int = 0,
    *,
    form: AnswerForm | None = None,
    said: Sequence[tuple[str, str]] = (),
) -> HttpResponse:
    """The attempt's page: in progress, one question (``number``, from 1; 0: the first not
    answered); once over, the review the feedback setting allows."""
    now = timezone.now()
    assignment = attempt.assignment
    answers = list(attempt.answers.all())
    over = attempt.is_over(now)
    flashed = [(m.message, m.tags) for m in messages.get_messages(request)] + list(said)
    context: dict[str, Any] = {
        "attempt": attempt,
        "assignment": assignment,
        "answers": answers,
        "over": over,
        "flashed": flashed,
        "answered": sum(a.is_answered for a in answers),
        "report_form": ReportForm(),
        "rule": REVISABLE if assignment.takes_revisions else FIRST_STANDS,
    }
    if over:
        context["show_answers"] = assignment.shows_answers(True, now)
        if assignment.shows_score(True, now):
            context["score"] = (sum(bool(a.correct) for a in answers), len(answers))
        if context["show_answers"] and not request.htmx:
            context["reviewed"] = [_graded(a) for a in answers]
        # With htmx (an answer sent as the attempt ended), the question's fragment says so.
        template = (
            "quizzes/attempt.html#attempt-question" if request.htmx else "quizzes/attempt.html"
        )
        return _in_zone(request, assignment.time_zone(), template, context)
    if not 1 <= number <= len(answers):
        pending = next((a for a in answers if not a.is_answered), None)
        number = pending.number if pending else 0
    current = answers[number - 1] if number else None
    context["current"] = current
    context["countdown"] = timing.countdown(attempt.deadline, now, assignment.time_zone())
    if current is not None:
        context.update(_question_context(attempt, current, form))
        context["next_number"] = number + 1 if number < len(answers) else 0
    template = "quizzes/attempt.html#attempt-question" if request.htmx else "quizzes/attempt.html"
    return _in_zone(request, assignment.time_zone(), template, context)


def _question_context(
    attempt: Attempt, answer: Answer, form: AnswerForm | None = None
) -> dict[str, Any]:
    try:
        q = answer.to_engine()
    except StaleAnswer:
        return {"stale": STALE}
    url = reverse("quizzes:attempt-answer", args=[attempt.pk, answer.number])
    if not answer.is_answered:
        return asking_context(answer, q, answer_url=url, form=form)  # type: ignore[arg-type]
    if not attempt.assignment.takes_revisions:
        return graded_context(answer, q, answer.grade(q))  # type: ignore[arg-type]
    # Feedback comes later: the question stays open, its saved choice ticked, until submit.
    context = asking_context(answer, q, answer_url=url, form=form)  # type: ignore[arg-type]
    if form is None:
        context["chosen"] = set(answer.response or [])
    labels = {c.id: c.text for c in context["shown"].choices}
    context["given"] = [labels.get(r, r) for r in answer.response or []]
    return context


def _graded(
    answer: Answer, remake: Callable[[Answer], Question] = Answer.to_engine
) -> dict[str, Any]:
    try:
        q = remake(answer)
    except StaleAnswer:
        return {"asked": answer, "stale": STALE}
    return (
        graded_context(answer, q, answer.grade(q))  # type: ignore[arg-type]
        if answer.is_answered
        else {
            "asked": answer,
            "unanswered": True,
            "answer_shown": _teacher_view(q, answer.position),
        }
    )


@login_required
@require_POST
def answer_question(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """Grade the student's answer and store it once, while the attempt is open."""
    attempt = _attempt_for_student(request, pk)
    answer = _answer_of(attempt, number)
    said: list[tuple[str, str]] = []
    try:
        q = answer.to_engine()
    except StaleAnswer:
        return _after_answer(request, attempt, number, said=[(STALE, "error")])
    form = AnswerForm(q, request.POST)
    if not form.is_valid():
        return _after_answer(request, attempt, number, form=form)
    saved = answer.record(q, form.response())
    if saved.refused:
        attempt.refresh_from_db()
        return _after_answer(request, attempt, number, said=[(saved.refused, "error")])
    if saved.grade is not None:
        review_for_request(
            request, answer.topic, saved.grade.correct, rules=q.rules, game=q.game, kind=q.kind
        )
    if attempt.assignment.feedback == Feedback.EACH:
        return _after_answer(request, attempt, number)  # the graded question, then "next"
    said.append((f"Your answer to question {number} is saved.", "success"))
    return _after_answer(request, attempt, 0, said=said)


def _after_answer(
    request: AuthenticatedHttpRequest,
    attempt: Attempt,
    number: int,
    *,
    form: AnswerForm | None = None,
    said: Sequence[tuple[str, str]] = (),
) -> HttpResponse:
    if request.htmx:
        return _render_attempt(request, attempt, number, form=form, said=said)
    for text, level in said:
        messages.add_message(request, messages.ERROR if level == "error" else messages.INFO, text)
    for errors in form.errors.values() if form is not None else ():
        for text in errors:
            messages.error(request, text)  # type: ignore[arg-type]
    url = attempt.get_absolute_url()
    return redirect(f"{url}?q={number}" if number else url)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def submit_attempt(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """GET: the summary (answered n of m, the questions left unanswered) and a button that
    confirms; POST: submit."""
    attempt = _attempt_for_student(request, pk)
    if request.method != "POST":
        if attempt.is_over():
            return redirect(attempt)
        answers = list(attempt.answers.all())
        context = {
            "attempt": attempt,
            "assignment": attempt.assignment,
            "answers": answers,
            "answered": sum(a.is_answered for a in answers),
            "unanswered": [a for a in answers if not a.is_answered],
            "rule": REVISABLE if attempt.assignment.takes_revisions else FIRST_STANDS,
        }
        return _in_zone(
            request, attempt.assignment.time_zone(), "quizzes/attempt_submit.html", context
        )
    if attempt.submit(grace=timing.GRACE if request.POST.get("timer") else 0):
        attempt_ended.send(Attempt, attempt=attempt)
        messages.success(request, "Your attempt is submitted.")
    elif attempt.submitted is not None:
        messages.info(request, "This attempt had already been submitted.")
    else:
        messages.error(request, f"{attempt.refusal()} It was never submitted.")
    return redirect(attempt)


@login_required
@require_POST
def report_problem(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """Record a problem with a question, by the question's identity."""
    attempt = _attempt_for_student(request, pk)
    answer = _answer_of(attempt, number)
    form = ReportForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    ProblemReport.objects.create(
        answer=answer,
        assignment=attempt.assignment,
        reporter=request.user,
        note=note,
        **answer.identity_fields(),
    )
    messages.success(request, "Thank you: your teacher will see the problem you reported.")
    url = attempt.get_absolute_url()
    return redirect(f"{url}?q={number}")


# -- results (the teacher) ----------------------------------------------------------------------


@login_required
@require_safe
def show_student_results(request: AuthenticatedHttpRequest, pk: int, student: int) -> HttpResponse:
    """One student's attempts at an assignment: his answers, the right ones, and why."""
    assignment = _assignment_for_teacher(request, pk)
    membership = (
        Membership.objects.filter(school_class=assignment.school_class, student=student)
        .select_related("student")
        .first()
    )
    if membership is None:
        raise Http404("No such student in this class.")
    # A page of attempts at a time: each shows every answer made again by the engine, and a
    # student with unlimited attempts may have hundreds.
    questions = assignment.quiz.current.count if assignment.quiz and assignment.quiz.current else 1
    attempts = Paginator(
        Attempt.objects.filter(assignment=assignment, student=student)
        .with_scores()
        .select_related("version")
        .order_by("number"),
        max(1, ANSWERS_PER_PAGE // max(1, questions)),
    )
    shown_page = attempts.get_page(request.GET.get("page"))
    listed: list[Attempt] = list(shown_page.object_list)
    prefetch_related_objects(listed, "answers")
    reviewed = [(a, [_graded(x, reports.remade) for x in a.answers.all()]) for a in listed]
    context = {
        "assignment": assignment,
        "membership": membership,
        "reviewed": reviewed,
        "page": shown_page,
    }
    context.update(exceptions.student_context(assignment, membership.student_id))
    return _in_zone(request, assignment.time_zone(), "quizzes/student_results.html", context)


@login_required
@require_safe
def show_mastery(
    request: AuthenticatedHttpRequest, pk: int, membership: int | None = None
) -> HttpResponse:
    """Mastery by rule, the weakest first: of one student (``membership``), or of the class's
    students still on the roster; in the class's quizzes, the trainer and the lessons."""
    school_class = class_for_teacher(request.user, pk)
    found = Membership.objects.filter(school_class=school_class).select_related("student")
    if membership is None:
        members, member = list(found.filter(archived__isnull=True)), None
    else:
        members = list(found.filter(pk=membership))
        if not members:
            raise Http404("No such student in this class.")
        member = members[0]
    context = {
        "school_class": school_class,
        "members": members,
        "member": member,
        **mastery.context(school_class, [m.student_id for m in members]),
    }
    return render(request, "quizzes/mastery.html", context)
