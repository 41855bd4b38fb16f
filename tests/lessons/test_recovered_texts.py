"""The texts recovered for issue 23: Peel's chapter as far as found (pp. 16–29), Hoffmann's
notes [28]–[30], and the three witnesses (Hoyle Improved, Enquire Within, Cotton: since issue 39
the whole 1674 chapter, tests/lessons/test_cotton_1674.py). Each is the text in
../shared/sources/more/ with exactly its listed corrections; every gap is marked, never filled;
and every permalink cited before keeps working."""

import re

import pytest
from django.test import Client

from lessons import markup
from lessons.models import Passage, PassageKind, Source

pytestmark = pytest.mark.django_db

#: The witnesses' files in ../shared/sources/more/, by source id.
WITNESS_FILES = {
    "hoyle-improved": "hoyle-improved.txt",
    "enquire-within": "enquire-within-1894.txt",
}


def _ours(source: Source) -> list[str]:
    """The words of a source's text as the site shows it (its editorial passages left out),
    without the marks of its gaps."""
    plain = " ".join(p.plain for p in source.passages.filter(editorial=False))
    return [w.strip("_") for w in plain.replace(markup.GAP_PLAIN, " ").split()]


def _theirs(source: Source, text: str) -> list[str]:
    return [w.replace("_", "") for w in source.correct(text).split() if w != "*"]


def test_peel_is_the_whole_chapter_as_recovered_with_only_the_listed_corrections(
    more_bodies: dict[str, str],
) -> None:
    peel = Source.objects.get(slug="peel")
    assert _ours(peel) == _theirs(peel, more_bodies["peel-full-loo.txt"])


def test_peel_pp_19_to_28_are_still_our_first_copy_with_its_corrections(
    shared_texts: dict[str, str],
) -> None:
    """From the footnote on the miss, where our first copy began, to the end of p. 28's
    five-card Loo, where it ended."""
    peel = Source.objects.get(slug="peel")
    first, last = (Passage.objects.get(source=peel, key=k).position for k in ("p19-1", "p27-1"))
    passages = peel.passages.filter(position__gte=first, position__lte=last)
    ours = " ".join(p.plain for p in passages).split()
    copy = re.sub(r"\[\d\d\]|©\s*2024\s*www\.topnovel\.cc", " ", shared_texts["peel"])
    assert [w.strip("_") for w in ours] == _theirs(peel, copy)


@pytest.mark.parametrize("slug", sorted(WITNESS_FILES))
def test_a_witness_is_its_shared_text_with_only_the_listed_corrections(
    more_bodies: dict[str, str], slug: str
) -> None:
    source = Source.objects.get(slug=slug)
    assert _ours(source) == _theirs(source, more_bodies[WITNESS_FILES[slug]])


# Permalinks: every passage of our first copy of Peel keeps its id, its words and its place


#: The passages of our first copy of Peel (pp. 19–28), by id, each with its first words: the
#: permalinks that lessons, rules, the glossary, the trainer and readers' bookmarks cite.
FIRST_COPY = {
    "p19-1": "The spare hand is not always called",
    "p19-2": "The player on the dealer's left having determined",
    "p19-3": "Should it happen that each of the players",
    "p19-4": "Should it happen that only one player",
    "p20-1": "The players who have decided to stand",
    "p20-2": "The play proceeds from left to right",
    "p21-1": "A player infringing any of the rules",
    "p21-2": "The hands must, however, be replayed",
    "p22-1": "In any case the player who transgressed",
    "p22-2": "If his cards secure one or all",
    "p22-3": "We will now proceed to consider",
    "stakes": "STAKES",
    "p22-4": "For the reason already mentioned",
    "p22-5": "If, however, the pool consists",
    "p22-6": "It is not necessary that the loo",
    "p23-1": "Another method is to make the stake",
    "p23-2": "Before commencing play in the game",
    "p23-3": "The modification of this rule",
    "dealing": "DEALING",
    "p23-4": "The deal is settled in the same way",
    "p23-5": "In the event of a misdeal",
    "p24-1": "Any player interfering with the cards",
    "declaring": "DECLARING",
    "p24-2": "The cards having been dealt",
    "p24-3": "No player may make a second declaration",
    "playing-the-hands": "PLAYING THE HANDS",
    "p25-1": "The players having decided whether",
    "p25-2": "If the winner of the first trick",
    "p25-3": "In all these cases the penalty",
    "variations": "VARIATIONS",
    "p25-4": "As mentioned in the case of Nap",
    "club-law": "CLUB LAW",
    "p26-1": "This is the most common variation",
    "p26-2": "When it is adopted",
    "unlimited-loo": "UNLIMITED LOO",
    "p26-3": "In this variation the penalty",
    "mixed-loo": "MIXED LOO",
    "p26-4": "This is played on the same lines",
    "five-card-loo": "FIVE-CARD LOO",
    "p27-1": "This is the old-fashioned game",
}


