"""manage.py loadcontent: what it loads, that reloading keeps every id, and that a broken file
is refused with file:line and leaves the database as it was."""

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from games.loo import catalogue
from lessons import content
from lessons.models import Citation, GlossaryTerm, Passage, Rule, Source

CONTENT = Path(settings.BASE_DIR) / "content"

pytestmark = pytest.mark.django_db


def _snapshot() -> dict[str, object]:
    """Every row the loader writes, by primary key, with the fields that matter."""
    return {
        "sources": sorted(Source.objects.values_list("pk", "title", "about")),
        "passages": sorted(Passage.objects.values_list("pk", "source_id", "key", "text")),
        "rules": sorted(Rule.objects.values_list("pk", "explanation", "example", "no_example")),
        "terms": sorted(GlossaryTerm.objects.values_list("pk", "definition")),
        "citations": sorted(Citation.objects.values_list("pk", "rule_id", "passage_id")),
    }


# What is loaded


def test_every_rule_of_the_catalogue_has_a_row_with_our_explanation() -> None:
    assert set(Rule.objects.values_list("id", flat=True)) == catalogue.rule_ids()
    assert not Rule.objects.filter(explanation="").exists()
    assert not Rule.objects.filter(explanation_html="").exists()


def test_a_rule_may_link_a_lesson_of_the_course_shown_by_its_title() -> None:
    """rules.txt is read before lessons.txt, yet may link any [lesson] of it."""
    html = Rule.objects.get(pk="head-the-trick").explanation_html
    assert '<a href="/learn/trumped-trick/">Following a trick that has been trumped</a>' in html


def test_the_five_sources_are_loaded_in_catalogue_order_then_the_witnesses() -> None:
    assert list(Source.objects.rule_sets().values_list("slug", flat=True)) == list(
        catalogue.SOURCE_IDS
    )
    # The witnesses come after the five, the oldest first.
    assert list(Source.objects.values_list("slug", flat=True)) == [
        *catalogue.SOURCE_IDS,
        "cotton",
        "hoyle-improved",
        "enquire-within",
    ]
    for source in Source.objects.all():
        assert source.title and source.author and source.year and source.link
        assert source.editorial_note_html


def test_every_citation_of_the_catalogue_is_linked_to_a_passage_of_its_source() -> None:
    linked = {
        (rule, source, position)
        for rule, source, position in Citation.objects.filter(origin="catalogue", primary=True)
        .exclude(quote="")
        .values_list("rule_id", "passage__source_id", "position")
    }
    expected = {
        (r.id, s.source, n)
        for r in catalogue.rules()
        for s in r.sources
        for n, _ in enumerate(s.citations)
    }
    assert linked == expected


def test_every_public_domain_quotation_is_in_the_words_of_its_passage() -> None:
    from lessons.markup import find_quotation

    quoted = Citation.objects.filter(primary=True, origin="catalogue").exclude(quote="")
    for c in quoted.select_related("passage"):
        if c.passage.source_id in ("hoffmann", "britannica", "peel"):
            for part in c.quote.split(" … "):
                assert find_quotation(part, c.passage.plain + " " + _next_plain(c.passage)), c


def _next_plain(passage: Passage) -> str:
    following = Passage.objects.filter(source=passage.source, position=passage.position + 1)
    return following[0].plain if following else ""


def test_a_statement_without_a_quotation_links_the_passages_its_locators_name() -> None:
    # whiteknuckle on stake-divisible: "3 chips (¶4) and 5 chips (¶14)".
    keys = Citation.objects.filter(rule="stake-divisible", passage__source="whiteknuckle")
    assert sorted(keys.values_list("passage__key", flat=True)) == ["p14", "p4"]
    keys = Citation.objects.filter(rule="penalty-revoke", passage__source="hoffmann")
    assert set(keys.values_list("passage__key", flat=True)) == {"law-12", "after-law-14", "law-16"}


