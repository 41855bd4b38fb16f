"""Rule questions whose answers no person wrote: the engine deals a position where a rule
binds, asks about it, and grades the answer with the same code that enforces play.

A :class:`Question` is reproducible from (:data:`VERSION`, kind, preset, game, target rule,
seed): :func:`question` searches seeded deals deterministically until the target rule binds
(a bounded search: :class:`QuestionError` when the kind cannot exercise that rule). The kinds:

- ``legal-cards``: a position in the play, "Which of your cards may you play?" (select all);
  the answer is :func:`~games.loo.play.legal`'s;
- ``why-not``: a card the rules forbid there, "Why may you not play the 6♦?" (one of four
  rules); the answer is the rule that excluded it;
- ``trick-winner``: a complete trick, "Who takes this trick?"; the answer is
  :func:`~games.loo.play.trick_winner`'s;
- ``flush``: five-card hands with flushes, "Whose flush loos the board?" (or, asked about the
  exemption, "Who is excused from paying?"); the answer is
  :func:`~games.loo.flushes.compare_flushes`'s;
- ``declaration``: a moment of the declarations, "What may you do now?" (select all); the
  answer is :meth:`Hand.options() <games.loo.hand.Hand.options>`'s choices;
- ``settlement``: a finished hand, "How many counters does East receive or pay?"; the answer
  is what the hand's settlement paid;
- ``source``: "Which sources state this rule?" (select all) or "Which source says this?",
  from the catalogue's citations.

Every question is told from the learner's seat, which is seat 0: the seats of its position
and of its sentences are counted from him (a page names them as the practice table does).
:func:`grade` says right or wrong (a select-all question is right only when exactly right),
with feedback per choice and the engine's explanations for the position, each a message that
a page renders for the learner ("You must follow suit …"). :func:`coverage` says which rules
each kind can ask about under a rule set, found by the generators themselves, and
:func:`question_for` picks a question among them (the trainer's "any rule" or "a group").
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

from .cards import BY_CODE, PACK, SUIT_NAMES, Card, parse_card, parse_cards, parse_suit
from .catalogue import BEFORE_PEEL_RECOVERED, CURRENT, SOURCE_IDS, UnknownRule
from .catalogue import rule as catalogue_rule
from .catalogue import rules as catalogue_rules
from .errors import CardError, LooError, PositionError
from .flushes import compare_flushes, find_flush
from .hand import Action, Hand, HandSetup, Payment
from .hand.deal import deal_order
from .hand.irregular import IRREGULARITIES
from .hand.laws import OFFENCE_RULE
from .messages import Message, msg, remap, render
from .play import LegalMoves, Position, RuleApplication, Trumps, legal, trick_winner
from .rng import rng_for
from .rulesets import GAMES, PRESETS, RuleSet
from .view import view_for

#: The generator's version: part of what makes a question reproducible. Raise it when a change
#: would make the same inputs give another question, and keep the older version's behaviour
#: behind ``ask.version`` while questions of it may still be stored (:data:`VERSIONS`).
VERSION: Final = 4

#: The versions whose questions can still be made again, answer included: a question stored
#: under one of them (a trainer question, a quiz answer) keeps its answer. Version 3 draws the
#: distractors of ``why-not`` from the rules that bind under the question's rule set, and adds
#: the stake to ``settlement`` (ante, stake-divisible). Version 4 plays peel as its recovered
#: p. 18 reads (A39): no must, and a single deal of one card each, asked about in
#: ``settlement``; versions 2 and 3 keep the must that was reconstructed before (:func:`_rules_at`).
VERSIONS: Final = (2, 3, 4)

KINDS: Final = (
    "legal-cards",
    "why-not",
    "trick-winner",
    "flush",
    "declaration",
    "settlement",
    "source",
    "penalty",
    "procedure",
)

#: The kinds each version makes (a version makes the kinds of those before it).
SINCE: Final = {"penalty": 3, "procedure": 3}

#: How many seeded deals a search plays before it gives up.
MAX_DEALS: Final = 2000

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
FLUSH_RULES: Final = (
    "flush-loos-the-board",
    "flush-precedence",
    "flush-tie-break",
    "flush-payment-exemption",
)
DECLARATION_RULES: Final = (
    "take-miss",
    "miss-only-once",
    "dealer-must-play-against-one",
    "master",
    "miss-holder-alone-wins",
    "must",
    "club-law",
    "five-card-exchange",
    "irish-loo",
    "miss-holder-must-play",
)
SETTLEMENT_RULES: Final = (
    "single",
    "pool-division",
    "indivisible-pool-rounding",
    "looed",
    "limited-loo",
    "unlimited-loo",
    "mixed-loo",
    "dealer-defends-miss",
    "all-pass-dealer-wins",
    "miss-holder-alone-wins",
)

#: What a ``penalty`` question can be about: an irregularity let stand at a laws table (a
#: rule set whose source states penalties), and what follows it.
PENALTY_RULES: Final = (
    "penalty-misdeal",
    "faced-card-in-pack",
    "penalty-interfering-with-deal",
    "penalty-declare-out-of-turn",
    "declare-in-turn",
    "look-at-cards-in-turn",
    "penalty-look-at-miss",
    "penalty-look-at-others-cards",
    "penalty-exposed-card",
    "penalty-play-out-of-turn",
    "penalty-revoke",
    "penalty-fail-to-head",
    "penalty-lead-violation",
    "revoke-replay",
    "penalty-destination",
)
#: What a ``procedure`` question can be about: the deal, the stake, the turn to declare and to
#: lead, what nobody sees, when a flush is shown.
PROCEDURE_RULES: Final = (
    "deal-order",
    "turn-up-trump",
    "ante",
    "stake-divisible",
    "declare-in-turn",
    "elder-leads-first",
    "miss-holder-leads",
    "discards-unseen",
    "flush-timing",
)

#: The rules each kind knows how to ask about (:func:`coverage` finds which of them it can,
#: under each rule set and game).
FAMILIES: Final[dict[str, tuple[str, ...]]] = {
    "legal-cards": FOLLOW_RULES + LEAD_RULES,
    "why-not": FOLLOW_RULES + LEAD_RULES,
    "trick-winner": TRICK_RULES,
    "flush": FLUSH_RULES,
    "declaration": DECLARATION_RULES,
    "settlement": SETTLEMENT_RULES,
    "penalty": PENALTY_RULES,
    "procedure": PROCEDURE_RULES,
}

#: Everything a three-card player may declare, and a five-card or Irish one.
DECLARATIONS: Final = {
    "three-card": ("play", "pass", "take-miss", "defend-miss", "defend-master"),
    "five-card": ("play", "pass"),
    "irish": ("play", "pass"),
}


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


def _check(preset: str, game: str | None, kind: str | None = None) -> tuple[RuleSet, str]:
    """The rule set and the game: the preset's first game if none is given, but five-card Loo
    for a flush question (the only game with flushes), if the preset has it."""
    if preset not in PRESETS:
        raise QuestionError(f"unknown rule set {preset!r}: choose one of {', '.join(PRESETS)}")
    rules = RuleSet.preset(preset)
    if game is None and kind == "flush" and rules.supports("five-card"):
        game = "five-card"
    game = game or rules.games[0]
    if game not in GAMES or not rules.supports(game):
        raise QuestionError(f"the {preset} rules describe no {game} Loo")
    return rules, game


def _check_rule(rule: str | None) -> None:
    """A QuestionError (a LooError, which the command line reports) for a rule id that is not
    in the catalogue: the catalogue's own UnknownRule is a KeyError."""
    if rule is None:
        return
    try:
        catalogue_rule(rule)
    except UnknownRule:
        raise QuestionError(f"unknown rule {rule!r}: it is not in the rule catalogue") from None


def question(
    kind: str,
    preset: str,
    *,
    game: str | None = None,
    rule: str | None = None,
    seed: int | str,
    version: int = VERSION,
) -> Question:
    """The question of ``kind`` about ``rule`` (any rule, if None) under ``preset`` at
    ``game`` (if None, the preset's first, or five-card Loo for ``flush``), made from
    ``seed`` by the generator of ``version`` (one of :data:`VERSIONS`): always the same
    question."""
    if kind not in KINDS:
        raise QuestionError(f"unknown kind {kind!r}: choose one of {', '.join(KINDS)}")
    rules, game = _check(preset, game, kind)
    _check_rule(rule)
    _check_version(version)
    return _search(kind, rules, preset, game, rule, seed, MAX_DEALS, version)


