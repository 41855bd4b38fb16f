"""What every kind of question shares: a :class:`Question` and its :class:`Choice`\\ s, a
:class:`Grade`, what a maker is asked (:class:`Ask`), the :class:`Kind` each kind module
defines, and the helpers that tell a position from the learner's seat.

Nothing here knows a kind by its name: a kind's module says all of it in its :class:`Kind`.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final

from ..catalogue import rule as catalogue_rule
from ..errors import LooError
from ..hand import Action, Hand, HandSetup
from ..messages import Message, msg, remap, render
from ..play import LegalMoves, Position, RuleApplication
from ..rulesets import RuleSet
from .pool_history import pool_history

#: The generator's version: part of what makes a question reproducible. Raise it when a change
#: would make the same inputs give another question, and keep the older version's behaviour
#: behind ``ask.version`` while questions of it may still be stored (:data:`VERSIONS`).
VERSION: Final = 9


#: The versions whose questions can still be made again, answer included: a question stored
#: under one of them (a trainer question, a quiz answer) keeps its answer. Version 3 draws the
#: distractors of ``why-not`` from the rules that bind under the question's rule set, and adds
#: the stake to ``settlement`` (ante, stake-divisible). Version 4 plays peel as its recovered
#: p. 18 reads (A39): no must, and a single deal of one card each, asked about in
#: ``settlement``; versions 2 and 3 keep the must that was reconstructed before (:func:`rules_at`).
#: Version 5 answers what a second, independent model of the texts checked (issue 25: Peel's
#: single loo, Hoffmann's five-card dealer, positions that cannot happen, source quotations);
#: version 4 is kept as it was (its catalogue, ``catalogue-v4.json``, and :func:`rules_at`).
#: Version 6 (issue 26) varies the moment a ``declaration`` question about any rule asks
#: about (at Irish Loo it was nearly always the first declaration, "play or pass"), and says
#: how the cards were dealt in the answer of a ``procedure`` question about the deal.
#: Version 7 (issue 28) adds the coach's ``declare`` kind, and makes every other question as
#: version 6 did. Version 8 (issues 38 and 39) asks no ``source`` question at three-card or
#: Irish Loo about a rule of five-card Loo alone (Pam, flushes, the exchange: a three-card drill
#: asked about Pam), asks ``settlement`` questions about the lone five-card player who takes the
#: pool when the dealer passes too (``five-card-exchange``: each player may pass, A47), makes
#: its ``source`` questions from the catalogue whose modern quotations were cut to what a reader
#: may meet (versions 5 to 7 keep theirs, ``catalogue-v7.json``) and quotes at least five words
#: in a prompt; every other question as version 7. Version 9 (issue 39) reads Peel's p. 22 as
#: RULES.md A55 does: a player who interfered with the deal wins nothing in the hand (the
#: shares of his tricks stay in the pool for the next deal; ``interfering-winnings``, versions
#: 2 to 8 keep ``as-played`` through :func:`rules_at`); every other question as version 8.
#: (Every version from 5 keeps with a question made by play the hands of the session that led
#: to it, :attr:`Question.session`, for a check that the pool it shows is one play reaches,
#: A56: not part of what it shows; from version 9 a question whose deal carried a pool says, in
#: one more explanation, how those hands left it, :mod:`.pool_history`.)
VERSIONS: Final = (2, 3, 4, 5, 6, 7, 8, 9)


def draws_as(version: int) -> int:
    """The version whose seeded draws ``version`` makes (its generators' random numbers):
    versions 6 to 9 draw as 5 did. Version 6 changes two things of two kinds only, 7 adds a
    kind, 8 changes what three kinds may ask about or quote and 9 what one offence wins, so
    their other questions are version 5's, seed for seed (the lessons' and the tests' examples
    with them); before, each version drew anew."""
    return 5 if version in (6, 7, 8, 9) else version


#: How many seeded deals a search plays before it gives up.
MAX_DEALS: Final = 2000


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
    #: Whose question it is: the learner, always seat 0 (the seats of the position and of the
    #: sentences are counted from him). The prompt and the explanations are rendered with him
    #: as "you".
    seat: int
    prompt: Message
    #: What the question shows: for a card question, what the ``legal`` command takes; for a
    #: trick, what the ``winner`` command takes; for flushes, what the ``flush`` command takes.
    position: dict[str, Any]
    choices: tuple[Choice, ...]
    answer: tuple[str, ...]
    explanations: tuple[RuleApplication, ...]
    #: Select all that apply (else exactly one).
    multiple: bool = False
    #: The rule the question exercises: the target rule if one was asked for, else the rule
    #: that bound (what a learner's record counts it under).
    topic: str = ""
    #: Every rule that bound in the position (any of them could have been the target).
    bound: tuple[str, ...] = ()
    #: Where a question about a hand comes from: the hand's setup, its log up to the moment
    #: asked about, and the learner's seat at that table (for checking a question against a
    #: replay of its hand; not part of what a question shows).
    origin: tuple[HandSetup, tuple[Action, ...], int] | None = field(
        default=None, compare=False, repr=False
    )
    #: The options (RULES.md part 2 names) whose reading the answer rests on: read otherwise,
    #: the same question has another answer (:mod:`.readings`; version 5 on, else empty).
    readings: tuple[str, ...] = ()
    #: The hands played at the question's table before its hand, from the first deal of the
    #: session, each its setup and its actions: where the pool it carries came from, for a
    #: check that play reaches it (RULES.md A56; empty for a first deal, or a position not
    #: made by play). Not part of what a question shows.
    session: tuple[tuple[HandSetup, tuple[Action, ...]], ...] = field(
        default=(), compare=False, repr=False
    )

    @property
    def disputed(self) -> bool:
        """Whether two defensible readings of the text answer it differently: a graded quiz
        never uses such a question (the trainer shows it, marked)."""
        return bool(self.readings)

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
            **({"readings": list(self.readings)} if self.readings else {}),
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


def rules_at(rules: RuleSet, version: int) -> RuleSet:
    """The rule set a question of ``version`` was made under, so that a stored question of an
    older version is made again exactly:

    - before version 4, peel was played with the must reconstructed from hoffmann (on the
      first deal, after a hand with no loo and after a flush, without a miss), which p. 18,
      recovered, shows the book never had (A39);
    - before version 5 (issue 25), peel's penalties before the play were a full loo, not the
      single loo of p. 23-24 (``penalty-loo-before-play``); a player looed for an offence, or
      made to retire, could still take the pool without play or keep a trick won before he
      retired (``offender-winnings``); and hoffmann's five-card dealer had to play against one
      player, on a reading of ¶11 that ¶9's "at the option of each player either to play or to
      pass" overrides (A47, revised; ``dealer-vs-one-5c``);
    - before version 9 (issue 39), a peel player who interfered with the deal played on with
      an equal chance, as the misdealer does; p. 22 leaves that chance to looking at the
      hands, declaring out of turn and a misdeal alone (A55, ``interfering-winnings``)."""
    if version < 4 and rules.single_deal == "one-card":
        rules = dataclasses.replace(
            rules, must="first-deal+after-no-loo+after-flush", single_deal="none"
        )
    if version < 5:
        dealer = rules.dealer_vs_one_5c
        if rules.source == "hoffmann" and "dealer-vs-one-5c" not in rules.overrides:
            dealer = "own"
        rules = dataclasses.replace(
            rules,
            penalty_loo_before_play="full-loo",
            look_hand_loo_to="next-pool",
            offender_winnings="as-played",
            dealer_vs_one_5c=dealer,
        )
    if version < 9:
        rules = dataclasses.replace(rules, interfering_winnings="as-played")
    return rules


@dataclass(frozen=True)
class Ask:
    """What a maker is asked: the rule set, the game, the target rule, the seed, and the
    generator's version to make it by."""

    rules: RuleSet
    preset: str
    game: str
    rule: str | None
    seed: int | str
    version: int = VERSION
    #: The hands a seeded search played before the one it asks about (its session, filled by
    #: :func:`~.deals.deal_hand`), kept with the question made (:attr:`Question.session`).
    played: list[tuple[HandSetup, tuple[Action, ...]]] = field(
        default_factory=list, compare=False, repr=False
    )

    def wants(self, bound: Iterable[str]) -> bool:
        """Whether a position where ``bound`` rules bound answers the request."""
        return self.rule is None or self.rule in bound

    def question(
        self,
        kind: str,
        prompt: Message,
        bound: Sequence[str],
        seats: Callable[[int], int] | None = None,
        **fields: Any,
    ) -> Question:
        """The question, its sentences' seats counted from the learner by ``seats``."""
        explanations: tuple[RuleApplication, ...] = fields.pop("explanations")
        if seats is not None:
            prompt = remap(prompt, seats)
            explanations = _turned(explanations, seats)
        bound = tuple(dict.fromkeys(bound))
        told = self._pool_history(fields)
        if told is not None:
            explanations = (*explanations, told)
        return Question(
            kind,
            self.game,
            self.preset,
            self.rule,
            self.seed,
            self.version,
            0,
            prompt,
            explanations=explanations,
            topic=self.rule or bound[0],
            bound=bound,
            session=tuple(self.played),
            **fields,
        )

    def _pool_history(self, fields: Mapping[str, Any]) -> RuleApplication | None:
        """From version 9, where the pool a question shows came from, if it was carried from
        the hands its table played before (A56: :mod:`.pool_history`)."""
        position = fields.get("position") or {}
        origin = fields.get("origin")
        if self.version < 9 or origin is None or not self.played:
            return None
        if "pool" not in position and "carried" not in position:
            return None
        setup = origin[0]
        pool = position.get("pool")
        if pool is None:
            pool = Hand.replay(setup, ()).pool_at_start
        return pool_history(setup, self.played, pool, pool - setup.pool)


