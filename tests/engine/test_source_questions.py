"""``source`` questions from version 5 (issue 25, finding 5): a quotation is asked about only
where it is the words of one source, that states or implies the rule, and in no other
source's text; and no prompt names its own answer.

The texts are read here, apart from the catalogue's build: ../shared/sources (with Peel's
chapter as recovered, sources/more/peel-full-loo.txt) and our passage files of the
public-domain texts, compared without regard to case and punctuation.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from games.loo.catalogue import SOURCE_IDS, rule
from games.loo.questions import question
from games.loo.questions.source import _source_rules, game_of
from games.loo.rulesets import PRESETS

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "sources"
SEEDS = range(12)


def _words(text: str) -> str:
    """The words of ``text``, lower case, joined by single spaces, without page or note marks
    ("[28]") and with words joined by an apostrophe or a mirror's double quote kept whole."""
    text = re.sub(r"\[\d+\]", " ", text.lower())
    text = re.sub(r"(?<=\w)[\"'’.*_]+(?=\w)", "", text)
    return " " + " ".join(re.findall(r"[^\W_]+", text)) + " "


@cache
def texts() -> dict[str, str]:
    found = {}
    for source in SOURCE_IDS:
        path = SHARED / f"{source}.txt"
        if not path.is_file():
            pytest.fail(f"{path} is missing: the shared folder must sit beside the checkout.")
        text = path.read_text(encoding="utf-8")
        if source == "peel":
            text += (SHARED / "more" / "peel-full-loo.txt").read_text(encoding="utf-8")
        if not PRESETS[source].modern:
            text += (REPO / "content" / "sources" / f"{source}.txt").read_text(encoding="utf-8")
        found[source] = _words(text)
    return found


def has(source: str, quote: str) -> bool:
    """Whether the parts of ``quote`` (between its "…") are all in ``source``'s text."""
    parts = [_words(part) for part in quote.replace(" …", "…").split("…")]
    return all(part in texts()[source] for part in parts if part.strip())


@cache
def asked() -> list[tuple[str, int, object]]:
    return [
        (
            rule_id,
            seed,
            question("source", "hoffmann", game=game_of(rule_id), rule=rule_id, seed=seed),
        )
        for rule_id in _source_rules()
        for seed in SEEDS
    ]


def test_a_quotation_is_asked_about_only_where_it_is_in_the_answers_text_alone() -> None:
    quoted = 0
    for rule_id, seed, q in asked():
        if "quote" not in q.position:  # type: ignore[attr-defined]
            continue
        quoted += 1
        quote = q.position["quote"].removesuffix(" …")  # type: ignore[attr-defined]
        (answer,) = q.answer  # type: ignore[attr-defined]
        assert rule(rule_id).source(answer).status in ("states", "implied"), (rule_id, seed)
        found = [s for s in SOURCE_IDS if has(s, quote)]
        assert found == [answer], (rule_id, seed, quote)
    assert quoted > 100


@pytest.mark.parametrize(
    ("rule_id", "words"),
    [
        # The Britannica "describes no fixed loo. Its "limited" loo is a cap …" (s. 37).
        ("limited-loo", "limited"),
        # Parlett is silent on rounding; "agreed stake" is his five-card loo (5c:Pay-off).
        ("indivisible-pool-rounding", "agreed stake"),
        # Hoffmann ¶2 and Britannica s. 16: "the cards ranking as at whist".
        ("rank-order", "the cards ranking as at whist"),
        ("trick-winner", "the cards ranking as at whist"),
        # Hoffmann and the Britannica both say "divisible by five".
        ("pool-division", "divisible by five"),
    ],
)
def test_the_quotations_issue_25_found_are_not_asked_about(rule_id: str, words: str) -> None:
    for seed in range(40):
        q = question("source", "hoffmann", game=game_of(rule_id), rule=rule_id, seed=seed)
        assert q.position.get("quote", "").lower() != words, seed
    # Version 4 asked them, and still does: a graded answer keeps its meaning.
    old = [question("source", "hoffmann", rule=rule_id, seed=s, version=4) for s in range(40)]
    assert any(q.position.get("quote", "").lower() == words for q in old)


def test_no_prompt_names_its_own_answer() -> None:
    """RULES.md names a few rules by their source ("peel's rule", "the dealer defends with the
    stock (britannica only)", "a discouraged option (peel)"): a prompt names them without."""
    names = [*SOURCE_IDS, *(PRESETS[s].title.split()[0].lower() for s in SOURCE_IDS)]
    for rule_id, seed, q in asked():
        prompt = str(q.prompt).lower()  # type: ignore[attr-defined]
        assert not any(name in prompt for name in names), (rule_id, seed, prompt)
    peel = question("source", "hoffmann", rule="lead-highest-of-two-or-three", seed=0)
    assert "the leader with two or more trumps leads the highest" in str(peel.prompt)
    old = question("source", "hoffmann", rule="lead-highest-of-two-or-three", seed=0, version=4)
    assert str(old.prompt) == "Which of these sources state the rule “peel's rule”?"