def _rules_at(rules: RuleSet, version: int) -> RuleSet:
    """The rule set a question of ``version`` was made under: before version 4, peel was
    played with the must reconstructed from hoffmann (on the first deal, after a hand with no
    loo and after a flush, without a miss), which p. 18, recovered, shows the book never had
    (A39). Kept so that a stored question of those versions is made again exactly."""
    if version < 4 and rules.single_deal == "one-card":
        return dataclasses.replace(
            rules, must="first-deal+after-no-loo+after-flush", single_deal="none"
        )
    return rules


def _check_version(version: int) -> None:
    if version not in VERSIONS:
        raise QuestionError(
            f"no question version {version!r}: this question bank makes versions "
            f"{', '.join(map(str, VERSIONS))}"
        )


def _search(
    kind: str,
    rules: RuleSet,
    preset: str,
    game: str,
    rule: str | None,
    seed: int | str,
    deals: int,
    version: int = VERSION,
) -> Question:
    if version < SINCE.get(kind, 0):
        raise QuestionError(f"question version {version} makes no {kind} questions")
    rng = rng_for("question", version, kind, preset, game, rule, seed)
    maker = _MAKERS[kind]
    ask = _Ask(_rules_at(rules, version), preset, game, rule, seed, version)
    if rule is None or kind == "source" or rule in FAMILIES[kind]:
        for attempt in range(deals):
            made = maker(ask, rng, attempt)
            if made is not None:
                return made
    raise QuestionError(
        f"no {kind} question about {rule or 'any rule'} under {preset} ({game} Loo) was found "
        f"in {deals} deals: this kind cannot ask about it"
    )


def grade(q: Question, response: Sequence[str]) -> Grade:
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


# -- what each kind can ask about -----------------------------------------------------------------


def build_coverage() -> dict[str, dict[str, dict[str, list[str]]]]:
    """Which rules each kind can ask about, by preset and game: found by asking the generators
    for a question about every rule of their families (``data/coverage.json`` keeps it; a test
    checks that it is what this finds)."""
    table: dict[str, dict[str, dict[str, list[str]]]] = {}
    for preset in PRESETS:
        rules = RuleSet.preset(preset)
        table[preset] = {}
        for game in rules.games:
            table[preset][game] = {
                kind: [
                    r
                    for r in (FAMILIES.get(kind) or _source_rules())
                    if _can_ask(kind, rules, preset, game, r)
                ]
                for kind in KINDS
            }
    return table


def _can_ask(kind: str, rules: RuleSet, preset: str, game: str, rule: str) -> bool:
    """Whether the question about ``rule`` of seed ``"coverage"`` can be made."""
    try:
        _search(kind, rules, preset, game, rule, "coverage", MAX_DEALS)
    except QuestionError:
        return False
    return True


@cache
def _coverage() -> dict[str, dict[str, dict[str, tuple[str, ...]]]]:
    path = resources.files("games.loo") / "data" / "coverage.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        preset: {game: {k: tuple(ids) for k, ids in kinds.items()} for game, kinds in games.items()}
        for preset, games in data.items()
    }


def coverage(preset: str, game: str | None = None) -> dict[str, tuple[str, ...]]:
    """Each kind's rules that it can ask about under ``preset`` at ``game``."""
    _, game = _check(preset, game)
    return dict(_coverage()[preset][game])


def question_for(
    preset: str,
    game: str | None = None,
    *,
    rules: Iterable[str] | None = None,
    kinds: Iterable[str] | None = None,
    seed: int | str,
) -> Question:
    """A question about one of ``rules`` (None: any rule) of one of ``kinds`` (None: any kind
    but ``source``, which asks about the texts rather than the play, unless it is named), the
    kind and the rule picked from :func:`coverage` by ``seed``: always the same question."""
    _, game = _check(preset, game)
    wanted = None if rules is None else set(rules)
    asked = [k for k in KINDS if k != "source"] if kinds is None else list(kinds)
    unknown = [k for k in asked if k not in KINDS]
    if unknown:
        raise QuestionError(f"unknown kind {unknown[0]!r}: choose one of {', '.join(KINDS)}")
    table = coverage(preset, game)
    candidates = {k: [r for r in table[k] if wanted is None or r in wanted] for k in asked}
    kinds_asked = [k for k in asked if candidates[k]]
    if not kinds_asked:
        raise QuestionError(
            f"no question of the kinds asked can exercise these rules under {preset} ({game} Loo)"
        )
    rng = rng_for("question-for", VERSION, preset, game, sorted(wanted or ()), asked, seed)
    # A kind, then one of its rules: each kind as likely as another.
    kind = kinds_asked[rng.randrange(len(kinds_asked))]
    rule = candidates[kind][rng.randrange(len(candidates[kind]))]
    return question(kind, preset, game=game, rule=None if wanted is None else rule, seed=seed)


def question_at(
    kind: str,
    preset: str,
    *,
    game: str | None = None,
    position: Mapping[str, Any],
    rule: str | None = None,
    card: str | None = None,
    seed: int | str,
    version: int = VERSION,
) -> Question:
    """The question of ``kind`` about an authored ``position`` (a lesson's exercise), in the
    form a question shows it: for ``legal-cards`` and ``why-not``, what the ``legal`` command
    takes (and, for ``why-not``, the forbidden ``card``, or None for one that ``rule``
    excluded); for ``trick-winner``, ``trump`` and ``trick``; for ``flush``, ``trump`` and
    ``hands``. The learner is the player to move (or the elder hand). The answer is the
    engine's; ``seed`` shuffles the choices. :class:`QuestionError` if ``rule`` does not bind
    there, or the position is not one."""
    if kind not in AUTHORED_KINDS:
        raise QuestionError(
            f"a {kind} question cannot be asked about a position: only {', '.join(AUTHORED_KINDS)}"
        )
    rules, game = _check(preset, game, kind)
    _check_rule(rule)
    _check_version(version)
    ask = _Ask(_rules_at(rules, version), preset, game, rule, seed, version)
    rng = rng_for("question-at", version, kind, preset, game, rule, seed)
    data = dict(position)
    try:
        trump = parse_suit(data.get("trump"))
        made: Question | None
        if kind == "trick-winner":
            made = _trick_winner(ask, trump, _codes(data.get("trick"), "trick"))
        elif kind == "flush":
            if game != "five-card":
                raise QuestionError(f"flushes are shown only in five-card Loo, not {game} Loo")
            hands = data.get("hands")
            if not isinstance(hands, list):
                raise QuestionError('"hands" must be a list of hands, each of five cards')
            made = _flush(ask, trump, [_codes(h, f"hand {i + 1}") for i, h in enumerate(hands)])
        else:
            made = _card_question_at(ask, rng, kind, trump, data, card)
    except (PositionError, CardError) as e:
        raise QuestionError(f"not a position: {e}") from None
    if made is None:
        raise QuestionError(
            f"no {kind} question about {rule or 'any rule'} under {preset} ({game} Loo) in this "
            "position: the rule does not bind there"
        )
    return made


#: The kinds a lesson may ask about a position of its own.
AUTHORED_KINDS: Final = ("legal-cards", "why-not", "trick-winner", "flush")


def _codes(value: object, what: str) -> tuple[Card, ...]:
    """Cards as a list of codes, or as one string of codes separated by spaces."""
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise QuestionError(f'"{what}" must be a list of cards, such as ["QH", "3S"]')
    return parse_cards(value, what=what)


