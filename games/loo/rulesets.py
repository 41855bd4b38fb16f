"""Rule sets: one preset per source, every option named after the rule it configures.

``../shared/RULES.md`` part 2 is the specification: each option below has the name used there,
the rule id(s) it configures, its allowed values with a plain phrase for each, and, for each
preset, the value and its basis: ``source`` (the text gives it), ``reading`` (a recommended
reading of an unclear text, with the A-number of RULES.md part 3), ``default`` (the source is
silent) or ``engine`` (an arithmetic limit, not from the sources).

A :class:`RuleSet` is immutable. ``RuleSet.preset("peel")`` gives a source's rules;
``ruleset.with_options({"two-trumps": "any-trump"})`` makes a custom table based on it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from .errors import RuleSetError

Game = Literal["three-card", "five-card", "irish"]
GAMES: Final[tuple[Game, ...]] = ("three-card", "five-card", "irish")
GAME_NAMES: Final[Mapping[str, str]] = {
    "three-card": "three-card Loo",
    "five-card": "five-card Loo",
    "irish": "Irish Loo",
}
HAND_SIZE: Final[Mapping[str, int]] = {"three-card": 3, "five-card": 5, "irish": 3}

Basis = Literal["source", "reading", "default", "engine"]
BASIS_NAMES: Final[Mapping[str, str]] = {
    "source": "stated by the source",
    "reading": "our reading of an unclear text",
    "default": "default: the source is silent",
    "engine": "engine limit (arithmetic, not from the sources)",
}

OptionValue = str | int


@dataclass(frozen=True)
class OptionSpec:
    """One option of a rule set, as named in RULES.md part 2."""

    name: str
    rules: tuple[str, ...]
    label: str
    #: Allowed values and the plain phrase that describes each. Empty for free values
    #: (``kind`` "int", "range" or "text").
    values: Mapping[str, str] = field(default_factory=dict)
    kind: Literal["choice", "int", "range", "text"] = "choice"

    @property
    def attr(self) -> str:
        return self.name.replace("-", "_")

    @property
    def rule(self) -> str:
        """The rule id this option configures (the first of ``rules``)."""
        return self.rules[0]

    def phrase(self, value: OptionValue) -> str:
        if self.kind == "choice":
            return self.values[str(value)]
        return str(value)

    def check(self, value: object) -> OptionValue:
        """Validate ``value`` for this option; returns it in its stored type."""
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RuleSetError(f"option {self.name!r} must be a whole number of at least 1")
            return value
        if not isinstance(value, str):
            raise RuleSetError(f"option {self.name!r} must be text, not {value!r}")
        if self.kind == "choice" and value not in self.values:
            allowed = ", ".join(self.values)
            raise RuleSetError(f"option {self.name!r} has no value {value!r} (allowed: {allowed})")
        if self.kind == "range":
            low, _, high = value.partition("-")
            if not (low.isdigit() and high.isdigit() and int(low) <= int(high)):
                raise RuleSetError(f"option {self.name!r} must be a range such as '3-16'")
        return value


def _o(
    name: str,
    rules: str,
    label: str,
    values: Mapping[str, str] | None = None,
    kind: Literal["choice", "int", "range", "text"] = "choice",
) -> OptionSpec:
    return OptionSpec(name, tuple(rules.split()), label, values or {}, kind)


OPTIONS: Final[tuple[OptionSpec, ...]] = (
    _o(
        "game-modes",
        "irish-loo",
        "Games described",
        {
            "three-card|five-card": "three-card and five-card Loo",
            "three-card|five-card|irish": "three-card, five-card and Irish Loo",
        },
    ),
    _o("players-3c", "players", "Players at three-card Loo", kind="range"),
    _o("players-5c", "players", "Players at five-card Loo", kind="range"),
    _o("players-hint", "players", "Players the source recommends", kind="text"),
    _o(
        "first-dealer",
        "first-dealer",
        "First dealer",
        {
            "lowest-cut-ace-low": "whoever cuts the lowest card (ace low) deals first",
            "first-jack-face-up": "cards are dealt face up; the first to receive a knave deals",
        },
    ),
    _o(
        "cut",
        "shuffle-and-cut",
        "Cut",
        {
            "right-hand-player-min-4": "the player on the dealer's right cuts, at least four cards",
            "standard": "the pack is shuffled and cut",
        },
    ),
    _o(
        "deal-3c",
        "deal-order",
        "Three-card deal",
        {
            "singly-miss-after-dealer": "one at a time, miss dealt after the dealer's own card",
        },
    ),
    _o(
        "deal-5c",
        "deal-order",
        "Five-card deal",
        {
            "singly": "one card at a time",
            "3-then-2": "three cards then two (or two then three)",
            "2-and-3": "in batches of two and three",
        },
    ),
    _o("deal-rotation", "deal-rotation", "Deal passes", {"left": "to the left after each hand"}),
    _o(
        "ante",
        "ante",
        "Stake",
        {
            "dealer-each-deal": "the dealer stakes at every deal",
            "all-players-fresh-pool": (
                "every player stakes when a fresh pool is made; after a loo the loos alone form it"
            ),
        },
    ),
    _o("stake-3c", "stake-divisible", "Stake at three-card Loo (divisible by 3)", kind="int"),
    _o("stake-5c", "stake-divisible", "Stake at five-card Loo (divisible by 5)", kind="int"),
    _o(
        "loo-payment",
        "limited-loo unlimited-loo mixed-loo",
        "A loo costs",
        {
            "fixed": "a fixed sum (limited loo)",
            "pool": "the amount in the pool (unlimited loo)",
            "pool-capped": "the amount in the pool, up to an agreed limit",
        },
    ),
    _o("loo-amount", "limited-loo", "A fixed loo, in stakes", kind="int"),
    _o("loo-cap", "mixed-loo", "The limit of a capped loo, in stakes", kind="int"),
    _o(
        "remainder",
        "indivisible-pool-rounding",
        "Odd units of the pool",
        {
            "earliest-tricks": "go to the winners of the earliest tricks",
        },
    ),
    _o(
        "single-definition",
        "single",
        "A single is",
        {
            "after-no-loo": "the hand after a hand in which nobody was looed",
            "pool-equals-stake": "any hand whose pool holds only the fresh stake",
        },
    ),
    _o(
        "must",
        "must",
        "Must (nobody may pass)",
        {
            "off": "never",
            "after-no-loo": "after a hand with no loo",
            "first-deal+after-no-loo": "on the first deal and after a hand with no loo",
            "pool-is-single": "whenever the pool is a single",
            # Kept only to make again the questions of versions 2 and 3, which played peel so.
            "first-deal+after-no-loo+after-flush": (
                "on the first deal, after a hand with no loo and after a flush (an earlier "
                "reconstruction of Peel, withdrawn)"
            ),
        },
    ),
    _o(
        "single-deal",
        "single",
        "The single",
        {
            "none": "is dealt and played like any other hand",
            "one-card": (
                "is a deal of one card face up to each player, on the first deal and after a "
                "hand with no loo (three-card Loo): the highest of the turned-up suit above "
                "the turn-up takes the pool"
            ),
        },
    ),
    _o(
        "single-loo",
        "single",
        "A loo on the single deal",
        {
            "half-loo": "half a full loo",
            "deal-amount": "the price of a deal",
        },
    ),
    _o(
        "dealer-sits-out-over-five",
        "players",
        "With more than five players, the dealer",
        {
            "off": "plays as the others do",
            "on": "stands out of the play of his deal, neither paying nor receiving on it",
        },
    ),
    _o(
        "must-miss",
        "must",
        "Miss on a must",
        {
            "none": "no miss is dealt",
            "dealt": "the miss is dealt and may be taken",
        },
    ),
    _o(
        "club-law",
        "club-law",
        "Club law",
        {"off": "not played", "on": "clubs trumps: everyone plays"},
    ),
    _o(
        "club-law-games",
        "club-law",
        "Club law applies to",
        {
            "both": "both games",
            "three-card": "three-card Loo",
            "five-card": "five-card Loo",
        },
    ),
    _o(
        "club-law-exchange",
        "club-law",
        "Drawing under club law",
        {
            "none": "no miss and no drawing",
            "allowed": "drawing is still allowed",
        },
    ),
    _o(
        "look-in-turn",
        "look-at-cards-in-turn",
        "Looking at one's cards",
        {
            "on": "only at one's turn to declare",
            "off": "not regulated",
        },
    ),
    _o(
        "unused-miss",
        "discards-unseen",
        "An untaken miss",
        {
            "to-stock-unseen": "goes to the stock unseen",
        },
    ),
    _o(
        "all-pass",
        "all-pass-dealer-wins",
        "If all pass",
        {"dealer-wins": "the dealer takes the pool"},
    ),
    _o(
        "lone-miss-holder",
        "miss-holder-alone-wins",
        "A lone player who took miss",
        {
            "dealer-may-pass": "wins the pool if the dealer passes",
            "dealer-must-play-own-or-master": "must be faced by the dealer (own cards or master)",
        },
    ),
    _o(
        "dealer-vs-one",
        "dealer-must-play-against-one",
        "Against one player, the dealer may",
        {
            "own|miss|miss-for-pool": "play his own cards, take miss, or play miss for the pool",
            "miss|miss-for-pool": "play miss for himself or for the pool",
            "own|miss": "play his own cards or take miss",
        },
    ),
    _o(
        "dealer-vs-one-5c",
        "dealer-must-play-against-one",
        "At five-card and Irish Loo (no miss), against one player the dealer",
        {
            "own": "must play, on his own cards",
            "may-pass": "may pass, and the lone player takes the pool without play",
        },
    ),
    _o(
        "defend-declare",
        "dealer-defends-miss",
        "Playing for the pool is declared",
        {
            "before-taking-miss": "before taking miss",
            "before-seeing-miss": "before seeing miss",
        },
    ),
    _o(
        "defender-looed",
        "dealer-defends-miss looed",
        "A dealer playing for the pool",
        {
            "no": "cannot be looed",
            "yes": "can be looed",
        },
    ),
    _o(
        "master",
        "master",
        "Master",
        {
            "off": "not played",
            "on": "the dealer may defend with the three cards below the turn-up",
        },
    ),
    _o(
        "exchange-who",
        "five-card-exchange",
        "Who may draw",
        {
            "in-turn-any-player": "each player in turn",
            "declared-only": "declared players only",
        },
    ),
    _o("exchange-once", "five-card-exchange", "Drawing", {"yes": "once only; drawing commits"}),
    _o(
        "exchange-excludes-turn-up",
        "five-card-exchange",
        "The turn-up",
        {
            "yes": "is never drawn",
        },
    ),
    _o(
        "first-leader",
        "miss-holder-leads elder-leads-first",
        "First lead",
        {
            "elder": "the first declared player on the dealer's left",
            "miss-holder": "whoever holds miss (if taken)",
        },
    ),
    _o(
        "lead-scope-3c",
        "lead-rules-scope",
        "Lead obligations at three-card Loo",
        {
            "every-lead": "bind every lead",
            "first-lead-only": "bind the first lead only",
            "none": "bind no lead",
        },
    ),
    _o(
        "lead-scope-5c",
        "lead-rules-scope",
        "Lead obligations at five-card Loo",
        {
            "every-lead": "bind every lead",
            "first-lead-only": "bind the first lead only",
            "none": "bind no lead",
        },
    ),
    _o(
        "two-trumps",
        "lead-trump-holding-two lead-highest-of-two-or-three",
        "A leader with two or more trumps",
        {
            "any-trump": "must lead a trump",
            "highest": "must lead the highest",
            "heads-up-only": "must lead a trump only when two players are in",
        },
    ),
    _o(
        "two-trumps-irish",
        "irish-loo lead-trump-holding-two",
        "At Irish Loo, a leader with two or more trumps",
        {
            "any-trump": "must lead a trump",
            "highest": "must lead the highest",
            "heads-up-only": "must lead a trump only when two players are in",
        },
    ),
    _o(
        "heads-up-threshold",
        "lead-highest-trump-heads-up",
        "Lead the highest trump",
        {
            "2": "when two players are in",
            "3": "when two or three players are in",
            "n/a": "(covered by the rule to lead the highest of two trumps)",
        },
    ),
    _o(
        "heads-up-sequence-exception",
        "lead-highest-trump-heads-up",
        "Trumps in sequence or of equal value",
        {
            "on": "any of the top trumps in sequence may be led",
            "off": "no exception: the very highest",
        },
    ),
    _o(
        "trump-after-trick",
        "trump-after-trick",
        "Trump after trick",
        {
            "off": "no obligation",
            "any-trump": "the winner of a trick must lead a trump",
            "highest": "the winner of a trick must lead his highest trump",
        },
    ),
    _o(
        "pam-ace-lead",
        "lead-ace-of-trumps",
        "Holding Pam and the ace of trumps",
        {
            "ace": "the ace must be led",
            "either": "Pam or the ace may be led",
        },
    ),
    _o(
        "head-scope",
        "head-the-trick",
        "Heading the trick",
        {
            "beat-winning-card": "beat the card now winning the trick",
            "beat-led-suit": "beat every card of the suit led, even when the trick is trumped",
        },
    ),
    _o(
        "void-trump",
        "must-trump must-overtrump",
        "Unable to follow suit",
        {
            "if-it-heads": "trump only with a trump that heads the trick",
            "always": "play a trump whenever you hold one",
        },
    ),
    _o(
        "pam",
        "pam-identity",
        "Pam is",
        {
            "club-knave": "the knave of clubs",
            "trump-knave": "the knave of trumps",
        },
    ),
    _o("pam-suit", "pam-identity", "Pam belongs to", {"trump": "the trump suit, not clubs"}),
    _o(
        "pam-be-civil",
        "pam-be-civil",
        "Pam, be civil",
        {
            "pass-without-revoke": "Pam's holder must pass the trick if he can without revoking",
            "bar-unless-only-trump": "Pam may not be played unless it is its holder's only trump",
        },
    ),
    _o(
        "flush-timing",
        "flush-timing",
        "A flush is shown",
        {
            "immediate": "at once, at its holder's turn",
            "after-declaring": "after everyone has declared and drawn",
        },
    ),
    _o(
        "flush-precedence",
        "flush-precedence",
        "Among several flushes",
        {
            "trump>plain": "a trump flush beats a plain one",
            "pam>rest": "the flush with Pam wins; the rest by highest card",
            "pam>trump>plain": "the flush with Pam, then a trump flush, then a plain one",
            "trump>pam>plain": "a trump flush, then the flush with Pam, then a plain one",
        },
    ),
    _o(
        "flush-tie",
        "flush-tie-break",
        "Between flushes of one class",
        {
            "better-cards": "the better cards win (Pam counts highest)",
            "highest-card": "the highest top card wins",
            "elder-hand": "the elder hand wins",
        },
    ),
    _o(
        "flush-pool",
        "flush-loos-the-board",
        "The flush holder",
        {
            "holder-takes": "takes the pool",
        },
    ),
    _o(
        "flush-loos-to",
        "flush-loos-the-board",
        "Flush loos are paid",
        {
            "next-pool": "into the next pool",
            "holder": "to the flush holder",
        },
    ),
    _o(
        "flush-exempt",
        "flush-payment-exemption",
        "Excused from paying a flush",
        {
            "losing-flush+pam": "the holder of a losing flush, and of Pam",
            "losing-flush": "the holder of a losing flush",
        },
    ),
    _o(
        "flush-next-deal",
        "flush-loos-the-board",
        "After a flush",
        {
            "single": "a single (a fresh pool)",
            "double": "a double (the loos carried forward)",
        },
    ),
    _o(
        "session-end",
        "round-continues-until-no-loo",
        "A session ends",
        {
            "open": "whenever the players choose",
            "equal-deals-then-until-no-loo": "after equal deals, then when a hand has no loo",
        },
    ),
    _o(
        "penalties",
        "penalty-revoke penalty-lead-violation penalty-fail-to-head penalty-misdeal "
        "penalty-declare-out-of-turn penalty-look-at-miss penalty-look-at-others-cards "
        "penalty-exposed-card penalty-play-out-of-turn penalty-destination",
        "Penalties",
        {
            "none": "none: irregular play is prevented",
            "hoffmann-laws": "Hoffmann's laws: forfeits of singles, four for a play offence",
            "peel-looed-replay": "Peel's: the offender is looed and the hand replayed",
        },
    ),
    _o(
        "replay",
        "revoke-replay",
        "Replaying a hand",
        {
            "n/a": "not provided",
            "on-demand": "after a revoke, at any other player's demand",
            "always": "after any play offence",
        },
    ),
)

OPTION_BY_NAME: Final[Mapping[str, OptionSpec]] = {o.name: o for o in OPTIONS}


@dataclass(frozen=True)
class RuleSet:
    """The options a table plays by. Field names are the option names with ``_`` for ``-``."""

    name: str
    #: The preset this rule set follows (its source id); a custom table keeps its base's.
    source: str
    game_modes: str
    players_3c: str
    players_5c: str
    players_hint: str
    first_dealer: str
    cut: str
    deal_3c: str
    deal_5c: str
    deal_rotation: str
    ante: str
    stake_3c: int
    stake_5c: int
    loo_payment: str
    loo_amount: int
    loo_cap: int
    remainder: str
    single_definition: str
    must: str
    single_deal: str
    single_loo: str
    dealer_sits_out_over_five: str
    must_miss: str
    club_law: str
    club_law_games: str
    club_law_exchange: str
    look_in_turn: str
    unused_miss: str
    all_pass: str
    lone_miss_holder: str
    dealer_vs_one: str
    dealer_vs_one_5c: str
    defend_declare: str
    defender_looed: str
    master: str
    exchange_who: str
    exchange_once: str
    exchange_excludes_turn_up: str
    first_leader: str
    lead_scope_3c: str
    lead_scope_5c: str
    two_trumps: str
    two_trumps_irish: str
    heads_up_threshold: str
    heads_up_sequence_exception: str
    trump_after_trick: str
    pam_ace_lead: str
    head_scope: str
    void_trump: str
    pam: str
    pam_suit: str
    pam_be_civil: str
    flush_timing: str
    flush_precedence: str
    flush_tie: str
    flush_pool: str
    flush_loos_to: str
    flush_exempt: str
    flush_next_deal: str
    session_end: str
    penalties: str
    replay: str
    #: Options changed from the base preset (empty for a preset itself).
    overrides: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for spec in OPTIONS:
            spec.check(getattr(self, spec.attr))
        for game, limit in (("3c", 16), ("5c", 10)):
            low, high = (int(x) for x in getattr(self, f"players_{game}").split("-"))
            if low < 2 or high > limit:
                raise RuleSetError(
                    f"option 'players-{game}' must lie within 2-{limit} (the pack's limit)"
                )
        if self.stake_3c % 3:
            raise RuleSetError("option 'stake-3c' must divide by three, one share per trick")
        if self.stake_5c % 5:
            raise RuleSetError("option 'stake-5c' must divide by five, one share per trick")

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """The rule set of one source: ``hoffmann``, ``britannica``, ``whiteknuckle``, ..."""
        return preset(name).rules

    def with_options(self, options: Mapping[str, object]) -> RuleSet:
        """A custom table: this rule set with some options changed (names as in RULES.md)."""
        changes: dict[str, object] = {}
        for name, value in options.items():
            spec = OPTION_BY_NAME.get(name)
            if spec is None:
                raise RuleSetError(f"unknown option {name!r}")
            changes[spec.attr] = spec.check(value)
        changed = tuple(
            n
            for n in options
            if getattr(self, OPTION_BY_NAME[n].attr) != changes[OPTION_BY_NAME[n].attr]
        )
        overrides = tuple(dict.fromkeys(self.overrides + changed))
        name = self.name if not overrides else f"{self.source} (custom)"
        return dataclasses.replace(self, name=name, overrides=overrides, **changes)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, object]:
        """The preset and the options changed from it: what a stored table keeps."""
        base = RuleSet.preset(self.source)
        return {
            "rules": self.source,
            "options": {d.option: d.value for d in self.differences(base)},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RuleSet:
        name = data.get("rules")
        if not isinstance(name, str):
            raise RuleSetError(f"a rule set must name its preset, not {name!r}")
        rules = preset(name).rules
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise RuleSetError("a rule set's options must be a mapping of names to values")
        return rules.with_options(options) if options else rules

    def require_game(self, game: str) -> None:
        """Raise :class:`RuleSetError` unless these rules describe ``game``."""
        if game not in GAMES:
            raise RuleSetError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
        if not self.supports(game):
            raise RuleSetError(
                f"the {self.source} rules describe no {game} Loo "
                f"(they cover {', '.join(self.games)})"
            )

    # -- reading options ---------------------------------------------------------------------

    def value(self, option: str) -> OptionValue:
        spec = OPTION_BY_NAME.get(option)
        if spec is None:
            raise RuleSetError(f"unknown option {option!r}")
        value: OptionValue = getattr(self, spec.attr)
        return value

    def options(self) -> dict[str, OptionValue]:
        """Every option by its RULES.md name."""
        return {spec.name: getattr(self, spec.attr) for spec in OPTIONS}

    @property
    def games(self) -> tuple[str, ...]:
        return tuple(g for g in GAMES if g in self.game_modes.split("|"))

    def supports(self, game: str) -> bool:
        return game in self.games

    def players(self, game: str) -> tuple[int, int]:
        """The smallest and largest table for ``game``."""
        text = self.players_5c if game == "five-card" else self.players_3c
        low, high = text.split("-")
        return int(low), int(high)

    def lead_scope(self, game: str) -> str:
        return self.lead_scope_5c if game == "five-card" else self.lead_scope_3c

    def two_trumps_rule(self, game: str) -> str:
        return self.two_trumps_irish if game == "irish" else self.two_trumps

    def stake(self, game: str) -> int:
        return self.stake_5c if game == "five-card" else self.stake_3c

    # -- describing --------------------------------------------------------------------------

    def describe(self) -> list[tuple[str, str]]:
        """(label, phrase) for every option, in plain words, for the rule-set chooser."""
        return [(spec.label, spec.phrase(getattr(self, spec.attr))) for spec in OPTIONS]

    def differences(self, other: RuleSet) -> list[Difference]:
        """The options on which this rule set and ``other`` differ, in catalogue order."""
        diffs = []
        for spec in OPTIONS:
            mine, theirs = getattr(self, spec.attr), getattr(other, spec.attr)
            if mine != theirs:
                diffs.append(
                    Difference(
                        spec.name,
                        spec.rule,
                        spec.label,
                        mine,
                        theirs,
                        spec.phrase(mine),
                        spec.phrase(theirs),
                    )
                )
        return diffs


@dataclass(frozen=True)
class Difference:
    option: str
    rule: str
    label: str
    value: OptionValue
    other_value: OptionValue
    phrase: str
    other_phrase: str

    def __str__(self) -> str:
        return f"{self.label}: {self.phrase} (not: {self.other_phrase})"


@dataclass(frozen=True)
class Setting:
    """One option's value in a preset, and why it has that value."""

    value: OptionValue
    basis: Basis
    note: str = ""