def test_a_peel_quotation_cited_by_page_is_in_a_passage_on_that_page() -> None:
    for c in Citation.objects.filter(origin="catalogue", passage__source="peel"):
        pages = [int(n) for n in re.findall(r"\d+", c.locator)]
        span = range(c.passage.page, (c.passage.last_page or c.passage.page) + 1)
        assert set(pages) & set(span), (c.locator, c.passage.key)


def test_passage_ids_follow_the_locators_of_rules_md() -> None:
    keys = {
        s: list(Passage.objects.filter(source=s).values_list("key", flat=True))
        for s in catalogue.SOURCE_IDS
    }
    hoffmann = [k for k in keys["hoffmann"] if re.fullmatch(r"p\d+", k)]
    assert hoffmann == [f"p{n}" for n in range(1, 14)]
    assert [k for k in keys["hoffmann"] if k.startswith("law-")] == [
        f"law-{n}" for n in range(1, 18)
    ]
    assert keys["britannica"] == [f"s{n}" for n in range(1, 53)]
    assert {"p19-1", "p20-1", "p21-2", "p27-1"} <= set(keys["peel"])

    def opening(source: str, key: str) -> str:
        return Passage.objects.get(source=source, key=key).plain

    assert opening("hoffmann", "p13").startswith("These may be briefly stated")
    assert opening("hoffmann", "p9").startswith("In this case five cards")
    assert opening("britannica", "s19").startswith("If the leader holds ace of trumps")
    assert opening("britannica", "s26").startswith("The winner of the first trick")
    assert opening("britannica", "s45").startswith('"Pam" (knave of clubs)')
    assert opening("peel", "p20-1").startswith("The players who have decided to stand")
    law_3 = Passage.objects.get(source="hoffmann", key="law-3")
    assert "(4) Or otherwise commits any irregularity" in law_3.plain


def test_a_paragraph_belongs_to_the_page_where_it_starts() -> None:
    p21 = Passage.objects.get(source="peel", key="p21-2")
    assert (p21.page, p21.last_page) == (21, 22)
    assert "no player can be looed" in p21.plain
    assert Passage.objects.get(source="peel", key="p22-1").plain.startswith("In any case")


def test_the_lost_heading_and_notes_of_hoffmann_are_restored_as_editorial() -> None:
    editorial = dict(
        Passage.objects.filter(source="hoffmann", editorial=True).values_list("key", "plain")
    )
    assert editorial["the-laws-of-loo"] == "The Laws of Loo"
    assert {"fn-27", "fn-28", "fn-29", "fn-30"} <= set(editorial)
    assert "not been found" in editorial["fn-27"]
    assert "preference is given to the elder hand" in editorial["fn-29"]


def test_the_public_domain_texts_are_the_shared_texts_with_only_the_listed_corrections(
    shared_texts: dict[str, str],
) -> None:
    # Peel and the witnesses, recovered later, are checked in test_recovered_texts.py.
    for slug in ("hoffmann", "britannica"):
        source = Source.objects.get(slug=slug)
        original = re.sub(r"\[\d\d\]", " ", shared_texts[slug])
        original = re.sub(r"©\s*2024\s*www\.topnovel\.cc", "", original)
        expected = source.correct(original).split()
        ours = " ".join(p.plain for p in source.passages.filter(editorial=False)).split()
        # Headings are printed as in the book, with the italics marks of the transcription.
        assert [w.strip("_") for w in ours] == [w.replace("_", "") for w in expected], slug


def test_the_transcription_faults_are_gone() -> None:
    text = " ".join(Passage.objects.values_list("plain", flat=True))
    for fault in (
        "ent.i.tled",
        "pa.s.s",
        'dealer"s',
        "can he looed",
        "tothe",
        '" Pam "',
        "topnovel",
    ):
        assert fault not in text


def test_the_modern_sources_are_only_short_quotations_and_our_own_words() -> None:
    for passage in Passage.objects.filter(source__licence="copyrighted"):
        assert passage.kind in ("quotation", "heading")
        assert len(passage.quotation.split()) < content.MAX_MODERN_QUOTE_WORDS
    for c in Citation.objects.filter(passage__source__licence="copyrighted"):
        assert len(c.quote.split()) < content.MAX_MODERN_QUOTE_WORDS


