"""The options of a rule set, as RULES.md part 2 names them: each option's name, the rule(s) it
configures, its allowed values and the plain phrase for each. Data, kept apart from the code of
:mod:`games.loo.rulesets` that reads it, so that an option is added here and nowhere else.
"""

from __future__ import annotations

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
            "lowest-cut-ace-low": "the lowest cut deals first, ace counting low",
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
        "A single loo (on the single deal, and for peel's penalties before the play)",
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
    _o(
        "penalty-loo-before-play",
        "penalty-misdeal penalty-interfering-with-deal penalty-declare-out-of-turn "
        "penalty-look-at-miss",
        "Under peel's penalties, the loo for a misdeal, for interfering with the deal, for "
        "looking or declaring before one's turn, or for looking at the miss",
        {
            "single-loo": "is a single loo, paid into the pool at once",
            # Kept only to make again the questions of versions 2 to 4 (questions.base.rules_at).
            "full-loo": "is a full loo (an earlier reading of peel, withdrawn)",
        },
    ),
    _o(
        "look-hand-loo-to",
        "penalty-look-at-others-cards penalty-destination",
        "Under peel's penalties, the full loo for looking at another player's cards",
        {
            "current-pool": (
                'is paid at once into the pool of this deal (p. 22: "penalties for looking at '
                'the hands"; p. 24: "having first paid his loo into the pool")'
            ),
            # Kept only to make again the questions of versions 2 to 4 (questions.base.rules_at).
            "next-pool": "goes to the pool for the next deal (an earlier reading, withdrawn)",
        },
    ),
    _o(
        "offender-winnings",
        "penalty-destination",
        "A player looed for an offence, or made to retire for the hand",
        {
            "none": (
                "wins nothing in that hand: neither a trick's share nor the pool without play"
            ),
            # Kept only to make again the questions of versions 2 to 4 (questions.base.rules_at).
            "as-played": (
                "keeps a trick won before retiring, and the pool if it comes to him without "
                "play (an earlier reading, withdrawn)"
            ),
        },
    ),
    _o(
        "interfering-winnings",
        "penalty-interfering-with-deal penalty-destination",
        "Under peel's penalties, a player looed for interfering with the cards during the deal",
        {
            "none": (
                "wins nothing in that hand: what his tricks would win stays in the pool for the "
                'next deal (p. 22: "In any case the player who transgressed the law does not win '
                'anything")'
            ),
            # Kept only to make again the questions of versions 2 to 8 (questions.base.rules_at).
            "as-played": (
                "plays on with an equal chance, as after a misdeal (an earlier reading, withdrawn)"
            ),
        },
    ),
)

OPTION_BY_NAME: Final[Mapping[str, OptionSpec]] = {o.name: o for o in OPTIONS}
