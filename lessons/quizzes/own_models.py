"""A teacher's questions of his own (issue 37): a position he built on the card-table editor
and what he asks about it; the engine checks that the position can happen and answers it.

An :class:`OwnQuestion` is its owner's; what it asks is its current :class:`OwnVersion` (the
kind, rule set, game, target rule, the position and, for ``why-not``, the card asked about,
with the question bank's VERSION it was checked by). Editing makes a new version, so an
answer keeps the question it was asked. Its owner's co-teachers (the teachers of a class he
teaches) see it and may put it in their quizzes (:meth:`OwnQuestionQuerySet.visible_to`).

A quiz version lists its own questions (:class:`QuizOwnQuestion`); an attempt asks each in
its current version, the choices shuffled by a seed of the attempt's, and its
:class:`~lessons.quizzes.models.Answer` row keeps the version (:class:`OwnAnswer`): the
engine makes the question again from it, to show, grade and regrade it, as for any other.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games.loo.questions import Question, QuestionError, question_at
from games.models import RulesAndGameNames
from lessons.classes.models import CoTeacher, SchoolClass
from lessons.quizzes.drawing import derive_seed
from lessons.trainer import bank


class OwnQuestionQuerySet(models.QuerySet["OwnQuestion"]):
    def visible_to(self, user: Any) -> OwnQuestionQuerySet:
        """``user``'s own questions and his co-teachers': those of every teacher (owner or
        co-teacher) of a class he teaches. None for anyone else."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        taught = SchoolClass.objects.taught_by(user)
        owners = taught.values("teacher")
        co_teachers = CoTeacher.objects.filter(school_class__in=taught).values("teacher")
        return self.filter(Q(owner=user) | Q(owner__in=owners) | Q(owner__in=co_teachers))


class OwnQuestion(models.Model):
    """A teacher's question about a position of his own: what it asks is its latest version."""

    #: SET_NULL: a question in a co-teacher's quiz outlives its author's account.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="own_questions"
    )
    created = models.DateTimeField(auto_now_add=True)
    current = models.ForeignKey(
        "OwnVersion", null=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = OwnQuestionQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return self.current.title if self.current else f"Question {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("quizzes:own", args=[self.pk])

    @property
    def in_use(self) -> bool:
        """Whether a quiz lists it or a student was asked it (then it cannot be deleted)."""
        return (
            self.quiz_links.exists()
            or OwnVersion.objects.filter(question=self, answers__isnull=False).exists()
        )


class OwnVersion(RulesAndGameNames, models.Model):
    """What an own question asks, as it was when students were asked it."""

    question = models.ForeignKey(OwnQuestion, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(default=1)
    #: The teacher's name for it, on his list (students never see it).
    title = models.CharField(max_length=120)
    kind = models.CharField(max_length=20)
    rules = models.CharField("rule set", max_length=20)
    game = models.CharField(max_length=12)
    #: The rule asked about ("": any rule that binds there).
    rule = models.CharField(max_length=60, blank=True)
    #: The position, in the fields of games.loo.authored (the kind's, lessons.quizzes.own).
    position = models.JSONField()
    #: For ``why-not``, the card asked about ("": one the rule forbids).
    card = models.CharField(max_length=2, blank=True)
    #: The question bank's VERSION that checked and answered it.
    version = models.PositiveIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["question", "number"]
        constraints = [
            models.UniqueConstraint(fields=["question", "number"], name="own_version_number"),
        ]

    def __str__(self) -> str:
        return f"{self.title} (version {self.number})"

    @property
    def kind_name(self) -> str:
        return bank.kind_name(self.kind)

    def to_engine(self, seed: int) -> Question:
        """The question, answer included, made by the engine (``seed`` shuffles the choices).
        Raises QuestionError (or UnknownRule) if the engine no longer asks it."""
        return question_at(
            self.kind,
            self.rules,
            game=self.game,
            position=self.position,
            rule=self.rule or None,
            card=self.card or None,
            seed=seed,
            version=self.version,
        )


class QuizOwnQuestion(models.Model):
    """An own question in a quiz version, in its place among them."""

    quiz_version = models.ForeignKey(
        "quizzes.QuizVersion", on_delete=models.CASCADE, related_name="own_links"
    )
    #: RESTRICT: a question a quiz lists is not deleted.
    question = models.ForeignKey(OwnQuestion, on_delete=models.RESTRICT, related_name="quiz_links")
    place = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["quiz_version", "place"]
        constraints = [
            models.UniqueConstraint(
                fields=["quiz_version", "question"], name="own_question_once_a_quiz"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.question} in {self.quiz_version}"


class OwnAnswer(models.Model):
    """What an answer to an own question keeps beside its identity: the version asked (its
    ``seed`` shuffled the choices). A mixin of :class:`~lessons.quizzes.models.Answer`."""

    own = models.ForeignKey(
        OwnVersion, null=True, blank=True, on_delete=models.RESTRICT, related_name="answers"
    )

    class Meta:
        abstract = True

    def own_question(self) -> Question:
        assert self.own is not None
        return self.own.to_engine(self.seed)  # type: ignore[attr-defined]


def with_own_questions(
    generated: list[Question], quiz_version: Any, variant: Any, draw: int
) -> list[tuple[Question, OwnVersion | None]]:
    """An attempt's questions: the ``generated`` ones, then the own questions of
    ``quiz_version`` for ``variant`` (as the generated questions' seeds: a student's pk, or
    "all") in attempt number ``draw``, each in its current version, its choices shuffled by
    a seed of the attempt. Raises QuestionError."""
    made: list[tuple[Question, OwnVersion | None]] = [(q, None) for q in generated]
    for link in quiz_version.own_links.select_related("question__current"):
        current = link.question.current
        if current is None:
            raise QuestionError("a question of your own in this quiz has no version")
        seed = derive_seed(quiz_version.seed, variant, "own", link.question_id, draw)
        made.append((current.to_engine(seed), current))
    return made
