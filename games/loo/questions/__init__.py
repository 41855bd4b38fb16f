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
  from the catalogue's citations;
- ``declare`` (version 7 on): a moment of the declarations, "What should you do?"; the answer
  is the coach's best option (:func:`~games.loo.coach.advise`), asked only where it is clear.

Every question is told from the learner's seat, which is seat 0: the seats of its position
and of its sentences are counted from him (a page names them as the practice table does).
:func:`grade` says right or wrong (a select-all question is right only when exactly right),
with feedback per choice and the engine's explanations for the position, each a message that
a page renders for the learner ("You must follow suit …"). :func:`coverage` says which rules
each kind can ask about under a rule set, found by the generators themselves, and
:func:`question_for` picks a question among them (the trainer's "any rule" or "a group").

Each kind is a module of this package that defines its :class:`Kind` (name, title, the rules
it can ask about, its generator, and what else sets it apart); :data:`REGISTRY` lists them,
and everything keyed by a kind — here, in the command line and in the trainer — reads it.
What they share is in :mod:`.base` (the question, the grade, what a maker is asked) and
:mod:`.deals` (the seeded search of deals). docs/engine.md says how to add a kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from .. import possible
from ..authored import count_field
from ..catalogue import UnknownRule
from ..catalogue import rule as catalogue_rule
from ..errors import CardError, PositionError
from ..rng import rng_for
from ..rulesets import GAMES, HAND_SIZE, PRESETS, RuleSet
from .base import (
    MAX_DEALS,
    VERSION,
    VERSIONS,
    Ask,
    Choice,
    Grade,
    Kind,
    Question,
    QuestionError,
    draws_as,
    rules_at,
    stored_coverage,
)
from .declaration import DECLARATION
from .declare import DECLARE
from .flush import FLUSH
from .legal_cards import FOLLOW_RULES, LEAD_RULES, LEGAL_CARDS
from .penalty import PENALTY
from .pool_history import unreachable_pool
from .procedure import PROCEDURE
from .readings import with_readings
from .settlement import SETTLEMENT
from .source import SOURCE
from .trick_winner import TRICK_WINNER
from .why_not import WHY_NOT

#: Every kind of question, in the order the bank picks among them: part of what makes a
#: question again (:func:`question_for` draws a kind by its place here), so a new kind goes at
#: the end and none is ever moved.
REGISTRY: Final[tuple[Kind, ...]] = (
    LEGAL_CARDS,
    WHY_NOT,
    TRICK_WINNER,
    FLUSH,
    DECLARATION,
    SETTLEMENT,
    SOURCE,
    PENALTY,
    PROCEDURE,
    DECLARE,
)
KIND_BY_NAME: Final[Mapping[str, Kind]] = {k.name: k for k in REGISTRY}

#: Read from the registry: the kinds' names, the kinds a lesson may ask about a position of
#: its own, the version each kind is first made by (where later than the first stored), and
#: the rules each kind with a fixed family can ask about.
KINDS: Final = tuple(KIND_BY_NAME)
AUTHORED_KINDS: Final = tuple(k.name for k in REGISTRY if k.at is not None)

#: The fields of a position each authored kind reads (what an editor asks for), in the order a
#: form would ask them. Each field's type is :data:`FIELD_TYPES`'s; a field left out takes
#: its default (said in brackets):
#:
#: - ``trump`` (suit): the trump suit, ``"S" "H" "D" "C"`` (at a table, optional: the turn-up's);
#: - ``turn_up`` (card): the card turned up (optional in the play; its suit must be trumps);
#: - ``declared`` (count): the players in the play [2];
#: - ``trick_number`` (count): the trick being played, from 1 [1];
#: - ``hand`` (cards): the learner's cards (in the play, those he still holds; at the
#:   declaring, those he was dealt);
#: - ``trick`` (cards): the cards played to the trick so far, the leader's first (for
#:   ``trick-winner``, the whole trick);
#: - ``played`` (cards): the cards of the earlier tricks, all of them or none [none];
#: - ``pam_be_civil`` (flag): "Pam, be civil" was called on the ace of trumps led [false];
#: - ``hands`` (hands): each player's five cards, the elder hand's first;
#: - ``players`` (count): the players at the table;
#: - ``dealer`` (seat): who dealt [settlement: the learner's right, the last seat; declaring:
#:   the seat before the first of the declarations];
#: - ``declarations`` (declarations): what each player before the learner declared, in turn
#:   from the dealer's left: ``"play"``, ``"pass"``, ``"take-miss"``, ``"defend-miss"``,
#:   ``"defend-master"`` (each may be written ``[seat, choice]``) [none];
#: - ``pool`` (count): the counters in the pool once the stake is put up [declaring: a pool
#:   carried from a loo];
#: - ``must`` (flag): the deal is a must, nobody may pass [declaring: none if it can be so];
#: - ``in_play`` (seats): who stood in (played) to the end; the others passed;
#: - ``tricks`` (seats): who took each trick, in turn (none if one player alone took the pool
#:   without play);
#: - ``defender`` (seat): the dealer, if he played for the pool against one player [none];
#: - ``miss_holder`` (seat): who took the miss (three-card Loo) [none];
#: - ``asked`` (seat): whose settlement is asked [the learner, 0].
#:
#: A seat is counted from the learner (0, "you"), round the table to his left (1 is "seat 2").
PLAY_FIELDS: Final = tuple(
    ["trump", "turn_up", "declared", "trick_number", "hand", "trick", "played", "pam_be_civil"]
)
AUTHORED_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "legal-cards": PLAY_FIELDS,
    "why-not": PLAY_FIELDS,
    "trick-winner": ("trump", "trick"),
    "flush": ("trump", "hands"),
    "declaration": ("players", "dealer", "hand", "turn_up", "declarations", "pool", "must"),
    "settlement": (
        "players",
        "dealer",
        "pool",
        "in_play",
        "tricks",
        "defender",
        "miss_holder",
        "asked",
    ),
}

