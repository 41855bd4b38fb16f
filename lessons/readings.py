"""How each rule set of the engine sets its options (RULES.md Part 2.2): each preset's value
for each option, and its basis, as the rule pages and the comparison show them."""

from __future__ import annotations

from dataclasses import dataclass

from games.loo.rulesets import BASIS_NAMES, OPTIONS, PRESETS, OptionSpec


@dataclass(frozen=True)
class Reading:
    """One preset's value for one option, and its basis."""

    preset: str
    title: str
    value: str
    phrase: str
    basis: str
    note: str

    @property
    def basis_name(self) -> str:
        return BASIS_NAMES[self.basis]


@dataclass(frozen=True)
class OptionReadings:
    """How each preset sets one option of the engine (RULES.md Part 2.2)."""

    spec: OptionSpec
    readings: tuple[Reading, ...]

    @property
    def differs(self) -> bool:
        return len({r.value for r in self.readings}) > 1

    def groups(self) -> list[tuple[str, list[Reading]]]:
        """The distinct values, each with the presets that choose it."""
        grouped: dict[str, list[Reading]] = {}
        for reading in self.readings:
            grouped.setdefault(reading.phrase, []).append(reading)
        return list(grouped.items())

    def reading(self, preset: str) -> Reading:
        return next(r for r in self.readings if r.preset == preset)


def option_readings(rule_id: str | None = None) -> list[OptionReadings]:
    """Every option (or those configuring ``rule_id``) with each preset's value."""
    found = []
    for spec in OPTIONS:
        if rule_id is not None and rule_id not in spec.rules:
            continue
        readings = []
        for preset in PRESETS.values():
            setting = preset.settings[spec.name]
            readings.append(
                Reading(
                    preset.id,
                    preset.title,
                    str(setting.value),
                    spec.phrase(setting.value),
                    setting.basis,
                    setting.note,
                )
            )
        found.append(OptionReadings(spec, tuple(readings)))
    return found
