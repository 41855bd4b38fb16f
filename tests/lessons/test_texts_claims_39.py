"""Claims beyond the texts found by issue 39, held to the texts as test_texts_claims.py holds
issue 25's: each docstring quotes the passage the correction rests on; each test checks that
the sentence which claimed more is gone, that the corrected one is there, and that the words
quoted are the passage's."""

from __future__ import annotations

import pytest
from django.test import Client

from lessons.models import Passage, TimelineEntry, WitnessStatement
from tests.lessons.test_texts_claims import _lesson, _rule, _said, _words

pytestmark = pytest.mark.django_db


def _witness(rule: str, source: str) -> WitnessStatement:
    return WitnessStatement.objects.get(rule_id=rule, source_id=source)


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return _words(response.content.decode())


def test_peel_has_a_hand_all_must_play_on_the_last_round() -> None:
    """Peel p. 17: "In this case all "stand" on the last round, and there is no "miss."" He has
    no must after a hand with no loo (his single, p. 18), but the site said he had none at
    all."""
    must = _rule("must")
    assert "Peel has no must: after" not in must
    assert "Peel has no must after a hand with no loo" in must
    assert "on the last round all stand, and no miss is dealt" in must
    lesson = _lesson("singles-and-musts")
    assert "Peel has no must at all" not in lesson
    assert "Only on his last round, when a session ends that way, do all stand" in lesson
    _said("peel", "p17-1", 'all "stand" on the last round, and there is no "miss."')


def test_the_britannica_is_not_the_only_source_to_play_on_until_a_single() -> None:
    """Peel p. 17: "It is usual, however, to play on until what is known as a "single"
    occurs, i.e., when each of the players who declared to stand has secured a trick"."""
    lesson = _lesson("britannica-pool")
    assert "and a session that ends only on a hand without a loo" not in lesson
    assert 'Peel calls playing on until a single occurs "usual", p. 17' in lesson
    ending = _rule("round-continues-until-no-loo")
    assert 'Peel says it is "usual" to play on until a single occurs' in ending
    _said("peel", "p17-1", "It is usual, however, to play on until what is known as a")


def test_hoyles_every_one_at_dealing_is_each_dealer_in_turn() -> None:
    """Hoyle improved, p. 73: "if every one at dealing should stake half-a-crown, the tricks
    are entitled to sixpence apiece": five tricks at sixpence are one half-crown, the dealer's
    (it is each player when he deals, not every player at each deal)."""
    said = _witness("ante", "hoyle-improved")
    assert said.says == "each player stakes when he deals"
    assert '"Every one at dealing" is each player when his turn to deal comes' in _words(said.note)
    _said("hoyle-improved", "p73-2", "if every one at dealing should stake half-a-crown")
    _said("hoyle-improved", "p73-2", "the tricks are entitled to sixpence apiece")


def test_enquire_withins_first_round_is_quoted_to_its_or() -> None:
    """Enquire Within ¶96.viii: "In the first round it is usual either to deal a single; that
    is, a round without a miss, when all the players must play; or each player puts into the
    pool a sum equal to that staked by the dealer; in which latter case a miss is dealt." The
    timeline quoted up to "either" … "must play" and stopped before the "or"."""
    step = TimelineEntry.objects.get(key="enquire-within")
    quoted = [q.quote for q in step.quotes.all() if q.passage.key == "p96-viii"]
    assert len(quoted) == 1
    assert quoted[0].endswith("in which latter case a miss is dealt.")
    text = _words(step.text)
    assert 'Its first round is a "[[single]]" in which all must play and no miss' not in text
    assert "or a round with a miss in which every player stakes as much as the dealer" in text
    _said("enquire-within", "p96-viii", quoted[0])


def test_enquire_withins_law_vii_is_about_telling_not_an_exposed_card() -> None:
    """Enquire Within ¶97.vii: "The player who informs another what cards he possesses, or
    gives any intimation that he knows such or such cards to be in the hand or the miss, is
    looed." Nothing of a card shown."""
    said = _witness("penalty-exposed-card", "enquire-within")
    assert said.status == "differs"
    assert said.says == "telling one's cards, not showing them: looed"
    assert "It says nothing of a card exposed" in _words(said.note)
    _said("enquire-within", "p97-vii", "informs another what cards he possesses")


def test_the_laws_lesson_gives_peel_no_law_for_playing_before_all_have_declared() -> None:
    """Peel p. 25 looes "any one playing out of turn, or exposing or mentioning the value of
    his own … unplayed cards"; nothing on playing before everyone has declared, and the
    engine gives no such penalty under his rule set."""
    lesson = _lesson("laws-out-of-turn")
    assert "or playing before everyone has declared costs you too: under Hoffmann you" not in (
        lesson
    )
    assert "Peel has no law for playing before everyone has declared" in lesson
    _said("peel", "p25-1", "as also is any one playing out of turn, or exposing")


def test_the_musts_lesson_calls_parletts_dealt_miss_our_reading() -> None:
    """Parlett, 3c:Optional rules: "When the pool is a single, nobody may pass." Nothing on the
    miss: that it is still dealt is RULES.md A33, a reading, as the rule page says."""
    lesson = _lesson("singles-and-musts")
    assert "as an optional rule, with the miss still dealt;" not in lesson
    assert "(his rule set still deals the miss: our reading)" in lesson


def test_peels_single_is_not_labelled_the_hand_after_a_hand_with_no_loo() -> None:
    """Peel p. 17: "The first dealer is then chosen, and he … proceeds to distribute the cards
    for what is termed a single": his first single opens the game, after no hand at all."""
    lesson = _lesson("peel-single")
    assert "Peel opens the game with a single" in lesson
    assert "(the hand after a hand with no loo)" not in lesson.split("Peel opens the game")[1][:300]
    _said("peel", "p17-3", "proceeds to distribute the cards for what is termed a single")


def test_the_deal_passing_left_is_not_said_to_be_every_sources() -> None:
    """Parlett 3c:Deal and White Knuckle ¶5 say the deal passes to the left; Hoffmann, the
    Britannica and Peel do not say which way it passes."""
    from lessons.models import Rule

    said = " ".join(Rule.objects.get(pk="deal-rotation").no_example.split())
    assert "every source agrees" not in said
    assert "Parlett and White Knuckle say so, and no other source says otherwise" in said


def test_hoffmanns_notes_are_all_given_without_quotation_marks() -> None:
    """SOURCES.md gives notes 28, 29 and 30 alike, each in its own words; the site printed 29
    alone in quotation marks."""
    notes = dict(
        Passage.objects.filter(source="hoffmann", key__in=["fn-28", "fn-29", "fn-30"]).values_list(
            "key", "plain"
        )
    )
    assert len(notes) == 3
    assert not any(text.startswith('"') for text in notes.values()), notes
    assert notes["fn-29"].startswith("Sometimes the preference is given to the elder hand")


def test_peels_printed_faults_are_marked_as_corrections_at_the_place(client: Client) -> None:
    """The Gutenberg text itself has "no player can he looed" (p. 22) and "The cards must he
    replayed" (p. 25): we print "be", and mark it at the place as our correction, with what the
    book prints beside it."""
    for key, words in (("p21-2", "can be looed"), ("p25-3", "must be replayed")):
        passage = Passage.objects.get(source="peel", key=key)
        assert words in passage.plain
        assert (
            '<span class="correction"><ins>be</ins> <span class="sic">[printed: <q>he</q>]'
            "</span></span>"
        ) in passage.html
    html = client.get("/sources/peel/").content.decode()
    assert html.count('<span class="correction">') == 2