#: The type of each field of :data:`AUTHORED_FIELDS`: ``suit``, ``card``, ``cards`` (a list
#: of card codes, ``["QH", "3S"]`` or ``"QH 3S"``), ``hands`` (a list of such lists),
#: ``count`` (a whole number), ``flag`` (true or false), ``seat`` (a seat, or null),
#: ``seats`` (a list of seats), ``declarations`` (a list of choices).
FIELD_TYPES: Final[Mapping[str, str]] = {
    "trump": "suit",
    "turn_up": "card",
    "declared": "count",
    "trick_number": "count",
    "hand": "cards",
    "trick": "cards",
    "played": "cards",
    "pam_be_civil": "flag",
    "hands": "hands",
    "players": "count",
    "dealer": "seat",
    "declarations": "declarations",
    "pool": "count",
    "must": "flag",
    "in_play": "seats",
    "tricks": "seats",
    "defender": "seat",
    "miss_holder": "seat",
    "asked": "seat",
}
SINCE: Final = {k.name: k.since for k in REGISTRY if k.since > VERSIONS[0]}
FAMILIES: Final[Mapping[str, tuple[str, ...]]] = {
    k.name: k.family() for k in REGISTRY if not k.any_rule
}


def _check(preset: str, game: str | None, kind: str | None = None) -> tuple[RuleSet, str]:
    """The rule set and the game: the preset's first game if none is given, but the kind's
    own if it has one (five-card Loo for a flush question, the only game with flushes) and
    the preset has it."""
    if preset not in PRESETS:
        raise QuestionError(f"unknown rule set {preset!r}: choose one of {', '.join(PRESETS)}")
    rules = RuleSet.preset(preset)
    preferred = KIND_BY_NAME[kind].game if kind is not None else None
    if game is None and preferred is not None and rules.supports(preferred):
        game = preferred
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


def _check_version(version: int) -> None:
    if version not in VERSIONS:
        raise QuestionError(
            f"no question version {version!r}: this question bank makes versions "
            f"{', '.join(map(str, VERSIONS))}"
        )


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
    found = KIND_BY_NAME[kind]
    if version < found.since:
        raise QuestionError(f"question version {version} makes no {kind} questions")
    rng = rng_for("question", draws_as(version), kind, preset, game, rule, seed)
    ask = Ask(rules_at(rules, version), preset, game, rule, seed, version)
    if rule is None or found.any_rule or rule in found.family(version):
        for attempt in range(deals):
            ask.played.clear()  # a kind that plays no session before its hand leaves it empty
            made = found.make(ask, rng, attempt)
            if made is not None:
                return with_readings(made, found, ask.rules) if version >= 5 else made
    covered = stored_coverage().get(preset, {}).get(game, {}).get(kind, ())
    if version >= 9 and rule == "indivisible-pool-rounding" and rule not in covered:
        # A56: a pool is what play leaves; a pool that does not divide is not made up.
        raise QuestionError(
            f"not asked under this rule set: in {deals} deals played under {preset} ({game} "
            f"Loo) no pool was left that does not divide into {HAND_SIZE[game]} equal shares, "
            "and a question does not show a pool play cannot reach (RULES.md A56)"
        )
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
                kind.name: [r for r in kind.family() if _can_ask(kind.name, rules, preset, game, r)]
                for kind in REGISTRY
            }
    return table