def test_every_permalink_of_our_first_copy_of_peel_still_opens_its_passage(
    client: Client,
) -> None:
    html = client.get("/sources/peel/").content.decode()
    for key, opening in FIRST_COPY.items():
        passage = Passage.objects.get(source="peel", key=key)
        assert passage.plain.strip("_").startswith(opening), key
        assert f'id="{key}"' in html, key
    # The recovered pages come before our first copy, which keeps its order.
    keys = list(Passage.objects.filter(source="peel").values_list("key", flat=True))
    assert [k for k in keys if k in FIRST_COPY] == list(FIRST_COPY)
    assert keys.index("p18-1") < keys.index("p19-1")


def test_every_peel_passage_the_content_cites_exists() -> None:
    """The glossary's quotations, the lessons' quotations and every [[source:peel#…]] link of
    content/ name passages that exist (the loader refuses any that does not; this names the
    ones cited today, so that a renumbering would show here first)."""
    from pathlib import Path

    from django.conf import settings

    cited: set[str] = set()
    for path in (Path(settings.BASE_DIR) / "content").rglob("*.txt"):
        text = path.read_text(encoding="utf-8")
        cited |= set(re.findall(r"peel#(p\d+-\d+|[a-z-]+)", text))
    existing = set(Passage.objects.filter(source="peel").values_list("key", flat=True))
    assert cited and cited <= existing, cited - existing
    assert {"p19-1", "p21-2", "p20-2", "p27-1"} <= cited


# Peel's recovered pages


def test_peel_now_begins_on_p_16_and_holds_the_single_deal_of_p_18() -> None:
    p16 = Passage.objects.get(source="peel", key="p16-1")
    assert (p16.page, p16.label) == (16, "p. 16")
    assert "except that then the five-card variation was the most popular" in p16.plain
    single = Passage.objects.get(source="peel", key="p18-1")
    assert (single.page, single.last_page, single.label) == (18, 19, "pp. 18–19")
    assert "distributes one card, similarly exposed, to each player" in single.plain
    assert Passage.objects.get(source="peel", key="p19-1").label == "footnote *"
    irish = Passage.objects.get(source="peel", key="p28-1")
    assert irish.plain.startswith("This is virtually the same as the five-card variety")
    assert Passage.objects.get(source="peel", key="p29-9").plain.startswith("The first hand")


def test_peel_s_record_says_what_was_recovered_and_from_where(client: Client) -> None:
    peel = Source.objects.get(slug="peel")
    assert "pp. 16–29" in peel.extent
    assert "p. 29" in peel.completeness and "p. 30" in peel.completeness
    addresses = [where for where, _ in peel.copies]
    assert "https://knigalit.ru/avtori/w-h-peel/book2016005/chitat/?page=10" in addresses
    assert "https://partyfass.cc/read-25853-3382479.html" in addresses
    text = " ".join(client.get("/sources/peel/").content.decode().split())
    assert "Our first copy began on p. 19" in text
    assert 'href="https://bestlightnovel.com/novel_888114130/chapter_3"' in text
    assert "Our copy holds pp. 16–29 of the chapter." in text
    assert "begins on p. 19" not in peel.about.replace("began on p. 19", "")


def test_peel_s_lost_fraction_is_restored_and_said() -> None:
    p22 = Passage.objects.get(source="peel", key="p22-6")
    assert "deal is settled at 1 1/2d. for the loo to be 6d." in p22.plain
    peel = Source.objects.get(slug="peel")
    assert ["settled at 1_d_.", "settled at 1 1/2_d_."] in peel.corrections
    assert "1 1/2_d_." in peel.editorial_note


def test_the_recovered_pages_state_the_rules_they_speak_to() -> None:
    marked = {
        "p16-2": "players",
        "p17-1": "round-continues-until-no-loo",
        "p17-3": "single",
        "p18-1": "single",
        "p28-1": "irish-loo",
    }
    for key, rule_id in marked.items():
        passage = Passage.objects.for_reading().get(source="peel", key=key)
        assert rule_id in [r.id for r in passage.stated_rules], key


# Gaps: marked where they fall, never filled


def _before_gaps(text: str) -> list[str]:
    """The three words before each gap of a shared file (``latte[r case …missing`` counts
    its ``latte``: the letters in the bracket are a guess, not the text)."""
    found = []
    for match in re.finditer(r"\[[a-z ]*…missing", text):
        found.append(" ".join(text[: match.start()].split()[-3:]))
    return found


