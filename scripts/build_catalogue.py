"""Build the engine's rule catalogue (games/loo/data/catalogue.json) from RULES.md, Part 1.

Usage: python scripts/build_catalogue.py [PATH_TO_RULES_MD] [-o OUT]

RULES.md lives in the shared folder beside the repository (../shared/RULES.md); the engine must
not need it at run time, so the JSON built here is committed, and a test checks that it is still
what this script makes from the current RULES.md.

Output: a JSON list of rules in document order. Each rule is an object:

    id                 the stable rule id from the "#### `id`: name" heading
    name               the short name after the colon in the heading
    group              a slug for the section (see GROUPS)
    section            the section heading, e.g. "1.6 Following"
    statement          the "**Rule.**" paragraph as one line of text; for the few rules that
                       have none, the sentence in STATEMENTS_WRITTEN_HERE below
    statement_source   "rules-md" (taken from RULES.md) or "editorial" (written here)
    sources            an object with one entry per source id (all five, always):
        status         one of STATUSES (see below)
        text           the bullet's text after "**source:**", sub-bullets joined
        citations      a list of {"locator", "quote"}: each quotation in the bullet with its
                       locator (e.g. "¶5", "Law 13", "3c:Play; 5c:Play")
    variants           the text of the "**Variants**" bullet, or "" if the rule has none
    notes              the rule's other labelled bullets ("Engine.", "Notes.", "Direction." ...)
                       as a list of {"label", "text"}

Text fields are plain text: "**" bold markers are removed, lines and sub-bullets are joined
with single spaces; quotation marks, `code spans` (rule ids, option values) and the emphasis
written inside quotations are kept as RULES.md has them.

Status values (derived from how the bullet opens; anything else is "states"):

    states     the source states the rule (its text usually quotes it)
    implied    the source does not state it, but it follows from what the source says
               ("implied: ...", "implicit: ...", "silent. Implied by ...")
    subsumed   the source does not state it because a stronger rule of its own covers it
    silent     the source says nothing on the point ("silent ...", "describes no ...")
    refers     silent, but the passage that would cover the point is known to be missing from
               our copy of the text: a lost footnote, a page or chapter outside the excerpt
               ("silent (refers to ...)", "refers to ...", or a silent bullet that says the
               passage "is not in the text")

Plain Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_RULES_MD = REPO_ROOT.parent / "shared" / "RULES.md"
DEFAULT_OUT = REPO_ROOT / "games" / "loo" / "data" / "catalogue.json"

SOURCE_IDS = ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel")
STATUSES = ("states", "implied", "subsumed", "silent", "refers")

# Section number in Part 1 -> group slug. Part 1's section titles are the human labels.
GROUPS = {
    "1.1": "players-and-deal",
    "1.2": "stakes",
    "1.3": "declaring",
    "1.4": "exchange",
    "1.5": "leading",
    "1.6": "following",
    "1.7": "trick",
    "1.8": "pam",
    "1.9": "flushes",
    "1.10": "variants",
    "1.11": "irregularities",
}

# Statements for the rules that RULES.md gives without a "**Rule.**" line (some penalty entries
# in 1.11). One plain sentence each, neutral across the sources; what each source prescribes is
# in its own bullet.
STATEMENTS_WRITTEN_HERE = {
    "penalty-interfering-with-deal": (
        "A player who interferes with the cards while they are being dealt is penalised."
    ),
    "penalty-look-at-others-cards": (
        "A player who looks at or exposes another player's cards is penalised."
    ),
    "penalty-exposed-card": (
        "A declared player who exposes or names one of his own unplayed cards is penalised."
    ),
    "penalty-play-out-of-turn": (
        "A player who plays out of turn, or before everyone has declared, is penalised."
    ),
    "penalty-revoke": "A player who fails to follow suit when able (a revoke) is penalised.",
    "penalty-fail-to-head": (
        "A player who fails to head the trick, or to trump or overtrump, when obliged to is "
        "penalised."
    ),
}

# What peel says where part 1 of RULES.md was written before Peel's pp. 16-18 and 28-29 were
# recovered (../shared/sources/more/peel-full-loo.txt, 2026-11-25). Part 3's A39 and A54, revised
# that day, say what those pages say; part 1 still calls them "not in the text". Each entry
# names words that part 1's bullet must still hold (so that the day part 1 is revised, the build
# stops and the entry is dropped), and the bullet in RULES.md's own form, quoting the recovered
# pages word for word (the content loader checks each quotation against content/sources/peel.txt).
RECOVERED: dict[tuple[str, str], tuple[str, str]] = {
    ("players", "peel"): (
        "three-card: silent",
        'three-card: "The number of players who can take part in it is practically unlimited '
        'within the range of the pack played with" (p. 16); "the best game is played with five, '
        'or not more than seven persons" (p. 16). Above five, "relief is sought by the dealer '
        'standing out of the play, neither paying nor receiving on the tricks of that hand" '
        '(p. 16), by agreement (A54). Five-card: "not suitable for more than six players, even '
        'if five should not be regarded as the limit" (p. 27)',
    ),
    ("single", "peel"): (
        "not in the text",
        'the first dealer "proceeds to distribute the cards for what is termed a single, a term '
        'denoting that merely the dealer\'s stake is to be played for" (p. 18): "the dealer turns '
        "the top card face upwards in the middle of the table, and then distributes one card, "
        'similarly exposed, to each player" (p. 18); "If two or more receive superior cards, the '
        'higher takes the stake." (p. 18). After a hand with no loo "it becomes a single again, '
        'and the cards are dealt as already described for that round (see p. 18)" (p. 21). '
        'After a flush, at five-card Loo: "the next deal becomes a single" (p. 28), a pool of the '
        "dealer's stake (A52).",
    ),
    ("must", "peel"): (
        "not in the text",
        "silent. Peel has no must: his single is a deal of one card face up to each player, in "
        'which "the dealer turns the top card face upwards in the middle of the table, and then '
        'distributes one card, similarly exposed, to each player" (p. 18) (A39).',
    ),
    ("irish-loo", "peel"): (
        "not in the text",
        '"This is virtually the same as the five-card variety, except that three cards only are '
        'dealt to each player, and Pam is unknown." (p. 28). The peel rule set, fixed before the '
        "page was recovered, does not play it.",
    ),
    ("round-continues-until-no-loo", "peel"): (
        "silent",
        'a finish "may be made at any moment, either by an equal division of the amount in the '
        'pool among the players" (p. 17), or by releasing the looed, all standing on the last '
        'round without a miss; "If, however, a finish is desired before a single occurs, it is '
        "best to arrange it so as to fall immediately before the original dealer's turn to deal "
        'comes round again" (p. 17) (A54).',
    ),
}

_PART1_HEADING = re.compile(r"^## 1\. ")
_PART_HEADING = re.compile(r"^## ")
_SECTION_HEADING = re.compile(r"^### (1\.\d+) (.+?)\s*$")
_RULE_HEADING = re.compile(r"^#### `([a-z0-9]+(?:-[a-z0-9]+)*)`(?: \([^)]*\))?: (.+?)\s*$")
_STATEMENT_START = re.compile(r"^\*\*Rule(?: \([^)]*\))?\.\*\*\s*")
_LABELLED_BULLET = re.compile(r"^- \*\*([^*]+?)[:.]\*\*\s*(.*)$")

# Locators, as Part 0.1 of RULES.md defines them (see _citations).
_LOCATOR = re.compile(
    r"¶\s?\d+(?:\s?b\d+)?"  # hoffmann, whiteknuckle: ¶5, ¶11 b2
    r"|\bLaws?\s\d+(?:[–-]\d+)?"  # hoffmann: Law 13, Laws 9–11
    r"|\bs\.\s\d+(?:[–-]\d+)?"  # britannica: s. 24, s. 24–25
    r"|\bp\.\s\d+(?:[–-]\d+)?"  # peel: p. 21, p. 19–20
    r"|\b[35]c:[A-Z][A-Za-z-]*(?: fn)?"  # parlett: 3c:Play, 5c:Pay-off, 3c:Play fn
    r"|\bintro\b"  # parlett's preamble
)
# A straight double quote inside a word is an OCR apostrophe (peel's "dealer"s"), not a mark.
_APOSTROPHE_QUOTE = re.compile(r'(?<=[A-Za-z])"(?=s\b)')
# Peel's page marks ("[28]") stand where a page of the book begins, inside his sentences.
_PAGE_MARK = re.compile(r"\s*\[\d\d\]\s*")
# Between a quotation and a later locator, a sentence break or a colon (which introduces the
# quotation that the locator belongs to) means the locator is not the first quotation's.
_SENTENCE_BREAK = re.compile(r"[.!?]\s+\S|:")


class CatalogueError(ValueError):
    """RULES.md does not have the shape this script expects."""


@dataclass
class _Bullet:
    label: str
    lines: list[str] = field(default_factory=list)


class _Span(NamedTuple):
    start: int
    end: int
    text: str


@dataclass
class _RawRule:
    id: str
    name: str
    section: str
    group: str
    line: int
    statement_lines: list[str] = field(default_factory=list)
    has_statement: bool = False
    bullets: list[_Bullet] = field(default_factory=list)


def build(markdown: str) -> list[dict[str, object]]:
    """Return the catalogue for the RULES.md text `markdown`, as JSON-ready objects."""
    raw_rules = list(_raw_rules(_part1(markdown)))
    ids = [raw.id for raw in raw_rules]
    duplicates = sorted({rule_id for rule_id in ids if ids.count(rule_id) > 1})
    if duplicates:
        raise CatalogueError(f"rule ids used twice in Part 1: {', '.join(duplicates)}")
    unused = sorted(set(STATEMENTS_WRITTEN_HERE) - set(ids))
    if unused:
        raise CatalogueError(f"STATEMENTS_WRITTEN_HERE names unknown rules: {', '.join(unused)}")
    return [_rule_object(raw) for raw in raw_rules]


def render(rules: Sequence[dict[str, object]]) -> str:
    """The catalogue as the committed file's text: stable, pretty, ending with a newline."""
    return json.dumps(list(rules), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def _part1(markdown: str) -> list[tuple[int, str]]:
    """The numbered lines of Part 1, from its heading up to the next "## " heading."""
    lines = markdown.splitlines()
    start = next((i for i, line in enumerate(lines) if _PART1_HEADING.match(line)), None)
    if start is None:
        raise CatalogueError('no "## 1. " heading (Part 1, the rule catalogue) found')
    end = next(
        (i for i in range(start + 1, len(lines)) if _PART_HEADING.match(lines[i])), len(lines)
    )
    return [(i + 1, lines[i]) for i in range(start + 1, end)]


def _raw_rules(lines: list[tuple[int, str]]) -> Iterator[_RawRule]:
    section = group = ""
    rule: _RawRule | None = None
    for number, line in lines:
        if line.startswith("### "):
            if rule:
                yield rule
                rule = None
            match = _SECTION_HEADING.match(line)
            if not match or match.group(1) not in GROUPS:
                raise CatalogueError(f"line {number}: unexpected section heading {line!r}")
            section, group = f"{match.group(1)} {match.group(2)}", GROUPS[match.group(1)]
        elif line.startswith("#### "):
            if rule:
                yield rule
            match = _RULE_HEADING.match(line)
            if not match:
                raise CatalogueError(f"line {number}: unreadable rule heading {line!r}")
            if not section:
                raise CatalogueError(f"line {number}: rule heading before any section")
            rule = _RawRule(match.group(1), match.group(2), section, group, number)
        elif line.strip() == "---":
            if rule:
                yield rule
                rule = None
        elif rule is None:
            continue  # the introduction of Part 1 or of a section
        elif match := _LABELLED_BULLET.match(line):
            rule.bullets.append(_Bullet(match.group(1).strip(), [match.group(2)]))
        elif rule.bullets:
            if line.strip() and not line.startswith(" "):
                raise CatalogueError(f"line {number}: text after the bullets of {rule.id!r}")
            rule.bullets[-1].lines.append(line)
        elif match := _STATEMENT_START.match(line):
            if rule.has_statement:
                raise CatalogueError(f"line {number}: second statement for {rule.id!r}")
            rule.has_statement = True
            rule.statement_lines.append(line[match.end() :])
        elif rule.has_statement:
            rule.statement_lines.append(line)
        elif line.strip():
            raise CatalogueError(f"line {number}: text before the statement of {rule.id!r}")
    if rule:
        yield rule


def _rule_object(raw: _RawRule) -> dict[str, object]:
    where = f"rule {raw.id!r} (line {raw.line})"
    statement = _plain(raw.statement_lines)
    if raw.has_statement == (raw.id in STATEMENTS_WRITTEN_HERE):
        raise CatalogueError(
            f"{where}: "
            + (
                "has a **Rule.** line and an entry in STATEMENTS_WRITTEN_HERE"
                if raw.has_statement
                else "has no **Rule.** line: add a sentence to STATEMENTS_WRITTEN_HERE"
            )
        )
    if raw.has_statement and not statement:
        raise CatalogueError(f"{where}: empty **Rule.** statement")

    sources: dict[str, object] = {}
    variants: list[str] = []
    notes: list[dict[str, str]] = []
    for bullet in raw.bullets:
        text = _plain(bullet.lines)
        recovered = RECOVERED.get((raw.id, bullet.label))
        if recovered is not None:
            if recovered[0] not in text:
                raise CatalogueError(
                    f"{where}, {bullet.label}: RULES.md no longer says {recovered[0]!r}: it has "
                    "been revised, so drop the entry of RECOVERED"
                )
            text = recovered[1]
        if bullet.label in SOURCE_IDS:
            text = _as_in_source(text, bullet.label)
            if bullet.label in sources:
                raise CatalogueError(f"{where}: two bullets for {bullet.label}")
            sources[bullet.label] = {
                "status": _status(text),
                "text": text,
                "citations": _citations(text, f"{where}, {bullet.label}"),
            }
        elif bullet.label.startswith("Variants"):
            variants.append(text)
        else:
            notes.append({"label": bullet.label, "text": text})
    missing = [source for source in SOURCE_IDS if source not in sources]
    if missing:
        raise CatalogueError(f"{where}: no bullet for {', '.join(missing)}")
    if len(variants) > 1:
        raise CatalogueError(f"{where}: more than one Variants bullet")

    return {
        "id": raw.id,
        "name": raw.name,
        "group": raw.group,
        "section": raw.section,
        "statement": statement or STATEMENTS_WRITTEN_HERE[raw.id],
        "statement_source": "rules-md" if raw.has_statement else "editorial",
        "sources": sources,
        "variants": variants[0] if variants else "",
        "notes": notes,
    }


def _plain(lines: list[str]) -> str:
    """Markdown lines (with sub-bullets) as one line of text, without "**" markers."""
    pieces = []
    for line in lines:
        piece = line.strip()
        if piece.startswith("- "):
            piece = piece[2:]
        if piece:
            pieces.append(piece)
    return re.sub(r"\s+", " ", " ".join(pieces).replace("**", "")).strip()


def _as_in_source(text: str, source: str) -> str:
    """A source bullet's text with its quotations printed as the source has them: RULES.md
    quotes Peel from a web mirror that writes an apostrophe as a double quote ("dealer"s fee")
    and keeps the book's page marks inside a sentence ("the pool, [28] receives"); neither is
    a word of the book (../shared/sources/more/peel-full-loo.txt has them corrected).
    Hoffmann's footnote marks ("[28]") are his own and stay."""
    text = _APOSTROPHE_QUOTE.sub("'", text)
    if source != "peel":
        return text
    return re.sub(r'"[^"]*"', lambda quote: _PAGE_MARK.sub(" ", quote.group()), text)


def _status(text: str) -> str:
    if re.match(r"(?:implied|implicit)\b|silent\. Implied\b", text):
        return "implied"
    if text.startswith("refers to") or text.startswith("silent (refers to"):
        return "refers"
    if text.startswith("silent") or text.startswith("describes no"):
        return "refers" if "not in the text" in text else "silent"
    if text.startswith("subsumed"):
        return "subsumed"
    return "states"


def _citations(text: str, where: str) -> list[dict[str, str]]:
    """The quotations in a source bullet's text, each with its locator.

    A quotation's locator is the first parenthesised group after it that contains a locator
    (the group's whole text, e.g. "¶11; after Law 14"), if only other quotations and words with
    no sentence break or colon come between them: one locator may follow several quotations.
    Failing that, it is the last locator written before the quotation, in parentheses or in the
    prose ("Law 15: a declared player who "(1) Exposes..."", "the intro calls it "...""), and
    failing that there is none (""). Quotations inside a locator group are part of the locator
    ("(intro, "The basic idea…")"), not citations.
    """
    masked = _APOSTROPHE_QUOTE.sub("'", text)
    if masked.count('"') % 2:
        raise CatalogueError(f"{where}: unbalanced quotation marks in {text!r}")
    quotes = [_Span(m.start(), m.end(), m.group()[1:-1]) for m in re.finditer(r'"[^"]*"', masked)]
    for quote in quotes:  # blank them out, so that brackets and locators in them are not seen
        masked = masked[: quote.start + 1] + " " * len(quote.text) + masked[quote.end - 1 :]

    groups = []  # the parenthesised groups that hold a locator
    opened = []
    for i, char in enumerate(masked):
        if char == "(":
            opened.append(i)
        elif char == ")" and opened:
            start = opened.pop()
            if not opened and _LOCATOR.search(masked, start, i):
                groups.append(_Span(start, i + 1, text[start + 1 : i].strip()))
    in_prose = [
        _Span(m.start(), m.end(), m.group())
        for m in _LOCATOR.finditer(masked)
        if not any(group.start < m.start() < group.end for group in groups)
    ]

    citations = []
    for quote in quotes:
        if any(group.start < quote.start < group.end for group in groups):
            continue
        locator = ""
        following = next((group for group in groups if group.start >= quote.end), None)
        if following:
            between = re.sub(r'"\s*"', "", masked[quote.end : following.start])
            if not _SENTENCE_BREAK.search(between):
                locator = following.text
        if not locator:
            earlier = [span for span in groups + in_prose if span.end <= quote.start]
            if earlier:
                locator = max(earlier, key=lambda span: span.end).text
        citations.append({"locator": locator, "quote": text[quote.start + 1 : quote.end - 1]})
    return citations


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "rules_md",
        nargs="?",
        type=Path,
        default=DEFAULT_RULES_MD,
        help=f"path to RULES.md (default: {DEFAULT_RULES_MD})",
    )
    parser.add_argument(
        "-o",
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"where to write the catalogue (default: {DEFAULT_OUT})",
    )
    args = parser.parse_args(argv)
    try:
        rules = build(args.rules_md.read_text(encoding="utf-8"))
    except (OSError, CatalogueError) as error:
        print(f"build_catalogue: {error}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(rules), encoding="utf-8")
    print(f"wrote {len(rules)} rules to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