def test_an_explanation_does_not_say_its_status_twice() -> None:
    """Not "Hoffmann (1898) implies it: implicit: …" (issue 25, finding 12)."""
    for rule_id in (
        "rank-order",
        "trick-winner",
        "pam-highest-trump",
        "lead-highest-of-two-or-three",
    ):
        q = question("source", "hoffmann", game=game_of(rule_id), rule=rule_id, seed=0)
        for text in (e["text"] for e in q.to_dict()["explanations"]):
            assert not re.search(r"implies it: (implicit|implied|silent)", text, re.I), text
            assert "wider rule: subsumed" not in text, text
    said = question("source", "hoffmann", rule="trick-winner", seed=0).to_dict()["explanations"]
    assert said[0]["text"].startswith('Hoffmann (1909) implies it: "the cards ranking as at')
    old = question("source", "hoffmann", rule="trick-winner", seed=0, version=4)
    assert "implies it: implicit:" in old.to_dict()["explanations"][0]["text"]


def test_a_quotation_is_shown_without_the_texts_emphasis_marks() -> None:
    """Peel's "the rule to lead the _highest_ of two or three" (p. 20): the underscores are
    our copy's italics, not words."""
    for seed in SEEDS:
        q = question("source", "hoffmann", rule="lead-highest-of-two-or-three", seed=seed)
        assert "_" not in q.position.get("quote", ""), seed


def test_no_question_shows_a_fault_of_our_copies() -> None:
    """Issue 25, finding 12: Peel was asked about as "beyond the dealer"s fee" and "the
    amount in the pool, [28] receives" (the web mirror's faults), and explained as "Hoffmann
    implies it: implicit: …"."""
    faults = re.compile(r"[A-Za-z]\"s\b|[,;] \[\d\d\] [a-z]|implies it: (?:implicit|implied)\b")
    for rule_id in _source_rules():
        for seed in range(4):
            q = question("source", "peel", game=game_of(rule_id), rule=rule_id, seed=seed)
            shown = [str(q.prompt), *(e["text"] for e in q.to_dict()["explanations"])]
            assert not [text for text in shown if faults.search(text)], (rule_id, seed)
    fee = [
        question("source", "peel", game="five-card", rule="flush-loos-the-board", seed=seed)
        for seed in range(20)
    ]
    quotes = {q.position.get("quote") for q in fee}
    assert (
        "besides taking the amount in the pool, receives from each of the players, whether "
        "they stood or not, the amount of a loo"
    ) in quotes


def test_a_quotation_is_shown_without_hoffmanns_footnote_marks() -> None:
    """Hoffmann ¶4 "of equal value,[28] when he may lead either of them": the question shows
    no footnote, so from version 5 it shows no mark that points to one (neither in the
    quotation nor in the explanations); version 4 still shows it as it did."""
    mark = re.compile(r"\S\[\d+\]")
    for rule_id in ("lead-highest-trump-heads-up", "flush-tie-break", "first-dealer"):
        for seed in SEEDS:
            q = question("source", "hoffmann", game=game_of(rule_id), rule=rule_id, seed=seed)
            shown = [str(q.prompt), *(e["text"] for e in q.to_dict()["explanations"])]
            assert not [text for text in shown if mark.search(text)], (rule_id, seed)
    old = question("source", "hoffmann", rule="lead-highest-trump-heads-up", seed=0, version=4)
    assert "of equal value,[28] when" in str(old.to_dict())
    said = question("source", "hoffmann", rule="lead-highest-trump-heads-up", seed=0)
    assert "of equal value, when he may lead either" in str(said.to_dict())


def test_every_source_answered_as_stating_a_rule_is_quoted_or_a_modern_page() -> None:
    """A "which sources state this rule?" answer names each source that states it; the
    catalogue quotes each public-domain one (Hoffmann on the revoke: Law 12 and the penalty
    of Laws 9-14, "Any player committing any infractions of Laws 9, 10, 11, 12, 13, or 14, …
    forfeit to the pool four times the amount of a single"). The modern pages are given in our
    own words; the checker holds them to RULES.md's quotations (tests/reference/quotes.py)."""
    unquoted = [
        (rule_id, s.source)
        for rule_id in _source_rules()
        for s in rule(rule_id).sources
        if s.status == "states" and not s.citations and not PRESETS[s.source].modern
    ]
    assert not unquoted
    revoke = rule("penalty-revoke").source("hoffmann")
    assert [c.locator for c in revoke.citations] == ["Law 12", "after Law 14", "Law 16"]
    assert all(has("hoffmann", c.quote) for c in revoke.citations)