def seats_from(seat: int, players: int) -> Callable[[int], int]:
    """Seats counted from ``seat`` (who becomes seat 0)."""
    return lambda s: (s - seat) % players


def declarations(hand: Hand, seats: Callable[[int], int]) -> list[list[Any]]:
    """The declarations made so far in ``hand``, as a position shows them: [seat, choice],
    each seat as the question numbers it (``seats``)."""
    return [[seats(a.seat), a.choice] for a in hand.log if a.kind == "declare"]


def _turned(
    apps: Iterable[RuleApplication], seats: Callable[[int], int]
) -> tuple[RuleApplication, ...]:
    return tuple(RuleApplication(a.rule, remap(a.message, seats), a.excluded) for a in apps)


def message_keys(m: Message) -> Iterator[str]:
    """The keys of a sentence and of every sentence within it."""
    yield m.key
    for value in m.args.values():
        # (A Message is a tuple too: only a tuple of values is looked into.)
        many = isinstance(value, tuple) and not isinstance(value, Message)
        for v in value if many else (value,):
            if isinstance(v, Message):
                yield from message_keys(v)


def bound_by(moves: LegalMoves, rule: str | None) -> list[RuleApplication]:
    """The rule applications that bound this position (the target rule's, if one is asked)."""
    return [a for a in moves.explanations if a.excluded and (rule is None or a.rule == rule)]


