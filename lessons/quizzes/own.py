"""A teacher's questions of his own: what the card-table editor asks for each kind, the
engine's check and answer, storing a question (a new version on each edit), who sees it, and
its place in quizzes. The models are :mod:`~lessons.quizzes.own_models`; the pages,
:mod:`~lessons.quizzes.own_views` with the forms of :mod:`~lessons.quizzes.own_forms`.

The engine (``games.loo.questions.question_at``) is the only judge of a position: it refuses
one that cannot happen with a sentence that says why, which the editor shows as it is, and
answers the others with the explanation it cites. Nothing is stored that it refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from django.db import transaction
from django.db.models import Count, Exists, OuterRef
from django.http import Http404

from games.loo.catalogue import UnknownRule
from games.loo.questions import (
    AUTHORED_FIELDS,
    FIELD_TYPES,
    VERSION,
    Question,
    QuestionError,
    grade,
)
from games.loo.rulesets import GAME_NAMES, PRESETS
from lessons.quizzes.own_models import OwnQuestion, OwnQuestionQuerySet, OwnVersion, QuizOwnQuestion
from lessons.trainer import bank
from lessons.trainer.presenting import Graded, Shown, graded, shown

# -- what the editor asks for ----------------------------------------------------------------------

#: The types of a position's field, as the editor draws them: the engine's
#: (``games.loo.questions.FIELD_TYPES``), and two of the editor's own. A suit (radio
#: buttons), one card or none (a select of the pack, grouped by suit), a count (a select, or a
#: number input), a flag (a checkbox), cards in no order (checkboxes grouped by suit), cards in
#: the order played (a select a card), hands (a select a card of each hand), a seat (a select
#: of the table's seats), seats in no order (a checkbox a seat), the seat that took each trick
#: (a select a trick), declarations (a select for each player who declares before the student).
SUIT: Final = "suit"
CARD: Final = "card"
COUNT: Final = "count"
FLAG: Final = "flag"
CARDS: Final = "cards"
ORDERED: Final = "ordered"
HANDS: Final = "hands"
SEAT: Final = "seat"
SEATS: Final = "seats"
TAKERS: Final = "takers"
DECLARATIONS: Final = "declarations"

#: Each field of a position (games.loo.authored's names) and its type: the engine's, but a
#: trick is drawn in the order played, the tricks of a settlement one taker each, and ``card``
#: is the card a ``why-not`` asks about. A field the engine adds is typed by the engine; its
#: words are a line of lessons.quizzes.own_forms.LABELS.
TYPES: Final[dict[str, str]] = {
    **FIELD_TYPES,
    "trick": ORDERED,
    "tricks": TAKERS,
    "card": CARD,
}

#: Fields shown only at one game (elsewhere the engine refuses them).
ONLY_AT: Final[dict[str, str]] = {
    "pam_be_civil": "five-card",
    "miss_holder": "three-card",
    "must": "three-card",
}

#: The fields that set a table (the kinds asked about a whole table): the seats the other
#: fields offer are drawn from them, so the editor asks them first, in a form of their own.
TABLE: Final[dict[str, tuple[str, ...]]] = {
    "settlement": ("players",),
    "declaration": ("players", "dealer"),
}

#: What a kind asks, in the words of the editor's first step.
ASKS: Final[dict[str, str]] = {
    "legal-cards": "Which of your cards may you play?",
    "why-not": "Why may you not play this card?",
    "trick-winner": "Who takes this trick?",
    "flush": "Whose flush loos the board?",
    "settlement": "What does the settlement pay?",
    "declaration": "What may you do now?",
}


def _fields(kind: str) -> tuple[str, ...]:
    """The fields ``kind`` reads, in the engine's order (``card``, the card a ``why-not``
    asks about, kept beside the position)."""
    return (*AUTHORED_FIELDS[kind], *(("card",) if kind == "why-not" else ()))


#: The fields each kind reads, in the order the editor asks for them: read from the engine for
#: each kind the editor has words for (:data:`ASKS`), whose fields it can all draw.
FIELDS: Final[dict[str, tuple[str, ...]]] = {
    kind: _fields(kind)
    for kind in ASKS
    if kind in AUTHORED_FIELDS and all(f in TYPES for f in _fields(kind))
}

#: The most a stored position may weigh (JSON characters): every field is a choice of the
#: editor's, so a real one is a few hundred; the check is on what is stored, whatever posted it.
MAX_POSITION = 4000


def kinds() -> list[str]:
    """The kinds the editor offers: those the engine answers about a position of one's own."""
    from games.loo.questions import AUTHORED_KINDS

    return [k for k in FIELDS if k in AUTHORED_KINDS]


def step_name(kind: str) -> str:
    """The editor's second step, as its heading names it."""
    return "The table" if kind in TABLE else "The cards"


def fields_of(kind: str, game: str) -> tuple[str, ...]:
    return tuple(f for f in FIELDS[kind] if ONLY_AT.get(f, game) == game)


# -- a draft: what the editor has built so far -----------------------------------------------------


class Refused(Exception):
    """The engine cannot ask this question: the message says why, in its words."""


