"""Reviews that come back: each rule a learner answers about is scheduled with FSRS.

One FSRS card per learner (an account, or a browser session without one) and rule, in
:class:`~lessons.trainer.models.RuleReview`. :func:`review` is the one door: the trainer, a
lesson's exercise or check and a quiz call it after they store an answer (never on a GET).

The mapping of an answer to an FSRS rating: a wrong answer is *Again*, a right one *Good*.
(No *Hard* or *Easy*: a graded question says right or wrong, not how hard it felt.) A first
answer about a rule makes its card, right or wrong: a rule right at once is then asked again
after FSRS's learning steps and counts as known once it has been answered right when due; one
got wrong comes back within minutes.

**An answer before the rule is due** (a learner drilling on, a lesson's check, a quiz) updates
its card no further than a right answer at the due time would (:func:`schedule`):

- a wrong answer counts at once, whenever it is given (*Again*: the rule was not known);
- a right answer during FSRS's learning or relearning steps leaves the card as it is: a step
  is passed only by a right answer once the step is due (the wait is what the step tests), so
  two right answers 20 seconds apart do not make a rule "known";
- a right answer to a rule in the review state is FSRS's own early review, with the time that
  has really elapsed (a same-day review keeps its stability; a review after a day gains less
  than one when due): kept only if it is neither due later nor more stable than the card a
  right answer at the due time would make, else the card is left as it is.

The learner's dashboard sorts every rule of the catalogue into four states:

- *new*: never answered about;
- *due*: its review is due now;
- *learning*: answered, in FSRS's learning or relearning steps, not yet due;
- *known*: in FSRS's review state, not yet due.

"Weakest first" is by FSRS's retrievability now (the chance the learner recalls the rule),
lowest first; new rules last.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from fsrs import Card, Rating, Scheduler, State

from games.loo import catalogue
from games.loo.questions import KIND_BY_NAME
from lessons.links import LessonLink, course_lessons
from lessons.trainer.models import AboutARule, RuleReview, RuleReviewQuerySet

#: No fuzzing: the same answers at the same times give the same schedule (tests, support).
SCHEDULER = Scheduler(enable_fuzzing=False)

NEW, LEARNING, DUE, KNOWN = "new", "learning", "due", "known"
#: The states in the dashboard's order, weakest first, with what each means in words.
STATES = (
    (DUE, "Due for review"),
    (LEARNING, "Learning"),
    (KNOWN, "Known"),
    (NEW, "New"),
)


def rating(right: bool) -> Rating:
    """A graded answer as an FSRS rating: wrong is Again, right is Good."""
    return Rating.Good if right else Rating.Again


def schedule(card: Card, right: bool, when: datetime) -> Card:
    """``card`` after an answer at ``when``: FSRS's review when the card is due or the answer
    is wrong; before it is due, no further than a right answer at the due time would take it
    (the module's docstring says how)."""
    if not right or when >= card.due:
        return SCHEDULER.review_card(card, rating(right), when)[0]
    if card.state != State.Review:
        return card
    early = SCHEDULER.review_card(card, Rating.Good, when)[0]
    on_time = SCHEDULER.review_card(card, Rating.Good, card.due)[0]
    further = early.due > on_time.due or (early.stability or 0.0) > (on_time.stability or 0.0)
    return card if further else early


def review(
    owner: Any,
    session_key: str,
    rule: str,
    right: bool,
    when: datetime | None = None,
    *,
    rules: str,
    game: str,
) -> RuleReview | None:
    """Schedule ``rule``'s next review for the learner (``owner``, or without an account his
    browser session's key) after an answer, right or wrong, given at ``when`` (now) under
    ``rules`` at ``game``. Nothing for an answer about no rule (a question without a topic)."""
    if not rule or (owner is None and not session_key):
        return None
    when = when or timezone.now()
    learner = {"owner": owner} if owner is not None else {"owner": None, "session_key": session_key}
    for _ in range(2):  # a second try if another request made the row between get and create
        try:
            with transaction.atomic():
                row = RuleReview.objects.select_for_update().filter(rule=rule, **learner).first()
                card = Card.from_dict(row.card) if row is not None else Card(due=when)
                card = schedule(card, right, when)
                fields = {
                    "card": card.to_dict(),
                    "due": card.due,
                    "state": card.state.value,
                    "last_rating": rating(right).value,
                    "rules": rules,
                    "game": game,
                    "reviewed": when,
                }
                if row is None:
                    return RuleReview.objects.create(
                        rule=rule, reviews=1, lapses=int(not right), **learner, **fields
                    )
                for name, value in fields.items():
                    setattr(row, name, value)
                row.reviews += 1
                row.lapses += not right
                row.save()
                return row
        except IntegrityError:
            continue
    return None


def review_for_request(
    request: Any, rule: str, right: bool, *, rules: str, game: str, kind: str
) -> None:
    """:func:`review` for whoever made ``request`` (a POST that has just stored an answer to
    a question of ``kind``). A question of judgement (the coach's "what to declare") tests no
    rule: a wrong answer there does not bring the rule back for review."""
    known = KIND_BY_NAME.get(kind)
    if known is not None and known.judgement:
        return
    if request.user.is_authenticated:
        review(request.user, "", rule, right, rules=rules, game=game)
    elif request.session.session_key:
        review(None, request.session.session_key, rule, right, rules=rules, game=game)


@dataclass
class RuleState(AboutARule):
    """One rule on the learner's dashboard."""

    rule: str
    state: str
    #: FSRS's chance, now, that the learner recalls the rule (None: never answered).
    recall: float | None
    row: RuleReview | None = None
    #: The first lesson of the course that teaches the rule, if one does.
    lesson: LessonLink | None = None

    @property
    def percent(self) -> int:
        return round(100 * self.recall) if self.recall is not None else 0

    @property
    def last_wrong(self) -> bool:
        return self.row is not None and self.row.last_rating == Rating.Again

    @property
    def soon(self) -> bool:
        """Due within the minute ("0 minutes from now" read as a fault)."""
        return self.row is not None and self.row.due <= timezone.now() + timedelta(minutes=1)

    @property
    def state_name(self) -> str:
        return dict(STATES)[self.state]


def state_of(row: RuleReview, now: datetime) -> RuleState:
    card = Card.from_dict(row.card)
    recall = SCHEDULER.get_card_retrievability(card, now)
    if row.due <= now:
        state = DUE
    elif card.state == State.Review:
        state = KNOWN
    else:
        state = LEARNING
    return RuleState(row.rule, state, recall, row)


def dashboard(rows: RuleReviewQuerySet, now: datetime | None = None) -> list[RuleState]:
    """Every rule of the catalogue with its state, weakest first: the due rules, then those
    being learnt, then those known, each by the chance of recall, lowest first; new last;
    each with the lesson that teaches it (two queries)."""
    now = now or timezone.now()
    order = {state: i for i, (state, _) in enumerate(STATES)}
    known = {row.rule: state_of(row, now) for row in rows}
    states = list(known.values())
    # Within a state, a rule last answered wrong first: FSRS's chance of recall is near
    # 100% just after any answer, right or wrong, and does not tell them apart yet.
    states.sort(
        key=lambda s: (
            order[s.state],
            s.row is None or s.row.last_rating != Rating.Again,
            s.recall or 0.0,
            s.rule,
        )
    )
    new = [RuleState(r.id, NEW, None) for r in catalogue.rules() if r.id not in known]
    teaching: dict[str, LessonLink] = {}
    for slug, title, teaches in course_lessons():
        for rule_id in teaches:
            teaching.setdefault(rule_id, LessonLink(title, reverse("course:lesson", args=[slug])))
    for state in states + new:
        state.lesson = teaching.get(state.rule)
    return states + new


def counts(states: list[RuleState]) -> list[tuple[str, str, int]]:
    """How many rules are in each state: (state, its name, count), for the chart."""
    return [(state, name, sum(1 for s in states if s.state == state)) for state, name in STATES]
