"""Rule sets: one preset per source, options named after rules, custom tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.loo import OPTIONS, PRESET_IDS, PRESETS, RuleSet, RuleSetError, preset
from games.loo.catalogue import rule_ids

RULES_MD = Path(__file__).resolve().parents[3] / "shared" / "RULES.md"


def test_there_is_one_preset_per_source() -> None:
    assert PRESET_IDS == ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel")
    for pid in PRESET_IDS:
        assert RuleSet.preset(pid).source == pid
        assert RuleSet.preset(pid).name == pid


def test_every_option_configures_a_rule_in_the_catalogue() -> None:
    known = rule_ids()
    for spec in OPTIONS:
        assert spec.rules, spec.name
        for rule_id in spec.rules:
            assert rule_id in known, (spec.name, rule_id)


def test_every_option_of_rules_md_part_2_is_present() -> None:
    """Each option row of the part 2.2 tables names options the rule sets have."""
    text = RULES_MD.read_text(encoding="utf-8")
    part = text[text.index("### 2.2 Option values") : text.index("## 3. Ambiguities")]
    names = set()
    for row in re.findall(r"^\| ([a-z0-9 /-]+) \|", part, re.M):
        if row.strip() in {"option", "game modes"}:
            continue
        for name in row.split("/"):
            names.add(name.strip())
    ours = {spec.name for spec in OPTIONS}
    # RULES.md writes "club-law / games / exchange" for three options in one row, and one
    # "stake" row for the two games.
    aliases = {"games": "club-law-games", "exchange": "club-law-exchange", "stake": "stake-3c"}
    missing = {aliases.get(n, n) for n in names} - ours
    assert not missing


def test_every_preset_gives_every_option_a_value_and_a_basis() -> None:
    for p in PRESETS.values():
        assert set(p.settings) == {spec.name for spec in OPTIONS}
        for name, setting in p.settings.items():
            assert setting.basis in {"source", "reading", "default", "engine"}, name
        assert p.summary and p.title and p.source_title


@pytest.mark.parametrize(
    ("pid", "option", "value"),
    [
        # A sample of RULES.md 2.2, one row per point on which the presets split.
        ("hoffmann", "heads-up-sequence-exception", "on"),
        ("britannica", "heads-up-sequence-exception", "off"),
        ("peel", "two-trumps", "highest"),
        ("hoffmann", "two-trumps", "any-trump"),
        ("whiteknuckle", "trump-after-trick", "off"),
        ("peel", "trump-after-trick", "highest"),
        ("parlett", "lead-scope-5c", "none"),
        ("whiteknuckle", "lead-scope-3c", "first-lead-only"),
        ("parlett", "head-scope", "beat-led-suit"),
        ("peel", "head-scope", "beat-winning-card"),
        ("whiteknuckle", "void-trump", "always"),
        ("britannica", "void-trump", "if-it-heads"),
        ("whiteknuckle", "pam-be-civil", "bar-unless-only-trump"),
        ("parlett", "flush-precedence", "pam>trump>plain"),
        ("peel", "flush-precedence", "trump>pam>plain"),
        ("whiteknuckle", "flush-precedence", "pam>rest"),
        ("britannica", "flush-tie", "elder-hand"),
        ("hoffmann", "flush-tie", "better-cards"),
        ("peel", "flush-exempt", "losing-flush"),
        ("britannica", "ante", "all-players-fresh-pool"),
        ("britannica", "loo-payment", "pool-capped"),
        ("peel", "loo-amount", 2),
        ("britannica", "game-modes", "three-card|five-card|irish"),
        ("parlett", "players-5c", "5-10"),
        ("peel", "players-5c", "3-6"),
    ],
)
def test_a_preset_follows_its_source(pid: str, option: str, value: object) -> None:
    assert RuleSet.preset(pid).value(option) == value


def test_defaults_where_a_source_is_silent_are_marked_as_defaults() -> None:
    assert preset("whiteknuckle").basis("trump-after-trick").basis == "default"
    assert preset("hoffmann").basis("first-dealer").basis == "default"
    assert preset("hoffmann").basis("heads-up-threshold").basis == "reading"
    assert "first-dealer" in preset("hoffmann").defaults()
    assert "two-trumps" not in preset("peel").defaults()


def test_only_britannica_describes_irish_loo() -> None:
    assert [pid for pid in PRESET_IDS if RuleSet.preset(pid).supports("irish")] == ["britannica"]


def test_an_option_can_be_overridden_to_make_a_custom_table() -> None:
    peel = RuleSet.preset("peel")
    custom = peel.with_options({"two-trumps": "any-trump"})
    assert custom.two_trumps == "any-trump"
    assert custom.overrides == ("two-trumps",)
    assert custom.name == "peel (custom)"
    assert custom.source == "peel"
    assert peel.two_trumps == "highest"  # the preset itself is unchanged
    assert [d.option for d in custom.differences(peel)] == ["two-trumps"]


def test_setting_an_option_to_its_current_value_is_no_override() -> None:
    peel = RuleSet.preset("peel")
    assert peel.with_options({"two-trumps": "highest"}) == peel


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"two-trumps": "lowest"}, "option 'two-trumps' has no value 'lowest'"),
        ({"no-such": "x"}, "unknown option 'no-such'"),
        ({"stake-3c": 4}, "'stake-3c' must divide by three"),
        ({"stake-5c": "5"}, "'stake-5c' must be a whole number"),
        ({"players-5c": "3-12"}, "'players-5c' must lie within 2-10"),
        ({"players-3c": "nine"}, "must be a range"),
    ],
)
def test_a_bad_option_is_refused_with_a_clear_message(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(RuleSetError, match=message):
        RuleSet.preset("hoffmann").with_options(options)


def test_an_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(RuleSetError, match="unknown rule set 'hoyle': choose one of hoffmann"):
        RuleSet.preset("hoyle")


def test_a_preset_describes_itself_in_plain_words() -> None:
    described = dict(RuleSet.preset("peel").describe())
    assert described["A leader with two or more trumps"] == "must lead the highest"
    assert described["Trump after trick"] == "the winner of a trick must lead his highest trump"
    assert len(described) == len(OPTIONS)


def test_a_preset_lists_how_it_differs_from_another() -> None:
    diffs = {d.option: d for d in RuleSet.preset("hoffmann").differences(RuleSet.preset("peel"))}
    assert diffs["two-trumps"].value == "any-trump"
    assert diffs["two-trumps"].other_value == "highest"
    assert diffs["two-trumps"].rule == "lead-trump-holding-two"
    assert str(diffs["two-trumps"]) == (
        "A leader with two or more trumps: must lead a trump (not: must lead the highest)"
    )
    assert "head-scope" not in diffs  # both beat the winning card
    assert RuleSet.preset("hoffmann").differences(RuleSet.preset("hoffmann")) == []