def hand_position(hand: Hand, seat: int, preset: str) -> dict[str, Any]:
    return shown_position(hand.position(seat), preset)


def shown_position(p: Position, preset: str) -> dict[str, Any]:
    """A position as a question shows it: what the ``legal`` command takes."""
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


def table_position(
    ask: Ask, hand: Hand, seats: Callable[[int], int], **shown: Any
) -> dict[str, Any]:
    """A question's position about a hand: the table (its rule set, players and dealer, seats
    counted from the learner), and what else it shows."""
    return {
        "game": ask.game,
        "rules": ask.preset,
        "players": hand.players,
        "dealer": seats(hand.dealer),
        **shown,
    }


def seat_choice(seat: int) -> Choice:
    return Choice(f"seat:{seat}", render(msg("question.seat", p=seat), 0))


def rule_label(rule_id: str) -> str:
    name = catalogue_rule(rule_id).name
    return name[:1].upper() + name[1:]


@cache
def stored_coverage() -> dict[str, dict[str, dict[str, tuple[str, ...]]]]:
    """``data/coverage.json``: which rules each kind can ask about, by preset and game, as the
    generators found (``python -m games.loo.questions``); read once."""
    path = resources.files("games.loo") / "data" / "coverage.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        preset: {game: {k: tuple(ids) for k, ids in kinds.items()} for game, kinds in games.items()}
        for preset, games in data.items()
    }


#: One attempt of a kind's seeded search: a question, or None to try another deal.
Maker = Callable[["Ask", random.Random, int], "Question | None"]
#: A kind's question about an authored position (a lesson's exercise): the position's fields
#: and the card asked about (``why-not``); None where the rule asked about does not bind.
AtMaker = Callable[["Ask", random.Random, Mapping[str, Any], "str | None"], "Question | None"]


@dataclass(frozen=True)
class Kind:
    """One kind of question: all that the bank, the trainer and the command line know of it.
    Each kind's module defines one, and the package's :data:`~games.loo.questions.REGISTRY`
    lists them; every table that was keyed by a kind's name reads it instead."""

    #: Part of a question's identity: never renamed.
    name: str
    #: The kind in a few words, as the trainer lists it.
    title: str
    #: One attempt of the seeded search.
    make: Maker
    #: The rules it knows how to ask about (:func:`~games.loo.questions.coverage` finds which
    #: it can under each rule set and game), or a function of the generator's version.
    rules: tuple[str, ...] | Callable[[int], tuple[str, ...]]
    #: Whether a question about a rule outside ``rules`` is searched for all the same (its
    #: maker says whether it can); else it is refused without a search.
    any_rule: bool = False
    #: The first version of the generator that makes it.
    since: int = 2
    #: Whether it is asked when the learner names no kind (not ``source``, which asks about
    #: the texts rather than the play).
    about_play: bool = True
    #: A question of judgement (the coach's odds), not of what a rule says: a wrong answer
    #: does not bring its rule back for review (``lessons.trainer.reviews``).
    judgement: bool = False
    #: The game it is asked at when none is named, if the rule set has it (else the rule set's
    #: first game).
    game: str | None = None
    #: Asks it about an authored position, if a lesson may.
    at: AtMaker | None = None
    #: The shape of what its position shows, for a page to draw (kinds may share one):
    #: ``cards``, ``trick``, ``flush``, ``declaration``, ``settlement``, ``source``,
    #: ``procedure``.
    shows: str = ""

    #: The answer the question's position has under other rules (another reading of an
    #: unclear text: :mod:`.readings`), or None where it cannot be asked under them; None if
    #: the kind rests on no reading.
    answer_under: Callable[[Question, RuleSet], tuple[str, ...] | None] | None = None
    #: The options whose reading the question's answer shows it rests on, where the other
    #: reading is no value of the option (the meaning of a stated rule's words, :mod:`.readings`).
    reads: Callable[[Question], tuple[str, ...]] | None = None

    def family(self, version: int = VERSION) -> tuple[str, ...]:
        """The rules it knows how to ask about, by the generator of ``version``."""
        return self.rules(version) if callable(self.rules) else self.rules