# Reloading


def test_reloading_keeps_every_row_its_primary_key_and_its_permalink() -> None:
    before = _snapshot()
    urls = {p.pk: p.get_absolute_url() for p in Passage.objects.all()}

    call_command("loadcontent", verbosity=0)

    assert _snapshot() == before
    assert {p.pk: p.get_absolute_url() for p in Passage.objects.all()} == urls


def test_the_content_files_win_over_an_edit_made_in_the_admin() -> None:
    law = Passage.objects.get(source="hoffmann", key="law-13")
    law.text = "13.—Every player is bound to head the trick, whatever happens."
    law.save()
    assert "whatever happens" in Passage.objects.get(pk=law.pk).html

    call_command("loadcontent", verbosity=0)

    reloaded = Passage.objects.get(pk=law.pk)
    assert "whatever happens" not in reloaded.text
    assert reloaded.plain == "13.—Every player is bound to head the trick if able to do so."


def test_a_passage_removed_from_its_file_is_removed_with_its_citations(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder / "sources" / "hoffmann.txt", "[footnote fn-30]\neditorial: yes\n", "")
    text = (folder / "sources" / "hoffmann.txt").read_text()
    start = text.index("\n\nThe words between brackets apply")
    (folder / "sources" / "hoffmann.txt").write_text(text[:start] + "\n")
    _edit(folder / "sources" / "hoffmann.txt", "{note:30}", "")
    pk = Passage.objects.get(source="hoffmann", key="fn-30").pk

    call_command("loadcontent", path=folder, verbosity=0)

    assert not Passage.objects.filter(pk=pk).exists()
    assert Passage.objects.get(source="hoffmann", key="law-2").pk  # the rest is untouched


# Broken files


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "content"
    shutil.copytree(CONTENT, folder)
    return folder


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


Breakage = Callable[[Path], tuple[str, str, str]]


def _unknown_rule_id_in_rules_file(folder: Path) -> tuple[str, str, str]:
    _edit(folder / "rules.txt", "[rule trump-after-trick]", "[rule trump-after-tricks]")
    line = _line_of(folder / "rules.txt", "[rule trump-after-tricks]")
    return "rules.txt", str(line), "unknown rule id 'trump-after-tricks'"


def _unknown_rule_id_in_annotation(folder: Path) -> tuple[str, str, str]:
    path = folder / "sources" / "hoffmann.txt"
    _edit(path, "[law law-13]\n", "[law law-13]\nrules: head-the-trik\n")
    return (
        "sources/hoffmann.txt",
        str(_line_of(path, "head-the-trik")),
        "unknown rule id 'head-the-trik'",
    )


def _unknown_rule_id_in_a_link(folder: Path) -> tuple[str, str, str]:
    _edit(folder / "rules.txt", "[[rule:must|must]]", "[[rule:mustn't|must]]")
    line = _line_of(folder / "rules.txt", "rule:mustn't")
    return "rules.txt", str(line), 'unknown rule id "mustn\'t"'


def _unknown_lesson_in_a_rule(folder: Path) -> tuple[str, str, str]:
    _edit(folder / "rules.txt", "[[lesson:trumped-trick]]", "[[lesson:trumped-tricks]]")
    line = _line_of(folder / "rules.txt", "lesson:trumped-tricks")
    return "rules.txt", str(line), "unknown lesson 'trumped-tricks' in [[lesson:trumped-tricks]]"


def _unknown_lesson_in_a_definition(folder: Path) -> tuple[str, str, str]:
    path = folder / "glossary.txt"
    _edit(path, "the name was shortened.", "the name was shortened ([[lesson:lanterloo]]).")
    return "glossary.txt", str(_line_of(path, "[[lesson:lanterloo]]")), "unknown lesson 'lanterloo'"


def _unknown_passage_id(folder: Path) -> tuple[str, str, str]:
    path = folder / "rules.txt"
    _edit(
        path, "must say so before he sees the miss.", "must say so ([[source:peel#p99-9|p. 99]])."
    )
    return "rules.txt", str(_line_of(path, "p99-9")), "unknown passage id 'p99-9' of peel"


