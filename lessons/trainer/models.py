"""A question asked of a learner, stored by its identity, answered once.

:class:`AskedQuestion` is the piece the trainer, and later the lessons and the quizzes, use to
ask and grade a question of the engine's bank: the row keeps only what makes the question
again (kind, rule set, game, target rule, seed, the generator's version), never its answer;
``to_engine()`` makes it again on the server, and ``record_answer()`` grades a response and
stores it once (a second answer, a replayed POST, finds the row answered and changes
nothing). Who it belongs to works as for practice tables (``games.owners``).

What a learner has done is read from the answered rows: :meth:`AskedQuestionQuerySet.record`
gives the streak and the accuracy, overall and per rule.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.links import rule_name, rule_url
from games.loo.catalogue import UnknownRule
from games.loo.questions import VERSIONS, Grade, Question, QuestionError, grade
from games.models import RulesAndGameNames
from games.owners import OwnedQuerySet
from lessons.trainer import bank


class StaleQuestion(QuestionError):
    """A stored question the engine can no longer make as it was asked (its generator has
    changed since): it cannot be answered."""


class AboutARule:
    """Something said about one rule (``rule``, its id): its name as a heading, its page."""

    rule: str

    @property
    def name(self) -> str:
        name = rule_name(self.rule)
        return name[:1].upper() + name[1:]

    @property
    def url(self) -> str:
        return rule_url(self.rule)


@dataclass
class RuleRecord(AboutARule):
    """How a learner has done on one rule."""

    rule: str
    asked: int = 0
    right: int = 0
    #: Right answers in a row, the latest last.
    streak: int = 0
    #: Where the latest answer about it was given: (rule set, game, kind).
    last: tuple[str, str, str] = ("", "", "")

    @property
    def missed(self) -> int:
        return self.asked - self.right

    @property
    def accuracy(self) -> int:
        """Right answers, as a whole percentage of those given."""
        return round(100 * self.right / self.asked) if self.asked else 0

    def add(self, correct: bool, where: tuple[str, str, str] = ("", "", "")) -> None:
        self.last = where
        self.asked += 1
        self.right += correct
        self.streak = self.streak + 1 if correct else 0


@dataclass
class Record(RuleRecord):
    """How a learner has done overall, and on each rule (``rules``, by rule id)."""

    rules: dict[str, RuleRecord] = field(default_factory=dict)

    def on(self, rule_id: str) -> RuleRecord:
        return self.rules.get(rule_id) or RuleRecord(rule_id)

    def to_review(self, count: int = 5) -> list[RuleRecord]:
        """The rules most often missed: most misses first, then the lowest accuracy."""
        missed = [r for r in self.rules.values() if r.missed]
        missed.sort(key=lambda r: (-r.missed, r.accuracy, r.rule))
        return missed[:count]


class AskedQuestionQuerySet(OwnedQuerySet["AskedQuestion"]):
    def answered(self) -> AskedQuestionQuerySet:
        return self.filter(answered__isnull=False)

    def abandoned(self, days: float) -> AskedQuestionQuerySet:
        """Questions without an account asked more than ``days`` ago: a session's expiry is
        fixed when it starts, before its first question, so their session has expired."""
        return self.filter(owner=None, asked__lt=timezone.now() - timedelta(days=days))

    def record(self) -> Record:
        """The streak and accuracy of these questions' answers, overall and per rule (one
        query: the rule, the verdict and the drill of every answer, in the order given)."""
        record = Record("")
        rows = self.answered().order_by("answered", "pk")
        for rule_id, correct, *where in rows.values_list(
            "topic", "correct", "rules", "game", "kind"
        ):
            # answered(): the verdict is never null here.
            rules, game, kind = where
            record.add(bool(correct))
            record.rules.setdefault(rule_id, RuleRecord(rule_id)).add(
                bool(correct), (rules, game, kind)
            )
        return record


class AskedQuestion(RulesAndGameNames, models.Model):
    """One question of the engine's bank asked of a learner: its identity, and his answer."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="asked_questions",
    )
    #: For someone not logged in, the question belongs to their browser session.
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    # The question's identity: games.loo.questions.question(kind, rules, game=, rule=, seed=)
    # under the generator's VERSION makes it again, answer included.
    kind = models.CharField(max_length=20)
    rules = models.CharField(max_length=20)
    game = models.CharField(max_length=12)
    #: The target rule the question was made for ("" if none).
    rule = models.CharField(max_length=60, blank=True)
    #: Never shown: with it, the engine (or its command line) would give the answer.
    seed = models.PositiveBigIntegerField()
    version = models.PositiveIntegerField()
    #: A lesson's exercise may ask about a position of its own (``question_at``): the
    #: position as the lesson gives it, and for ``why-not`` the card asked about. None: the
    #: question is dealt from the seed.
    position = models.JSONField(null=True, blank=True)
    card = models.CharField(max_length=2, blank=True)
    #: The rule the question exercises, whose record the answer counts towards. Not shown
    #: before the answer: for some kinds it is the answer.
    topic = models.CharField(max_length=60)
    #: What was asked for, by whoever asked: the trainer's drill scope ("any",
    #: "group:following", "rule:follow-suit"), so that its next question asks for the same.
    scope = models.CharField(max_length=80, blank=True)
    #: The kind of question asked for ("" any kind about the play), likewise.
    wanted_kind = models.CharField(max_length=20, blank=True)
    #: The question this one follows in a run (the trainer's "next question"): one at most,
    #: so that a second click on "next" finds the question the first one asked.
    previous = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="following"
    )
    asked = models.DateTimeField(auto_now_add=True)
    #: The answer: the choice ids given, whether they were right, and when (all or none).
    response = models.JSONField(null=True, blank=True)
    correct = models.BooleanField(null=True)
    answered = models.DateTimeField(null=True, blank=True)

    objects = AskedQuestionQuerySet.as_manager()

    class Meta:
        ordering = ["-asked", "-pk"]
        indexes = [
            models.Index(fields=["owner", "answered"], name="asked_owner_answered"),
            models.Index(fields=["session_key", "answered"], name="asked_session_answered"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(owner__isnull=False) | ~Q(session_key=""),
                name="asked_question_has_an_owner_or_a_session",
            ),
            models.CheckConstraint(
                condition=Q(answered__isnull=True, correct__isnull=True, response__isnull=True)
                | Q(answered__isnull=False, correct__isnull=False, response__isnull=False),
                name="asked_question_answered_all_or_nothing",
            ),
        ]

    def __str__(self) -> str:
        return f"Question {self.pk}: {self.kind} under {self.rules} ({self.game})"

    def get_absolute_url(self) -> str:
        return reverse("trainer:question", args=[self.pk])

    @property
    def is_answered(self) -> bool:
        return self.answered is not None

    # -- the engine ----------------------------------------------------------------------------

    @classmethod
    def store(
        cls,
        q: Question,
        *,
        owner: Any = None,
        session_key: str = "",
        drill: bank.Drill | None = None,
        previous: AskedQuestion | None = None,
        position: dict[str, Any] | None = None,
        card: str = "",
    ) -> AskedQuestion:
        """Keep ``q`` by its identity for ``owner`` (or the browser session), with the
        ``drill`` it was asked for, if any. With ``previous``, the question that follows it;
        if another request stored one first, that one is returned and nothing is stored."""
        row = cls(
            owner=owner,
            session_key="" if owner is not None else session_key,
            kind=q.kind,
            rules=q.rules,
            game=q.game,
            rule=q.rule or "",
            seed=int(q.seed),
            version=q.version,
            topic=bank.topic(q),
            scope=drill.scope if drill else "",
            wanted_kind=drill.kind if drill else "",
            previous=previous,
            position=position,
            card=card,
        )
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError:
            if previous is None:
                raise
            return cls.objects.get(previous=previous)
        return row

    def to_engine(self) -> Question:
        """The question, made again from its identity (answer included: keep it on the
        server), or as the engine made it for this identity, kept by the trainer's pool
        (:class:`PreparedQuestion`: a "declare" question takes a second or two to make).
        Raises :class:`StaleQuestion` if the generator has changed since."""
        if self.version not in VERSIONS:
            raise StaleQuestion("this question was made by an earlier version of the question bank")
        if self.position is None:
            kept = PreparedQuestion.made_for(
                self.kind, self.rules, self.game, self.rule, self.seed, self.version
            )
            if kept is not None:
                return kept
        try:
            return bank.remake(
                self.kind,
                self.rules,
                self.game,
                self.rule or None,
                self.seed,
                position=self.position,
                card=self.card or None,
                version=self.version,
            )
        except (QuestionError, UnknownRule) as error:
            raise StaleQuestion(str(error)) from error

    def record_answer(self, q: Question, response: list[str]) -> Grade | None:
        """Grade ``response`` to ``q`` (this row's question) and store it, once: None, and
        nothing stored, if the question had been answered already (by another request).
        Raises ``QuestionError`` for a response that is not made of the question's choices."""
        graded = grade(q, response)
        now = timezone.now()
        stored = AskedQuestion.objects.filter(pk=self.pk, answered__isnull=True).update(
            response=list(response), correct=graded.correct, answered=now
        )
        if not stored:
            self.refresh_from_db()
            return None
        self.response, self.correct, self.answered = list(response), graded.correct, now
        return graded

    def grade(self, q: Question) -> Grade:
        """The stored answer's grade (the row must be answered)."""
        assert self.response is not None
        return grade(q, self.response)


