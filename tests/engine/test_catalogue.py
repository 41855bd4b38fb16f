"""The rule catalogue against its specification (RULES.md) and the five source texts.

RULES.md and the texts are in the shared folder beside the checkout (../shared), which every
developer machine and CI has: if it is missing these tests fail rather than skip.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from games.loo.catalogue import (
    GROUPS,
    SOURCE_IDS,
    UnknownRule,
    rule,
    rule_ids,
    rules,
)

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
RULES_MD = SHARED / "RULES.md"
SOURCES = SHARED / "sources"
BUILD_SCRIPT = REPO / "scripts" / "build_catalogue.py"
CATALOGUE_JSON = REPO / "games" / "loo" / "data" / "catalogue.json"

# Quotations that RULES.md gives without any locator: words it quotes in passing, in a bullet
# that says the source is silent on the point. Any new one should get a locator in RULES.md.
UNLOCATED_QUOTES = {("limited-loo", "britannica", "limited")}


def _shared_file(path: Path) -> str:
    if not path.is_file():
        pytest.fail(
            f"{path} is missing. The shared folder (RULES.md and sources/) must sit beside the "
            f"repository checkout, at {SHARED}; it does on every developer machine and in CI."
        )
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def rules_md() -> str:
    return _shared_file(RULES_MD)


@pytest.fixture(scope="module")
def source_texts() -> dict[str, str]:
    """Each source's text; peel's is our first copy (pp. 19-28, as RULES.md quotes it, with
    the mirror's faults) followed by the chapter as recovered (pp. 16-29, corrected: its body
    after the header's rule line), which the catalogue quotes for pp. 16-18 and 28."""
    texts = {source: _shared_file(SOURCES / f"{source}.txt") for source in SOURCE_IDS}
    full = _shared_file(SOURCES / "more" / "peel-full-loo.txt")
    texts["peel"] += "\n" + full.split("=" * 20, 1)[1].lstrip("=\n")
    return texts


@pytest.fixture(scope="module")
def catalogue_json() -> list[dict[str, object]]:
    data = json.loads(CATALOGUE_JSON.read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return data


def _load_build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_catalogue", BUILD_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being defined
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def _part(markdown: str, number: str) -> str:
    """The text of "## {number}. ..." up to the next "## " heading."""
    match = re.search(rf"^## {re.escape(number)}\. .*?(?=^## |\Z)", markdown, re.M | re.S)
    assert match, f"RULES.md has no Part {number}"
    return match.group()


def _without_parentheses(text: str) -> str:
    while True:
        shorter = re.sub(r"\([^()]*\)", "", text)
        if shorter == text:
            return text
        text = shorter


# The committed file and RULES.md


def test_the_committed_catalogue_is_what_the_script_builds_from_rules_md(rules_md: str) -> None:
    build = _load_build_script()
    expected = build.render(build.build(rules_md, build.read_texts(SOURCES)))
    assert CATALOGUE_JSON.read_text(encoding="utf-8") == expected, (
        "games/loo/data/catalogue.json is out of date with ../shared/RULES.md: "
        "run python scripts/build_catalogue.py and commit the result"
    )


def test_every_rule_heading_of_part_1_is_in_the_catalogue_and_nothing_else(rules_md: str) -> None:
    headings = re.findall(r"^#### `([^`]+)`", _part(rules_md, "1"), re.M)
    assert len(headings) == len(set(headings)), "a rule id is used twice in Part 1"
    assert set(headings) == rule_ids()
    assert [r.id for r in rules()] == headings, "the catalogue keeps the document order"


def test_the_matrix_has_one_row_per_rule_in_catalogue_order(rules_md: str) -> None:
    matrix = re.search(r"^### 2\.1 .*?(?=^### )", rules_md, re.M | re.S)
    assert matrix, "RULES.md has no section 2.1 (the matrix)"
    row_ids = re.findall(r"^\| `([^`]+)` \|", matrix.group(), re.M)
    assert not set(row_ids) - rule_ids(), "matrix rows for rules not in the catalogue"
    assert row_ids == [r.id for r in rules()]


def test_every_rule_that_restricts_a_worked_example_is_in_the_catalogue(rules_md: str) -> None:
    cited: set[str] = set()
    column = None
    for line in _part(rules_md, "4").splitlines():
        if not line.startswith("|"):
            column = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if "restricted by" in cells:
            column = cells.index("restricted by")
        elif column is not None and not set(cells[column]) <= set("-"):
            # Rule ids are the cell's top-level items; parentheses hold option names and values.
            cited.update(re.findall(r"`([^`]+)`", _without_parentheses(cells[column])))
    assert len(cited) >= 10, "found too few rule ids: has the layout of Part 4 changed?"
    assert cited <= rule_ids(), f"not in the catalogue: {sorted(cited - rule_ids())}"


# The shape of every rule


def test_every_rule_has_a_name_a_statement_a_known_group_and_all_five_sources() -> None:
    for r in rules():
        assert r.name and r.statement, r.id
        assert r.group in dict(GROUPS), r.id
        assert tuple(s.source for s in r.sources) == SOURCE_IDS, r.id


def test_groups_are_part_1_sections_in_order() -> None:
    labels = dict(GROUPS)
    for r in rules():
        number, _, title = r.section.partition(" ")
        assert re.fullmatch(r"1\.\d+", number) and title == labels[r.group], r.id
    in_order_of_use = list(dict.fromkeys(r.group for r in rules()))
    assert in_order_of_use == [slug for slug, _ in GROUPS]


def test_the_json_has_exactly_the_documented_fields(
    catalogue_json: list[dict[str, object]],
) -> None:
    rule_fields = {"id", "name", "group", "section", "statement", "statement_source"}
    rule_fields |= {"sources", "variants", "notes"}
    for item in catalogue_json:
        assert set(item) == rule_fields, item["id"]
        assert item["statement_source"] in ("rules-md", "editorial"), item["id"]
        sources = item["sources"]
        assert isinstance(sources, dict) and set(sources) == set(SOURCE_IDS), item["id"]
        for statement in sources.values():
            assert set(statement) == {"status", "text", "citations"}, item["id"]
            for citation in statement["citations"]:
                assert set(citation) == {"locator", "quote", "found_in"}, item["id"]
        notes = item["notes"]
        assert isinstance(notes, list), item["id"]
        for note in notes:
            assert set(note) == {"label", "text"} and note["label"] and note["text"], item["id"]


def test_a_source_that_is_not_silent_cites_its_text_or_says_why_not() -> None:
    locator_or_rule_id = re.compile(r"¶\s?\d|\bLaws? \d|\bs\. \d|\bp\. \d|\b[35]c:|`[a-z-]+`")
    for r in rules():
        for s in r.sources:
            if not s.silent and not s.citations:
                assert locator_or_rule_id.search(s.text), (r.id, s.source, s.text)


def test_statuses_and_silence_agree_with_the_bullets() -> None:
    assert rule("first-dealer").source("peel").status == "refers"
    assert rule("first-dealer").source("britannica").status == "silent"
    assert rule("trick-winner").source("hoffmann").status == "implied"
    assert rule("lead-highest-trump-heads-up").source("peel").status == "subsumed"
    assert rule("must").source("peel").silent
    assert not rule("must").source("hoffmann").silent
    assert rule("must").stated_by == ("hoffmann", "britannica", "parlett")
    assert rule("master").stated_by == ("britannica",)


def test_rules_without_a_rule_line_get_a_written_statement(
    catalogue_json: list[dict[str, object]],
) -> None:
    editorial = {item["id"] for item in catalogue_json if item["statement_source"] == "editorial"}
    assert "penalty-interfering-with-deal" in editorial
    assert "must" not in editorial
    assert rule("penalty-play-out-of-turn").statement.endswith("is penalised.")


# Citations against the source texts


def _normalise(text: str) -> str:
    """Compare quotations as text: one kind of quotation mark (straight, curly, single or
    double: the texts have OCR artefacts like dealer"s), no emphasis markers (RULES.md writes
    *a* where peel.txt has _a_), no page or note marks ([28]), and single spaces."""
    text = re.sub(r"\[\d+\]", " ", text)
    text = re.sub(r"[\"'‘’“”]", "'", text)
    text = re.sub(r"[*_]", "", text)
    return " ".join(text.split())


def _fragments(quote: str) -> list[str]:
    """The parts of a quotation between its omission marks."""
    return [part for part in (_normalise(p) for p in quote.split("…")) if part]


def _find_in_order(fragments: list[str], text: str) -> str | None:
    """The first fragment not found in `text` after the previous one, or None if all are.

    A quotation may change the case of its first letter (a sentence quoted from its middle)."""
    position = 0
    for fragment in fragments:
        variants = {fragment, fragment[0].swapcase() + fragment[1:]}
        found = [i for i in (text.find(v, position) for v in variants) if i >= 0]
        if not found:
            return fragment
        position = min(found) + len(fragment)
    return None


def _citations() -> Iterator[tuple[str, str, str, str]]:
    for r in rules():
        for s in r.sources:
            for citation in s.citations:
                yield r.id, s.source, citation.locator, citation.quote


def test_every_quotation_is_in_its_source_text(source_texts: dict[str, str]) -> None:
    texts = {source: _normalise(text) for source, text in source_texts.items()}
    missing = [
        (rule_id, source, quote)
        for rule_id, source, _, quote in _citations()
        if _find_in_order(_fragments(quote), texts[source]) is not None
    ]
    assert missing == []


def test_every_quotation_is_printed_as_the_book_has_it() -> None:
    """RULES.md quotes Peel from a web mirror that prints an apostrophe as a double quote and
    keeps the book's page marks inside a sentence: the catalogue prints neither ("the
    dealer's fee", "the amount in the pool, receives"), only the book's words."""
    faults = [
        (rule_id, source, quote)
        for rule_id, source, _, quote in _citations()
        if re.search(r'[A-Za-z]"[A-Za-z]', quote)
        or (source == "peel" and re.search(r"\[\d+\]", quote))
    ]
    assert faults == []
    fee = rule("ante").source("peel")
    assert fee.citations[1].quote == "no payments to the pool, beyond the dealer's fee"
    assert "dealer's fee" in fee.text and '"s' not in fee.text
    flush = rule("flush-loos-the-board").source("peel").citations[0].quote
    assert flush.startswith("besides taking the amount in the pool, receives from each")


def test_each_quotation_knows_every_source_whose_text_has_its_words() -> None:
    """Issue 25, finding 5: "the cards ranking as at whist" is in Hoffmann (¶2) and in the
    Britannica (s. 16); "divisible by five" is in both as well. A
    quotation is found without regard to case and punctuation, so it asks which source says
    it only where it is in one text."""
    whist = rule("rank-order").source("hoffmann").citations[0]
    assert whist.quote == "the cards ranking as at Whist"
    assert whist.found_in == ("hoffmann", "britannica")
    (five,) = [c for c in rule("pool-division").source("hoffmann").citations if "five" in c.quote]
    assert five.found_in == ("hoffmann", "britannica")
    head = rule("head-the-trick").source("hoffmann").citations[1]
    assert head.found_in == ("hoffmann",)
    for r in rules():
        for s in r.sources:
            for c in s.citations:
                assert s.source in c.found_in, (r.id, s.source, c.quote)


# Where Part 0.1 of RULES.md says each locator points, in each text.

_LOCATOR_TOKEN = re.compile(
    r"¶\s?\d+(?:\s?b\d+)?|\bLaws? \d+(?:[–-]\d+)?|\bs\. \d+(?:[–-]\d+)?|\bp\. \d+(?:[–-]\d+)?"
    r"|\b[35]c:(?:Optional rules|[A-Z][A-Za-z-]*)(?: fn)?|\bintro\b"
)
_PARLETT_SCHEMAS = {"THREE-CARD LOO": "3c", "FIVE-CARD LOO": "5c"}
_PARLETT_HEADINGS = {
    "Players",
    "Equipment",
    "Cards",
    "Deal",
    "Object",
    "Announcements",
    "Bidding",
    "Flush",
    "Play",
    "Pay-off",
    "Optional rules",
}
# Part 0.1: whiteknuckle's paragraphs, by their openings (navigation lines and headings are
# not counted).
_WHITEKNUCKLE_OPENINGS = (
    "Loo is a venerable",
    "Standard deck",
    "To begin",
    "The Dealer first puts up",
    "Deal and play are clockwise",
    "To win at least one",
    "Starting left of the dealer",
    "If everyone passes",
    "However, if just one player",
    "Left of the Dealer leads first",
    "Strict trick taking rules apply",
    "Each trick won",
    "Loo can be played over",
    "In this version, the Dealer puts up 5 chips",
    "In this version the Jack of Clubs",
    "If any player",
    "Another variation",
)


def _blocks(text: str) -> list[str]:
    return [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()]


def _hoffmann_places(text: str) -> dict[str, str]:
    """¶1–¶13 are the prose paragraphs (not the two headings); Law n runs to the next law."""
    places: dict[str, str] = {}
    paragraphs = 0
    law = None
    for block in _blocks(text):
        if block in ("Three-card Loo.", "Five-card Loo."):
            continue
        if number := re.match(r"(\d+)\.—", block):
            law = f"Law {number.group(1)}"
            places[law] = block
        elif law:
            places[law] += "\n" + block
        else:
            paragraphs += 1
            places[f"¶{paragraphs}"] = block
    assert paragraphs == 13 and "Law 17" in places
    return places


def _britannica_places(text: str) -> dict[str, str]:
    """The single paragraph's sentences, s. 1–52."""
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z\"'])|(?<=[.!?]\")\s+(?=[A-Z\"'])", text.strip())
    assert len(sentences) == 52
    return {f"s. {n}": sentence for n, sentence in enumerate(sentences, 1)}


def _whiteknuckle_places(text: str) -> dict[str, str]:
    blocks = _blocks(text)
    places = {}
    for n, opening in enumerate(_WHITEKNUCKLE_OPENINGS, 1):
        (index,) = [i for i, block in enumerate(blocks) if block.startswith(opening)]
        places[f"¶{n}"] = blocks[index]
        if opening.startswith("Strict"):  # ¶11 and its bullets b1–b5
            bullets = blocks[index + 1].splitlines()
            places["¶11"] += "\n" + blocks[index + 1]
            places.update({f"¶11 b{b}": line for b, line in enumerate(bullets, 1)})
    return places


def _parlett_places(text: str) -> dict[str, str]:
    """intro, then 3c:Heading and 5c:Heading for each schema's headings; "fn" the footnote."""
    places = {"intro": ""}
    place, schema = "intro", ""
    for line in text.splitlines():
        if line.strip() in _PARLETT_SCHEMAS:
            schema, place = _PARLETT_SCHEMAS[line.strip()], ""
        elif schema and line.strip() in _PARLETT_HEADINGS:
            place = f"{schema}:{line.strip()}"
            places[place] = ""
        elif place:
            places[place] += line + "\n"
            if line.startswith("(*"):
                places[f"{place} fn"] = line
    return places


def _peel_places(text: str) -> dict[str, str]:
    """A marker [n] opens page n; the text before the first marker ([20] in our first copy)
    is p. 19. A page found in both copies is both copies' text of it."""
    first, *pages = re.split(r"(?=\[\d\d\])", text)
    places = {"p. 19": first}
    for page in pages:
        key = f"p. {int(page[1:3])}"
        places[key] = places.get(key, "") + "\n" + page
    return places


def _places(source: str, text: str) -> dict[str, str]:
    return {
        "hoffmann": _hoffmann_places,
        "britannica": _britannica_places,
        "whiteknuckle": _whiteknuckle_places,
        "parlett": _parlett_places,
        "peel": _peel_places,
    }[source](text)


def _locator_places(locator: str) -> list[str]:
    """The places a locator names: "p. 19–20" is p. 19 and p. 20, "Laws 9–11" three laws."""
    places = []
    for token in _LOCATOR_TOKEN.findall(locator):
        span = re.fullmatch(r"(¶|Laws?|s\.|p\.) ?(\d+)[–-](\d+)", token)
        if span:
            prefix = {"¶": "¶", "Laws": "Law ", "Law": "Law "}.get(span[1], span[1] + " ")
            places += [f"{prefix}{n}" for n in range(int(span[2]), int(span[3]) + 1)]
        else:
            places.append(token.replace("Laws", "Law"))
    return places


def test_every_quotation_is_where_its_locator_says(source_texts: dict[str, str]) -> None:
    places = {source: _places(source, text) for source, text in source_texts.items()}
    unlocated = set()
    wrong = []
    for rule_id, source, locator, quote in _citations():
        if not locator:
            unlocated.add((rule_id, source, quote))
            continue
        named = _locator_places(locator)
        unknown = [place for place in named if place not in places[source]]
        text = _normalise("\n".join(places[source].get(place, "") for place in named))
        if not named or unknown or _find_in_order(_fragments(quote), text) is not None:
            wrong.append((rule_id, source, locator, quote, unknown))
    assert wrong == []
    assert unlocated == UNLOCATED_QUOTES


# The loader's API


def test_an_unknown_rule_id_raises_unknown_rule_naming_it() -> None:
    with pytest.raises(UnknownRule) as raised:
        rule("nope")
    assert isinstance(raised.value, KeyError)
    assert "'nope'" in str(raised.value) and "not in the rule catalogue" in str(raised.value)


def test_a_rule_gives_each_source_by_id() -> None:
    head = rule("head-the-trick")
    hoffmann = head.source("hoffmann")
    assert hoffmann.status == "states"
    assert [c.locator for c in hoffmann.citations] == ["¶5", "Law 13"]
    assert (
        hoffmann.citations[1].quote == "Every player is bound to head the trick if able to do so."
    )
    assert head.group == "following" and head.section == "1.6 Following"
    with pytest.raises(KeyError, match="not a source"):
        head.source("hoyle")


def test_rules_are_loaded_once() -> None:
    assert rules() is rules()
    assert rule("must") is rules()[[r.id for r in rules()].index("must")]


_PROBE = """
import json, sys
before = set(sys.modules)
import games.loo.catalogue as catalogue
catalogue.rules()
print(json.dumps({
    "django": any(m == "django" or m.startswith("django.") for m in sys.modules),
    "loaded": sorted(set(sys.modules) - before),
}))
"""


def test_importing_the_catalogue_loads_no_django_and_nothing_outside_the_stdlib() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=REPO, capture_output=True, text=True, check=True
    )
    probe = json.loads(result.stdout)
    assert probe["django"] is False
    outside = [
        module
        for module in probe["loaded"]
        if module.split(".")[0] not in sys.stdlib_module_names
        and not (module == "games" or module.startswith("games.loo"))
    ]
    assert outside == []


def test_the_catalogue_never_gives_white_knuckle_a_trump_class_nor_hoffmann_looking() -> None:
    """Issue 25, findings 8 and 9. White Knuckle ¶16: "If more than one player holds a flush,
    precedence is given to the flush with the 'Pam', or, none holding the 'Pam', then
    precedence is given to the highest card" (A28): it has no trump class, so it is not among
    the sources that break a tie "between flushes of the same class". Hoffmann's Law 6 is about
    "exposing a card or cards of another player"; looking is Peel's offence (p. 24)."""
    tie = rule("flush-tie-break").statement
    by_cards = tie[: tie.index("or by seat")]
    assert "hoffmann" in by_cards and "parlett" in by_cards and "whiteknuckle" not in by_cards
    assert "whiteknuckle has no trump class" in tie
    looking = rule("penalty-look-at-others-cards").name
    assert "exposing" in looking and "looking" in looking
