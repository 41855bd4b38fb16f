"""Rule sets: one preset per source, every option named after the rule it configures.

``../shared/RULES.md`` part 2 is the specification: each option (:mod:`.options`) has the name
used there, the rule id(s) it configures, its allowed values with a plain phrase for each, and,
for each preset (:mod:`.presets`), the value and its basis: ``source`` (the text gives it),
``reading`` (a recommended reading of an unclear text, with the A-number of RULES.md part 3),
``default`` (the source is silent) or ``engine`` (an arithmetic limit, not from the sources).
Those two modules are data; this one is the code that reads them, and the one door to them
(it re-exports what they define).

A :class:`RuleSet` is immutable. ``RuleSet.preset("peel")`` gives a source's rules;
``ruleset.with_options({"two-trumps": "any-trump"})`` makes a custom table based on it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .errors import RuleSetError
from .options import (
    BASIS_NAMES,
    GAME_NAMES,
    GAMES,
    HAND_SIZE,
    OPTION_BY_NAME,
    OPTIONS,
    Basis,
    Game,
    OptionSpec,
    OptionValue,
)
from .presets import DEFAULT_PRESET, PRESET_TEXTS


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
    penalty_loo_before_play: str
    look_hand_loo_to: str
    offender_winnings: str
    interfering_winnings: str
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
    "A51": "the shares of the tricks a player had won before he must retire",
    "A52": "peel's “the next deal becomes a single” after a flush at five-card Loo",
    "A54": "peel's dealer standing out above five players, withdrawing and finishing",
    "A55": "peel's offender who wins nothing but for looking, declaring out of turn and a misdeal",
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


PRESETS: Final[Mapping[str, Preset]] = {
    pid: Preset(t.id, t.title, t.source_title, t.summary, _settings(*t.settings), t.modern)
    for pid, t in PRESET_TEXTS.items()
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


__all__ = [
    "BASIS_NAMES",
    "DEFAULT_PRESET",
    "GAMES",
    "GAME_NAMES",
    "HAND_SIZE",
    "OPTIONS",
    "OPTION_BY_NAME",
    "PRESETS",
    "PRESET_IDS",
    "READINGS",
    "Basis",
    "Difference",
    "Game",
    "OptionSpec",
    "OptionValue",
    "Preset",
    "RuleSet",
    "Setting",
    "in_words",
    "option_rule",
    "preset",
]