def _card_question_at(
    ask: _Ask,
    rng: random.Random,
    kind: str,
    trump: str,
    data: dict[str, Any],
    card: str | None,
) -> Question | None:
    turn_up = data.get("turn_up")
    whole = {name: data.get(name, default) for name, default in _WHOLE_FIELDS.items()}
    for name, value in whole.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise QuestionError(f'"{name}" must be a whole number, not {value!r}')
    p = Position(
        game=ask.game,
        rules=ask.rules,
        trump=trump,
        hand=_codes(data.get("hand"), "hand"),
        trick=_codes(data.get("trick", []), "trick"),
        turn_up=None if turn_up is None else parse_card(turn_up),
        declared=whole["declared"],
        trick_number=whole["trick_number"],
        pam_be_civil=bool(data.get("pam_be_civil", False)),
        played=_codes(data.get("played", []), "played"),
    )
    moves = legal(p, seat=0)
    binding = _binding(moves, ask.rule)
    if not binding:
        return None
    position = _shown(p, ask.preset)
    if kind == "legal-cards":
        return _legal_cards(ask, rng, moves, binding, 0, p.declared, position)
    forbidden = None if card is None else parse_card(card)
    if forbidden is not None and forbidden not in p.hand:
        raise QuestionError(f"the card asked about, {forbidden.code}, is not in the hand")
    return _why_not(ask, rng, moves, binding[0], forbidden, 0, p.declared, position)


_WHOLE_FIELDS: Final = {"declared": 2, "trick_number": 1}


# -- searching the deals --------------------------------------------------------------------------


def _deal(
    rules: RuleSet, game: str, rng: random.Random, attempt: int, *, laws: bool = False
) -> Hand:
    """A seeded deal at a table of a size the rule set allows: the first deal of a session or
    a later one (after a loo, or a hand nobody was looed in, whose pool is carried); with
    ``laws``, at a table where an irregularity stands and is punished."""
    low, high = rules.players(game)
    players = rng.randint(max(low, 3), min(high, 6))
    first = rng.random() < 0.4
    no_loo = not first and rng.random() < 0.3
    carried = 0 if first or no_loo else rules.stake(game) * rng.randint(0, players)
    setup = HandSetup(
        game=game,
        rules=rules,
        players=players,
        dealer=rng.randrange(players),
        hand_number=1 if first else 2,
        seed=f"q:{rng.random()}:{attempt}",
        balances=(0,) * players,
        pool=carried,
        first=first,
        prev_no_loo=no_loo,
        trace=True,
        laws=laws,
    )
    return Hand.deal(setup)


def _random_step(hand: Hand, rng: random.Random) -> None:
    offered = hand.choices()
    hand.step(offered[int(rng.random() * len(offered))])


def _play_decisions(hand: Hand, rng: random.Random) -> Iterator[int]:
    """Play ``hand`` with random choices, yielding the seat to play before each card is played
    (the caller looks at the position; it changes nothing)."""
    while not hand.over:
        if hand.phase == "play":
            seat = hand.to_act
            assert seat is not None
            yield seat
        _random_step(hand, rng)


def _civil_play_decisions(hand: Hand, rng: random.Random) -> Iterator[int]:
    """As :func:`_play_decisions`, but a leader who holds the ace of trumps (five-card Loo)
    leads it calling "Pam, be civil": the only way that rule binds, and a call that
    :meth:`Hand.choices` never makes. Only the search for that rule plays so (the rest of the
    play is the seed's, as ever), which leaves every other question what it was."""
    while not hand.over:
        if hand.phase == "play":
            seat = hand.to_act
            assert seat is not None
            yield seat
            trick = hand.trick
            ace = hand.trumps.ace
            leading = trick is None or not trick.plays
            if leading and ace in hand.hands[seat]:
                hand.apply(Action.play(seat, ace, civil=True))
                continue
        _random_step(hand, rng)


def _binding(moves: LegalMoves, rule: str | None) -> list[RuleApplication]:
    """The rule applications that bound this position (the target rule's, if one is asked)."""
    return [a for a in moves.explanations if a.excluded and (rule is None or a.rule == rule)]


def _position(hand: Hand, seat: int, preset: str) -> dict[str, Any]:
    return _shown(hand.position(seat), preset)


def _shown(p: Position, preset: str) -> dict[str, Any]:
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


def _from(seat: int, players: int) -> Callable[[int], int]:
    """Seats counted from ``seat`` (who becomes seat 0)."""
    return lambda s: (s - seat) % players


def _turned(
    apps: Iterable[RuleApplication], seats: Callable[[int], int]
) -> tuple[RuleApplication, ...]:
    return tuple(RuleApplication(a.rule, remap(a.message, seats), a.excluded) for a in apps)


@dataclass(frozen=True)
class _Ask:
    """What a maker is asked: the rule set, the game, the target rule, the seed, and the
    generator's version to make it by."""

    rules: RuleSet
    preset: str
    game: str
    rule: str | None
    seed: int | str
    version: int = VERSION

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
            **fields,
        )


# -- the kinds ------------------------------------------------------------------------------------


def _bound_positions(
    ask: _Ask, rng: random.Random, attempt: int
) -> Iterator[tuple[Hand, int, LegalMoves, list[RuleApplication]]]:
    """The card plays of a seeded deal where a rule binds (the target rule, if asked): the
    hand, the seat to play, his legal moves and the rules that bound them."""
    hand = _deal(ask.rules, ask.game, rng, attempt)
    decisions = (
        _civil_play_decisions(hand, rng)
        if ask.rule == "pam-be-civil" and ask.game == "five-card"
        else _play_decisions(hand, rng)
    )
    for seat in decisions:
        if len(hand.choices()) == len(hand.hands[seat]):
            continue  # nothing binds: every card may be played
        moves = legal(hand.position(seat), seat=seat)
        binding = _binding(moves, ask.rule)
        if binding:
            yield hand, seat, moves, binding