# -- reviews that come back (spaced repetition) ---------------------------------------------------


class RuleReviewQuerySet(OwnedQuerySet["RuleReview"]):
    def due(self, when: Any = None) -> RuleReviewQuerySet:
        """The rules whose review is due at ``when`` (now), the longest overdue first."""
        return self.filter(due__lte=when or timezone.now()).order_by("due", "rule")

    def give_to(self, user: Any, session_key: str | None) -> int:
        """As for questions; but a rule the account has a schedule for already keeps the
        account's (one schedule per learner and rule), and the session's is dropped."""
        if not session_key:
            return 0
        mine = self.filter(owner=user).values("rule")
        self.filter(owner=None, session_key=session_key, rule__in=mine).delete()
        return super().give_to(user, session_key)


class RuleReview(models.Model):
    """When a learner should next be asked about a rule: the FSRS card of one learner (an
    account, or a browser session without one) and rule, updated by every answer about the
    rule in the trainer, a lesson or a quiz (``lessons.trainer.reviews.review``)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rule_reviews",
    )
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    rule = models.CharField(max_length=60)
    #: The FSRS card, as ``fsrs.Card.to_dict()`` gives it: made again for each review.
    card = models.JSONField()
    #: When the rule should be asked about again (the card's own due date, kept as a column
    #: so that the due rules are one query).
    due = models.DateTimeField()
    #: The card's state: 1 learning, 2 review, 3 relearning (fsrs.State).
    state = models.PositiveSmallIntegerField()
    #: The latest rating: 1 again (wrong), 3 good (right).
    last_rating = models.PositiveSmallIntegerField()
    reviews = models.PositiveIntegerField(default=0)
    lapses = models.PositiveIntegerField(default=0)
    #: Where the rule was last asked about (rule set and game): where a review drills it.
    rules = models.CharField(max_length=20)
    game = models.CharField(max_length=12)
    reviewed = models.DateTimeField()

    objects = RuleReviewQuerySet.as_manager()

    class Meta:
        ordering = ["due", "rule"]
        constraints = [
            models.CheckConstraint(
                condition=Q(owner__isnull=False) | ~Q(session_key=""),
                name="rule_review_has_an_owner_or_a_session",
            ),
            models.UniqueConstraint(
                fields=["owner", "rule"],
                condition=Q(owner__isnull=False),
                name="rule_review_once_per_account",
            ),
            models.UniqueConstraint(
                fields=["session_key", "rule"],
                condition=Q(owner__isnull=True),
                name="rule_review_once_per_session",
            ),
        ]

    def __str__(self) -> str:
        return f"Review of {self.rule} due {self.due:%Y-%m-%d %H:%M}"


# -- questions made ahead (the trainer's pool) ------------------------------------------------


class PreparedQuestion(models.Model):
    """A question the engine made ahead of time, for a trainer drill to take at once
    (``lessons.trainer.prepared``), kept with its identity and as the engine made it.

    A row is *in the pool* until a drill takes it (``taken``), then it is the made question of
    the :class:`AskedQuestion` of the same identity (its pages read it rather than make it
    again) until ``prunequestions`` deletes it. ``engine`` is the digest of the engine's code
    it was made by (:func:`bank.fingerprint`): a row of another engine is never read. ``made``
    is the pickled :class:`~games.loo.questions.Question`, written by this server only."""

    kind = models.CharField(max_length=20)
    rules = models.CharField(max_length=20)
    game = models.CharField(max_length=12)
    #: The target rule ("" for a question about any rule).
    rule = models.CharField(max_length=60, blank=True)
    seed = models.PositiveBigIntegerField()
    version = models.PositiveIntegerField()
    engine = models.CharField(max_length=16)
    made = models.BinaryField()
    prepared = models.DateTimeField(auto_now_add=True)
    taken = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["kind", "rules", "game", "rule", "version", "engine", "taken"],
                name="prepared_pool",
            ),
            models.Index(fields=["seed", "kind"], name="prepared_identity"),
        ]

    def __str__(self) -> str:
        state = "taken" if self.taken else "in the pool"
        return f"Prepared {self.kind} under {self.rules} ({self.game}), {state}"

    def question(self) -> Question:
        made = pickle.loads(bytes(self.made))  # noqa: S301 (written by this server only)
        assert isinstance(made, Question)
        return made

    @classmethod
    def keep(cls, q: Question, *, taken: bool) -> PreparedQuestion:
        """Keep ``q`` (made now by this engine): in the pool, or as taken."""
        return cls.objects.create(
            kind=q.kind,
            rules=q.rules,
            game=q.game,
            rule=q.rule or "",
            seed=int(q.seed),
            version=q.version,
            engine=bank.fingerprint(),
            made=pickle.dumps(q, protocol=pickle.HIGHEST_PROTOCOL),
            taken=timezone.now() if taken else None,
        )

    @classmethod
    def made_for(
        cls, kind: str, rules: str, game: str, rule: str, seed: int, version: int
    ) -> Question | None:
        """The question this engine made for this identity, if it was kept."""
        row = cls.objects.filter(
            seed=seed,
            kind=kind,
            rules=rules,
            game=game,
            rule=rule,
            version=version,
            engine=bank.fingerprint(),
        ).first()
        return row.question() if row is not None else None
