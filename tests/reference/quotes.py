"""Where a quotation is found in the five texts, read from the texts themselves (never from the
rule catalogue, whose claims it checks).

The modern pages (parlett, whiteknuckle) may not be kept in the repository whole, so what the
tests carry is a fingerprint of each text: a hash of every run of two and of three words, in
the text's order, after :func:`normalize` (case, quote marks, punctuation, line breaks and the
page and footnote marks "[28]" ignored, the web mirror's known faults mended). A quotation is
in a text when the hashes of its runs of three words (of two, for a quotation of two words)
stand there one after another, as its words do; an omission ("…") splits it into parts, each
of which must be there, in order. (A set of runs, without their order, also took for a
quotation words stitched from two places: "must follow suit if able" is the Britannica's
s. 21, and Hoffmann has only "must follow suit, if possible" and Law 12 "bound to follow suit
if able".)

The site quotes the modern pages only in a few short passages, so that where the rule
catalogue has a modern page state a rule it mostly quotes nothing: the fingerprint also keeps,
hashed in the same way, the quotations of each source's bullet in RULES.md part 1
(:func:`evidence`), by which the checker can see that the page does say something there.

``q_texts.json`` is built from the texts by ``python -m tests.reference.quotes`` where they are
present (the shared folder ``sources/`` and ``RULES.md``); a test checks it is up to date there.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

SOURCES = ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel")

#: Where the texts are: the shared folder of the project (``SOURCES.md`` describes each).
TEXTS = Path(os.environ.get("LOO_SOURCE_TEXTS", "/work/shared/sources"))
RULES_MD = TEXTS.parent / "RULES.md"
FINGERPRINTS = Path(__file__).with_name("q_texts.json")

#: Faults of transcription that SOURCES.md lists (and a quotation may have mended): both the
#: text and the quotation are read with them mended.
MENDED = (
    ("ent.i.tled", "entitled"),
    ("pa.s.s", "pass"),
    ("tothe", "to the"),
    ("can he looed", "can be looed"),
    ("must he replayed", "must be replayed"),
    ("amus.e.m.e.nt", "amusement"),
)

_RUNS = (2, 3)


def normalize(text: str) -> list[str]:
    """The words of ``text``: lower case, every mark that is not a letter or a digit a space
    (quote marks, apostrophes, dashes, "…", line breaks), without page and footnote marks
    (Peel's "the pool, [28] receives", Hoffmann's "selected,[27]"), the known faults mended."""
    text = re.sub(r"\[\d+\]", " ", text.lower())  # page and footnote marks: not words
    for fault, mended in MENDED:
        text = text.replace(fault, mended)
    return re.findall(r"[a-z0-9]+", text)


def _runs(words: list[str], n: int) -> list[str]:
    """The hash of each run of ``n`` words, in the order of the words."""
    return [
        hashlib.blake2b(" ".join(words[i : i + n]).encode(), digest_size=4).hexdigest()
        for i in range(len(words) - n + 1)
    ]


def _parts(quote: str) -> list[tuple[int, list[str]]]:
    """The parts of a quotation between its omissions ("…"), each as the length of its runs
    and their hashes; a part of one word, which no text can be told by, is left out."""
    parts = [normalize(part) for part in re.split(r"…|\.\.\.", quote)]
    return [(min(len(w), 3), _runs(w, min(len(w), 3))) for w in parts if len(w) >= 2]


def source_text(source: str) -> str:
    """A source's words as the texts give them: peel is its chapter as far as recovered
    (``peel.txt`` and ``more/peel-full-loo.txt`` after its provenance, without editorial
    brackets); hoffmann has the footnotes [28]-[30] that SOURCES.md recovered."""
    text = (TEXTS / f"{source}.txt").read_text(encoding="utf-8")
    if source == "peel":
        full = (TEXTS / "more" / "peel-full-loo.txt").read_text(encoding="utf-8")
        body = full.split("=" * 20, 1)[1]
        lines = [line for line in body.splitlines() if not re.fullmatch(r"\s*\[.*\]:?\s*", line)]
        text += "\n" + "\n".join(lines)
    if source == "hoffmann":
        notes = (TEXTS / "SOURCES.md").read_text(encoding="utf-8")
        text += "\n" + "\n".join(re.findall(r'"\[(?:28|29|30)\] (.*?)"', notes, re.S))
    return text


def rules_md_quotations() -> dict[str, dict[str, list[str]]]:
    """For each rule of RULES.md part 1 (by id), each source's quotations in its bullet: read
    here with a few lines of our own, not with the catalogue's build, whose work this checks."""
    part1 = RULES_MD.read_text(encoding="utf-8").split("\n## 1. ", 1)[1].split("\n## ", 1)[0]
    found: dict[str, dict[str, list[str]]] = {}
    for entry in re.split(r"^#### ", part1, flags=re.M)[1:]:
        rule = re.match(r"`([a-z0-9-]+)`", entry)
        assert rule, entry[:60]
        for bullet in re.split(r"^- ", entry, flags=re.M)[1:]:
            source = re.match(r"\*\*([a-z]+):\*\*", bullet)
            if source and source.group(1) in SOURCES:
                text = re.sub(r'(?<=[A-Za-z])"(?=s\b)', "'", bullet)  # peel's mirror: dealer"s
                quoted = re.findall(r'"([^"]*)"', text)
                found.setdefault(rule.group(1), {})[source.group(1)] = quoted
    return found


