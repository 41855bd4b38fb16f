"""Rule questions whose answers no person wrote: the engine deals a position where a rule
binds, asks about it, and grades the answer with the same code that enforces play.

A :class:`Question` is reproducible from (:data:`VERSION`, kind, preset, game, target rule,
seed): :func:`question` searches seeded deals deterministically until the target rule binds
(a bounded search: :class:`QuestionError` when the kind cannot exercise that rule). The kinds
built so far (issue 13 adds the others):

- ``legal-cards``: a position in the play, "Which of your cards may you play?" (select all);
  the answer is :func:`~games.loo.play.legal`'s;
- ``why-not``: a card the rules forbid there, "Why may you not play the 6♦?" (one of four
  rules); the answer is the rule that excluded it;
- ``trick-winner``: a complete trick, "Who takes this trick?"; the answer is
  :func:`~games.loo.play.trick_winner`'s.

:func:`grade` says right or wrong (a select-all question is right only when exactly right),
with feedback per choice and the engine's explanations for the position, each a message that
a page renders for the learner ("You must follow suit …").
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from .cards import Card
from .catalogue import rule as catalogue_rule
from .errors import LooError
from .hand import Hand
from .messages import Message, msg, render
from .play import LegalMoves, RuleApplication, legal, trick_winner
from .rng import rng_for
from .rulesets import GAMES, PRESETS, RuleSet
from .table import Table, TableConfig

#: The generator's version: part of what makes a question reproducible. Raise it when a change
#: would make the same inputs give another question.
VERSION: Final = 1

KINDS: Final = ("legal-cards", "why-not", "trick-winner")

#: How many seeded deals a search plays before it gives up.
MAX_DEALS: Final = 300

#: Rules that bind a card played to a trick, and rules that bind a lead: the distractors of
#: ``why-not`` come from the same family as its answer.
FOLLOW_RULES: Final = (
    "follow-suit",
    "head-the-trick",
    "must-trump",
    "must-overtrump",
    "pam-identity",
    "pam-led-trump-must-be-played",
    "pam-be-civil",
)
LEAD_RULES: Final = (
    "lead-ace-of-trumps",
    "lead-king-when-ace-turned",
    "lead-trump-holding-two",
    "lead-highest-trump-heads-up",
    "lead-highest-of-two-or-three",
    "trump-after-trick",
)
TRICK_RULES: Final = ("trick-winner", "pam-highest-trump", "pam-identity")


class QuestionError(LooError):
    """A question that cannot be made (an unknown kind, or a rule the kind cannot ask about)."""


@dataclass(frozen=True)
class Choice:
    id: str
    label: str


@dataclass(frozen=True)
class Question:
    kind: str
    game: str
    rules: str
    rule: str | None
    seed: int | str
    version: int
    #: Whose question it is (the learner's seat in the position): the prompt and the
    #: explanations are rendered with him as "you".
    seat: int
    prompt: Message
    #: What the question shows: for a card question, what the ``legal`` command takes; for a
    #: trick, what the ``winner`` command takes.
    position: dict[str, Any]
    choices: tuple[Choice, ...]
    answer: tuple[str, ...]
    explanations: tuple[RuleApplication, ...]
    #: Select all that apply (else exactly one).
    multiple: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the command line (``python -m games.loo question``)."""
        return {
            "kind": self.kind,
            "game": self.game,
            "rules": self.rules,
            "rule": self.rule,
            "seed": self.seed,
            "version": self.version,
            "prompt": render(self.prompt, self.seat),
            "position": self.position,
            "choices": [{"id": c.id, "label": c.label} for c in self.choices],
            "answer": list(self.answer),
            "explanations": [
                {"rule": a.rule, "text": a.render(self.seat)} for a in self.explanations
            ],
        }


@dataclass(frozen=True)
class Grade:
    correct: bool
    #: For each choice: whether it is part of the answer, and whether it was chosen.
    feedback: tuple[tuple[Choice, bool, bool], ...]
    explanations: tuple[RuleApplication, ...]
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "explanations": [
                {"rule": a.rule, "text": a.render(self.seat)} for a in self.explanations
            ],
        }


