"""The content markup: links that open in place, marks, lists, and finding quotations."""

import pytest

from lessons import markup


def _resolver(source: str = "hoffmann") -> markup.Resolver:
    terms = {"miss": "miss", "cat": "miss", "pam": "pam"}

    def term(words: str) -> tuple[str, markup.Link] | None:
        slug = terms.get(words.lower())
        return (slug, markup.Link(f"/glossary/{slug}/", f"/glossary/{slug}/")) if slug else None

    return markup.Resolver(
        term=term,
        rule=lambda r: markup.Link(f"/rules/{r}/", f"/rules/{r}/", "rule") if r == "must" else None,
        passage=lambda s, k: (
            markup.Link(f"/sources/{s}/#{k}") if (s, k) == ("peel", "p21-2") else None
        ),
        source=source,
        note_exists=lambda n: n == 28,
        lesson=lambda slug: (
            (markup.Link(f"/learn/{slug}/", None, "lesson"), "Follow suit")
            if slug == "follow-suit"
            else None
        ),
    )


def test_a_term_is_a_real_link_that_htmx_opens_in_a_slot_beside_it() -> None:
    out = markup.render("Some call it the [[cat]].", _resolver(), slot_prefix="peel-p19-1")

    assert out.html == (
        '<p>Some call it the <a class="ref ref--term" href="/glossary/miss/" '
        'hx-get="/glossary/miss/" hx-target="#slot-peel-p19-1-1" hx-swap="innerHTML" '
        'aria-controls="slot-peel-p19-1-1" aria-expanded="false">cat</a>'
        '<span class="ref-slot" id="slot-peel-p19-1-1" aria-live="polite"></span>.</p>'
    )
    assert out.plain == "Some call it the cat."
    assert out.terms == [("miss", "cat")]


def test_rule_and_passage_links() -> None:
    out = markup.render(
        "A [[rule:must|must]] follows; see [[source:peel#p21-2|p. 21]].",
        _resolver(),
        slot_prefix="x",
    )

    assert 'href="/rules/must/" hx-get="/rules/must/"' in out.html
    assert '<a href="/sources/peel/#p21-2">p. 21</a>' in out.html
    assert out.rules == ["must"]
    assert out.plain == "A must follows; see p. 21."


def test_a_lesson_link_goes_to_the_lesson_under_its_title_or_the_words_given() -> None:
    out = markup.render(
        "See [[lesson:follow-suit]], or [[lesson:follow-suit|the lesson before]].",
        _resolver(),
        slot_prefix="x",
    )

    assert out.html == (
        '<p>See <a href="/learn/follow-suit/">Follow suit</a>, or '
        '<a href="/learn/follow-suit/">the lesson before</a>.</p>'
    )
    assert out.plain == "See Follow suit, or the lesson before."
    assert markup.plain_text("See [[lesson:follow-suit]].") == "See follow suit."


def test_page_and_note_marks_italics_and_escaping() -> None:
    out = markup.render(
        "one {page:22} or _more_ <b>tricks</b> & {note:28}", _resolver(), slot_prefix="x"
    )

    assert '<span class="page-mark">[p.&nbsp;22]</span>' in out.html
    assert '<a href="#fn-28" id="note-28">[28]</a>' in out.html
    assert "<i>more</i>" in out.html
    assert "&lt;b&gt;tricks&lt;/b&gt; &amp;" in out.html
    assert out.plain == "one or more <b>tricks</b> &"


def test_paragraphs_and_lists() -> None:
    out = markup.render(
        "First line\nwraps.\n\n- one\n  continues\n- two", _resolver(), slot_prefix="x"
    )

    assert out.html == "<p>First line wraps.</p>\n<ul><li>one continues</li><li>two</li></ul>"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[[dog]]", "'dog' is not a glossary term"),
        ("[[rule:mustn't]]", "not a rule id"),
        ("[[source:peel#p99-1]]", "no passage peel#p99-1"),
        ("{note:27}", "fn-27 that does not exist"),
        ("[[lesson:follow-suits]]", "no lesson 'follow-suits' in the course"),
    ],
)
def test_a_reference_to_nothing_is_an_error(text: str, problem: str) -> None:
    with pytest.raises(markup.MarkupError, match=problem):
        markup.render(text, _resolver(), slot_prefix="x")


def test_a_quotation_is_found_despite_quotation_marks_marks_and_omissions() -> None:
    text = 'LOO (formerly called "Lanterloo," Fr. lanturlu) is the dealer\'s game.'

    spans = markup.find_quotation("formerly called ' Lanterloo,' … the dealer\"s game", text)

    assert spans is not None
    assert [text[s:e] for s, e in spans] == ['formerly called "Lanterloo', "the dealer's game"]
    assert markup.find_quotation("the pool, [28] receives", "the pool, receives") is not None
    assert markup.find_quotation("called Lanterloo game", text) is None


def test_plain_text_drops_the_markup() -> None:
    assert markup.plain_text("the [[miss|spare hand]] {page:20} is _dead_") == (
        "the spare hand is dead"
    )


def test_a_gap_is_shown_as_missing_and_has_no_words_to_quote() -> None:
    out = markup.render(
        "The first hand should seldo[…missing: the rest of p. 29 and all of p. 30…]",
        _resolver(),
        slot_prefix="x",
    )

    assert out.html == (
        '<p>The first hand should seldo<span class="gap">[…<em>missing:</em> the rest of '
        "p. 29 and all of p. 30…]</span></p>"
    )
    assert out.plain == "The first hand should seldo[…]"
    assert markup.gaps("a[…missing: one…] b […missing: two…]") == ["one", "two"]
    assert markup.plain_text("seldo[…missing: the rest…]") == "seldo[…]"
    # A quotation cannot take its words from what a gap says is missing.
    assert markup.find_quotation("the rest of p. 29", out.plain) is None