def build() -> dict[str, dict[str, Any]]:
    texts: dict[str, Any] = {
        s: {str(n): _runs(normalize(source_text(s)), n) for n in _RUNS} for s in SOURCES
    }
    texts["rules-md"] = {
        rule: {
            s: [[[n, runs] for n, runs in _parts(q)] for q in quoted]
            for s, quoted in by_source.items()
            if quoted
        }
        for rule, by_source in rules_md_quotations().items()
    }
    return texts


class _Text:
    """A text's fingerprint: the hashes of its runs of words, in order, indexed."""

    def __init__(self, runs: dict[str, list[str]]) -> None:
        self.runs = {n: runs[str(n)] for n in _RUNS}
        self.at: dict[int, dict[str, list[int]]] = {n: {} for n in _RUNS}
        for n, hashes in self.runs.items():
            for i, h in enumerate(hashes):
                self.at[n].setdefault(h, []).append(i)

    def has(self, parts: list[tuple[int, list[str]]]) -> bool:
        """Whether each part's runs stand here one after another, each part after the last."""
        start = 0  # a word position: runs of two and of three words start at the same words
        for n, runs in parts:
            held = self.runs[n]
            at = (i for i in self.at[n].get(runs[0], ()) if i >= start)
            found = next((i for i in at if held[i : i + len(runs)] == runs), None)
            if found is None:
                return False
            start = found + len(runs) + n - 1
        return True


@cache
def fingerprints() -> dict[str, _Text]:
    data = json.loads(FINGERPRINTS.read_text(encoding="utf-8"))
    return {s: _Text(data[s]) for s in SOURCES}


@cache
def _evidence() -> dict[str, dict[str, list[list[tuple[int, list[str]]]]]]:
    data = json.loads(FINGERPRINTS.read_text(encoding="utf-8"))["rules-md"]
    return {
        rule: {s: [[(n, runs) for n, runs in q] for q in quoted] for s, quoted in by.items()}
        for rule, by in data.items()
    }


def evidence(rule: str, source: str) -> int:
    """How many of the quotations of ``source``'s bullet on ``rule`` in RULES.md part 1 are in
    ``source``'s text (a bullet may also quote another source, or RULES.md's own words)."""
    text = fingerprints()[source]
    quoted = _evidence().get(rule, {}).get(source, [])
    return sum(1 for parts in quoted if parts and text.has(parts))


def words(quote: str) -> int:
    return len(normalize(quote))


def found_in(quote: str) -> frozenset[str] | None:
    """The sources whose text holds ``quote`` (ignoring case, quote marks and punctuation;
    each part between omissions, "…", on its own); None for a quotation with no part of two
    words or more, too short to tell one text from another."""
    wanted = _parts(quote)
    if not wanted:
        return None
    return frozenset(s for s, text in fingerprints().items() if text.has(wanted))


if __name__ == "__main__":
    FINGERPRINTS.write_text(json.dumps(build(), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {FINGERPRINTS}")
