"""The variations a player may agree on a practice table's rule set: club law and unlimited
loo. Each is an option of the rule sets (``RuleSet.with_options``) named after its rule id
in RULES.md part 1, and each is offered only where the chosen source offers it as an agreed
variation, for the games it describes it in (RULES.md part 2):

- **club law** (``club-law`` = ``on``): whenever a club is turned up, everyone must play.
  Hoffmann for both games (¶12), Britannica for three-card Loo (s. 40), Parlett for five-card
  Loo (5c:Bidding), Peel for three-card Loo (p. 26); White Knuckle does not offer it. The
  games are the preset's ``club-law-games``; Britannica's Irish Loo is not among them (its
  club law is a force of the three-card game; s. 42-43 say nothing of it).
- **unlimited loo** (``loo-payment`` = ``pool``): a looed player pays what the pool held at
  the start of the deal (A31). Hoffmann (¶8) and Britannica (s. 36) for every game they
  describe; Parlett for both games ("In Limited Loo this amount is small and fixed. In
  Unlimited Loo it is the amount currently in the pool", of "both games"); Peel among the
  variations of his three-card game (p. 26), before and apart from his five-card Loo; White
  Knuckle is silent.

Pure data and words over the engine's rule sets: the table's form checks a choice
(:func:`refusal`) and a page names what a table agreed (:func:`agreed`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from games.loo.rulesets import GAME_NAMES, OPTION_BY_NAME, PRESETS, OptionValue, RuleSet


@dataclass(frozen=True)
class Variation:
    """One variation a practice table may agree: its rule id (``id``), its name, what it
    does in a sentence, and the options it sets."""

    id: str
    label: str
    help: str
    options: Mapping[str, OptionValue]


CLUB_LAW: Final = Variation(
    "club-law",
    "Club law",
    "Whenever a club is turned up for trumps, everyone must play: nobody may pass, and there "
    "is no miss.",
    {"club-law": "on"},
)
UNLIMITED_LOO: Final = Variation(
    "unlimited-loo",
    "Unlimited loo",
    "A player who is looed pays what the pool held at the start of the deal, not a fixed sum: "
    "the loos can grow fast.",
    {"loo-payment": "pool"},
)
VARIATIONS: Final[Mapping[str, Variation]] = {v.id: v for v in (CLUB_LAW, UNLIMITED_LOO)}

#: The games of a preset's ``club-law-games``.
_CLUB_LAW_GAMES: Final[Mapping[str, tuple[str, ...]]] = {
    "both": ("three-card", "five-card"),
    "three-card": ("three-card",),
    "five-card": ("five-card",),
}

#: Where each source offers unlimited loo (see the module's text).
_UNLIMITED_GAMES: Final[Mapping[str, tuple[str, ...]]] = {
    "hoffmann": ("three-card", "five-card"),
    "britannica": ("three-card", "five-card", "irish"),
    "parlett": ("three-card", "five-card"),
    "peel": ("three-card",),
}


def games_offering(variation: str, rules: str) -> tuple[str, ...]:
    """The games in which the source of preset ``rules`` offers ``variation`` (none: it does
    not offer it)."""
    preset = PRESETS.get(rules)
    if preset is None or variation not in VARIATIONS:
        return ()
    ruleset = preset.rules
    if variation == CLUB_LAW.id:
        # Offered by the source: an option it states (White Knuckle's is a default, "not
        # offered").
        if preset.basis("club-law").basis != "source":
            return ()
        games = _CLUB_LAW_GAMES[ruleset.club_law_games]
    else:
        games = _UNLIMITED_GAMES.get(rules, ())
    return tuple(g for g in ruleset.games if g in games)


def refusal(variation: str, rules: str, game: str) -> str:
    """Why ``variation`` cannot be agreed for ``game`` under preset ``rules``, in plain
    words; "" when it can."""
    chosen = VARIATIONS.get(variation)
    if chosen is None:
        return "That variation is not offered here: choose club law or unlimited loo."
    games = games_offering(variation, rules)
    if game in games:
        return ""
    title = PRESETS[rules].title if rules in PRESETS else rules
    if not games:
        others = [p.title for p in PRESETS.values() if games_offering(variation, p.id)]
        return (
            f"{title} does not offer {chosen.label.lower()}: choose another rule set "
            f"({_either(others)}), or leave {chosen.label.lower()} out."
        )
    names = [GAME_NAMES[g] for g in games]
    return (
        f"{title} gives {chosen.label.lower()} for {_and(names)} only: choose "
        f"{_either(names)}, or leave {chosen.label.lower()} out."
    )


def where_offered(variation: str) -> str:
    """Which rule sets offer ``variation``, and for which games, in a sentence for the
    chooser: "Offered by Hoffmann (1909) in three-card and five-card Loo; ..."."""
    found = [
        f"{p.title} in {_and([GAME_NAMES[g] for g in games])}"
        for p in PRESETS.values()
        if (games := games_offering(variation, p.id))
    ]
    missing = [p.title for p in PRESETS.values() if not games_offering(variation, p.id)]
    said = f"Offered by {'; '.join(found)}."
    return f"{said} Not by {_and(missing)}." if missing else said


def options_for(variations: Iterable[str]) -> dict[str, OptionValue]:
    """The rule set's options that ``variations`` (ids of :data:`VARIATIONS`) agree."""
    options: dict[str, OptionValue] = {}
    for name in variations:
        options.update(VARIATIONS[name].options)
    return options


@dataclass(frozen=True)
class Agreed:
    """A variation a table agreed, as a page names it: ``rule``, the rule id it cites."""

    rule: str
    label: str
    help: str


def agreed(rules: str, options: Mapping[str, object] | None) -> list[Agreed]:
    """What a table agreed on its preset ``rules`` (``options``, the options it changed, as a
    table or a hand stores them: ``RuleSet.to_dict()``): each variation of
    :data:`VARIATIONS` it plays, then any other option (a lesson's guided hand may agree
    others) in plain words. Nothing for a preset played as it is."""
    if not options:
        return []
    left = dict(options)
    found: dict[str, Agreed] = {}
    for variation in VARIATIONS.values():
        if all(left.get(k) == v for k, v in variation.options.items()):
            found[variation.id] = Agreed(variation.id, variation.label, variation.help)
            for key in variation.options:
                left.pop(key)
    for name, value in left.items():
        spec = OPTION_BY_NAME.get(name)
        if spec is None:
            continue
        try:
            said = f"{spec.label}: {spec.phrase(spec.check(value))}."
        except (KeyError, ValueError):
            said = f"{spec.label}: {value}."
        same = found.get(spec.rule)
        if same is not None and same.rule in VARIATIONS:
            # A detail of a variation agreed (a lesson's "club law applies to three-card Loo").
            found[spec.rule] = Agreed(same.rule, same.label, f"{same.help} {said}")
        else:
            found[f"option:{name}"] = Agreed(spec.rule, spec.label, said)
    return list(found.values())


def title_words(rules: str, options: Mapping[str, object] | None) -> str:
    """The variations in a table's heading: "with club law and unlimited loo"; "" for none."""
    names = [a.label[:1].lower() + a.label[1:] for a in agreed(rules, options)]
    return f"with {_and(names)}" if names else ""


def ruleset_with(rules: str, variations: Iterable[str]) -> RuleSet:
    """Preset ``rules`` with ``variations`` agreed."""
    ruleset = RuleSet.preset(rules)
    options = options_for(variations)
    return ruleset.with_options(options) if options else ruleset


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