def question(
    kind: str, preset: str, *, game: str | None = None, rule: str | None = None, seed: int | str
) -> Question:
    """The question of ``kind`` about ``rule`` (any rule, if None) under ``preset`` at
    ``game`` (the preset's first, if None), made from ``seed``: always the same question."""
    if kind not in KINDS:
        raise QuestionError(f"unknown kind {kind!r}: choose one of {', '.join(KINDS)}")
    if preset not in PRESETS:
        raise QuestionError(f"unknown rule set {preset!r}: choose one of {', '.join(PRESETS)}")
    rules = RuleSet.preset(preset)
    game = game or rules.games[0]
    if game not in GAMES or not rules.supports(game):
        raise QuestionError(f"the {preset} rules describe no {game} Loo")
    if rule is not None:
        catalogue_rule(rule)  # an unknown rule id raises UnknownRule (a LooError)
    rng = rng_for("question", VERSION, kind, preset, game, rule, seed)
    maker = _MAKERS[kind]
    ask = _Ask(rules, preset, game, rule, seed)
    for attempt in range(MAX_DEALS):
        made = maker(ask, rng, attempt)
        if made is not None:
            return made
    raise QuestionError(
        f"no {kind} question about {rule or 'any rule'} under {preset} ({game} Loo) was found "
        f"in {MAX_DEALS} deals: this kind cannot ask about it"
    )


def grade(q: Question, response: list[str] | tuple[str, ...]) -> Grade:
    """Right only when the response is exactly the answer; feedback for every choice."""
    ids = {c.id for c in q.choices}
    chosen = set(response)
    unknown = chosen - ids
    if unknown:
        raise QuestionError(f"not a choice of this question: {', '.join(sorted(unknown))}")
    if not q.multiple and len(chosen) != 1:
        raise QuestionError("choose exactly one answer")
    answer = set(q.answer)
    feedback = tuple((c, c.id in answer, c.id in chosen) for c in q.choices)
    return Grade(chosen == answer, feedback, q.explanations, q.seat)


# -- searching the deals --------------------------------------------------------------------------


def _deal(rules: RuleSet, game: str, rng: random.Random, attempt: int) -> Hand:
    """A seeded deal at a table of a size the rule set allows."""
    low, high = rules.players(game)
    players = rng.randint(max(low, 3), min(high, 6))
    table = Table(TableConfig(game, rules, players, f"q:{rng.random()}:{attempt}", trace=False))
    return table.deal()


def _play_decisions(hand: Hand, rng: random.Random) -> Iterator[int]:
    """Play ``hand`` with random choices, yielding the seat to play before each card is played
    (the caller looks at the position; it changes nothing)."""
    while not hand.over:
        if hand.phase == "play":
            seat = hand.to_act
            assert seat is not None
            yield seat
        offered = hand.choices()
        hand.step(offered[int(rng.random() * len(offered))])


def _binding(moves: LegalMoves, rule: str | None) -> list[RuleApplication]:
    """The rule applications that bound this position (the target rule's, if one is asked)."""
    return [a for a in moves.explanations if a.excluded and (rule is None or a.rule == rule)]


def _position(hand: Hand, seat: int, preset: str) -> dict[str, Any]:
    p = hand.position(seat)
    return {
        "game": p.game,
        "rules": preset,
        "trump": p.trump,
        "turn_up": p.turn_up.code if p.turn_up is not None else None,
        "declared": p.declared,
        "trick_number": p.trick_number,
        "hand": [c.code for c in p.hand],
        "trick": [c.code for c in p.trick],
        "pam_be_civil": p.pam_be_civil,
        "played": [c.code for c in p.played],
    }


@dataclass(frozen=True)
class _Ask:
    """What a maker is asked: the rule set, the game, the target rule, the seed."""

    rules: RuleSet
    preset: str
    game: str
    rule: str | None
    seed: int | str

    def question(self, kind: str, seat: int, prompt: Message, **fields: Any) -> Question:
        return Question(
            kind, self.game, self.preset, self.rule, self.seed, VERSION, seat, prompt, **fields
        )