def _unknown_passage_id_of_a_quotation(folder: Path) -> tuple[str, str, str]:
    path = folder / "glossary.txt"
    _edit(path, "quote-from: hoffmann#law-16", "quote-from: hoffmann#law-61")
    return "glossary.txt", str(_line_of(path, "law-61")), "unknown passage id 'law-61' of hoffmann"


def _unknown_glossary_term(folder: Path) -> tuple[str, str, str]:
    path = folder / "sources" / "peel.txt"
    _edit(path, "[[misdeal]], an irregular", "[[misdial]], an irregular")
    return "sources/peel.txt", str(_line_of(path, "[[misdial]]")), "unknown glossary term 'misdial'"


def _unknown_source_id(folder: Path) -> tuple[str, str, str]:
    path = folder / "glossary.txt"
    _edit(path, "quote-from: britannica#s1", "quote-from: brittanica#s1")
    return "glossary.txt", str(_line_of(path, "brittanica")), "unknown source id 'brittanica'"


def _unknown_source_file(folder: Path) -> tuple[str, str, str]:
    path = folder / "sources" / "hoyle.txt"
    path.write_text("[source hoyle]\ntitle: Hoyle\n", encoding="utf-8")
    return "sources/hoyle.txt", "1", "unknown source id 'hoyle'"


def _duplicate_passage_id(folder: Path) -> tuple[str, str, str]:
    path = folder / "sources" / "britannica.txt"
    _edit(path, "[sentence s20]", "[sentence s19]")
    lines = [
        n for n, line in enumerate(path.read_text().splitlines(), 1) if line == "[sentence s19]"
    ]
    return "sources/britannica.txt", str(lines[1]), "duplicate passage id 's19'"


def _over_long_modern_quotation(folder: Path) -> tuple[str, str, str]:
    path = folder / "sources" / "parlett.txt"
    long = (
        "Each player in turn announces whether they will play or throw their hand in. Anyone "
        "offering to play may exchange their hand for Miss, sight unseen, but may not then drop "
        "out or change it back. Only the first player to claim this privilege, starting from "
        "the dealer's left-hand neighbour, may exercise it."
    )
    _edit(path, "label: 3c:Announcements\n", f"label: 3c:Announcements\nquote: {long}\n")
    return (
        "sources/parlett.txt",
        str(_line_of(path, "quote: Each player in turn")),
        "quotation of 53 words",
    )


def _malformed_field(folder: Path) -> tuple[str, str, str]:
    path = folder / "sources" / "hoffmann.txt"
    _edit(path, "[law law-4]\n", "[law law-4]\nlable: Law 4\n")
    return (
        "sources/hoffmann.txt",
        str(_line_of(path, "lable:")),
        "malformed line: unknown field 'lable:'",
    )