def _make_legal_cards(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    for hand, seat, moves, binding in _bound_positions(ask, rng, attempt):
        return _legal_cards(
            ask, rng, moves, binding, seat, hand.players, _position(hand, seat, ask.preset)
        )
    return None


def _legal_cards(
    ask: _Ask,
    rng: random.Random,
    moves: LegalMoves,
    binding: Sequence[RuleApplication],
    seat: int,
    players: int,
    position: dict[str, Any],
) -> Question:
    """Which of his cards ``seat`` may play, where ``binding`` bound his moves."""
    held = moves.position.hand
    choices = [Choice(c.code, c.display) for c in held]
    rng.shuffle(choices)
    return ask.question(
        "legal-cards",
        msg("question.legal-cards", p=seat),
        [a.rule for a in binding],
        _from(seat, players),
        position=position,
        choices=tuple(choices),
        answer=tuple(c.code for c in held if c in moves.legal),
        explanations=moves.explanations + moves.notes,
        multiple=True,
    )


def _make_why_not(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    for hand, seat, moves, binding in _bound_positions(ask, rng, attempt):
        made = _why_not(
            ask, rng, moves, binding[0], None, seat, hand.players, _position(hand, seat, ask.preset)
        )
        if made is not None:
            return made
    return None


def _why_not(
    ask: _Ask,
    rng: random.Random,
    moves: LegalMoves,
    app: RuleApplication,
    forbidden: Card | None,
    seat: int,
    players: int,
    position: dict[str, Any],
) -> Question | None:
    """Why ``seat`` may not play ``forbidden`` (None: a card that ``app``'s rule is the reason
    for; another rule may have excluded some of its cards first, the one the learner is
    told), or None if there is no such card."""
    if forbidden is None:
        reasons = {c: moves.why_not(c) for c in app.excluded}
        cards = [c for c, why in reasons.items() if why is not None and why.rule == app.rule]
        if not cards:
            return None
        forbidden = cards[rng.randrange(len(cards))]
    why = moves.why_not(forbidden)
    if why is None:
        return None
    ids = [why.rule, *rng.sample(_distractors(ask, rng, moves, forbidden), 3)]
    rng.shuffle(ids)
    return ask.question(
        "why-not",
        msg("question.why-not", p=seat, card=forbidden),
        [why.rule],
        _from(seat, players),
        position=position,
        choices=tuple(Choice(r, _rule_label(r)) for r in ids),
        answer=(why.rule,),
        explanations=(why,),
    )


def _make_trick_winner(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    hand = _deal(ask.rules, ask.game, rng, attempt)
    for _ in _play_decisions(hand, rng):
        pass
    for trick in hand.tricks:
        made = _trick_winner(ask, hand.trump, trick.laid)
        if made is not None:
            return made
    return None


def _trick_winner(ask: _Ask, trump: str, cards: Sequence[Card]) -> Question | None:
    """Who takes the trick of ``cards``, if the rule asked about decides it."""
    result = trick_winner(ask.game, ask.rules, trump, list(cards))
    # The rule that decided it first: Pam's over the plain order of the cards.
    bound = sorted({a.rule for a in result.explanations}, key=TRICK_RULES.index, reverse=True)
    if not ask.wants(bound):
        return None
    return ask.question(
        "trick-winner",
        msg("question.trick-winner", trump=trump),
        bound,
        position={
            "game": ask.game,
            "rules": ask.preset,
            "trump": trump,
            "trick": [c.code for c in cards],
        },
        choices=tuple(Choice(str(i), c.display) for i, c in enumerate(cards)),
        answer=(str(result.winner),),
        explanations=result.explanations,
    )


def _flush_hands(
    rng: random.Random, trumps: Trumps, players: int, flushes: int
) -> list[list[Card]] | None:
    """``players`` five-card hands, ``flushes`` of them dealt a flush (others may hold one by
    chance): the elder hand first."""
    pack = list(PACK)
    rng.shuffle(pack)
    holders = set(rng.sample(range(players), flushes))
    hands: list[list[Card]] = [[] for _ in range(players)]
    for seat in sorted(holders):
        suit = rng.choice(list(SUIT_NAMES))
        with_pam = trumps.pam is not None and trumps.pam in pack and rng.random() < 0.35
        of_suit = [c for c in pack if c.suit == suit and c is not trumps.pam]
        need = 4 if with_pam else 5
        if len(of_suit) < need:
            return None
        cards = of_suit[:need] + ([trumps.pam] if with_pam and trumps.pam else [])
        for c in cards:
            pack.remove(c)
        rng.shuffle(cards)
        hands[seat] = cards
    for seat in range(players):
        if seat not in holders:
            hands[seat], pack = pack[:5], pack[5:]
    return hands


def _make_flush(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    if ask.game != "five-card":
        raise QuestionError(f"flushes are shown only in five-card Loo, not {ask.game} Loo")
    trump = rng.choice(list(SUIT_NAMES))
    trumps = Trumps.of(ask.game, ask.rules, trump)
    players = rng.randint(3, 6)
    several = ask.rule in ("flush-precedence", "flush-tie-break") or rng.random() < 0.6
    hands = _flush_hands(rng, trumps, players, rng.randint(2, 3) if several else 1)
    if hands is None:
        return None
    return _flush(ask, trump, hands)


def _flush(ask: _Ask, trump: str, hands: Sequence[Sequence[Card]]) -> Question | None:
    """Whose flush among ``hands`` loos the board (or who is excused from paying), if the rule
    asked about decides it."""
    players = len(hands)
    result = compare_flushes(ask.game, ask.rules, trump, hands)
    bound = [a.rule for a in result.explanations]
    if result.winner is None or not ask.wants(bound):
        return None
    position = {
        "game": ask.game,
        "rules": ask.preset,
        "trump": trump,
        "hands": [[c.code for c in h] for h in hands],
    }
    labels = [" ".join(c.display for c in h) for h in hands]
    if ask.rule == "flush-payment-exemption":
        # Asked about the exemption: who, of the others, does not pay the flush.
        return ask.question(
            "flush",
            msg("question.flush-exempt", trump=trump, p=result.winner),
            ["flush-payment-exemption", *bound],
            position=position,
            choices=tuple(Choice(str(i), labels[i]) for i in range(players) if i != result.winner),
            answer=tuple(str(i) for i in result.exempt),
            explanations=result.explanations,
            multiple=True,
        )
    return ask.question(
        "flush",
        msg("question.flush", trump=trump),
        bound,
        position=position,
        choices=tuple(Choice(str(i), labels[i]) for i in range(players)),
        answer=(str(result.winner),),
        explanations=result.explanations,
    )


#: How each declaration reads as a choice.
DECLARATION_LABELS: Final = {
    "play": "Play",
    "pass": "Pass (throw up the cards)",
    "take-miss": "Take the miss",
    "defend-miss": "Take the miss and play for the pool",
    "defend-master": "Play for the pool (master)",
}


def _may_offer(rules: RuleSet, game: str) -> tuple[str, ...]:
    """The declarations the rule set ever offers at ``game`` (a question's choices)."""
    offered = []
    for choice in DECLARATIONS[game]:
        if choice == "defend-miss" and "miss-for-pool" not in rules.dealer_vs_one:
            continue
        if choice == "defend-master" and rules.lone_miss_holder != "dealer-must-play-own-or-master":
            continue
        offered.append(choice)
    return tuple(offered)


def _make_declaration(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    hand = _deal(ask.rules, ask.game, rng, attempt)
    while hand.phase in ("declare", "exchange"):
        options = hand.options()
        seat = options.seat
        apps = list(options.explanations)
        if "take-miss" in options.choices:
            apps.append(RuleApplication("take-miss", msg("question.may-take-miss", p=seat)))
            if ask.version >= 3:
                apps.append(
                    RuleApplication("miss-holder-must-play", msg("question.miss-must-play", p=seat))
                )
        before = hand.declared_before_dealer() if seat == hand.dealer else []
        if hand.phase == "exchange" and len(before) == 1 and "pass" in options.choices:
            # Five-card or Irish Loo under a rule set that lets the dealer drop out (A47).
            apps.append(
                RuleApplication(
                    "dealer-must-play-against-one",
                    msg("question.dealer-may-pass", one=before[0], d=seat),
                )
            )
        if hand.phase == "exchange" and not apps:
            rule = "irish-loo" if ask.game == "irish" else "five-card-exchange"
            apps.append(
                RuleApplication(rule, msg("question.may-exchange", p=seat, n=options.max_discards))
            )
        bound = [a.rule for a in apps]
        if bound and ask.wants(bound) and (ask.rule is not None or rng.random() < 0.5):
            return _declaration(ask, rng, hand, seat, options.choices, apps, bound)
        _random_step(hand, rng)
    return None


def _declaration(
    ask: _Ask,
    rng: random.Random,
    hand: Hand,
    seat: int,
    answer: Sequence[str],
    apps: list[RuleApplication],
    bound: list[str],
) -> Question:
    seats = _from(seat, hand.players)
    choices = [c for c in _may_offer(ask.rules, ask.game) if c not in answer] + list(answer)
    rng.shuffle(choices)
    holder = hand.miss_holder
    position = {
        "game": ask.game,
        "rules": ask.preset,
        "players": hand.players,
        "dealer": seats(hand.dealer),
        "seat": 0,
        "trump": hand.trump,
        "turn_up": hand.turn_up.code if hand.turn_up is not None else None,
        "hand": [c.code for c in hand.hands[seat]],
        "declarations": [[seats(a.seat), a.choice] for a in hand.log if a.kind == "declare"],
        "miss": hand.miss is not None and holder is None,
        "miss_holder": None if holder is None else seats(holder),
        "must": hand.must,
        "club_law": hand.club_law,
        "pool": hand.pool,
    }
    return ask.question(
        "declaration",
        msg("question.declaration", p=seat),
        bound,
        seats,
        position=position,
        choices=tuple(Choice(c, DECLARATION_LABELS[c]) for c in choices),
        answer=tuple(c for c in choices if c in answer),
        explanations=tuple(apps),
        multiple=True,
        origin=(hand.setup, tuple(hand.log), seat),
    )


def _make_settlement(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    hand = _deal(ask.rules, ask.game, rng, attempt)
    while not hand.over:
        _random_step(hand, rng)
    if hand.outcome == "flush":
        return None  # a flush question's business
    if hand.outcome == "single-deal":
        return _single_settlement(ask, rng, hand)
    players = hand.players
    in_play = hand.in_play
    if hand.defender is not None and rng.random() < 0.5:
        asked = hand.defender
    elif in_play and rng.random() < 0.85:
        asked = rng.choice(in_play)
    else:
        asked = rng.randrange(players)
    net, paid, apps = _settled(hand, asked)
    won = [t.winner for t in hand.tricks]
    tricks = len(won)
    if asked in won and hand.outcome == "played":
        share, odd = divmod(hand.pool_at_start, tricks)
        rule = "indivisible-pool-rounding" if odd else "pool-division"
        key = "question.pool-shares-odd" if odd else "question.pool-shares"
        apps.insert(
            0, RuleApplication(rule, msg(key, pool=hand.pool_at_start, k=tricks, n=share, odd=odd))
        )
    if asked == hand.defender:
        apps.append(RuleApplication("dealer-defends-miss", msg("question.defender", p=asked)))
    if asked in hand.looed:
        price = hand.rules.loo_payment if hand.rules.loo_payment in ("fixed", "pool") else "mixed"
        apps.append(
            RuleApplication(
                hand.loo_rule(), msg(f"question.loo-price.{price}", n=hand.loo_amount())
            )
        )
    if not paid and asked not in hand.looed and asked != hand.defender:
        takers = [p.payee for p in hand.payments if p.payee is not None and p.rule != "ante"]
        if hand.outcome != "played" and takers:
            why = [p.rule for p in hand.payments if p.payee == takers[0]][0]
            apps.append(
                RuleApplication(why, msg("question.settle-without-play", p=asked, w=takers[0]))
            )
        elif asked not in in_play:
            apps.append(RuleApplication("looed", msg("question.settle-passed", p=asked)))
        else:
            return None  # neither paid nor received, for a reason no rule here explains
    bound = [a.rule for a in apps]
    if not ask.wants(bound):
        return None
    learner = rng.randrange(players)
    seats = _from(learner, players)
    loo = hand.loo_amount()
    candidates = {net + d for d in (hand.pool_at_start, -hand.pool_at_start, loo, -loo, 1, -1)}
    candidates |= {0, -loo, hand.pool_at_start, -hand.stake}
    picked = _amounts(rng, net, candidates)
    position = _table(
        ask,
        hand,
        seats,
        stake=hand.stake,
        pool=hand.pool_at_start,
        played=sorted(seats(s) for s in in_play),
        tricks=[seats(w) for w in won if w is not None],
        defender=None if hand.defender is None else seats(hand.defender),
        asked=seats(asked),
    )
    prompt = msg("question.settlement", p=asked)
    return _counters(ask, hand, prompt, bound, seats, learner, position, picked, net, apps)


def _amounts(rng: random.Random, net: int, candidates: set[int]) -> list[int]:
    """Four amounts to choose from: ``net`` and three of the other ``candidates``."""
    others = sorted(c for c in candidates if c != net)
    picked = rng.sample(others, 3) + [net]
    rng.shuffle(picked)
    return picked


def _counters(
    ask: _Ask,
    hand: Hand,
    prompt: Message,
    bound: list[str],
    seats: Callable[[int], int],
    learner: int,
    position: dict[str, Any],
    picked: list[int],
    net: int,
    apps: list[RuleApplication],
) -> Question:
    """A settlement question: "How many counters does East receive or pay?"."""
    return ask.question(
        "settlement",
        prompt,
        bound,
        seats,
        position=position,
        choices=tuple(Choice(_signed(n), _amount_label(n)) for n in picked),
        answer=(_signed(net),),
        explanations=tuple(apps),
        origin=(hand.setup, tuple(hand.log), learner),
    )


def _single_settlement(ask: _Ask, rng: random.Random, hand: Hand) -> Question | None:
    """settlement of peel's single deal (A39): the turn-up and every player's card face up;
    what does one player receive or pay?"""
    players = hand.players
    asked = rng.randrange(players)
    net, _, apps = _settled(hand, asked)
    told = next(e for e in hand.events if e.kind == "settle")
    apps.insert(0, RuleApplication("single", told.message))
    if asked in hand.looed:
        apps.append(
            RuleApplication(
                "single",
                msg("question.single-loo-price", n=hand.single_loo(), loo=hand.loo_amount()),
            )
        )
    elif not net:
        return None  # a dealer standing out (A54): nothing to work out
    bound = [a.rule for a in apps]
    if not ask.wants(bound):
        return None
    learner = rng.randrange(players)
    seats = _from(learner, players)
    single, loo = hand.single_loo(), hand.loo_amount()
    candidates = {net + d for d in (hand.pool_at_start, -hand.pool_at_start, single, -single)}
    candidates |= {0, -loo, -single, hand.pool_at_start, hand.pool_at_start - single}
    picked = _amounts(rng, net, candidates)
    position = _table(
        ask,
        hand,
        seats,
        stake=hand.stake,
        pool=hand.pool_at_start,
        turn_up=hand.turn_up.code,
        single=[[seats(s), hand.hands[s][0].code] for s in hand.seat_order() if hand.hands[s]],
        asked=seats(asked),
    )
    prompt = msg("question.settlement-single", p=asked)
    return _counters(ask, hand, prompt, bound, seats, learner, position, picked, net, apps)


# -- the laws of irregularity (version 3) ---------------------------------------------------------


#: For a target rule that is not an irregularity's own, the irregularities that bring it up.
_COMMITTED_FOR: Final = {
    "declare-in-turn": ("declare-early",),
    "look-at-cards-in-turn": ("look-early",),
}


def _irregularity_rule(what: str) -> str:
    return IRREGULARITIES[what.partition(":")[0]]


#: How a question tells each irregularity (what happened, never what it costs).
OFFENCE_TOLD: Final = {
    "misdeal": "question.offence.misdeal",
    "faced-card": "question.offence.faced-card",
    "interfere": "question.offence.interfere",
    "declare-early": "question.offence.declare-early",
    "look-early": "question.offence.look-early",
    "look-miss": "question.offence.look-miss",
    "look-hand": "question.offence.look-hand",
    "expose": "question.offence.expose",
    "play-early": "question.offence.play-early",
}


def _brings_up(what: str, rule: str | None) -> bool:
    """Whether committing ``what`` brings ``rule`` up (any rule, if None)."""
    if rule is None or rule in ("penalty-destination", _irregularity_rule(what)):
        return True
    return what in _COMMITTED_FOR.get(rule, ())


def _offences_open(hand: Hand, rule: str | None) -> list[tuple[Action, Message]]:
    """What some player could commit now that the laws let stand (about ``rule``, if one is
    asked): an irregularity of the deal or the declarations, a card the rules forbid, or a
    card played out of turn; each with how a question tells it."""
    found: list[tuple[Action, Message]] = []
    for seat in range(hand.players):
        for what in hand.irregularities(seat):
            if not _brings_up(what, rule):
                continue
            if what in ("misdeal", "faced-card") and seat != hand.dealer:
                continue
            if what == "look-hand":
                for other in range(hand.players):
                    if other != seat and hand.hands[other]:
                        action = Action("irregular", seat, f"look-hand:{other}")
                        found.append((action, msg(OFFENCE_TOLD[what], p=seat, o=other)))
            elif what in ("expose", "play-early"):
                for c in hand.irregular_cards(seat):
                    action = Action("irregular", seat, what, (c.code,))
                    found.append((action, msg(OFFENCE_TOLD[what], p=seat, card=c)))
            else:
                found.append((Action("irregular", seat, what), msg(OFFENCE_TOLD[what], p=seat)))
    to_act = hand.to_act
    if hand.phase == "play" and to_act is not None and hand.laws_apply():
        moves = hand.legal_moves(to_act)
        for c in hand.hands[to_act]:
            why = moves.why_not(c)
            if why is not None and (rule is None or rule in _CARD_OFFENCE_RULES.get(why.rule, ())):
                found.append(
                    (
                        Action.play(to_act, c),
                        msg("question.offence.card", p=to_act, card=c, rule=why.rule),
                    )
                )
        if rule in (None, "penalty-play-out-of-turn", "penalty-destination"):
            for other in hand.active():
                if other != to_act and hand.hands[other]:
                    c = hand.hands[other][0]
                    found.append(
                        (
                            Action.play(other, c),
                            msg("question.offence.out-of-turn", p=other, card=c),
                        )
                    )
    return found


#: The rules a card offence brings up: the penalty it falls under, and for a revoke the
#: demand to play the hand again.
_CARD_OFFENCE_RULES: Final = {
    broken: (
        penalty,
        "penalty-destination",
        *(("revoke-replay",) if penalty == "penalty-revoke" else ()),
    )
    for broken, penalty in OFFENCE_RULE.items()
}


def _make_penalty(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    """An irregularity let stand at a laws table, then the hand played out: what does the
    offender receive or pay, all told? The answer is the hand's settlement."""
    if ask.rules.penalties == "none":
        raise QuestionError(
            f"the {ask.preset} rules state no penalties: a penalty question needs a rule set "
            "whose source does (hoffmann, peel)"
        )
    hand = _deal(ask.rules, ask.game, rng, attempt, laws=True)
    committed: tuple[int, Message, int] | None = None
    while not hand.over:
        if committed is None and rng.random() < 0.2:
            offences = _offences_open(hand, ask.rule)
            if offences:
                action, told = offences[rng.randrange(len(offences))]
                start = len(hand.events)
                hand.apply(action)
                committed = (action.seat, told, start)
                continue
        _random_step(hand, rng)
    if committed is None or hand.outcome == "flush":
        return None
    offender, told, start = committed
    lines = [
        e
        for e in hand.events[start:]
        if (e.seat == offender or e.kind in ("replay", "penalty", "irregular"))
        and e.kind != "declare"  # his declaration in turn, as anyone's
        and any(r in PENALTY_RULES for r in e.rules)
    ]

    # The penalty first: what a learner's record counts the question under, and what each
    # line is told under (the rule asked about, if the line applies it).
    def first(rules: Iterable[str]) -> list[str]:
        return sorted(
            (r for r in rules if r in PENALTY_RULES),
            key=lambda r: (
                r != ask.rule,
                not r.startswith("penalty-") or r == "penalty-destination",
            ),
        )

    apps = [RuleApplication(first(e.rules)[0], e.message) for e in lines]
    bound = first(r for e in lines for r in e.rules)
    if not bound or not ask.wants(bound):
        return None
    net, paid, settled = _settled(hand, offender)
    apps += settled
    if not paid:
        apps.append(RuleApplication(bound[0], msg("question.penalty-nothing", p=offender)))
    learner = rng.randrange(hand.players)
    seats = _from(learner, hand.players)
    stake, loo = hand.stake, hand.loo_amount()
    candidates = {net + d for d in (stake, -stake, loo, -loo, 3 * stake, -3 * stake)}
    candidates |= {0, -stake, -loo, -4 * stake}
    others = sorted(c for c in candidates if c != net)
    picked = rng.sample(others, 3) + [net]
    rng.shuffle(picked)
    position = {
        "game": ask.game,
        "rules": ask.preset,
        "players": hand.players,
        "dealer": seats(hand.dealer),
        "stake": stake,
        "pool": hand.pool_at_start,
        "played": sorted(seats(s) for s in hand.in_play),
        "tricks": [seats(t.winner) for t in hand.tricks if t.winner is not None],
        "offender": seats(offender),
    }
    return ask.question(
        "penalty",
        msg("question.penalty", told=told, p=offender),
        bound,
        seats,
        position=position,
        choices=tuple(Choice(_signed(n), _amount_label(n)) for n in picked),
        answer=(_signed(net),),
        explanations=tuple(apps),
        origin=(hand.setup, tuple(hand.log), learner),
    )


# -- the order of the table (version 3) ----------------------------------------------------------


def _table(ask: _Ask, hand: Hand, seats: Callable[[int], int], **shown: Any) -> dict[str, Any]:
    """A question's position about a hand: the table (its rule set, players and dealer, seats
    counted from the learner), and what else it shows."""
    return {
        "game": ask.game,
        "rules": ask.preset,
        "players": hand.players,
        "dealer": seats(hand.dealer),
        **shown,
    }


def _seat_choice(seat: int) -> Choice:
    return Choice(f"seat:{seat}", render(msg("question.seat", p=seat), 0))


def _make_procedure(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    makers = _PROCEDURES.get(ask.rule) if ask.rule is not None else None
    if makers is None:
        makers = tuple(dict.fromkeys(m for ms in _PROCEDURES.values() for m in ms))
    return makers[rng.randrange(len(makers))](ask, rng, attempt)


def _small_table(ask: _Ask, rng: random.Random, attempt: int, *, most: int = 4) -> Hand:
    """A seeded deal at a table of at most ``most`` players (a pack laid out for the learner
    must fit a page)."""
    low, high = ask.rules.players(ask.game)
    players = rng.randint(max(low, 3), max(min(high, most), max(low, 3)))
    setup = HandSetup(
        game=ask.game,
        rules=ask.rules,
        players=players,
        dealer=rng.randrange(players),
        hand_number=1,
        seed=f"p:{rng.random()}:{attempt}",
        balances=(0,) * players,
        pool=0,
        first=True,
        trace=True,
    )
    hand = Hand.deal(setup)
    if hand.outcome == "single-deal":
        # peel's first deal is the single, one card each (A39): the pack is laid out for an
        # ordinary deal, the one after a loo (its loo carried in the pool).
        loo = hand.loo_amount()
        setup = setup._replace(first=False, hand_number=2, pool=loo)
        hand = Hand.deal(setup)
    return hand


def _deal_rules(hand: Hand) -> tuple[str, ...]:
    return next(e.rules for e in hand.events if e.kind == "deal")


def _proc_dealt(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    """deal-order: the top of the pack laid out; which cards does the learner receive?"""
    hand = _small_table(ask, rng, attempt, most=3 if ask.game != "three-card" else 4)
    dealt = [c for h in hand.dealt for c in h] + list(hand.miss or ())
    top = _pack_top(hand)
    learner = rng.randrange(hand.players)
    seats = _from(learner, hand.players)
    mine = set(hand.dealt[learner])
    bound = ["deal-order"]
    if not ask.wants(bound):
        return None
    # His cards and as many others of those dealt (the cards a slip of counting would give).
    others = [c for c in top[: len(dealt)] if c not in mine]
    picked = [*hand.dealt[learner], *rng.sample(others, 5)]
    rng.shuffle(picked)
    choices = [Choice(c.code, c.display) for c in picked]
    return ask.question(
        "procedure",
        msg(
            "question.procedure-dealt-miss" if hand.miss else "question.procedure-dealt",
            d=hand.dealer,
            p=learner,
            n=hand.players,
        ),
        bound,
        seats,
        position=_pack_position(ask, hand, seats, top),
        choices=tuple(choices),
        answer=tuple(c.id for c in choices if BY_CODE[c.id] in mine),
        explanations=(
            RuleApplication(
                "deal-order",
                msg("question.dealt", p=learner, cards=tuple(hand.dealt[learner])),
            ),
            *(
                (RuleApplication("deal-order", msg("question.dealt-miss", cards=tuple(hand.miss))),)
                if hand.miss
                else ()
            ),
        ),
        multiple=True,
        origin=(hand.setup, (), learner),
    )


def _pack_top(hand: Hand) -> list[Card]:
    """The pack as it was dealt, top first: every card dealt, the turn-up and two more."""
    order = [c for c in _dealt_order(hand)]
    return [*order, hand.turn_up, *hand.stock[:2]]


def _dealt_order(hand: Hand) -> list[Card]:
    receivers = deal_order(hand.game, hand.rules, hand.players, hand.dealer, hand.miss is not None)
    taken = [list(h) for h in hand.dealt]
    miss = list(hand.miss or ())
    return [miss.pop(0) if r is None else taken[r].pop(0) for r in receivers]


def _pack_position(
    ask: _Ask, hand: Hand, seats: Callable[[int], int], top: Sequence[Card]
) -> dict[str, Any]:
    return _table(ask, hand, seats, miss=hand.miss is not None, pack=[c.code for c in top])


def _proc_turn_up(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    """turn-up-trump: the top of the pack laid out; which card is turned up for trumps?"""
    hand = _small_table(ask, rng, attempt, most=3 if ask.game != "three-card" else 4)
    bound = list(_deal_rules(hand))
    if not ask.wants(bound):
        return None
    top = _pack_top(hand)
    learner = rng.randrange(hand.players)
    seats = _from(learner, hand.players)
    at = top.index(hand.turn_up)
    near = [c for c in top[max(0, at - 4) : at + 3] if c is not hand.turn_up]
    choices = [*rng.sample(near, 3), hand.turn_up]
    rng.shuffle(choices)
    return ask.question(
        "procedure",
        msg(
            "question.procedure-turn-up-miss" if hand.miss else "question.procedure-turn-up",
            d=hand.dealer,
            n=hand.players,
        ),
        bound,
        seats,
        position=_pack_position(ask, hand, seats, top),
        choices=tuple(Choice(c.code, c.display) for c in choices),
        answer=(hand.turn_up.code,),
        explanations=(
            RuleApplication(
                "deal-order",
                msg("question.turned-up", k=at + 1, card=hand.turn_up, suit=hand.trump),
            ),
            RuleApplication(
                "turn-up-trump", next(e.message for e in hand.events if e.kind == "deal")
            ),
        ),
        origin=(hand.setup, (), learner),
    )


def _proc_pool(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    """ante, stake-divisible: how many counters the pool holds when the cards are dealt."""
    hand = _deal(ask.rules, ask.game, rng, attempt)
    ante = [e for e in hand.events if e.kind == "ante"]
    bound = [r for e in ante for r in e.rules]
    if not bound or not ask.wants(bound):
        return None
    learner = rng.randrange(hand.players)
    seats = _from(learner, hand.players)
    s = hand.setup
    n, stake = hand.pool_at_start, hand.stake
    candidates = {stake, stake * hand.players, s.pool, s.pool + stake, n + stake, n - stake}
    candidates |= {s.pool + stake * hand.players, 2 * n, n + 2 * stake}
    others = sorted(c for c in candidates if c != n and c > 0)
    others += [c for c in (n + k * stake for k in range(3, 6)) if c not in others][
        : max(0, 3 - len(others))
    ]
    picked = [*rng.sample(others, 3), n]
    rng.shuffle(picked)
    apps = [
        RuleApplication(ask.rule if ask.rule in e.rules else e.rules[0], e.message) for e in ante
    ]
    apps.append(RuleApplication("ante", msg("question.pool-holds", n=n, carried=s.pool)))
    return ask.question(
        "procedure",
        msg("question.procedure-pool"),
        bound,
        seats,
        position=_table(
            ask,
            hand,
            seats,
            stake=stake,
            first=s.first,
            last_hand_looed=not s.first and not s.prev_no_loo,
            carried=s.pool,
        ),
        choices=tuple(Choice(str(c), str(c)) for c in picked),
        answer=(str(n),),
        explanations=tuple(apps),
        origin=(hand.setup, (), learner),
    )


def _proc_next_declarer(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    """declare-in-turn: who declares next?"""
    hand = _deal(ask.rules, ask.game, rng, attempt)
    if not ask.wants(["declare-in-turn"]):
        return None
    stop = rng.randrange(hand.players)
    for _ in range(stop):
        if hand.phase not in ("declare", "exchange"):
            return None
        _random_step(hand, rng)
    if hand.phase not in ("declare", "exchange") or hand.to_act is None:
        return None
    nxt = hand.to_act
    learner = rng.randrange(hand.players)
    seats = _from(learner, hand.players)
    done = [a for a in hand.log if a.kind == "declare"]
    explanation = (
        msg("question.declares-next", p=nxt, last=done[-1].seat)
        if done
        else msg("question.declares-first", p=nxt, d=hand.dealer)
    )
    return ask.question(
        "procedure",
        msg("question.procedure-next"),
        ["declare-in-turn"],
        seats,
        position=_table(
            ask,
            hand,
            seats,
            declarations=[[seats(a.seat), a.choice] for a in done],
        ),
        choices=tuple(_seat_choice(seats(s)) for s in range(hand.players)),
        answer=(f"seat:{seats(nxt)}",),
        explanations=(RuleApplication("declare-in-turn", explanation),),
        origin=(hand.setup, tuple(hand.log), learner),
    )


def _proc_first_lead(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    """elder-leads-first (or the miss-holder): who leads to the first trick?"""
    hand = _deal(ask.rules, ask.game, rng, attempt)
    while hand.phase in ("declare", "exchange"):
        _random_step(hand, rng)
    begins = [e for e in hand.events if e.kind == "play-begins"]
    if hand.phase != "play" or not begins or len(hand.in_play) < 2:
        return None
    bound = list(begins[0].rules)
    if not ask.wants(bound):
        return None
    leader = hand.to_act
    assert leader is not None
    learner = rng.randrange(hand.players)
    seats = _from(learner, hand.players)
    return ask.question(
        "procedure",
        msg("question.procedure-lead"),
        bound,
        seats,
        position=_table(
            ask,
            hand,
            seats,
            declarations=[[seats(a.seat), a.choice] for a in hand.log if a.kind == "declare"],
            miss_holder=None if hand.miss_holder is None else seats(hand.miss_holder),
        ),
        choices=tuple(_seat_choice(seats(s)) for s in sorted(hand.in_play, key=seats)),
        answer=(f"seat:{seats(leader)}",),
        explanations=(RuleApplication(bound[0], begins[0].message),),
        origin=(hand.setup, tuple(hand.log), learner),
    )


def _proc_seen(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    """discards-unseen: a passed hand is thrown face down. Which of these cards have you seen?"""
    hand = _deal(ask.rules, ask.game, rng, attempt)
    while hand.phase in ("declare", "exchange"):
        _random_step(hand, rng)
    if hand.phase != "play":
        return None
    learner = hand.in_play[rng.randrange(len(hand.in_play))]
    seats = _from(learner, hand.players)
    passed = sorted(
        (s for s in range(hand.players) if hand.declared[s] == "pass" and s != learner), key=seats
    )
    if not passed:
        return None
    while hand.phase == "play" and len(hand.tricks) < 1:
        _random_step(hand, rng)
    if hand.phase != "play":
        return None
    thrown = [c for s in passed for c in hand.thrown.get(s, [])]
    bound = ["discards-unseen"]
    if not thrown or not ask.wants(bound):
        return None
    view = view_for(hand, learner)
    visible = view.visible_cards()
    shown = [c for t in view.tricks for _, c in t.plays]
    unseen = [c for c in thrown if c not in visible]
    if not shown or not unseen:
        return None
    cards = [*rng.sample(unseen, min(2, len(unseen))), *rng.sample(shown, min(2, len(shown)))]
    rng.shuffle(cards)
    return ask.question(
        "procedure",
        msg("question.procedure-seen", ps=tuple(passed), p=learner),
        bound,
        seats,
        position=_table(
            ask,
            hand,
            seats,
            declarations=[[seats(a.seat), a.choice] for a in hand.log if a.kind == "declare"],
            tricks=[[c.code for _, c in t.plays] for t in view.tricks],
        ),
        choices=tuple(Choice(c.code, c.display) for c in cards),
        answer=tuple(c.code for c in cards if c in visible),
        explanations=(
            RuleApplication(
                "discards-unseen",
                msg(
                    "question.passed-unseen",
                    ps=tuple(passed),
                    cards=tuple(c for c in cards if c not in visible),
                ),
            ),
        ),
        multiple=True,
        origin=(hand.setup, tuple(hand.log), learner),
    )


#: How a flush question's choices read: the rule set's ways of showing a flush.
FLUSH_TIMES: Final = {
    "immediate": "At once, when its holder's turn comes, before anyone else declares",
    "after-declaring": "After everyone has declared and drawn",
    "in-the-play": "When the cards are played out",
}


def _proc_flush_timing(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    """flush-timing: a player is dealt a flush; when is it shown? The answer is when the
    engine showed it."""
    if ask.game != "five-card":
        return None
    hand = _deal(ask.rules, ask.game, rng, attempt)
    holders = [
        s for s in hand.seat_order() if find_flush(hand.hands[s], hand.trumps, s) is not None
    ]
    if not holders:
        return None
    holder = holders[0]
    if holder == hand.dealer:
        return None  # the last to declare: at his turn and after everyone are one moment
    declared_before = 0
    while not hand.over and not any(e.kind == "flush" for e in hand.events):
        declared_before = sum(d is not None for d in hand.declared)
        _random_step(hand, rng)
    shown = [e for e in hand.events if e.kind == "flush"]
    if not shown:
        return None
    bound = ["flush-timing", "flush-loos-the-board"]
    if not ask.wants(bound):
        return None
    # When the engine showed it: before the last player had declared, or only after.
    answer = "immediate" if declared_before < hand.players - 1 else "after-declaring"
    learner = rng.randrange(hand.players)
    seats = _from(learner, hand.players)
    choices = list(FLUSH_TIMES)
    rng.shuffle(choices)
    return ask.question(
        "procedure",
        msg("question.procedure-flush", p=holder),
        bound,
        seats,
        position=_table(
            ask,
            hand,
            seats,
            holder=seats(holder),
            flush=[c.code for c in hand.dealt[holder]],
        ),
        choices=tuple(Choice(c, FLUSH_TIMES[c]) for c in choices),
        answer=(answer,),
        explanations=tuple(RuleApplication("flush-timing", e.message) for e in shown[:1]),
        origin=(hand.setup, tuple(hand.log), learner),
    )


_PROCEDURES: Final[dict[str, tuple[Callable[[_Ask, random.Random, int], Question | None], ...]]] = {
    "deal-order": (_proc_dealt, _proc_turn_up),
    "turn-up-trump": (_proc_turn_up,),
    "ante": (_proc_pool,),
    "stake-divisible": (_proc_pool,),
    "declare-in-turn": (_proc_next_declarer,),
    "elder-leads-first": (_proc_first_lead,),
    "miss-holder-leads": (_proc_first_lead,),
    "discards-unseen": (_proc_seen,),
    "flush-timing": (_proc_flush_timing,),
}


def _settled(hand: Hand, seat: int) -> tuple[int, list[Payment], list[RuleApplication]]:
    """What ``seat`` received or paid when ``hand`` was settled, the stake aside: the net,
    the payments, and each told as a rule applied."""
    paid = [p for p in hand.payments if p.rule != "ante" and seat in (p.payer, p.payee)]
    net = sum(p.amount if p.payee == seat else -p.amount for p in paid)
    apps = [
        RuleApplication(
            p.rule,
            msg(
                "question.settle-receives" if p.payee == seat else "question.settle-pays",
                p=seat,
                n=p.amount,
                why=p.reason,
            ),
        )
        for p in paid
    ]
    return net, paid, apps


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _amount_label(n: int) -> str:
    if n > 0:
        return f"Receives {n}"
    if n < 0:
        return f"Pays {-n}"
    return "Neither receives nor pays"


def _source_rules(version: int = VERSION) -> tuple[str, ...]:
    """The rules a ``source`` question can ask about: those some sources state and others
    do not, or that a source words in a quotation."""
    return tuple(
        r.id
        for r in catalogue_rules(_catalogue_of(version))
        if any(s.citations for s in r.sources) or 0 < len(r.stated_by) < len(SOURCE_IDS)
    )


def _catalogue_of(version: int) -> str:
    """The edition of the rule catalogue a ``source`` question of ``version`` is made from:
    before version 4, the one written before Peel's pp. 16-18 were recovered."""
    return CURRENT if version >= 4 else BEFORE_PEEL_RECOVERED


#: Quotations of the modern pages stay short (../shared/sources/SOURCES.md).
MODERN_QUOTE_WORDS: Final = 30


def _make_source(ask: _Ask, rng: random.Random, attempt: int) -> Question | None:
    rule = catalogue_rule(
        ask.rule or rng.choice(_source_rules(ask.version)), _catalogue_of(ask.version)
    )
    stating = rule.stated_by
    quoted = [(s.source, c) for s in rule.sources for c in s.citations]
    explanations = tuple(
        RuleApplication(
            rule.id,
            msg(
                f"question.source-says.{s.status}",
                source=PRESETS[s.source].title,
                says=_says(s.status, _short(s.text, s.source)),
            ),
        )
        for s in rule.sources
    )
    choices = [Choice(s, PRESETS[s].title) for s in SOURCE_IDS]
    rng.shuffle(choices)
    position: dict[str, Any] = {"rule": rule.id, "name": rule.name}
    if quoted and (not 0 < len(stating) < len(SOURCE_IDS) or rng.random() < 0.5):
        source, citation = quoted[rng.randrange(len(quoted))]
        position["quote"] = _short(citation.quote, source)
        return ask.question(
            "source",
            # The rule's name, unless it names a source ("peel's rule").
            msg("question.source-quote", quote=position["quote"])
            if any(s in rule.name.lower() for s in SOURCE_IDS)
            else msg("question.source-quote-rule", quote=position["quote"], name=rule.name),
            [rule.id],
            position=position,
            choices=tuple(choices),
            answer=(source,),
            explanations=explanations,
        )
    if not 0 < len(stating) < len(SOURCE_IDS):
        return None
    return ask.question(
        "source",
        msg("question.source-which", name=rule.name),
        [rule.id],
        position=position,
        choices=tuple(choices),
        answer=tuple(c.id for c in choices if c.id in stating),
        explanations=explanations,
        multiple=True,
    )


def _says(status: str, text: str) -> str:
    """What a source says on a rule, as its explanation ends: the catalogue words a silent
    source's entry "silent." or "silent (…)", which the sentence "… is silent on it" already
    says (so it takes what follows the word, or a full stop)."""
    if status != "silent":
        return text
    if text[:6].lower() == "silent":
        rest = text[6:].rstrip()
        return rest if rest not in ("", ".") else "."
    return f": {text}"


def _short(quote: str, source: str) -> str:
    """A quotation as the site may show it: in full from a public-domain text, a few words
    from a modern page."""
    if not PRESETS[source].modern:
        return quote
    words = quote.split()
    return (
        quote if len(words) <= MODERN_QUOTE_WORDS else " ".join(words[:MODERN_QUOTE_WORDS]) + " …"
    )


def _distractors(ask: _Ask, rng: random.Random, moves: LegalMoves, forbidden: Card) -> list[str]:
    """Rules that could plausibly have forbidden ``forbidden`` in this position: the lead rules
    on a lead, the following rules otherwise (Pam's only at five-card Loo), less every rule
    that did exclude it (those are right too). From version 3, only the family's rules that
    bind a card play under the question's rule set (a rule the rule set never applies is a
    give-away), or if they are fewer than three, all of them and as many more as it takes:
    the other family's that bind, then the family's others."""
    game = ask.game
    also = {a.rule for a in moves.explanations if forbidden in a.excluded}
    family = LEAD_RULES if not moves.position.trick else FOLLOW_RULES
    others = FOLLOW_RULES if not moves.position.trick else LEAD_RULES
    pool = [
        r for r in family if r not in also and (game == "five-card" or not r.startswith("pam-"))
    ]
    if ask.version >= 3:
        binds = set(_coverage()[ask.preset][game]["legal-cards"])
        near = [r for r in pool if r in binds]
        for more in (
            [r for r in others if r in binds and r not in also],
            [r for r in pool if r not in binds],
        ):
            if len(near) >= 3:
                break
            near += rng.sample(more, min(3 - len(near), len(more)))
        pool = near
    if len(pool) < 3:
        pool += [r for r in others if r not in also and r not in pool and not r.startswith("pam-")]
    return pool


def _rule_label(rule_id: str) -> str:
    name = catalogue_rule(rule_id).name
    return name[:1].upper() + name[1:]


_MAKERS: Final[dict[str, Callable[[_Ask, random.Random, int], Question | None]]] = {
    "legal-cards": _make_legal_cards,
    "why-not": _make_why_not,
    "trick-winner": _make_trick_winner,
    "flush": _make_flush,
    "declaration": _make_declaration,
    "settlement": _make_settlement,
    "source": _make_source,
    "penalty": _make_penalty,
    "procedure": _make_procedure,
}

__all__ = [
    "KINDS",
    "VERSION",
    "VERSIONS",
    "Choice",
    "Grade",
    "Question",
    "QuestionError",
    "coverage",
    "grade",
    "question",
    "question_at",
    "question_for",
]


if __name__ == "__main__":  # python -m games.loo.questions: write data/coverage.json again
    import pathlib

    target = pathlib.Path(__file__).parent / "data" / "coverage.json"
    target.write_text(json.dumps(build_coverage(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {target}")