def _bound_positions(
    ask: _Ask, rng: random.Random, attempt: int
) -> Iterator[tuple[Hand, int, LegalMoves, list[RuleApplication]]]:
    """The card plays of a seeded deal where a rule binds (the target rule, if asked): the
    hand, the seat to play, his legal moves and the rules that bound them."""
    hand = _deal(ask.rules, ask.game, rng, attempt)
    for seat in _play_decisions(hand, rng):
        if len(hand.choices()) == len(hand.hands[seat]):
            continue  # nothing binds: every card may be played
        moves = legal(hand.position(seat), seat=seat)
        binding = _binding(moves, ask.rule)
        if binding:
            yield hand, seat, moves, binding


def _make_legal_cards(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    for hand, seat, moves, _ in _bound_positions(ask, rng, attempt):
        held = hand.hands[seat]
        choices = [Choice(c.code, c.display) for c in held]
        rng.shuffle(choices)
        return ask.question(
            "legal-cards",
            seat,
            msg("question.legal-cards", p=seat),
            position=_position(hand, seat, ask.preset),
            choices=tuple(choices),
            answer=tuple(c.code for c in held if c in moves.legal),
            explanations=moves.explanations + moves.notes,
            multiple=True,
        )
    return None


def _make_why_not(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    for hand, seat, moves, binding in _bound_positions(ask, rng, attempt):
        app = binding[0]
        forbidden: Card = app.excluded[rng.randrange(len(app.excluded))]
        why = moves.why_not(forbidden)
        assert why is not None
        ids = [why.rule, *rng.sample(_distractors(moves, forbidden, ask.game), 3)]
        rng.shuffle(ids)
        return ask.question(
            "why-not",
            seat,
            msg("question.why-not", p=seat, card=forbidden),
            position=_position(hand, seat, ask.preset),
            choices=tuple(Choice(r, _rule_label(r)) for r in ids),
            answer=(why.rule,),
            explanations=(why,),
        )
    return None


def _make_trick_winner(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    hand = _deal(ask.rules, ask.game, rng, attempt)
    for _ in _play_decisions(hand, rng):
        pass
    for trick in hand.tricks:
        cards = list(trick.laid)
        result = trick_winner(ask.game, ask.rules, hand.trump, cards)
        if ask.rule is not None and ask.rule not in {a.rule for a in result.explanations}:
            continue
        return ask.question(
            "trick-winner",
            trick.leader,
            msg("question.trick-winner", trump=hand.trump),
            position={
                "game": ask.game,
                "rules": ask.preset,
                "trump": hand.trump,
                "trick": [c.code for c in cards],
            },
            choices=tuple(Choice(str(i), c.display) for i, c in enumerate(cards)),
            answer=(str(result.winner),),
            explanations=result.explanations,
        )
    return None


def _distractors(moves: LegalMoves, forbidden: Card, game: str) -> list[str]:
    """Rules that could plausibly have forbidden ``forbidden`` in this position: the lead rules
    on a lead, the following rules otherwise (Pam's only at five-card Loo), less every rule
    that did exclude it (those are right too)."""
    also = {a.rule for a in moves.explanations if forbidden in a.excluded}
    family = LEAD_RULES if not moves.position.trick else FOLLOW_RULES
    others = FOLLOW_RULES if not moves.position.trick else LEAD_RULES
    pool = [
        r for r in family if r not in also and (game == "five-card" or not r.startswith("pam-"))
    ]
    if len(pool) < 3:
        pool += [r for r in others if r not in also and not r.startswith("pam-")]
    return pool


def _rule_label(rule_id: str) -> str:
    name = catalogue_rule(rule_id).name
    return name[:1].upper() + name[1:]


_MAKERS: Final = {
    "legal-cards": _make_legal_cards,
    "why-not": _make_why_not,
    "trick-winner": _make_trick_winner,
}

__all__ = ["KINDS", "VERSION", "Choice", "Grade", "Question", "QuestionError", "grade", "question"]
