"""A question stored under an earlier version of the question bank is made again as that
version made it, answer included: a learner's trainer record and a student's graded quiz
answer keep their meaning when the generator changes (``VERSIONS``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from games.loo.questions import VERSION, VERSIONS, QuestionError, question

from .freeze_questions import meaning

#: A digest of each question the code of version 2 made (written by that code, before version
#: 3 changed the distractors of ``why-not`` and added kinds): key "kind|preset|game|rule|seed".
V2 = json.loads((Path(__file__).parent / "data" / "questions-v2.json").read_text())


def _digest(kind: str, preset: str, game: str, rule: str, seed: str, version: int) -> str:
    q = question(kind, preset, game=game, rule=rule or None, seed=int(seed), version=version)
    return hashlib.sha256(json.dumps(q.to_dict(), sort_keys=True).encode()).hexdigest()[:16]


def test_version_2_questions_are_made_again_exactly() -> None:
    assert 2 in VERSIONS and len(V2) > 200
    for key, digest in V2.items():
        assert _digest(*key.split("|"), version=2) == digest, key


def _frozen(version: int) -> dict[str, str]:
    return json.loads((Path(__file__).parent / "data" / f"questions-v{version}.json").read_text())


@pytest.mark.parametrize("version", [3, 4])
def test_versions_3_and_4_mean_what_they_meant(version: int) -> None:
    """What each question of versions 3 and 4 asked and accepted (position, choices, answer),
    written by that code before version 5 changed the bank (``python -m
    tests.engine.freeze_questions``): a graded answer keeps its meaning, whatever the engine
    and the sentences have learned since."""
    frozen = _frozen(version)
    assert version in VERSIONS and len(frozen) > 500
    changed = []
    for key, digest in frozen.items():
        kind, preset, game, rule, seed = key.split("|")
        q = question(kind, preset, game=game, rule=rule or None, seed=int(seed), version=version)
        if meaning(q) != digest:
            changed.append(key)
    assert not changed, changed


def test_later_versions_change_the_why_not_questions() -> None:
    """Not a test of the old code's output alone: version 3 (and every version after it)
    makes other ``why-not`` questions from the same inputs (its distractors), so the digests
    above would catch a version 2 that was quietly made by the new code."""
    keys = [k for k in V2 if k.startswith("why-not|")]
    for version in VERSIONS[1:]:
        changed = [k for k in keys if _digest(*k.split("|"), version=version) != V2[k]]
        assert len(changed) == len(keys), version
    assert VERSIONS[-1] == VERSION


def test_version_4_plays_peel_without_the_must_and_version_3_keeps_it() -> None:
    """Version 4 reads peel's recovered p. 18 (A39): no must, and the single asked about as a
    deal of one card each; a version 3 question under peel is made as before, with the must
    that was reconstructed then."""
    v3 = question("declaration", "peel", game="three-card", rule="must", seed=1, version=3)
    assert v3.topic == "must" and v3.position["must"]
    with pytest.raises(QuestionError):
        question("declaration", "peel", game="three-card", rule="must", seed=1, version=4)
    single = question("settlement", "peel", game="three-card", rule="single", seed=1)
    assert single.version == VERSION and "single" in single.position
    with pytest.raises(QuestionError):
        question("settlement", "peel", game="three-card", rule="single", seed=1, version=3)


def test_an_unknown_version_and_a_kind_newer_than_its_version_are_refused() -> None:
    with pytest.raises(QuestionError, match="no question version 1"):
        question("legal-cards", "hoffmann", seed=1, version=1)
    with pytest.raises(QuestionError, match="makes no penalty questions"):
        question("penalty", "hoffmann", seed=1, version=2)
