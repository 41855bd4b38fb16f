"""Quizzes, assignments, attempts and answers (issue 15).

A :class:`Quiz` is a teacher's; what it asks is its current :class:`QuizVersion` (title, rule
set, game, rules, kinds, number of questions, the same questions for all or a variant each). A
version that students have answered is never changed: editing the quiz makes a new version,
and every attempt keeps the version it took.

An :class:`Assignment` gives a class a quiz (or a lesson of the course) with its dates, time
limit, attempts, grading method and feedback setting. A student's :class:`Attempt` makes its
questions when it starts, each an :class:`Answer` row holding the question's identity (kind,
rule set, game, target rule, seed, the generator's version), never its answer: the engine
makes the question again from it to show it, grade it and regrade it. An answer is stored
once, by a conditional update that also checks the attempt is still open, so two tabs or a
double click never count twice, and nothing is accepted after the deadline.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import Count, Exists, Max, OuterRef, Q
from django.urls import reverse
from django.utils import timezone

from games.loo.catalogue import UnknownRule
from games.loo.questions import VERSIONS, Grade, Question, QuestionError, grade
from games.models import RulesAndGameNames
from lessons.classes.models import Membership
from lessons.quizzes.drawing import draw_question
from lessons.quizzes.own_models import OwnAnswer, with_own_questions
from lessons.quizzes.zones import spoken, teacher_zone
from lessons.trainer import bank

MAX_QUESTIONS = 50
MAX_ATTEMPTS = 10
#: Minutes between the end of one attempt and the start of the next when the teacher sets no
#: delay and the attempts are unlimited (Moodle's "enforced delay"): without one, a student
#: could start and submit hundreds of blank attempts a minute.
DEFAULT_DELAY = 1
#: The longest delay a teacher may set between attempts (a week, in minutes).
MAX_DELAY = 7 * 24 * 60


class StaleAnswer(QuestionError):
    """A stored question the engine can no longer make as it was asked."""


# -- quizzes ------------------------------------------------------------------------------------


class Quiz(models.Model):
    """A teacher's quiz: what it asks is its latest version."""

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quizzes"
    )
    created = models.DateTimeField(auto_now_add=True)
    current = models.ForeignKey(
        "QuizVersion", null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name_plural = "quizzes"

    def __str__(self) -> str:
        return self.current.title if self.current else f"Quiz {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("quizzes:quiz", args=[self.pk])

    @property
    def title(self) -> str:
        return str(self)

    def save_version(self, **fields: Any) -> QuizVersion:
        """Make ``fields`` the quiz's settings: in its current version while no student has
        started it, else in a new version (attempts keep the version they took)."""
        with transaction.atomic():
            current = self.current
            if current is not None and not current.attempts.exists():
                for name, value in fields.items():
                    setattr(current, name, value)
                current.save()
                return current
            number = (current.number + 1) if current is not None else 1
            version = QuizVersion.objects.create(quiz=self, number=number, **fields)
            self.current = version
            self.save(update_fields=["current"])
            return version


class QuizVersion(RulesAndGameNames, models.Model):
    """What a quiz asks, as it was when students took it."""

    quiz = models.ForeignKey(Quiz, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(default=1)
    title = models.CharField(max_length=120)
    rules = models.CharField("rule set", max_length=20)
    game = models.CharField(max_length=12)
    #: The catalogue's rule ids the questions are about ([]: any rule).
    topics = models.JSONField(default=list, blank=True)
    #: Where the rules came from, in words ("the rules of lesson …", a group), for the page.
    topics_from = models.CharField(max_length=200, blank=True)
    #: What the teacher chose: "any", "group:<group>" or "lesson:<slug>" (for the edit form).
    scope = models.CharField(max_length=80, blank=True, default="any")
    kinds = models.JSONField(default=list)
    count = models.PositiveSmallIntegerField(default=10)
    #: True: every student gets the same questions; False: a variant each (seeded per
    #: student, so that it is reproducible and can be regraded).
    same_for_all = models.BooleanField(default=True)
    #: Where the questions' seeds come from (never shown to students).
    seed = models.PositiveBigIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["quiz", "number"]
        constraints = [
            models.UniqueConstraint(fields=["quiz", "number"], name="quiz_version_number"),
        ]

    def __str__(self) -> str:
        return f"{self.title} (version {self.number})"

    @property
    def kind_names(self) -> list[str]:
        return [bank.kind_name(k) for k in self.kinds]

    def make_question(self, index: int, variant: Any = "all", draw: int = 1) -> Question:
        """The ``index``-th question (from 0) of this version, for ``variant`` (a student's
        pk, or "all" when every student gets the same questions) in attempt number ``draw``
        (:func:`~lessons.quizzes.drawing.draw_question`). Raises QuestionError."""
        return draw_question(
            self.rules, self.game, self.topics, self.kinds, self.seed, index, variant, draw
        )

    def sample(self, count: int | None = None) -> list[Question]:
        """Questions a student would be asked (the first variant's, if variants)."""
        n = min(count or self.count, self.count)
        return [self.make_question(i, "all" if self.same_for_all else "sample") for i in range(n)]


# -- assignments --------------------------------------------------------------------------------


class Grading(models.TextChoices):
    HIGHEST = "highest", "The highest attempt"
    LAST = "last", "The last attempt"
    FIRST = "first", "The first attempt"
    AVERAGE = "average", "The average of the attempts"


class Feedback(models.TextChoices):
    EACH = "each", "After each answer"
    ATTEMPT = "attempt", "After the attempt"
    CLOSED = "closed", "After the assignment closes"
    SCORE = "score", "Score only"


def takes_revisions(feedback: str) -> bool:
    """Whether an answer may be changed until the attempt is submitted: when its grade is not
    shown at once (after each answer, the first answer stands: the student has seen whether
    it was right)."""
    return feedback != Feedback.EACH


class AssignmentQuerySet(models.QuerySet["Assignment"]):
    def for_student(self, user: Any) -> AssignmentQuerySet:
        """The assignments of the classes ``user`` is a student of."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(school_class__memberships__student=user)


class Assignment(models.Model):
    """A quiz, or a lesson of the course, given to a class."""

    school_class = models.ForeignKey(
        "classes.SchoolClass", on_delete=models.CASCADE, related_name="assignments"
    )
    #: RESTRICT, not PROTECT: a quiz in use is not deleted on its own, but goes with its
    #: teacher's account, whose classes (and so its assignments) go too.
    quiz = models.ForeignKey(
        Quiz, null=True, blank=True, on_delete=models.RESTRICT, related_name="assignments"
    )
    lesson = models.ForeignKey(
        "course.Lesson", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    opens = models.DateTimeField()
    closes = models.DateTimeField()
    #: Minutes an attempt may last (None: until the assignment closes).
    time_limit = models.PositiveIntegerField(null=True, blank=True)
    #: Attempts a student may make (None: unlimited).
    attempts_allowed = models.PositiveSmallIntegerField(null=True, blank=True, default=1)
    grading = models.CharField(max_length=10, choices=Grading.choices, default=Grading.HIGHEST)
    feedback = models.CharField(max_length=10, choices=Feedback.choices, default=Feedback.ATTEMPT)
    #: Minutes a student waits after an attempt ends before the next may start (None: the
    #: default, :data:`DEFAULT_DELAY` for unlimited attempts, none otherwise).
    delay = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = AssignmentQuerySet.as_manager()

    class Meta:
        ordering = ["closes", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(quiz__isnull=False, lesson__isnull=True)
                | Q(quiz__isnull=True, lesson__isnull=False),
                name="assignment_is_a_quiz_or_a_lesson",
            ),
            models.CheckConstraint(
                condition=Q(closes__gt=models.F("opens")), name="assignment_closes_after_it_opens"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("quizzes:assignment", args=[self.pk])

    @property
    def title(self) -> str:
        if self.lesson_id:
            assert self.lesson is not None
            return f"Lesson: {self.lesson.title}"
        return self.quiz.title if self.quiz else f"Assignment {self.pk}"

    @property
    def is_lesson(self) -> bool:
        return self.lesson_id is not None

    def is_open(self, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        return self.opens <= now < self.closes

    def is_closed(self, now: datetime | None = None) -> bool:
        return (now or timezone.now()) >= self.closes

    @functools.cached_property
    def final_close(self) -> datetime:
        """When the last student's close has passed: the assignment's, or a later one an
        exception gave. Feedback "after the assignment closes" waits for it, so that no
        student still at work can learn the answers from a classmate's review."""
        later = self.exceptions.aggregate(last=Max("closes"))["last"]
        return max(self.closes, later) if later else self.closes

    def shows_answers(self, attempt_over: bool, now: datetime | None = None) -> bool:
        """Whether a student may see the right answers and explanations of an attempt."""
        if self.feedback == Feedback.EACH:
            return True
        if self.feedback == Feedback.ATTEMPT:
            return attempt_over
        if self.feedback == Feedback.CLOSED:
            return (now or timezone.now()) >= self.final_close
        return False

    def shows_score(self, attempt_over: bool, now: datetime | None = None) -> bool:
        if self.feedback == Feedback.CLOSED:
            return (now or timezone.now()) >= self.final_close
        return attempt_over

    def time_zone(self) -> ZoneInfo:
        return teacher_zone(self.school_class.teacher)

    @property
    def takes_revisions(self) -> bool:
        return takes_revisions(self.feedback)

    def delay_minutes(self) -> int:
        """Minutes between the end of an attempt and the start of the next."""
        if self.delay is not None:
            return self.delay
        return DEFAULT_DELAY if self.attempts_allowed is None else 0

    def terms_for(self, student: Any) -> Terms:
        """The close and the attempts allowed for one student: the assignment's, as his
        exception (if the teacher gave him one) extends them."""
        pk = getattr(student, "pk", student)
        exception = AssignmentException.objects.filter(assignment=self, student=pk).first()
        return Terms.of(self, exception)

    def refusal_for(
        self, student: Any, attempts: list[Attempt], terms: Terms, now: datetime
    ) -> str:
        """Why ``student`` may not start an attempt now ("" if he may), given his
        ``attempts``: the one source of the refusals of :meth:`Attempt.start` and of the
        assignment's page (which shows no "Start" button the server would refuse)."""
        zone = self.time_zone()
        if self.quiz_id is None:
            return "This assignment is a lesson: it is done on the lesson's page."
        if self.school_class.archived is not None:
            return "This class is archived: its work is kept, read-only."
        membership = Membership.objects.filter(
            school_class=self.school_class_id, student=student
        ).first()
        if membership is None or membership.left is not None:
            return "You are no longer in this class: your work in it is kept."
        if membership.archived is not None:
            return "Your teacher has archived you in this class: your work is kept."
        opens = terms.opens or self.opens
        if now < opens:
            return f"This assignment is not open yet: it opens {spoken(opens, zone)}."
        if now >= terms.closes:
            return f"This assignment has closed: it closed {spoken(terms.closes, zone)}."
        if terms.attempts_allowed is not None and len(attempts) >= terms.attempts_allowed:
            return "No attempt is left: you have used every attempt this assignment allows."
        if attempts and self.delay_minutes():
            after = max(a.ended() for a in attempts) + timedelta(minutes=self.delay_minutes())
            if now < after:
                return f"You may start your next attempt {spoken(after, zone)}."
        return ""

    def kept(self, percents: list[float]) -> float | None:
        """The grade kept from the finished attempts' percentages, in order of attempt."""
        if not percents:
            return None
        if self.grading == Grading.LAST:
            return percents[-1]
        if self.grading == Grading.FIRST:
            return percents[0]
        if self.grading == Grading.AVERAGE:
            return sum(percents) / len(percents)
        return max(percents)

    def deadline_from(
        self, started: datetime, closes: datetime | None = None, extra: int = 0
    ) -> datetime:
        """When an attempt started at ``started`` stops accepting answers (``closes``: the
        student's own close, ``extra``: his extra minutes, if an exception gives them)."""
        closes = closes or self.closes
        if self.time_limit:
            return min(closes, started + timedelta(minutes=self.time_limit + extra))
        return closes

    def reset_deadlines(self, student: Any = None) -> int:
        """After the dates, the time limit or a student's exception change: the deadline of
        every attempt not submitted (of ``student``, or a list of them, only), from its start
        and the student's close and extra time (a later close gives an attempt that had run
        out its time again). Returns how many changed."""
        changed = 0
        attempts = self.attempts.filter(submitted__isnull=True)
        if student is not None:
            attempts = attempts.filter(
                student__in=student if isinstance(student, list) else [student]
            )
        own = {e.student_id: e for e in self.exceptions.all()}
        for attempt in attempts:
            terms = Terms.of(self, own.get(attempt.student_id))
            deadline = self.deadline_from(attempt.started, terms.closes, terms.extra_minutes)
            if deadline != attempt.deadline:
                Attempt.objects.filter(pk=attempt.pk).update(deadline=deadline)
                changed += 1
        return changed

    def regrade(self) -> tuple[int, int, int]:
        """Grade every answer again from its stored question: (graded, changed, failed)."""
        graded = changed = failed = 0
        rows = Answer.objects.filter(attempt__assignment=self, answered__isnull=False)
        for answer in rows.iterator():
            try:
                q = answer.to_engine()
                correct = grade(q, answer.response or []).correct
            except QuestionError:
                failed += 1
                continue
            graded += 1
            if correct != answer.correct:
                Answer.objects.filter(pk=answer.pk).update(correct=correct)
                changed += 1
        return graded, changed, failed


class AssignmentException(models.Model):
    """A teacher's exception for one student (Moodle's user override): his own open, a later
    close, extra attempts, extra minutes on a timed attempt. Each change is logged
    (:class:`ExceptionChange`)."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="exceptions")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    extra_attempts = models.PositiveSmallIntegerField(default=0)
    #: The student's own close (None: the assignment's); always later than the assignment's.
    closes = models.DateTimeField(null=True, blank=True)
    #: The student's own open (None: the assignment's), earlier or later.
    opens = models.DateTimeField(null=True, blank=True)
    #: Minutes added to the time limit of each of his attempts (a timed quiz only).
    extra_minutes = models.PositiveIntegerField(default=0)
    changed = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["assignment", "student"]
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "student"], name="one_exception_per_student"
            ),
        ]

    def __str__(self) -> str:
        return f"Exception for {self.student} at {self.assignment}"

    def words(self, zone: ZoneInfo) -> str:
        """What it grants, as the results say it: "+1 attempt; extended to Friday …"."""
        parts = [f"opens {spoken(self.opens, zone)}"] if self.opens else []
        if self.extra_minutes:
            parts.append(f"+{self.extra_minutes} min an attempt")
        if self.extra_attempts:
            plural = "" if self.extra_attempts == 1 else "s"
            parts.append(f"+{self.extra_attempts} attempt{plural}")
        if self.closes:
            parts.append(f"extended to {spoken(self.closes, zone)}")
        return "; ".join(parts)


class ExceptionChange(models.Model):
    """One change to a student's exception: who made it, when, and what it became."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    when = models.DateTimeField(auto_now_add=True)
    #: What the exception became, in words ("" when it was taken back).
    what = models.CharField(max_length=400, blank=True)

    class Meta:
        ordering = ["-when", "-pk"]

    def __str__(self) -> str:
        return f"{self.when:%Y-%m-%d %H:%M}: {self.what or 'taken back'}"


@dataclass(frozen=True)
class Terms:
    """An assignment's close and attempts allowed for one student, his exception applied."""

    closes: datetime
    attempts_allowed: int | None
    exception: AssignmentException | None = None
    opens: datetime | None = None
    extra_minutes: int = 0

    @classmethod
    def of(cls, assignment: Assignment, exception: AssignmentException | None) -> Terms:
        closes, allowed, opens = assignment.closes, assignment.attempts_allowed, assignment.opens
        extra = 0
        if exception is not None:
            if exception.closes and exception.closes > closes:
                closes = exception.closes
            if allowed is not None:
                allowed += exception.extra_attempts
            opens = exception.opens or opens
            extra = exception.extra_minutes if assignment.time_limit else 0
        return cls(closes, allowed, exception, opens, extra)


# -- attempts and answers -------------------------------------------------------------------------


class AttemptRefused(Exception):
    """An attempt that may not start: the message says why."""


@dataclass(frozen=True)
class Saved:
    """What became of an answer: stored (with its grade), or refused and why."""

    grade: Grade | None = None
    refused: str = ""


def _in_use() -> Q:
    """Attempts whose class is not archived and whose student is on its roster (neither
    archived in it nor gone from it)."""
    return Q(assignment__school_class__archived__isnull=True) & Q(
        Exists(
            Membership.objects.active().filter(
                school_class=OuterRef("assignment__school_class"), student=OuterRef("student")
            )
        )
    )


CLOSED = "This assignment closed at {when}: answers are no longer accepted."
TIME_UP = "Your time for this attempt ran out at {when}: answers are no longer accepted."
SUBMITTED = "This attempt has been submitted: answers are no longer accepted."
ALREADY = "You had already answered this question: your first answer stands."
ARCHIVED = "This class's work is archived: it is kept, read-only, and takes no new answer."
LEFT = "You are no longer in this class: your work in it is kept, and takes no new answer."

#: An attempt's state, as every page and CSV says it (:attr:`Attempt.state`).
IN_PROGRESS = "in progress"
SUBMITTED_STATE = "submitted"
#: Ended by the close or its time limit without the student submitting it (Moodle's
#: "never submitted"): its answers count, but it was not handed in.
NEVER_SUBMITTED = "never submitted"


class AttemptQuerySet(models.QuerySet["Attempt"]):
    def with_scores(self) -> AttemptQuerySet:
        return self.annotate(
            right=Count("answers", filter=Q(answers__correct=True)),
            total=Count("answers"),
            last_answer=Max("answers__answered"),
        )


class Attempt(models.Model):
    """A student's attempt at an assignment's quiz, in the quiz version it started with."""

    #: Only on attempts from ``with_scores()``: its answers right, its answers, the last answer.
    right: int
    total: int
    last_answer: datetime | None

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="attempts")
    #: PROTECT: results never vanish with an account. Deleting one first hands its attempts
    #: to a placeholder (lessons.classes.models.keep_results).
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="quiz_attempts"
    )
    version = models.ForeignKey(QuizVersion, on_delete=models.RESTRICT, related_name="attempts")
    number = models.PositiveSmallIntegerField()
    started = models.DateTimeField()
    #: When answers stop being accepted: the close, or the end of the time limit if sooner.
    deadline = models.DateTimeField()
    submitted = models.DateTimeField(null=True, blank=True)

    objects = AttemptQuerySet.as_manager()

    class Meta:
        ordering = ["assignment", "student", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "student", "number"], name="attempt_number_per_student"
            ),
        ]

    def __str__(self) -> str:
        return f"Attempt {self.number} of {self.student} at {self.assignment}"

    def get_absolute_url(self) -> str:
        return reverse("quizzes:attempt", args=[self.pk])

    def is_over(self, now: datetime | None = None) -> bool:
        return self.submitted is not None or (now or timezone.now()) >= self.deadline

    def ended(self) -> datetime:
        """When the attempt ended (or will end)."""
        return self.submitted or self.deadline

    def state_at(self, now: datetime) -> str:
        """In progress, submitted, or never submitted (ended by the close or its time limit)."""
        if not self.is_over(now):
            return IN_PROGRESS
        return SUBMITTED_STATE if self.submitted is not None else NEVER_SUBMITTED

    @property
    def state(self) -> str:
        return self.state_at(timezone.now())

    @classmethod
    def start(cls, assignment: Assignment, student: Any) -> Attempt:
        """The student's attempt in progress, or a new one with its questions made (its own:
        the attempt's number is in their seeds). Raises :class:`AttemptRefused` when none may
        start (:meth:`Assignment.refusal_for` says why). Two requests at once start one."""
        now = timezone.now()
        attempts = list(cls.objects.filter(assignment=assignment, student=student))
        for a in attempts:
            if not a.is_over(now):
                return a
        terms = assignment.terms_for(student)
        refused = assignment.refusal_for(student, attempts, terms, now)
        if refused:
            raise AttemptRefused(refused)
        assert assignment.quiz is not None
        version = assignment.quiz.current
        assert version is not None
        deadline = assignment.deadline_from(now, terms.closes, terms.extra_minutes)
        variant = "all" if version.same_for_all else student.pk
        draw = len(attempts) + 1
        try:
            generated = [version.make_question(i, variant, draw) for i in range(version.count)]
            made = with_own_questions(generated, version, variant, draw)
        except QuestionError as error:
            raise AttemptRefused(f"The questions of this quiz could not be made: {error}") from None
        try:
            with transaction.atomic():
                attempt = cls.objects.create(
                    assignment=assignment,
                    student=student,
                    version=version,
                    number=len(attempts) + 1,
                    started=now,
                    deadline=deadline,
                )
                Answer.objects.bulk_create(
                    Answer.identity(q, attempt=attempt, position=i, own=o)
                    for i, (q, o) in enumerate(made)
                )
        except IntegrityError:
            # Another request started this attempt first: it is the one.
            return cls.objects.get(assignment=assignment, student=student, number=len(attempts) + 1)
        return attempt

    def submit(self, grace: int = 0) -> bool:
        """End the attempt; False if it had ended already (a second submit changes nothing,
        and an attempt that the close or its time limit ended stays "never submitted", but
        for the page's countdown's hand-in, ``grace`` seconds late: submitted at its end).

        One conditional update: it waits for an answer being stored under the attempt's row
        lock (:meth:`Answer.record`), so that an answer is either in before the submit or
        refused after it."""
        now = timezone.now()
        rows = Attempt.objects.filter(pk=self.pk, submitted__isnull=True)
        done = rows.filter(deadline__gt=now).update(submitted=now)
        if not done and grace:
            late = now - timedelta(seconds=grace)
            done = rows.filter(deadline__gt=late).update(submitted=models.F("deadline"))
        self.refresh_from_db(fields=["submitted"])
        return bool(done)

    def takes_answers(self) -> bool:
        """False once the class, or the student in it, is archived: its work is read-only."""
        return Attempt.objects.filter(pk=self.pk).filter(_in_use()).exists()

    def refusal(self, now: datetime | None = None) -> str:
        """Why an answer is refused now ("" while it is accepted)."""
        now = now or timezone.now()
        zone = self.assignment.time_zone()
        when = timezone.localtime(self.deadline, zone).strftime("%d %b %Y %H:%M %Z")
        if self.submitted is not None:
            return SUBMITTED
        if not self.takes_answers():
            gone = Membership.objects.filter(
                school_class=self.assignment.school_class_id,
                student=self.student_id,
                left__isnull=False,
            ).exists()
            return LEFT if gone else ARCHIVED
        if now >= self.deadline:
            closes = self.assignment.terms_for(self.student_id).closes
            return (
                CLOSED.format(when=when) if self.deadline >= closes else (TIME_UP.format(when=when))
            )
        return ""