def _malformed_text_before_any_block(folder: Path) -> tuple[str, str, str]:
    path = folder / "glossary.txt"
    path.write_text("A stray line.\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    return "glossary.txt", "1", "malformed line"


def _unresolvable_catalogue_citation(folder: Path) -> tuple[str, str, str]:
    path = folder / "sources" / "hoffmann.txt"
    _edit(path, "[law law-13]", "[law law-13a]")
    return "sources/hoffmann.txt", str(_line_of(path, "[source hoffmann]")), "no passage 'law-13'"


def _witness_quote_not_in_its_passage(folder: Path) -> tuple[str, str, str]:
    path = folder / "witnesses.txt"
    _edit(path, "as his five Cards amount to.\n", "as his five Cards are worth.\n")
    return (
        "witnesses.txt",
        str(_line_of(path, "as his five Cards are worth.")),
        "the quotation is not in cotton#p146-3",
    )


def _witness_quote_of_an_unknown_passage(folder: Path) -> tuple[str, str, str]:
    path = folder / "witnesses.txt"
    _edit(path, "quote: p97-x: Each player", "quote: p97-xi: Each player")
    return "witnesses.txt", str(_line_of(path, "p97-xi")), "unknown passage id 'p97-xi'"


def _a_rule_set_source_as_a_witness(folder: Path) -> tuple[str, str, str]:
    path = folder / "witnesses.txt"
    _edit(
        path,
        "witness: enquire-within\nstatus: states\nsays: from left",
        "witness: peel\nstatus: states\nsays: from left",
    )
    return "witnesses.txt", str(_line_of(path, "witness: peel")), "unknown witness 'peel'"


def _a_preset_marked_as_a_witness(folder: Path) -> tuple[str, str, str]:
    path = folder / "sources" / "peel.txt"
    _edit(path, "[source peel]\n", "[source peel]\nrole: witness\n")
    return (
        "sources/peel.txt",
        str(_line_of(path, "role: witness")),
        "'peel' is a source of the rule sets, not a witness",
    )


def _timeline_quote_not_in_its_passage(folder: Path) -> tuple[str, str, str]:
    path = folder / "timeline.txt"
    _edit(
        path, "whereas now the three-card game is in vogue.", "whereas now the five-card game is."
    )
    return (
        "timeline.txt",
        str(_line_of(path, "whereas now the five-card game is.")),
        "the quotation is not in peel#p16-1",
    )


def _timeline_link_to_an_unknown_passage(folder: Path) -> tuple[str, str, str]:
    path = folder / "timeline.txt"
    _edit(path, "[[source:cotton#p144-2|p. 144]]", "[[source:cotton#p144-9|p. 144]]")
    return (
        "timeline.txt",
        str(_line_of(path, "p144-9")),
        "unknown passage id 'p144-9' of cotton",
    )


def _edit_rule(folder: Path, rule_id: str, old: str, new: str) -> int:
    """Change the [rule rule_id] block of rules.txt; returns the line of its 'example:'."""
    path = folder / "rules.txt"
    text = path.read_text(encoding="utf-8")
    start = text.index(f"[rule {rule_id}]\n")
    end = text.find("\n[rule ", start + 1)
    block = text[start:end]
    assert old in block, f"{old!r} is not in [rule {rule_id}]"
    path.write_text(text[:start] + block.replace(old, new, 1) + text[end:], encoding="utf-8")
    return text[:start].count("\n") + 1 + block[: block.find("example:")].count("\n")


def _unknown_example_kind(folder: Path) -> tuple[str, str, str]:
    line = _edit_rule(folder, "trick-winner", '"kind": "trick"', '"kind": "tricks"')
    return "rules.txt", str(line), "impossible example: unknown example kind 'tricks'"


def _bad_card_in_a_trick(folder: Path) -> tuple[str, str, str]:
    line = _edit_rule(folder, "trick-winner", '"9C"', '"9X"')
    return "rules.txt", str(line), "impossible example: unknown card '9X'"


def _impossible_flush(folder: Path) -> tuple[str, str, str]:
    line = _edit_rule(folder, "flush-tie-break", '"KS QS 9S 5S 3S"', '"KS QS 9S 5S"')
    return "rules.txt", str(line), "impossible example: hand 1 holds 4 cards"


def _card_dealt_twice_in_a_hand(folder: Path) -> tuple[str, str, str]:
    line = _edit_rule(folder, "take-miss", '"miss": "KH 2C 9S"', '"miss": "KH 2C AS"')
    return "rules.txt", str(line), "impossible example: AS is dealt twice"


def _step_refused_under_every_rule_set(folder: Path) -> tuple[str, str, str]:
    line = _edit_rule(
        folder, "miss-only-once", '"0 take-miss", "?"', '"0 take-miss", "1 take-miss"'
    )
    return (
        "rules.txt",
        str(line),
        "impossible example: the engine refuses this hand under every rule set: under hoffmann, "
        "step 2 ('1 take-miss'): Seat 1 has taken miss, so seat 2 may only play or pass.",
    )


def _bad_json_on_a_continuation_line(folder: Path) -> tuple[str, str, str]:
    _edit_rule(folder, "take-miss", '"steps": ["?",', '"steps": ["?"')
    return (
        "rules.txt",
        str(_line_of(folder / "rules.txt", '"steps": ["?" "0 take-miss"')),
        ("the example is not valid JSON"),
    )


def _rule_without_example_or_reason(folder: Path) -> tuple[str, str, str]:
    path = folder / "rules.txt"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(\[rule shuffle-and-cut\]\n)no-example:.*\n(?:  .*\n)*", r"\1", text)
    path.write_text(text, encoding="utf-8")
    return (
        "rules.txt",
        str(_line_of(path, "[rule shuffle-and-cut]")),
        "the rule 'shuffle-and-cut' needs an 'example:' line, or a 'no-example:' line",
    )


def _over_long_label(folder: Path) -> tuple[str, str, str]:
    path = folder / "sources" / "cotton.txt"
    _edit(path, "label: A later article derived from Cotton", "label: " + "A very long label " * 4)
    return (
        "sources/cotton.txt",
        str(_line_of(path, "[heading derived-article]")),
        "more than 60: give it a shorter 'label:' line",
    )


@pytest.mark.parametrize(
    "breakage",
    [
        _unknown_rule_id_in_rules_file,
        _unknown_rule_id_in_annotation,
        _unknown_rule_id_in_a_link,
        _unknown_lesson_in_a_rule,
        _unknown_lesson_in_a_definition,
        _unknown_passage_id,
        _unknown_passage_id_of_a_quotation,
        _unknown_glossary_term,
        _unknown_source_id,
        _unknown_source_file,
        _duplicate_passage_id,
        _over_long_modern_quotation,
        _malformed_field,
        _malformed_text_before_any_block,
        _unresolvable_catalogue_citation,
        _unknown_example_kind,
        _bad_card_in_a_trick,
        _impossible_flush,
        _card_dealt_twice_in_a_hand,
        _step_refused_under_every_rule_set,
        _bad_json_on_a_continuation_line,
        _rule_without_example_or_reason,
        _over_long_label,
        _witness_quote_not_in_its_passage,
        _witness_quote_of_an_unknown_passage,
        _a_rule_set_source_as_a_witness,
        _a_preset_marked_as_a_witness,
        _timeline_quote_not_in_its_passage,
        _timeline_link_to_an_unknown_passage,
    ],
    ids=lambda f: f.__name__.strip("_").replace("_", "-"),
)
def test_a_broken_file_is_refused_with_its_file_line_and_problem_and_changes_nothing(
    tmp_path: Path, breakage: Breakage
) -> None:
    folder = _copy(tmp_path)
    # A harmless change too, which must not be written either.
    _edit(folder / "sources" / "hoffmann.txt", "divers fashions", "diverse fashions")
    file, line, problem = breakage(folder)
    before = _snapshot()

    with pytest.raises(CommandError) as raised:
        call_command("loadcontent", path=folder, verbosity=0)

    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"content/{file}:{line}: "), message
    assert problem in message
    assert _snapshot() == before


def test_a_failure_while_writing_rolls_everything_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copy(tmp_path)
    _edit(folder / "sources" / "hoffmann.txt", "divers fashions", "diverse fashions")
    before = _snapshot()

    def fail(self: content.Content, passage_ids: object) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(content.Content, "_save_citations", fail)
    with pytest.raises(RuntimeError):
        call_command("loadcontent", path=folder, verbosity=0)

    assert _snapshot() == before


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no such directory"):
        call_command("loadcontent", path=tmp_path / "nowhere", verbosity=0)


def test_the_command_says_what_it_loaded() -> None:
    from io import StringIO

    out = StringIO()
    call_command("loadcontent", stdout=out)
    assert re.fullmatch(
        r"Loaded 8 sources, \d+ passages, 70 rules, \d+ glossary terms, \d+ citations, "
        r"\d+ witness statements, \d+ timeline entries, "
        r"\d+ units, \d+ lessons, \d+ lesson steps\.\n",
        out.getvalue(),
    )
