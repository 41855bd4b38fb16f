"""Where a quotation is found in the five texts, read from the texts themselves (never from the
rule catalogue, whose claims it checks).

The modern pages (parlett, whiteknuckle) may not be kept in the repository whole, so what the
tests carry is a fingerprint of each text: a hash of every run of two and of three words,
after :func:`normalize` (case, quote marks and punctuation ignored, the web mirror's known
faults mended). A quotation is in a text when every run of three of its words is (of two, for a
quotation of two words); an omission ("…") splits it into parts, each of which must be there.
``q_texts.json`` is built from the texts by ``python -m tests.reference.quotes`` where they are
present (the shared folder ``sources/``); a test checks it is up to date there.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from functools import cache
from pathlib import Path

SOURCES = ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel")

#: Where the texts are: the shared folder of the project (``SOURCES.md`` describes each).
TEXTS = Path(os.environ.get("LOO_SOURCE_TEXTS", "/work/shared/sources"))
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
    (quote marks, apostrophes, dashes, "…"), the known faults mended."""
    text = text.lower()
    for fault, mended in MENDED:
        text = text.replace(fault, mended)
    return re.findall(r"[a-z0-9]+", text)


def _runs(words: list[str], n: int) -> set[str]:
    return {
        hashlib.blake2b(" ".join(words[i : i + n]).encode(), digest_size=4).hexdigest()
        for i in range(len(words) - n + 1)
    }


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


def build() -> dict[str, dict[str, list[str]]]:
    return {
        s: {str(n): sorted(_runs(normalize(source_text(s)), n)) for n in _RUNS} for s in SOURCES
    }


@cache
def fingerprints() -> dict[str, dict[int, frozenset[str]]]:
    data = json.loads(FINGERPRINTS.read_text(encoding="utf-8"))
    return {s: {n: frozenset(data[s][str(n)]) for n in _RUNS} for s in SOURCES}


def words(quote: str) -> int:
    return len(normalize(quote))


def found_in(quote: str) -> frozenset[str] | None:
    """The sources whose text holds ``quote`` (ignoring case, quote marks and punctuation;
    each part between omissions, "…", on its own); None for a quotation with no part of two
    words or more, too short to tell one text from another."""
    parts = [normalize(part) for part in re.split(r"…|\.\.\.", quote)]
    wanted = [(min(len(w), 3), _runs(w, min(len(w), 3))) for w in parts if len(w) >= 2]
    if not wanted:
        return None
    return frozenset(
        s for s, held in fingerprints().items() if all(runs <= held[n] for n, runs in wanted)
    )


if __name__ == "__main__":
    FINGERPRINTS.write_text(json.dumps(build(), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {FINGERPRINTS}")
