"""What a question's prompt says (issue 39): it describes what happens in words and never names
a rule by its catalogue name in quotation marks ("against the rule “peel's rule”", "“void in
the led suit”": a label, and one that names a source), nor by its id; a ``source`` question
that quotes a source quotes at least five words ("paramount trump", "MIXED LOO" are phrases,
not passages a reader could place). Over every kind under every rule set and game, on a
sample of seeds."""

from __future__ import annotations

import re

import pytest

from games.loo import catalogue
from games.loo.messages import render
from games.loo.questions import REGISTRY, VERSION, QuestionError, question
from games.loo.questions.source import QUOTE_WORDS, _source_rules, game_of
from games.loo.rulesets import PRESETS, RuleSet
from tests.profile import size

SEEDS = size(ci=range(500, 510), thorough=range(500, 560))
#: The coach's ``declare`` questions search whole hands (seconds each): fewer of them.
DECLARE_SEEDS = size(ci=range(500, 502), thorough=range(500, 510))

KINDS = [
    (kind.name, preset, game)
    for kind in REGISTRY
    if kind.since <= VERSION
    for preset in PRESETS
    for game in RuleSet.preset(preset).games
]


def _names_a_rule(prompt: str, about_a_rule: bool = False) -> list[str]:
    """The rule names and ids in ``prompt``. A ``source`` question asks about a rule
    (``about_a_rule``): it may name it, but not by a name that names a source."""
    names = {r.name.lower() for r in catalogue.rules()}
    ids = {r.id for r in catalogue.rules() if "-" in r.id}
    quoted = [q.lower() for q in re.findall(r"“([^”]+)”", prompt)]
    found = [
        q
        for q in quoted
        if q in names and (not about_a_rule or any(s in q for s in catalogue.SOURCE_IDS))
    ]
    found += [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", prompt)]
    if "against the rule" in prompt:
        found.append("against the rule")
    return found


def test_the_check_finds_a_rule_named_in_a_prompt() -> None:
    assert _names_a_rule("Seat 3 plays the 8♠, against the rule “void in the led suit”.")
    assert _names_a_rule("Seat 2 leads the 9♥, against the rule “peel's rule”.")
    assert _names_a_rule("Does must-trump bind him?")
    assert _names_a_rule("Which sources state the rule “peel's rule”?", about_a_rule=True)
    assert not _names_a_rule("Which sources state the rule “play higher if you can”?", True)
    assert not _names_a_rule("Seat 3 plays the 8♠, though he is bound to trump.")


@pytest.mark.parametrize(("kind", "preset", "game"), KINDS)
def test_a_prompt_describes_what_happens_and_names_no_rule(
    kind: str, preset: str, game: str
) -> None:
    for seed in DECLARE_SEEDS if kind == "declare" else SEEDS:
        try:
            q = question(kind, preset, game=game, seed=seed)
        except QuestionError:
            continue
        prompt = render(q.prompt, 0)
        assert not _names_a_rule(prompt, kind == "source"), (kind, preset, game, seed, prompt)


def test_peels_five_card_fail_to_head_prompt_says_what_the_player_was_bound_to_do() -> None:
    """The prompt of issue 39's example (seed 509) was "… against the rule “void in the led
    suit”"."""
    q = question("penalty", "peel", game="five-card", rule="penalty-fail-to-head", seed=509)
    prompt = render(q.prompt, 0)
    assert "though he is bound to trump" in prompt, prompt
    assert not _names_a_rule(prompt)


def _quoted_words(quote: str) -> int:
    return len(re.findall(r"\w+", quote.replace("…", " ")))


def test_a_source_question_quotes_at_least_five_words() -> None:
    """Every rule a source question asks about, over the sample: a quotation has at least
    ``QUOTE_WORDS`` words. Version 7 still quoted "paramount trump" (Hoffmann on Pam led),
    which a stored question of it keeps."""
    quotes = []
    for rule in _source_rules():
        for seed in range(6):
            q = question("source", "hoffmann", game=game_of(rule), rule=rule, seed=seed)
            if "quote" in q.position:
                quotes.append(q.position["quote"])
                assert q.position["quote"] in render(q.prompt, 0)
    assert len(quotes) > 100
    short = sorted({q for q in quotes if _quoted_words(q) < QUOTE_WORDS})
    assert not short, short
    old = [
        question("source", "hoffmann", rule="pam-led-trump-must-be-played", seed=s, version=7)
        for s in range(13)
    ]
    assert "paramount trump" in {q.position.get("quote") for q in old}
