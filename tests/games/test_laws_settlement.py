"""Laws mode at the practice table: several offences in one hand, and the settlement that names
each (issue 12, items 8 and 9).

The position the issue saw, at peel (and the same cards at hoffmann): three-card Loo, four
players, North deals, hearts are trumps. East leads the 9♠; you trump it with the K♥ though
you hold the 2♠ (a revoke) and take the trick; you lead the 2♠ though you hold the 5♥ (trump
after trick: a lead against the rules); East throws the 10♣ to it though he holds the 8♠ (a
revoke). The computer players' cards are played by the test through the engine (a careless
player's slips are chance), and the finished table is shown by the views.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from games.loo.hand import Action
from games.models import PracticeTable

pytestmark = pytest.mark.django_db

YOU, WEST, NORTH, EAST = 0, 1, 2, 3

DEAL: dict[str, Any] = {
    "game": "three-card",
    "players": 4,
    "dealer": NORTH,
    "hands": [["2S", "KH", "5H"], ["3S", "JD", "4D"], ["4S", "QC", "2C"], ["9S", "8S", "TC"]],
    "turn_up": "7H",
}
DECLARE = [(EAST, "play"), (YOU, "play"), (WEST, "play"), (NORTH, "play")]
FIRST_PLAY = [
    (EAST, "9S"),
    (YOU, "KH"),  # a revoke: you hold the 2♠
    (WEST, "3S"),
    (NORTH, "4S"),
    (YOU, "2S"),  # trump after trick: you hold the 5♥
    (WEST, "JD"),
    (NORTH, "QC"),
    (EAST, "TC"),  # a revoke: East holds the 8♠
    (YOU, "5H"),
    (WEST, "4D"),
    (NORTH, "2C"),
    (EAST, "8S"),
]
#: peel's replay in proper order (p. 21): East takes trick 1, you the others.
REPLAY = [
    (EAST, "9S"),
    (YOU, "2S"),
    (WEST, "3S"),
    (NORTH, "4S"),
    (EAST, "8S"),
    (YOU, "5H"),
    (WEST, "JD"),
    (NORTH, "QC"),
    (YOU, "KH"),
    (WEST, "4D"),
    (NORTH, "2C"),
    (EAST, "TC"),
]
KH = "the K♥ in trick 1, when you had to follow suit"
TWO_S = "the 2♠ in trick 2, when you had to lead a trump, having taken the last trick"
TEN_C = "the 10♣ in trick 2, when he had to follow suit"


def _finished(player: Any, rules: str, answers: list[Action]) -> PracticeTable:
    """The table dealt from ``DEAL``, played as above through the engine and stored."""
    deal = dict(DEAL)
    if rules == "hoffmann":  # no must on hoffmann's first deal: a miss is dealt
        deal["miss"] = ["KD", "9C", "2H"]
    practice: PracticeTable = player.stacked_table(rules=rules, laws=True, **deal)
    table = practice.to_engine()
    assert table.hand is not None
    # The computer players' declarations are the test's own.
    table.takeback(len(table.hand.log))
    actions = [Action.declare(s, c) for s, c in DECLARE]
    actions += [Action.play(s, c) for s, c in FIRST_PLAY]
    for action in actions + answers:
        table.apply(action)
    hand = table.hand
    if rules == "peel":
        assert hand.replaying
        for s, c in REPLAY:
            table.apply(Action.play(s, c))
    assert hand.over
    assert practice.update_from_engine(table, [])
    return practice


def _page(client: Client, practice: PracticeTable) -> str:
    html = client.get(practice.get_absolute_url()).content.decode()
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_peel_several_offences_each_named_and_every_offender_looed(
    client: Client, player: Any
) -> None:
    # peel p. 21-22: "A player infringing any of the rules, or playing in an irregular
    # manner, is looed ... In any case the player who transgressed the law does not win
    # anything. If his cards secure one or all of the tricks the amount of his winnings is
    # left in the pool for the next deal, and he is looed." The reading (docs/playing.md, "Laws
    # mode"): an offender is looed once, and the settlement names each of his offences.
    practice = _finished(player, "peel", [])
    text = _page(client, practice)
    # Each irregular play is one line of the log, never followed by a plain one.
    assert text.count("You play the K♥ irregularly, against the rule “follow suit if you can”") == 1
    assert text.count("You lead the 2♠ irregularly") == 0
    trump_after_trick = "the rule “the winner of a trick must lead a trump”"
    assert text.count(f"You play the 2♠ irregularly, against {trump_after_trick}") == 1
    assert (
        text.count("The player on your right plays the 10♣ irregularly, against the rule “follow")
        == 1
    )
    first_play = text.split("The cards are taken up")[0]
    assert (
        "You play the K♥." not in first_play
        and "The player on your right plays the 10♣." not in first_play
    )
    # The settlement: every offender looed, you among them, each offence named.
    assert (
        "The player on your right, you, the player on your left and the player opposite you "
        "were looed." in text
    )
    assert (
        f"You are looed, pay 6 to the next pool and win nothing (Peel, pp. 22, 25), for {KH}; "
        f"{TWO_S}." in text
    )
    assert (
        "The player on your right is looed, pays 6 to the next pool and wins nothing (Peel, "
        f"pp. 22, 25), for {TEN_C}." in text
    )
    assert f"Looed (Peel, p. 25), for {KH}; {TWO_S}." in text
    assert f"Looed (Peel, p. 25), for {TEN_C}." in text
    # Item 9: your two tricks of the replay won you nothing, and the line says why.
    assert (
        "You took 2 tricks, but you offended: their shares (2) stay in the pool for the next "
        "hand. You now hold" in text
    )
    assert "You won 2 tricks" not in text


def test_hoffmann_several_offences_each_named_and_the_forfeited_tricks_told(
    client: Client, player: Any
) -> None:
    # After Law 14: "Any player committing any infractions of Laws 9, 10, 11, 12, 13, or 14,
    # must leave in the pool any tricks he may make, and forfeit to the pool four times the
    # amount of a single." Law 16: West and North, who did not revoke, let the result stand.
    practice = _finished(
        player, "hoffmann", [Action("replay", WEST, "decline"), Action("replay", NORTH, "decline")]
    )
    text = _page(client, practice)
    assert text.count("You play the K♥ irregularly, against the rule “follow suit if you can”") == 1
    assert "You play the K♥." not in text
    assert (
        f"You forfeit four singles (12) to the next pool (after Law 14) for {KH}; {TWO_S}." in text
    )
    assert (
        "The player on your right forfeits four singles (12) to the next pool (after Law 14) "
        f"for {TEN_C}." in text
    )
    assert f"Four singles to the next pool (after Law 14), for {KH}; {TWO_S}." in text
    assert (
        "The player on your right, the player on your left and the player opposite you were "
        "looed." in text
    )
    # Item 9: all three tricks were forfeited: not "You won 3 tricks".
    assert (
        "You took 3 tricks, but you offended: their shares (3) stay in the pool for the next "
        "hand. You now hold" in text
    )
    assert "You won 3 tricks" not in text
    assert (
        'href="/rules/penalty-destination/"'
        in client.get(practice.get_absolute_url()).content.decode()
    )