#: What each reading of RULES.md part 3 that a note or the catalogue refers to is about: the
#: point of the text that was unclear, as it follows "our reading of". A reader sees these
#: words, never the reading's number.
READINGS: Final[Mapping[str, str]] = {
    "A1": "what heading the trick means once the trick has been trumped",
    "A3": "whether Pam is a club or a trump when clubs are led",
    "A5": "what “Pam, be civil” obliges the holder of Pam to do",
    "A6": "what a leader holding Pam and other trumps must lead",
    "A8": "how many declared players make hoffmann's heads-up rule bind",
    "A9": "hoffmann's trumps “in sequence or of equal value”",
    "A10": "“two trumps” as two or more",
    "A11": "britannica's lead rules as binding every lead, not the first trick only",
    "A12": "parlett's five-card Loo as putting no obligation on the first lead",
    "A13": "the five-card lead rules where the source is silent: those of its three-card Loo",
    "A14": "britannica's five-card exchange “as at Irish loo” as bringing only the exchange",
    "A15": "parlett's “trump and overtrump if you can” as binding a trump that cannot win",
    "A16": "hoffmann's “bound to trump” as binding only a trump that heads the trick",
    "A17": "whiteknuckle's “a higher card than the one previously played”",
    "A19": "who leads first when the player on the dealer's left has passed",
    "A20": "which cards the dealer plays when he defends the pool",
    "A21": "britannica's master, and whom it is played for",
    "A23": "the king to be led only when the ace is the turn-up",
    "A24": "the flush holder as taking the pool where britannica does not say so",
    "A25": "where the payments for a flush go",
    "A26": "how two trump flushes, or flushes equal in rank, are ranked",
    "A27": "hoffmann's “better cards” between flushes",
    "A28": "whiteknuckle's order of flushes, read literally",
    "A29": "when a flush is shown and paid",
    "A30": "what happens when the stock runs short",
    "A31": "the amount of an unlimited loo: the pool as it stood at the start of the hand",
    "A32": "the odd counters of a pool that does not divide: to the earliest tricks",
    "A33": "whether the miss is dealt in a must",
    "A34": "whether the hand after everyone passes is a single",
    "A35": "parlett's club law as barring passing only, not drawing",
    "A37": "where the miss is dealt",
    "A39": "peel's “single”: a deal of one card face up to each player, not a must",
    "A40": "Pam led as a lead of trumps",
    "A41": "peel's “two or more trumps, lead one” as the first lead only",
    "A44": "whether the dealer who plays for the pool can be looed",
    "A45": "britannica's loo as the pool, up to an agreed limit",
    "A47": "what the dealer may do against a lone player where there is no miss",
    "A52": "peel's “the next deal becomes a single” after a flush at five-card Loo",
    "A54": "peel's dealer standing out above five players, withdrawing and finishing",
}