@pytest.mark.parametrize(
    ("slug", "file"), [("peel", "peel-full-loo.txt"), *sorted(WITNESS_FILES.items())]
)
def test_every_gap_is_marked_where_it_falls_and_nothing_follows_it(
    more_texts: dict[str, str], slug: str, file: str
) -> None:
    source = Source.objects.get(slug=slug)
    gaps = [p for p in source.passages.all() if markup.gaps(p.text)]
    expected = [source.correct(words) for words in _before_gaps(more_texts[file])]
    assert len(gaps) == len(expected) >= 1
    for passage, words in zip(gaps, expected, strict=True):
        # The gap ends its passage, right after the last words a copy has: nothing fills it.
        assert passage.plain.endswith(markup.GAP_PLAIN), passage.key
        before = passage.plain.removesuffix(markup.GAP_PLAIN).split()
        assert " ".join(before[-3:]) == words or passage.kind == PassageKind.GAP, passage.key
        assert 'class="gap"' in passage.html and "missing:" in passage.html


def test_no_gap_of_peel_is_filled_in(client: Client) -> None:
    text = Passage.objects.get(source="peel", key="p18-1").plain
    assert text.endswith("and he takes up the spare hand. In this latte[…]")
    assert "latter case" not in text
    assert Passage.objects.get(source="peel", key="p29-9").plain == "The first hand should seldo[…]"
    html = client.get("/sources/peel/").content.decode()
    assert html.count('<span class="gap">') == 2


# Hoffmann's notes


def test_hoffmann_s_notes_28_to_30_are_shown_in_their_own_words(client: Client) -> None:
    notes = dict(
        Passage.objects.filter(source="hoffmann", kind="footnote").values_list("key", "plain")
    )
    assert notes["fn-28"] == (
        "As, for instance, where the player holds the seven and nine of trumps, the eight "
        "having been turned up; the seven and nine are then of equal value."
    )
    # In its own words, as notes 28 and 30 are: not in quotation marks (issue 39).
    assert notes["fn-29"] == (
        "Sometimes the preference is given to the elder hand, irrespective of the value of "
        "the cards."
    )
    assert notes["fn-30"].split("\n\n") == [
        "The words between brackets apply of course to three-card loo.",
        "Sometimes the dealer is allowed, after dealing one card to each player, to deal three "
        "together for a miss, but the practice is irregular.",
        "At five-card Loo the ecarte method of dealing (first by threes, and then by twos, or "
        "vice versa) is sometimes adopted.",
    ]
    assert "not been found" in notes["fn-27"]
    assert "Reported" not in " ".join(notes.values())
    html = client.get("/sources/hoffmann/").content.decode()
    notes_section = html[html.index('id="notes-title"') :]
    for key in ("fn-27", "fn-28", "fn-29", "fn-30"):
        assert f'id="{key}"' in notes_section
    assert "<i>ecarte</i> method of dealing" in notes_section
    assert 'href="#fn-28" id="note-28"' in html


def test_the_notes_are_verbatim_as_sources_md_gives_them(sources_md: str) -> None:
    for number in (28, 29, 30):
        given = re.search(rf'"\[{number}\] (.*?)"$', sources_md, re.M | re.S)
        assert given, number
        words = given.group(1).replace("/", " ").replace("_", "").split()
        ours = Passage.objects.get(source="hoffmann", key=f"fn-{number}").plain.split()
        assert ours == [w for w in words if w], number


# Cotton: the derived article is never Cotton's words


def test_cotton_s_derived_article_is_marked_as_derived_wherever_it_is_shown(
    client: Client, more_bodies: dict[str, str]
) -> None:
    derived = Passage.objects.filter(source="cotton", kind=PassageKind.DERIVED)
    assert [p.key for p in derived] == ["derived-3"]
    assert all("derived article" in p.label for p in derived)
    cotton = Source.objects.get(slug="cotton")
    article = cotton.correct(more_bodies["cotton-1680-fragments.txt"])
    for passage in derived:
        assert markup.find_quotation(passage.plain, article), passage.key
    assert not Passage.objects.filter(source="cotton", kind=PassageKind.FRAGMENT).exists()
    html = client.get("/sources/cotton/").content.decode()
    for passage in derived:
        block = html[html.index(f'id="{passage.key}"') :]
        block = block[: block.index("</p>")]
        assert "not the original&#x27;s" in block or "not the original's" in block
    assert "not Cotton&#x27;s words" in html or "not Cotton's words" in html
