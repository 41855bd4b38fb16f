"""A "Which source says so" question on the trainer's pages: each sentence of its answer is
about one source and cites that source's passage."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest

from games.loo.questions import question

pytestmark = pytest.mark.django_db


def _sentences(html: str) -> list[str]:
    """The items of the graded answer's "Why", tags removed."""
    why = html.split('<ul class="explanations">', 1)[1].split("</ul>", 1)[0]
    items = re.findall(r"<li>(.*?)</li>", why, flags=re.S)
    words = [" ".join(unescape(re.sub(r"<[^>]+>", " ", item)).split()) for item in items]
    return [w.replace("( ", "(").replace(" )", ")") for w in words]


def test_each_source_s_sentence_cites_its_own_passage_not_the_drill_s_rule_set(
    learner: Any,
) -> None:
    """Issue 38: in a Parlett drill, Hoffmann's words "the knave of clubs, known as Pam…" were
    labelled "Parlett (modern), 5c:Cards" (the drill's rule set's passage)."""
    q = question("source", "parlett", game="five-card", rule="pam-highest-trump", seed=1)
    asked = learner.store(q)

    learner.answer(asked, list(q.answer))
    said = _sentences(learner.page(asked))

    assert len(said) == 5
    hoffmann = next(s for s in said if s.startswith("Hoffmann (1909) states it"))
    assert "known as Pam" in hoffmann
    assert "(Hoffmann (1909), ¶" in hoffmann and "Parlett" not in hoffmann
    for sentence in said:
        title = sentence.split(" states it")[0].split(" is silent")[0]
        assert f"({title}, " in sentence or f"(what {title} says)" in sentence, sentence


def test_a_quotation_is_shown_with_its_source_s_transcription_faults_corrected(
    learner: Any,
) -> None:
    """Issue 38: "contributes tothe pool", the Britannica's OCR fault that the catalogue keeps
    and the source's reading page corrects (content/sources/britannica.txt, ``correct:``)."""
    q = question("source", "parlett", game="three-card", rule="ante", seed=1)
    assert "tothe" in q.position["quote"] and q.answer == ("britannica",)
    asked = learner.store(q)

    before = learner.page(asked)
    learner.answer(asked, list(q.answer))
    after = learner.page(asked)

    for page in (before, after):
        assert "Each player contributes to the pool a sum previously agreed upon." in page
        assert "tothe" not in page
    britannica = next(s for s in _sentences(after) if s.startswith("Britannica (1911)"))
    assert "contributes to the pool" in britannica