_READING_REF: Final = re.compile(r"\bA\d{1,2}\b")
_NOTES: Final = (
    # A reference to part 5 of RULES.md ("Notes on readings that may surprise").
    (re.compile(r"Part 5 note 3"), "the source states its lead rules for the first lead only"),
    (re.compile(r"\(see Part 5\)"), "(the source states its lead rules for the first lead only)"),
    (re.compile(r"as noted in Part 2"), "under the rule sets' options"),
    # A worked example of RULES.md part 4, named by its number.
    (re.compile(r" ?\(example E\d{1,2}\)"), ""),
    (re.compile(r", E\d{1,2}\)"), ")"),
)


def option_rule(word: str) -> str:
    """The rule an option of the rule sets configures, as RULES.md names the option
    (``lead-scope`` for ``lead-scope-3c`` and ``lead-scope-5c``); "" if ``word`` is no
    option."""
    spec = OPTION_BY_NAME.get(word) or OPTION_BY_NAME.get(f"{word}-3c")
    return spec.rule if spec else ""


def in_words(text: str) -> str:
    """``text`` (a preset's note, the catalogue's prose) as a reader sees it: every reading of
    RULES.md part 3 named by what it read instead of its number ("end of ¶11; A47" → "end of
    ¶11; our reading of what the dealer may do against a lone player where there is no miss"),
    and no other reference to RULES.md."""
    for pattern, words in _NOTES:
        text = pattern.sub(words, text)

    def reading(match: re.Match[str]) -> str:
        about = READINGS.get(match.group(0))
        return f"our reading of {about}" if about else "our reading"

    return _READING_REF.sub(reading, text)