@dataclass(frozen=True)
class Draft:
    """A question as the editor built it: the rule set, game, kind and rule asked about, and
    the position in the kind's fields (the card asked about apart)."""

    kind: str
    rules: str
    game: str
    rule: str = ""
    position: dict[str, Any] = field(default_factory=dict)
    card: str = ""

    @classmethod
    def of(cls, version: OwnVersion) -> Draft:
        return cls(
            version.kind, version.rules, version.game, version.rule, version.position, version.card
        )

    def question(self, seed: int = 0) -> Question:
        """The engine's question about it (``seed`` shuffles the choices), or :class:`Refused`
        with the engine's reason. A question whose answer rests on one reading of the texts
        (another would answer otherwise) is refused too: a graded quiz asks none."""
        if len(json.dumps(self.position)) > MAX_POSITION:
            raise Refused("This position is too large to be stored.")
        try:
            fields = dict(rules=self.rules, game=self.game, rule=self.rule, card=self.card)
            asked = OwnVersion(kind=self.kind, position=self.position, version=VERSION, **fields)
            q = asked.to_engine(seed)
        except (QuestionError, UnknownRule) as error:
            raise Refused(capital(str(error)) + ".") from None
        if q.disputed:
            raise Refused(
                "The answer here rests on one reading of the texts, and another reading would "
                "answer otherwise: a graded quiz asks no such question. Change the position."
            )
        return q


def capital(text: str) -> str:
    text = text.rstrip(".")
    return text[:1].upper() + text[1:]


# -- what a teacher sees ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    """A question as a student is asked it, and what a student who answers right is shown:
    the engine's answer and its explanations, each citing its rule."""

    question: Question
    shown: Shown
    graded: Graded


def preview(q: Question) -> Preview:
    return Preview(q, shown(q), graded(q, grade(q, q.answer), bank.topic(q)))


def visible(user: Any) -> OwnQuestionQuerySet:
    """The questions ``user`` sees: his and his co-teachers', with how many quizzes list each."""
    return (
        OwnQuestion.objects.visible_to(user)
        .filter(current__isnull=False)
        .select_related("current", "owner")
        .annotate(quizzes=Count("quiz_links__quiz_version__quiz", distinct=True))
    )


def for_viewer(user: Any, pk: int) -> OwnQuestion:
    """Question ``pk`` if ``user`` may see it (his own or a co-teacher's); Http404 otherwise."""
    found = visible(user).filter(pk=pk).first()
    if found is None:
        raise Http404("No such question.")
    return found


def for_owner(user: Any, pk: int) -> OwnQuestion:
    """Question ``pk`` if ``user`` owns it; Http404 for anyone else (co-teachers included)."""
    found = visible(user).filter(pk=pk, owner=user).first()
    if found is None:
        raise Http404("No such question.")
    return found


def save(owner: Any, draft: Draft, title: str, question: OwnQuestion | None = None) -> OwnQuestion:
    """Check ``draft`` with the engine (:class:`Refused`: nothing is stored) and store it: a
    new question of ``owner``'s, or a new version of ``question`` (answers keep theirs)."""
    q = draft.question()
    with transaction.atomic():
        if question is None:
            question = OwnQuestion.objects.create(owner=owner)
            number = 1
        else:
            number = (question.current.number + 1) if question.current else 1
        version = OwnVersion.objects.create(
            question=question,
            number=number,
            title=title or default_title(draft),
            kind=draft.kind,
            rules=draft.rules,
            game=draft.game,
            rule=draft.rule,
            position=draft.position,
            card=draft.card,
            version=q.version,
        )
        question.current = version
        question.save(update_fields=["current"])
    return question


def default_title(draft: Draft) -> str:
    return f"{bank.kind_name(draft.kind)} ({PRESETS[draft.rules].title}, {GAME_NAMES[draft.game]})"


def delete(question: OwnQuestion) -> bool:
    """Delete ``question`` if no quiz lists it and no student was asked it; False if one did."""
    with transaction.atomic():
        if question.in_use:
            return False
        OwnQuestion.objects.filter(pk=question.pk).update(current=None)
        question.delete()
    return True


# -- in quizzes ------------------------------------------------------------------------------------


def usable_for(user: Any, rules: str | None = None, game: str | None = None) -> OwnQuestionQuerySet:
    """The questions ``user`` may put in a quiz (at ``rules`` and ``game``, if given)."""
    found = visible(user)
    if rules:
        found = found.filter(current__rules=rules)
    if game:
        found = found.filter(current__game=game)
    return found


def set_quiz_questions(quiz_version: Any, questions: list[OwnQuestion]) -> None:
    """Make ``questions`` the own questions of ``quiz_version``, in this order."""
    with transaction.atomic():
        QuizOwnQuestion.objects.filter(quiz_version=quiz_version).delete()
        QuizOwnQuestion.objects.bulk_create(
            QuizOwnQuestion(quiz_version=quiz_version, question=q, place=i)
            for i, q in enumerate(questions)
        )


def quiz_questions(quiz_version: Any) -> list[OwnQuestion]:
    """The own questions ``quiz_version`` lists, in its order."""
    links = quiz_version.own_links.select_related("question__current", "question__owner")
    return [link.question for link in links]


def used_in_answers() -> Exists:
    """For an annotation: whether a student was asked the question (any version of it)."""
    return Exists(OwnVersion.objects.filter(question=OuterRef("pk"), answers__isnull=False))


__all__ = ["VERSION", "Draft", "Preview", "Refused", "preview", "save", "visible"]