def _can_ask(kind: str, rules: RuleSet, preset: str, game: str, rule: str) -> bool:
    """Whether the question about ``rule`` of seed ``"coverage"`` can be made."""
    try:
        _search(kind, rules, preset, game, rule, "coverage", MAX_DEALS)
    except QuestionError:
        return False
    return True


def coverage(preset: str, game: str | None = None) -> dict[str, tuple[str, ...]]:
    """Each kind's rules that it can ask about under ``preset`` at ``game``."""
    _, game = _check(preset, game)
    return dict(stored_coverage()[preset][game])


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
    kind and the rule picked from :func:`coverage` by ``seed`` (:func:`pick`): always the same
    question."""
    _, game = _check(preset, game)
    kind, rule = pick(preset, game, rules=rules, kinds=kinds, seed=seed)
    return question(kind, preset, game=game, rule=rule, seed=seed)


def pick(
    preset: str,
    game: str | None = None,
    *,
    rules: Iterable[str] | None = None,
    kinds: Iterable[str] | None = None,
    seed: int | str,
) -> tuple[str, str | None]:
    """The kind and the target rule (None: any rule) of :func:`question_for`'s question of
    these arguments, without making it (a trainer takes a question of that kind about that
    rule made ahead). Cheap: a draw from :func:`coverage`."""
    _, game = _check(preset, game)
    wanted = None if rules is None else set(rules)
    asked = [k.name for k in REGISTRY if k.about_play] if kinds is None else list(kinds)
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
    rng = rng_for(
        "question-for", draws_as(VERSION), preset, game, sorted(wanted or ()), asked, seed
    )
    # A kind, then one of its rules: each kind as likely as another.
    kind = kinds_asked[rng.randrange(len(kinds_asked))]
    rule = candidates[kind][rng.randrange(len(candidates[kind]))]
    return kind, None if wanted is None else rule


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
    """The question of ``kind`` about an authored ``position`` (a lesson's exercise, a
    teacher's question): the fields :data:`AUTHORED_FIELDS` names for the kind (and, for
    ``why-not``, the forbidden ``card``, or None for one that ``rule`` excluded). The learner
    is the player to move (or the elder hand; at a table, seat 0). The position is first
    checked to be one that can happen under the rule set and game
    (:func:`games.loo.possible.check`); the answer, its explanations and their rule ids are
    the engine's; ``seed`` shuffles the choices. :class:`QuestionError` if the position cannot
    happen ("this position cannot happen: the knave of clubs is in two hands"), is not one
    (a field missing or mistyped: "not a position: ..."), or ``rule`` does not bind there."""
    if kind not in AUTHORED_KINDS:
        raise QuestionError(
            f"a {kind} question cannot be asked about a position: only {', '.join(AUTHORED_KINDS)}"
        )
    rules, game = _check(preset, game, kind)
    _check_rule(rule)
    _check_version(version)
    ask = Ask(rules_at(rules, version), preset, game, rule, seed, version)
    rng = rng_for("question-at", draws_as(version), kind, preset, game, rule, seed)
    at = KIND_BY_NAME[kind].at
    assert at is not None  # an authored kind
    try:
        possible.check(kind, position, game=game, rules=ask.rules)
        if version >= 9 and position.get("pool") not in (None, ""):
            # A56: a teacher's pool is one play can reach, where that is decided simply.
            unreachable = unreachable_pool(ask.rules, preset, game, count_field(position, "pool"))
            if unreachable is not None:
                raise QuestionError(unreachable)
        made = at(ask, rng, dict(position), card)
    except possible.ImpossiblePosition as e:
        raise QuestionError(f"this position cannot happen: {e}") from None
    except (PositionError, CardError) as e:
        raise QuestionError(f"not a position: {e}") from None
    if made is None:
        raise QuestionError(
            f"no {kind} question about {rule or 'any rule'} under {preset} ({game} Loo) in this "
            "position: the rule does not bind there"
        )
    return with_readings(made, KIND_BY_NAME[kind], ask.rules) if version >= 5 else made


__all__ = [
    "AUTHORED_FIELDS",
    "AUTHORED_KINDS",
    "FAMILIES",
    "FIELD_TYPES",
    "FOLLOW_RULES",
    "KINDS",
    "KIND_BY_NAME",
    "LEAD_RULES",
    "MAX_DEALS",
    "REGISTRY",
    "SINCE",
    "VERSION",
    "VERSIONS",
    "Choice",
    "Grade",
    "Kind",
    "Question",
    "QuestionError",
    "build_coverage",
    "coverage",
    "grade",
    "pick",
    "question",
    "question_at",
    "question_for",
]