@dataclass(frozen=True)
class Preset:
    """A source's rule set with its description and the basis of every value."""

    id: str
    title: str
    source_title: str
    summary: str
    settings: Mapping[str, Setting]
    #: True when the source is a modern paraphrase, never to be presented as historical.
    modern: bool = False

    @property
    def rules(self) -> RuleSet:
        return _PRESET_RULES[self.id]

    def basis(self, option: str) -> Setting:
        return self.settings[option]

    def defaults(self) -> list[str]:
        """Options whose value is a default because the source is silent."""
        return [name for name, s in self.settings.items() if s.basis == "default"]


def _settings(*rows: tuple[str, OptionValue, Basis, str]) -> dict[str, Setting]:
    settings = {name: Setting(value, basis, note) for name, value, basis, note in rows}
    missing = [spec.name for spec in OPTIONS if spec.name not in settings]
    extra = [name for name in settings if name not in OPTION_BY_NAME]
    if missing or extra:  # pragma: no cover - a programming error in this file
        raise RuleSetError(f"preset settings incomplete: missing {missing}, unknown {extra}")
    return settings


S: Final = "source"
R: Final = "reading"
D: Final = "default"
E: Final = "engine"

_COMMON_3C = "three-card|five-card"

PRESETS: Final[Mapping[str, Preset]] = {
    "hoffmann": Preset(
        id="hoffmann",
        title="Hoffmann (1909)",
        source_title="“Professor Hoffmann”, Hoyle's Games Modernized (1898; 1909 edition)",
        summary=(
            "Edwardian club rules: the ace of trumps must be led, two trumps oblige a trump "
            "lead, heads-up the highest (or one of equal value), trump after trick, and fixed "
            "forfeits for every irregularity."
        ),
        settings=_settings(
            ("game-modes", _COMMON_3C, S, "¶1, ¶9"),
            ("players-3c", "3-16", E, "source: no limit (¶1)"),
            ("players-5c", "3-10", E, "source: no limit (¶1)"),
            ("players-hint", "6-7", S, "¶1"),
            ("first-dealer", "lowest-cut-ace-low", D, "footnote [27] lost"),
            ("cut", "right-hand-player-min-4", S, "Law 1"),
            ("deal-3c", "singly-miss-after-dealer", S, "Law 2; miss slot default"),
            ("deal-5c", "singly", S, "Law 2"),
            ("deal-rotation", "left", R, "¶7 implies rotation"),
            ("ante", "dealer-each-deal", S, "¶2, ¶7"),
            ("stake-3c", 3, S, "¶2"),
            ("stake-5c", 5, S, "¶9"),
            ("loo-payment", "fixed", S, "¶7; unlimited and capped are options (¶8)"),
            ("loo-amount", 1, S, "¶7"),
            ("loo-cap", 7, D, "¶8 names no figure; britannica s. 38's example"),
            ("remainder", "earliest-tricks", D, "A32"),
            ("single-definition", "after-no-loo", S, "¶7"),
            ("must", "after-no-loo", S, "¶7 (usual)"),
            ("single-deal", "none", D, ""),
            ("single-loo", "half-loo", D, ""),
            ("dealer-sits-out-over-five", "off", D, ""),
            ("must-miss", "none", S, "¶7"),
            ("club-law", "off", S, "¶12: an option"),
            ("club-law-games", "both", S, "¶12"),
            ("club-law-exchange", "none", S, "¶12"),
            ("look-in-turn", "on", S, "Law 5"),
            ("unused-miss", "to-stock-unseen", D, ""),
            ("all-pass", "dealer-wins", S, "¶3; Law 8"),
            ("lone-miss-holder", "dealer-may-pass", S, "¶3"),
            ("dealer-vs-one", "own|miss|miss-for-pool", S, "¶3"),
            ("dealer-vs-one-5c", "own", R, "end of ¶11; A47"),
            ("defend-declare", "before-taking-miss", S, "Law 7"),
            ("defender-looed", "no", S, "Law 7"),
            ("master", "off", D, ""),
            ("exchange-who", "in-turn-any-player", S, "¶9"),
            ("exchange-once", "yes", D, ""),
            ("exchange-excludes-turn-up", "yes", D, ""),
            ("first-leader", "elder", S, "¶4"),
            ("lead-scope-3c", "every-lead", S, "¶6; Laws 9-11"),
            ("lead-scope-5c", "every-lead", S, "¶10"),
            ("two-trumps", "any-trump", S, "¶4; Law 10; A10"),
            ("two-trumps-irish", "heads-up-only", D, "hoffmann has no Irish Loo"),
            ("heads-up-threshold", "2", R, "A8 (¶4's parenthesis would give 3)"),
            ("heads-up-sequence-exception", "on", S, "¶4, Law 11; A9"),
            ("trump-after-trick", "any-trump", S, "¶6; Law 14"),
            ("pam-ace-lead", "ace", D, "A6"),
            ("head-scope", "beat-winning-card", R, "A1"),
            ("void-trump", "if-it-heads", R, "A16"),
            ("pam", "club-knave", S, "¶10"),
            ("pam-suit", "trump", R, "A3"),
            ("pam-be-civil", "pass-without-revoke", S, "¶10"),
            ("flush-timing", "immediate", S, "¶11 (at once)"),
            ("flush-precedence", "trump>plain", S, "¶11"),
            ("flush-tie", "better-cards", S, "¶11; A27"),
            ("flush-pool", "holder-takes", S, "¶11 (wins every trick)"),
            ("flush-loos-to", "next-pool", R, "A25"),
            ("flush-exempt", "losing-flush+pam", S, "¶11"),
            ("flush-next-deal", "double", R, "follows from where flush loos are paid"),
            ("session-end", "open", D, ""),
            ("penalties", "hoffmann-laws", S, "Laws 1-17"),
            ("replay", "on-demand", S, "Law 16"),
        ),
    ),
    "britannica": Preset(
        id="britannica",
        title="Britannica (1911)",
        source_title="Encyclopædia Britannica, 11th edition (1910–1911), “Loo”",
        summary=(
            "The encyclopaedia's account: everyone stakes a fresh pool, the loo is the pool "
            "capped at an agreed limit, the usual lead and trump rules, the elder hand wins "
            "tied flushes, and Irish Loo as a variant."
        ),
        settings=_settings(
            ("game-modes", "three-card|five-card|irish", S, "s. 42-52"),
            ("players-3c", "3-16", E, "source: any number (s. 1)"),
            ("players-5c", "3-10", E, "source: any number (s. 1)"),
            ("players-hint", "5-7", S, "s. 1"),
            ("first-dealer", "lowest-cut-ace-low", D, ""),
            ("cut", "standard", D, ""),
            ("deal-3c", "singly-miss-after-dealer", S, "s. 5; miss slot default"),
            ("deal-5c", "singly", D, ""),
            ("deal-rotation", "left", S, "s. 3; direction default"),
            ("ante", "all-players-fresh-pool", S, "s. 6, 8, 33-35"),
            ("stake-3c", 3, S, "s. 7"),
            ("stake-5c", 5, S, "s. 44"),
            ("loo-payment", "pool-capped", S, "s. 36-39; A45"),
            ("loo-amount", 1, D, "not used: the loo is pool-based"),
            ("loo-cap", 7, S, "s. 38: eighteen-penny loo limited to half a guinea"),
            ("remainder", "earliest-tricks", D, "A32"),
            ("single-definition", "after-no-loo", S, "s. 33"),
            ("must", "off", S, "s. 40: forces are an option"),
            ("single-deal", "none", D, ""),
            ("single-loo", "half-loo", D, ""),
            ("dealer-sits-out-over-five", "off", D, ""),
            ("must-miss", "none", S, "s. 41"),
            ("club-law", "off", S, "s. 40: an option"),
            ("club-law-games", "three-card", S, "s. 40"),
            ("club-law-exchange", "none", D, ""),
            ("look-in-turn", "on", S, "s. 9"),
            ("unused-miss", "to-stock-unseen", D, ""),
            ("all-pass", "dealer-wins", D, ""),
            ("lone-miss-holder", "dealer-may-pass", D, "'other rules' (s. 31-32) differ"),
            ("dealer-vs-one", "miss|miss-for-pool", S, "s. 28; A20"),
            ("dealer-vs-one-5c", "own", R, "s. 31; A47"),
            ("defend-declare", "before-seeing-miss", S, "s. 29"),
            ("defender-looed", "no", D, "A44"),
            ("master", "off", S, "s. 32: 'other rules'"),
            ("exchange-who", "declared-only", S, "s. 42"),
            ("exchange-once", "yes", D, ""),
            ("exchange-excludes-turn-up", "yes", D, ""),
            ("first-leader", "elder", S, "s. 15"),
            ("lead-scope-3c", "every-lead", R, "A11"),
            ("lead-scope-5c", "every-lead", R, "A11, A14"),
            ("two-trumps", "any-trump", S, "s. 20"),
            ("two-trumps-irish", "heads-up-only", S, "s. 43"),
            ("heads-up-threshold", "2", S, "s. 21"),
            ("heads-up-sequence-exception", "off", S, "s. 21"),
            ("trump-after-trick", "any-trump", S, "s. 26"),
            ("pam-ace-lead", "ace", D, "A6"),
            ("head-scope", "beat-winning-card", R, "A1"),
            ("void-trump", "if-it-heads", S, "s. 24-25"),
            ("pam", "club-knave", S, "s. 45"),
            ("pam-suit", "trump", S, "s. 45"),
            ("pam-be-civil", "pass-without-revoke", S, "s. 47"),
            ("flush-timing", "immediate", D, ""),
            ("flush-precedence", "trump>plain", S, "s. 49"),
            ("flush-tie", "elder-hand", S, "s. 51"),
            ("flush-pool", "holder-takes", D, "A24"),
            ("flush-loos-to", "holder", S, "s. 48"),
            ("flush-exempt", "losing-flush+pam", S, "s. 50"),
            (
                "flush-next-deal",
                "single",
                R,
                "follows from the ante and from where flush loos are paid",
            ),
            ("session-end", "equal-deals-then-until-no-loo", S, "s. 4"),
            ("penalties", "none", D, ""),
            ("replay", "n/a", D, ""),
        ),
    ),
    "whiteknuckle": Preset(
        id="whiteknuckle",
        title="White Knuckle (modern)",
        source_title="“Loo”, White Knuckle Playing Cards website (2000s)",
        summary=(
            "A modern paraphrase of Parlett's page: lead rules on the first lead only, no trump "
            "after trick, a void player must always trump, and Pam's flush beats all others. "
            "Not historical practice."
        ),
        modern=True,
        settings=_settings(
            ("game-modes", _COMMON_3C, S, "¶5, ¶14"),
            ("players-3c", "3-9", S, "¶1"),
            ("players-5c", "3-9", S, "¶1"),
            ("players-hint", "5", S, "¶1"),
            ("first-dealer", "first-jack-face-up", S, "¶3"),
            ("cut", "standard", D, ""),
            ("deal-3c", "singly-miss-after-dealer", S, "¶5; A37"),
            ("deal-5c", "2-and-3", S, "¶14"),
            ("deal-rotation", "left", S, "¶5"),
            ("ante", "dealer-each-deal", S, "¶4, ¶14"),
            ("stake-3c", 3, S, "¶4"),
            ("stake-5c", 5, S, "¶14"),
            ("loo-payment", "fixed", S, "¶6"),
            ("loo-amount", 1, S, "¶6, ¶15"),
            ("loo-cap", 7, D, ""),
            ("remainder", "earliest-tricks", D, "never needed"),
            ("single-definition", "pool-equals-stake", S, "¶4"),
            ("must", "off", D, ""),
            ("single-deal", "none", D, ""),
            ("single-loo", "half-loo", D, ""),
            ("dealer-sits-out-over-five", "off", D, ""),
            ("must-miss", "none", D, ""),
            ("club-law", "off", D, "not offered"),
            ("club-law-games", "both", D, ""),
            ("club-law-exchange", "none", D, ""),
            ("look-in-turn", "on", D, ""),
            ("unused-miss", "to-stock-unseen", D, ""),
            ("all-pass", "dealer-wins", S, "¶8"),
            ("lone-miss-holder", "dealer-may-pass", S, "¶8"),
            ("dealer-vs-one", "own|miss|miss-for-pool", S, "¶9; A20"),
            ("dealer-vs-one-5c", "may-pass", R, "¶14; A47"),
            ("defend-declare", "before-seeing-miss", D, ""),
            ("defender-looed", "no", S, "¶9"),
            ("master", "off", D, ""),
            ("exchange-who", "in-turn-any-player", S, "¶14"),
            ("exchange-once", "yes", D, ""),
            ("exchange-excludes-turn-up", "yes", D, ""),
            ("first-leader", "elder", S, "¶10; A19"),
            ("lead-scope-3c", "first-lead-only", S, "¶10"),
            ("lead-scope-5c", "first-lead-only", D, "A13"),
            ("two-trumps", "any-trump", S, "¶10"),
            ("two-trumps-irish", "heads-up-only", D, "no Irish Loo"),
            ("heads-up-threshold", "2", S, "¶10"),
            ("heads-up-sequence-exception", "off", S, "¶10"),
            ("trump-after-trick", "off", D, "literal; Part 5 note 3"),
            ("pam-ace-lead", "ace", D, "A6"),
            ("head-scope", "beat-led-suit", R, "A1, A17"),
            ("void-trump", "always", S, "¶11 b2, b4"),
            ("pam", "club-knave", S, "¶15"),
            ("pam-suit", "trump", R, "A3"),
            ("pam-be-civil", "bar-unless-only-trump", S, "¶17"),
            ("flush-timing", "immediate", S, "¶16"),
            ("flush-precedence", "pam>rest", R, "¶16; A28"),
            ("flush-tie", "highest-card", S, "¶16; exact tie to the elder hand"),
            ("flush-pool", "holder-takes", S, "¶16"),
            ("flush-loos-to", "next-pool", R, "A25"),
            ("flush-exempt", "losing-flush", S, "¶16"),
            ("flush-next-deal", "double", R, "follows from where flush loos are paid"),
            ("session-end", "open", S, "¶13"),
            ("penalties", "none", D, ""),
            ("replay", "n/a", D, ""),
        ),
    ),
    "parlett": Preset(
        id="parlett",
        title="Parlett (modern)",
        source_title="David Parlett, “Loo”, Historic Card Games (parlettgames.uk)",
        summary=(
            "A modern historian's reconstruction: lead rules on the first trick of three-card "
            "only, trump after trick, heading means beating the suit led, a void player must "
            "trump, and the Pam-flush is best."
        ),
        modern=True,
        settings=_settings(
            ("game-modes", _COMMON_3C, S, "3c and 5c schemas"),
            ("players-3c", "3-16", S, "3c:Players"),
            ("players-5c", "5-10", S, "5c:Players"),
            ("players-hint", "5-7", S, "3c:Players"),
            ("first-dealer", "lowest-cut-ace-low", S, "3c:Deal"),
            ("cut", "standard", D, ""),
            ("deal-3c", "singly-miss-after-dealer", S, "3c:Deal; slot default"),
            ("deal-5c", "3-then-2", S, "5c:Deal"),
            ("deal-rotation", "left", S, "3c:Deal"),
            ("ante", "dealer-each-deal", S, "3c:Deal, 5c:Deal"),
            ("stake-3c", 3, S, "3c:Deal"),
            ("stake-5c", 5, S, "5c:Deal"),
            ("loo-payment", "fixed", S, "3c:Pay-off; unlimited is an option"),
            ("loo-amount", 1, S, "3c:Pay-off; five-card 'agreed', default 5"),
            ("loo-cap", 7, D, ""),
            ("remainder", "earliest-tricks", D, "A32"),
            ("single-definition", "pool-equals-stake", S, "3c:Deal"),
            ("must", "off", S, "3c:Optional rules"),
            ("single-deal", "none", D, ""),
            ("single-loo", "half-loo", D, ""),
            ("dealer-sits-out-over-five", "off", D, ""),
            ("must-miss", "dealt", D, "A33"),
            ("club-law", "off", S, "5c:Bidding: optional"),
            ("club-law-games", "five-card", S, "5c:Bidding"),
            ("club-law-exchange", "allowed", R, "A35"),
            ("look-in-turn", "on", D, ""),
            ("unused-miss", "to-stock-unseen", D, ""),
            ("all-pass", "dealer-wins", S, "3c:Announcements"),
            ("lone-miss-holder", "dealer-may-pass", S, "3c:Announcements"),
            ("dealer-vs-one", "own|miss|miss-for-pool", S, "3c:Announcements; A20"),
            ("dealer-vs-one-5c", "may-pass", R, "5c:Bidding; A47"),
            ("defend-declare", "before-seeing-miss", D, ""),
            ("defender-looed", "no", S, "3c:Announcements"),
            ("master", "off", D, ""),
            ("exchange-who", "declared-only", S, "5c:Bidding"),
            ("exchange-once", "yes", D, ""),
            ("exchange-excludes-turn-up", "yes", S, "5c:Bidding"),
            ("first-leader", "elder", S, "3c:Play; A19"),
            ("lead-scope-3c", "first-lead-only", S, "3c:Play"),
            ("lead-scope-5c", "none", R, "A12"),
            ("two-trumps", "any-trump", S, "3c:Play"),
            ("two-trumps-irish", "heads-up-only", D, "no Irish Loo"),
            ("heads-up-threshold", "2", S, "3c:Play"),
            ("heads-up-sequence-exception", "off", S, "3c:Play"),
            ("trump-after-trick", "any-trump", S, "3c:Play; 5c:Play"),
            ("pam-ace-lead", "ace", D, "A6 (five-card has no lead obligations)"),
            ("head-scope", "beat-led-suit", S, "3c:Play footnote"),
            ("void-trump", "always", R, "A15 (literal)"),
            ("pam", "club-knave", S, "5c:Cards"),
            ("pam-suit", "trump", S, "5c:Cards"),
            ("pam-be-civil", "bar-unless-only-trump", S, "5c:Play"),
            ("flush-timing", "immediate", S, "5c:Flush"),
            ("flush-precedence", "pam>trump>plain", S, "5c:Flush"),
            ("flush-tie", "highest-card", S, "5c:Flush; A26"),
            ("flush-pool", "holder-takes", S, "5c:Flush"),
            ("flush-loos-to", "holder", R, "A25"),
            ("flush-exempt", "losing-flush+pam", S, "5c:Flush"),
            ("flush-next-deal", "single", R, "follows from where flush loos are paid"),
            ("session-end", "open", D, ""),
            ("penalties", "none", D, ""),
            ("replay", "n/a", D, ""),
        ),
    ),
    "peel": Preset(
        id="peel",
        title="Peel (1891)",
        source_title="“Baxter-Wray” (W. H. Peel), Round Games with Cards (1891)",
        summary=(
            "A detailed Victorian manual: two or more trumps oblige the highest, trump after "
            "trick means the highest trump, a flush is shown after everyone has declared, and "
            "almost every offence is a loo with the hand replayed."
        ),
        settings=_settings(
            ("game-modes", _COMMON_3C, S, "Irish Loo is beyond the excerpt"),
            ("players-3c", "3-16", E, "source silent"),
            ("players-5c", "3-6", S, "p. 27"),
            ("players-hint", "five-card: at most 6", S, "p. 27"),
            ("first-dealer", "lowest-cut-ace-low", D, "refers to Nap, not in the text"),
            ("cut", "standard", S, "p. 23"),
            ("deal-3c", "singly-miss-after-dealer", S, "p. 23"),
            ("deal-5c", "singly", S, "p. 27"),
            ("deal-rotation", "left", D, ""),
            ("ante", "dealer-each-deal", S, "p. 23, p. 28"),
            ("stake-3c", 3, S, "p. 22"),
            ("stake-5c", 5, D, ""),
            ("loo-payment", "fixed", S, "p. 22; unlimited and mixed are options (p. 26)"),
            ("loo-amount", 2, S, "p. 22: three for the deal, six for a loo"),
            ("loo-cap", 7, D, "p. 26 names no figure"),
            ("remainder", "earliest-tricks", S, "p. 22"),
            ("single-definition", "after-no-loo", S, "p. 21, 23, 28"),
            ("must", "off", S, "p. 18: the single is a deal of one card each, not a must (A39)"),
            (
                "single-deal",
                "one-card",
                S,
                "p. 18, 21, 23; five-card: the dealer's stake only (A52)",
            ),
            ("single-loo", "half-loo", S, "p. 18 (option: the price of a deal); p. 23"),
            ("dealer-sits-out-over-five", "off", S, "p. 16: at the option of the company (A54)"),
            ("must-miss", "none", D, "peel has no must"),
            ("club-law", "off", S, "p. 26: an agreed variation"),
            ("club-law-games", "three-card", S, "p. 26"),
            ("club-law-exchange", "none", D, ""),
            ("look-in-turn", "on", S, "p. 24"),
            ("unused-miss", "to-stock-unseen", S, "p. 19"),
            ("all-pass", "dealer-wins", S, "p. 19"),
            ("lone-miss-holder", "dealer-may-pass", S, "p. 20"),
            ("dealer-vs-one", "own|miss|miss-for-pool", S, "p. 19-20"),
            ("dealer-vs-one-5c", "may-pass", R, "p. 27; A47"),
            ("defend-declare", "before-seeing-miss", D, ""),
            ("defender-looed", "no", D, "A44"),
            ("master", "off", D, ""),
            ("exchange-who", "in-turn-any-player", S, "p. 27"),
            ("exchange-once", "yes", S, "p. 27"),
            ("exchange-excludes-turn-up", "yes", D, ""),
            ("first-leader", "elder", S, "p. 20 (miss-holder: discouraged option)"),
            ("lead-scope-3c", "every-lead", S, "p. 20-21"),
            ("lead-scope-5c", "every-lead", D, "A13"),
            ("two-trumps", "highest", S, "p. 20 ('lead one' by agreement)"),
            ("two-trumps-irish", "heads-up-only", D, "Irish Loo is beyond the excerpt"),
            (
                "heads-up-threshold",
                "n/a",
                S,
                "covered by the rule that a leader with two or more trumps leads the highest",
            ),
            ("heads-up-sequence-exception", "off", S, ""),
            ("trump-after-trick", "highest", S, "p. 21"),
            ("pam-ace-lead", "ace", D, "A6"),
            ("head-scope", "beat-winning-card", R, "A1"),
            ("void-trump", "if-it-heads", S, "p. 21"),
            ("pam", "club-knave", S, "p. 27 (option: knave of trumps)"),
            ("pam-suit", "trump", R, "A3"),
            ("pam-be-civil", "pass-without-revoke", S, "p. 28; A5"),
            ("flush-timing", "after-declaring", S, "p. 27"),
            ("flush-precedence", "trump>pam>plain", S, "p. 28"),
            ("flush-tie", "elder-hand", S, "p. 28; two trump flushes: Pam first (A26)"),
            ("flush-pool", "holder-takes", S, "p. 27-28"),
            ("flush-loos-to", "holder", S, "p. 27-28"),
            ("flush-exempt", "losing-flush", S, "p. 28"),
            ("flush-next-deal", "single", S, "p. 28"),
            ("session-end", "open", D, ""),
            ("penalties", "peel-looed-replay", S, "p. 21-25"),
            ("replay", "always", S, "p. 21, 25"),
        ),
    ),
}

PRESET_IDS: Final[tuple[str, ...]] = tuple(PRESETS)


def _build(preset_id: str) -> RuleSet:
    settings = PRESETS[preset_id].settings
    values = {OPTION_BY_NAME[name].attr: s.value for name, s in settings.items()}
    return RuleSet(name=preset_id, source=preset_id, **values)  # type: ignore[arg-type]


_PRESET_RULES: Final[dict[str, RuleSet]] = {pid: _build(pid) for pid in PRESETS}


def preset(name: str) -> Preset:
    """The preset of one source; raises :class:`RuleSetError` naming the known presets."""
    found = PRESETS.get(name) if isinstance(name, str) else None
    if found is None:
        raise RuleSetError(f"unknown rule set {name!r}: choose one of {', '.join(PRESET_IDS)}")
    return found
