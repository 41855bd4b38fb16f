"""The course: units, lessons and their steps (loaded from ``content/lessons.txt`` by
``manage.py loadcontent``; see :mod:`lessons.course.loader`), and each learner's progress.

A lesson's steps are exercises (a question of the engine's bank, about a rule, generated from a
seed or asked about a position of the lesson's own), at most one guided hand (a practice table
dealt so that the lesson's rule comes up: the seed found for each rule set is kept), and a
check (a few generated questions on the lesson's rules). The engine answers every one: the
content never holds an answer.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games.guided import Guided
from games.loo.rulesets import GAME_NAMES, PRESETS
from games.owners import OwnedQuerySet
from lessons import markup


class Unit(models.Model):
    slug = models.SlugField(primary_key=True, max_length=60)
    position = models.PositiveSmallIntegerField(default=0)
    title = models.CharField(max_length=200)
    intro = models.TextField(blank=True)
    intro_html = models.TextField(editable=False, default="")

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return self.title

    def render(self, resolver: markup.Resolver) -> None:
        self.intro_html = markup.render(self.intro, resolver, slot_prefix=f"unit-{self.slug}").html


class Lesson(models.Model):
    #: Only on lessons from ``lessons.classes.progress.course_lessons()``.
    steps_count: int
    exercises_count: int

    slug = models.SlugField(primary_key=True, max_length=60)
    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="lessons")
    position = models.PositiveSmallIntegerField(default=0)
    title = models.CharField(max_length=200)
    game = models.CharField(max_length=12)
    #: The catalogue's rule ids the lesson teaches (explains and links).
    teaches = models.JSONField(default=list)
    #: The passages it quotes, as ``[source, passage key]`` pairs, in order.
    quotes = models.JSONField(default=list)
    #: The rule sets it is offered under, the first the default.
    presets = models.JSONField(default=list)
    differ = models.TextField(blank=True)
    differ_html = models.TextField(editable=False, default="")
    body = models.TextField()
    body_html = models.TextField(editable=False, default="")

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("course:lesson", args=[self.slug])

    @property
    def game_name(self) -> str:
        return GAME_NAMES.get(self.game, self.game)

    def preset_choices(self) -> list[tuple[str, str]]:
        return [(p, PRESETS[p].title) for p in self.presets if p in PRESETS]

    def render(self, resolver: markup.Resolver) -> None:
        prefix = f"lesson-{self.slug}"
        self.body_html = markup.render(self.body, resolver, slot_prefix=prefix).html
        self.differ_html = markup.render(self.differ, resolver, slot_prefix=f"{prefix}-d").html


class StepKind(models.TextChoices):
    EXERCISE = "exercise", "Exercise"
    GUIDED_HAND = "guided-hand", "Guided hand"
    CHECK = "check", "Check"


class Step(models.Model):
    """One step of a lesson. ``data`` by kind:

    - exercise: ``{"kind", "rule", "position" (or null: generated), "card" (why-not), "intro"}``;
    - guided hand: ``{"rule", "players", "banner", "seeds": {preset: seed}}``, and where the
      block sets them ``"packs": {preset: stacked pack}``, ``"start"``, ``"options"`` and
      ``"laws"`` (careless computer players at a laws-mode table);
    - check: ``{"rules", "kinds", "count"}``.
    """

    key = models.SlugField(primary_key=True, max_length=80)
    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="steps")
    position = models.PositiveSmallIntegerField(default=0)
    kind = models.CharField(max_length=12, choices=StepKind.choices)
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ["lesson__position", "position"]

    def __str__(self) -> str:
        return f"{self.lesson_id}: {self.key}"

    def guided(self, preset: str) -> Guided:
        """A guided hand's table under ``preset``, beyond its size and seed: the stacked deal,
        the start (the lesson's, or the rule set's own where its first deal would be peel's
        single deal: see the loader), the agreed variations, the laws mode."""
        data = self.data
        pack = data.get("packs", {}).get(preset)
        return Guided.of(
            pack=tuple(pack) if pack else None,
            start=data.get("starts", {}).get(preset, data.get("start", "fresh")),
            options=data.get("options"),
            laws=bool(data.get("laws", False)),
            declares=bool(data.get("declares")),
            trumped=bool(data.get("trumped")),
        )


# -- progress -----------------------------------------------------------------------------------


class Progress(models.Model):
    """A learner's progress on one step: started, done, and for an exercise whether it was
    right at the first try (a star, as in Lichess Learn); for a check how many were right; for
    a guided hand its practice table. Kept for an account, or for a browser session until its
    learner signs up or logs in (then it moves to the account, as practice tables do)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="lesson_progress",
    )
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="progress")
    started = models.DateTimeField(auto_now_add=True)
    done = models.DateTimeField(null=True, blank=True)
    #: An exercise answered right at the first try.
    first_try = models.BooleanField(null=True)
    #: A check's right answers.
    right = models.PositiveSmallIntegerField(default=0)
    #: The questions asked at this step, in order (an exercise's tries, a check's questions).
    questions = models.ManyToManyField("trainer.AskedQuestion", blank=True, related_name="+")
    #: The guided hand's practice table.
    table = models.ForeignKey(
        "games.PracticeTable", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = OwnedQuerySet.as_manager()

    class Meta:
        ordering = ["step__lesson__position", "step__position"]
        verbose_name = "progress row"
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "step"],
                condition=Q(owner__isnull=False),
                name="progress_one_per_account_and_step",
            ),
            models.UniqueConstraint(
                fields=["session_key", "step"],
                condition=Q(owner__isnull=True),
                name="progress_one_per_session_and_step",
            ),
            models.CheckConstraint(
                condition=Q(owner__isnull=False) | ~Q(session_key=""),
                name="progress_has_an_owner_or_a_session",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.step}: {'done' if self.done else 'started'}"
