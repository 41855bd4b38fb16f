"""Where :mod:`tests.reference.quotes` finds a quotation: the words in the order the text has
them, without its page and footnote marks; and the passages by which the checker holds a
modern page's "states" to its text, where the site quotes the page hardly at all."""

from __future__ import annotations

import pytest

from games.loo.catalogue import rules as catalogue_rules
from games.loo.rulesets import PRESETS
from tests.reference import quotes


@pytest.mark.parametrize(
    ("quote", "sources"),
    [
        # The Britannica, s. 21: "must head the trick if able, and must follow suit if able".
        # Hoffmann has each run of three of these words, but in two places: ¶3 "each player
        # must follow suit, if possible" and Law 12 "bound to follow suit if able to do so".
        ("must follow suit if able", {"britannica"}),
        ("each player must follow suit, if possible", {"hoffmann"}),
        # Peel p. 28, with the mark of the page that begins inside the sentence: "the amount in
        # the pool, [28] receives from each of the players".
        (
            "besides taking the amount in the pool, receives from each of the players, whether "
            "they stood or not, the amount of a loo",
            {"peel"},
        ),
        # Hoffmann ¶2 with its footnote mark, "having been selected,[27] places".
        ("The dealer, having been selected,[27] places an agreed number", {"hoffmann"}),
        ("having been selected, places an agreed number", {"hoffmann"}),
        # The parts of an omission in their order, not the other way round (Law 2).
        ("reshuffled and recut … fresh deal by the same dealer", {"hoffmann"}),
        ("fresh deal by the same dealer … reshuffled and recut", set()),
    ],
)
def test_a_quotation_is_found_as_the_text_has_its_words(quote: str, sources: set[str]) -> None:
    assert quotes.found_in(quote) == frozenset(sources)


def test_every_modern_page_that_states_a_rule_is_held_to_its_text() -> None:
    """Where the catalogue has Parlett or White Knuckle state a rule without a quotation (the
    site paraphrases them: issue 25, finding 13), RULES.md's bullet quotes a passage that is
    in that page: a "which sources state this rule?" answer naming it can be checked."""
    unheld = [
        (r.id, s.source)
        for r in catalogue_rules()
        for s in r.sources
        if s.status == "states" and PRESETS[s.source].modern and not s.citations
        if not quotes.evidence(r.id, s.source)
    ]
    assert not unheld
    assert quotes.evidence("first-dealer", "parlett")  # "Whoever cuts the lowest card …"
    assert not quotes.evidence("penalty-revoke", "parlett")  # silent