class QuestionIdentity(models.Model):
    """What makes a question again: games.loo.questions.question(kind, rules, game=, rule=,
    seed=) under the generator's VERSION, answer included."""

    kind = models.CharField(max_length=20)
    rules = models.CharField(max_length=20)
    game = models.CharField(max_length=12)
    rule = models.CharField(max_length=60, blank=True)
    #: Never shown to a student: with it, the engine would give the answer.
    seed = models.PositiveBigIntegerField()
    version = models.PositiveIntegerField()

    class Meta:
        abstract = True

    def identity_fields(self) -> dict[str, Any]:
        return {
            name: getattr(self, name)
            for name in ("kind", "rules", "game", "rule", "seed", "version")
        }


class Answer(OwnAnswer, QuestionIdentity):
    """One question of an attempt: its identity (never its answer) and the student's answer,
    stored once."""

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="answers")
    position = models.PositiveSmallIntegerField()
    #: The rule the question exercises (for some kinds, the answer: not shown before it).
    topic = models.CharField(max_length=60)
    response = models.JSONField(null=True, blank=True)
    correct = models.BooleanField(null=True)
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["attempt", "position"]
        constraints = [
            models.UniqueConstraint(fields=["attempt", "position"], name="answer_position"),
            models.CheckConstraint(
                condition=Q(answered__isnull=True, correct__isnull=True, response__isnull=True)
                | Q(answered__isnull=False, correct__isnull=False, response__isnull=False),
                name="quiz_answer_all_or_nothing",
            ),
        ]

    def __str__(self) -> str:
        return f"Question {self.position + 1} of {self.attempt}"

    @property
    def number(self) -> int:
        return self.position + 1

    @property
    def is_answered(self) -> bool:
        return self.answered is not None

    @classmethod
    def identity(cls, q: Question, **fields: Any) -> Answer:
        return cls(
            kind=q.kind,
            rules=q.rules,
            game=q.game,
            rule=q.rule or "",
            seed=int(q.seed),
            version=q.version,
            topic=bank.topic(q),
            **fields,
        )

    def to_engine(self) -> Question:
        """The question, made again from its identity (answer included: keep it on the
        server). Raises :class:`StaleAnswer` if the generator has changed since."""
        if self.version not in VERSIONS:
            raise StaleAnswer("this question was made by an earlier version of the question bank")
        try:
            if self.own_id is not None:
                return self.own_question()  # a teacher's own question (own_models.py)
            return bank.remake(
                self.kind, self.rules, self.game, self.rule or None, self.seed, version=self.version
            )
        except (QuestionError, UnknownRule) as error:
            raise StaleAnswer(str(error)) from error

    def record(self, q: Question, response: list[str]) -> Saved:
        """Grade ``response`` and store it while the attempt is open, under a lock on the
        attempt's row (which :meth:`Attempt.submit` waits for): an answer is in before the
        submit or refused after it, never stored into a submitted attempt.

        When the assignment takes revisions (:attr:`Assignment.takes_revisions`), it replaces
        the answer stored before; otherwise it is stored once, so that a second answer
        (another tab, a double click) changes nothing."""
        graded = grade(q, response)
        now = timezone.now()
        with transaction.atomic():
            open_attempt = (
                Attempt.objects.select_for_update(of=("self",))
                .filter(_in_use(), pk=self.attempt_id, submitted__isnull=True, deadline__gt=now)
                .values_list("assignment__feedback", flat=True)
            )
            feedback = next(iter(open_attempt), None)
            rows = Answer.objects.filter(pk=self.pk)
            if feedback is None:
                rows = rows.none()
            elif not takes_revisions(feedback):
                rows = rows.filter(answered__isnull=True)
            stored = rows.update(response=list(response), correct=graded.correct, answered=now)
        if stored:
            self.response, self.correct, self.answered = list(response), graded.correct, now
            return Saved(grade=graded)
        self.refresh_from_db()
        attempt = Attempt.objects.select_related("assignment__school_class__teacher__teacher").get(
            pk=self.attempt_id
        )
        return Saved(refused=attempt.refusal(now) or ALREADY)

    def grade(self, q: Question) -> Grade:
        """The stored answer's grade (the row must be answered)."""
        assert self.response is not None
        return grade(q, self.response)


class ProblemReport(QuestionIdentity):
    """ "Report a problem" on a question: what makes it again, for the teacher and staff."""

    answer = models.ForeignKey(Answer, null=True, on_delete=models.SET_NULL, related_name="reports")
    assignment = models.ForeignKey(
        Assignment, null=True, on_delete=models.CASCADE, related_name="reports"
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.TextField(blank=True, max_length=2000)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"Problem with {self.kind} question (seed {self.seed}, version {self.version})"
