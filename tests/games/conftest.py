"""Helpers for the practice table's tests: tables dealt through the views, and a player that
chooses its decisions from the engine state stored in the database."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.loo.bots import BeginnerBot
from games.loo.cards import PACK, Card
from games.loo.hand import Action, Hand, HandSetup, stack_pack
from games.loo.rulesets import RuleSet
from games.loo.table import Table, TableConfig
from games.loo.view import may_look, view_for
from games.models import PracticeTable, deal_seed
from games.naming import HUMAN

HTMX = {"HX-Request": "true"}


def new_table(client: Client, **fields: Any) -> PracticeTable:
    """Deal a table through the views, as the chooser's form does."""
    data = {
        "game": "three-card",
        "rules": "hoffmann",
        "players": 4,
        "opponents": "beginner",
        "mode": "learning",
        "seed": 1,
    }
    data.update(fields)
    response = client.post(reverse("games:table-create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    pk = int(response["Location"].strip("/").split("/")[-1])
    return PracticeTable.objects.get(pk=pk)


def stacked_table(
    client: Client,
    *,
    game: str,
    rules: str,
    players: int,
    dealer: int,
    hands: list[list[str]],
    turn_up: str,
    miss: list[str] | None = None,
    laws: bool = False,
    opponents: str = "beginner",
    wait: bool = False,
    prev_no_loo: bool = False,
) -> PracticeTable:
    """A table in ``client``'s session whose first deal is exactly these cards (by seat), with
    the computer players already played up to the human's first turn (``wait``: or, as a new
    deal does, up to the start of the declarations while he could declare before his turn).
    ``prev_no_loo``: the deal follows a hand nobody was looed in (a must under hoffmann).
    Under peel, whose first deal is the single of one card each (A39), the cards are an
    ordinary deal, as after a loo, with a miss of three spare cards if none is given."""
    config = TableConfig(game, RuleSet.preset(rules), players, deal_seed(0), laws=laws)
    single = config.rules.single_deal == "one-card" and game == "three-card"
    if single and miss is None:
        used = {c for h in hands for c in h} | {turn_up}
        miss = [c.code for c in PACK if c.code not in used][-3:]
    table = Table(config)
    table.dealer = dealer
    table.hand_number = 1
    table.hand = Hand.deal(
        HandSetup(
            game=game,
            rules=config.rules,
            players=players,
            dealer=dealer,
            hand_number=1,
            seed=config.seed,
            balances=tuple(table.balances),
            pool=0,
            first=not (single or prev_no_loo),
            prev_no_loo=prev_no_loo,
            laws=laws,
            pack=stack_pack(game, config.rules, players, dealer, hands, turn_up, miss),
        )
    )
    practice = PracticeTable(
        session_key=client.session.session_key or "",
        game=game,
        rules=rules,
        players=players,
        seed=0,
        opponents=opponents,
        laws=laws,
        state={},
    )
    practice.notes = practice.run_bots(table, [], wait=wait)
    practice.state = table.to_dict()
    practice.save()
    return practice


def current_hand(pk: int) -> Hand:
    hand = PracticeTable.objects.get(pk=pk).to_engine().hand
    assert hand is not None
    return hand


def post_data(action: Action, version: int) -> dict[str, Any]:
    """The form fields the table page sends for ``action``."""
    data: dict[str, Any] = {"version": version, "kind": action.kind}
    if action.kind == "play":
        data["card"] = action.cards[0]
        if action.civil:
            data["civil"] = "1"
    else:
        data["choice"] = action.choice
        if action.cards:
            data["discards"] = list(action.cards)
    return data


def waiting(hand: Hand) -> bool:
    """Whether the table waits for the human to let the others declare before him."""
    return not hand.over and hand.to_act != HUMAN


def human_decision(hand: Hand, seed: object) -> Action:
    """A legal decision for the human, chosen at random from what his view offers."""
    assert hand.to_act == HUMAN
    return BeginnerBot(f"test:{seed}:{len(hand.log)}").decide(view_for(hand, HUMAN)).action


def act(client: Client, pk: int, data: dict[str, Any], htmx: bool = False) -> Any:
    headers = HTMX if htmx else {}
    return client.post(reverse("games:table-act", args=[pk]), data, headers=headers)


def hidden_cards(hand: Hand) -> set[Card]:
    """Every card the human may not know now, worked out from the full engine state: all but
    his own hand (once he may look at it, and the cards he threw up in the play), the turn-up,
    the cards shown in play, the cards he gave up himself, any flush shown and what the table
    saw of a deal given up for a fresh one."""
    visible: set[Card] = {hand.turn_up, *hand.seen}
    if hand.irregular is not None:
        # A deal given up for a fresh one (a misdeal): what the table saw of it tells nothing.
        visible |= set(hand.irregular.shown_before)
    visible |= set(hand.thrown.get(HUMAN, ())) | set(hand.exchanged.get(HUMAN, ()))
    if may_look(hand, HUMAN):
        visible |= set(hand.hands[HUMAN])
    if HUMAN in hand.retired and hand.start_of_play:
        # He threw up his cards in the play (Law 15): he had seen them.
        visible |= set(hand.start_of_play[HUMAN])
    if hand.flush is not None:
        for flush in hand.flush.flushes:
            visible |= set(flush.cards)
    for trick in hand.tricks:
        visible |= {c for _, c in trick.plays}
    return set(PACK) - visible


class Player:
    """A person at the practice table, working through the views with a test client. Tests get
    one from the ``player`` fixture (test modules cannot import this conftest)."""

    htmx = HTMX

    def __init__(self, client: Client) -> None:
        self.client = client

    def new_table(self, **fields: Any) -> PracticeTable:
        return new_table(self.client, **fields)

    def act(self, pk: int, data: dict[str, Any], htmx: bool = False) -> Any:
        return act(self.client, pk, data, htmx)

    def decide(self, pk: int, seed: object = 0) -> dict[str, Any]:
        """POST data for a legal decision of the human at table ``pk`` as stored now (or, when
        the table waits for him, letting the others declare)."""
        table = PracticeTable.objects.get(pk=pk)
        hand = table.to_engine().hand
        assert hand is not None
        if waiting(hand):
            return {"version": table.version, "kind": "wait"}
        return post_data(human_decision(hand, seed), table.version)

    def play_out(self, pk: int, seed: object = 0, htmx: bool = False) -> Hand:
        """Play the current hand to its end through the views; the finished hand."""
        for _ in range(100):
            hand = current_hand(pk)
            if hand.over:
                return hand
            response = self.act(pk, self.decide(pk, seed), htmx=htmx)
            assert response.status_code == (200 if htmx else 302)
        raise AssertionError("the hand did not end")

    def stacked_table(self, **fields: Any) -> PracticeTable:
        return stacked_table(self.client, **fields)

    current_hand = staticmethod(current_hand)
    hidden_cards = staticmethod(hidden_cards)
    post_data = staticmethod(post_data)
    human_decision = staticmethod(human_decision)
    waiting = staticmethod(waiting)


@pytest.fixture
def player(client: Client, db: None) -> Player:
    return Player(client)


@pytest.fixture
def practice(client: Client, db: None) -> PracticeTable:
    """A three-card table under hoffmann, four players, dealt in this client's session."""
    return new_table(client)
