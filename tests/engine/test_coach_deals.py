"""The coach deals the hidden cards knowing what the others have done (issue 38): an earlier
declaration or a shown void changes the sampled deals, and no deal it keeps contradicts what
is public (``coach.sample_deals``, ``table_model.likelihood``)."""

from __future__ import annotations

import math
import random

from games.loo import RuleSet
from games.loo.bots import SensibleBot, voids
from games.loo.cards import PACK, Card
from games.loo.coach import all_deals, sample_deals
from games.loo.hand import Hand, HandSetup
from games.loo.hand.deal import stack_pack
from games.loo.play import Trumps
from games.loo.table import Table, TableConfig
from games.loo.table_model import drew, model_action
from games.loo.view import PlayerView, view_for
from games.loo.worlds import World, _played_by, sample_world, strength


def _view(game: str, players: int, seed: str, wanted: object) -> PlayerView:
    """The first view of a player to decide, in hands of sensible players, that ``wanted``
    accepts."""
    for n in range(300):
        table = Table(TableConfig(game, RuleSet.preset("hoffmann"), players, seed=f"{seed}:{n}"))
        hand = table.deal()
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            view = view_for(hand, seat)
            if view.options is not None and view.hand is not None and wanted(view):  # type: ignore[operator]
                return view
            table.apply(SensibleBot(f"{seed}:{n}:{len(hand.log)}", playouts=16).decide(view).action)
    raise AssertionError("no such view")


def _mean(values: list[tuple[float, float]]) -> float:
    return sum(v * w for v, w in values) / sum(w for _, w in values)


def _declared_before(view: PlayerView, what: str) -> int | None:
    return next(
        (s for s in range(view.players) if s != view.seat and view.declared[s] == what), None
    )


def test_an_earlier_declaration_changes_the_deals() -> None:
    """A player who declared to play holds, in the weighed deals, a stronger hand than in
    deals that ignore it (the beginners' model, to whom a declaration says nothing); one who
    passed threw up a weaker one."""
    view = _view(
        "three-card",
        5,
        "deals:declared",
        lambda v: (
            v.phase == "declare"
            and _declared_before(v, "play") is not None
            and _declared_before(v, "pass") is not None
        ),
    )
    trumps = Trumps.of(view.game, view.rules, view.trump)
    player = _declared_before(view, "play")
    passer = _declared_before(view, "pass")
    assert player is not None and passer is not None
    weighed = sample_deals(view, samples=400, seed="d", level="sensible")
    plain = sample_deals(view, samples=400, seed="d", level="beginner")
    assert [w for w, _ in weighed] == [w for w, _ in plain]  # the same deals, weighed apart
    assert all(x == 1.0 for _, x in plain)
    assert len({x for _, x in weighed}) > 1

    def held(deals: list[tuple[World, float]], seat: int, thrown: bool) -> float:
        return _mean(
            [(strength(trumps, w.thrown[seat] if thrown else w.hands[seat]), x) for w, x in deals]
        )

    assert held(weighed, player, False) > held(plain, player, False) + 0.1
    assert held(weighed, passer, True) < held(plain, passer, True) - 0.05


def test_a_shown_void_is_respected_in_every_deal_kept() -> None:
    view = _view(
        "three-card",
        4,
        "deals:void",
        lambda v: v.phase == "play" and any(s != v.seat for s in voids(v)),
    )
    trumps = Trumps.of(view.game, view.rules, view.trump)
    shown = voids(view)
    deals = sample_deals(view, samples=200, seed="v", level="sensible")
    visible = view.visible_cards()
    played = _played_by(view)
    for world, weight in deals:
        if weight == 0:
            continue
        for seat, suits in shown.items():
            if seat != view.seat:
                assert not any(trumps.suit_of(c) in suits for c in world.hands[seat])
        for seat in range(view.players):
            if seat != view.seat:
                assert len(world.hands[seat]) == view.hand_sizes[seat]
                assert not (set(world.hands[seat]) & visible - set(played[seat]))


def test_every_deal_counted_at_the_end_is_one_the_public_play_allows() -> None:
    """At the last trick of a small table, every deal of the hidden cards is counted, none
    that contradicts a card the others played (their legal moves in it)."""
    view = _view(
        "three-card",
        3,
        "deals:exact",
        lambda v: (
            v.phase == "play"
            and sum(v.hand_sizes[s] for s in v.in_play) <= 3
            and len(v.in_play) == 2
        ),
    )
    deals = all_deals(view, "sensible")
    assert deals is not None and deals
    other = next(s for s in view.in_play if s != view.seat)
    assert len({tuple(w.hands[other]) for w, _ in deals}) == len(deals)
    assert all(x > 0 for _, x in deals)


def _drawer(view: PlayerView) -> int | None:
    """Another five-card player who drew one or two cards (he kept most of his hand)."""
    return next(
        (
            s
            for s in range(view.players)
            if s != view.seat and view.declared[s] == "play" and view.drawn[s] in (1, 2)
        ),
        None,
    )


def _five_card_after_a_draw() -> tuple[PlayerView, int, Trumps]:
    view = _view(
        "five-card",
        4,
        "deals:drew",
        lambda v: v.phase == "exchange" and _drawer(v) is not None,
    )
    drawer = _drawer(view)
    assert drawer is not None
    return view, drawer, Trumps.of(view.game, view.rules, view.trump)


def test_a_five_card_player_who_drew_is_dealt_his_keepers_first_and_weighed_back() -> None:
    """The coach deals a player who drew as many trumps and high cards as he kept, first
    (``sample_world(keepers=True)``), and weighs each deal by how much likelier a deal at
    random is to be it (``World.bias``): so weighed, the deals are those at random that give
    him as many such cards as he kept (the mean number he holds is the same), unweighed they
    are not. (A deal giving him fewer is left out: the model of the table gives it a few
    thousandths of the weight of one that explains his draw.)"""
    view, drawer, trumps = _five_card_after_a_draw()

    def high(world: World) -> float:
        return sum(1 for c in world.hands[drawer] if trumps.is_trump(c) or c.value >= 12)

    rng = random.Random("keepers")
    first = [sample_world(view, rng, keepers=True) for _ in range(3000)]
    at_random = [sample_world(view, rng) for _ in range(3000)]
    assert {w.bias for w in at_random} == {1.0}
    assert len({w.bias for w in first}) > 1
    kept = view.hand_sizes[drawer] - view.drawn[drawer]
    plain = sum(high(w) for w in at_random) / len(at_random)
    enough = [high(w) for w in at_random if high(w) >= kept]
    explained = sum(enough) / len(enough)
    weighed = _mean([(high(w), w.bias) for w in first])
    unweighed = sum(high(w) for w in first) / len(first)
    assert unweighed > explained + 0.2 and explained > plain + 0.5
    assert abs(weighed - explained) < 0.1, (weighed, explained)


def test_a_five_card_player_who_drew_holds_a_stronger_hand_in_the_weighed_deals() -> None:
    """He kept the rest: in the deals weighed by the model of sensible players he holds more
    trumps than in deals at random (a beginner's draw says nothing), and a hand whose kept
    cards are high trumps explains his draw better than one whose kept cards are plain
    queens (``table_model.drew``)."""
    view, drawer, trumps = _five_card_after_a_draw()

    def held(deals: list[tuple[World, float]]) -> float:
        return _mean([(sum(trumps.is_trump(c) for c in w.hands[drawer]), x) for w, x in deals])

    weighed = sample_deals(view, samples=400, seed="d", level="sensible")
    plain = sample_deals(view, samples=400, seed="d", level="beginner")
    assert held(weighed) > held(plain) + 0.5
    suit = view.trump
    low = [c for c in PACK if c.suit != suit and c.value < 8 and not trumps.is_trump(c)]
    trumps_kept = [c for c in PACK if c.suit == suit and c.value >= 12][:3]
    queens = [c for c in PACK if c.suit != suit and c.value == 12][:3]
    strong = drew(view.game, trumps, trumps_kept + low[:2], 2, 0, view.players)
    weak = drew(view.game, trumps, queens + low[:2], 2, 0, view.players)
    assert strong > 2 * weak


def _as_the_model_has_them(view: PlayerView, wanted: int) -> list[Hand]:
    """Deals of the cards ``view`` cannot see at random, the earlier players declaring and
    drawing as the model of sensible players has them, kept when they do as the view shows
    (rejection sampling: the distribution the coach's weighed deals stand for)."""
    assert view.hand is not None
    mine = [c.code for c in view.hand]
    rest = [c.code for c in PACK if c.code not in mine and c != view.turn_up]
    setup = HandSetup(
        view.game, view.rules, view.players, view.dealer, 1, 0, view.balances, view.pool_at_start
    )
    rng = random.Random("as the model has them")
    kept: list[Hand] = []
    for _ in range(60 * wanted):
        rng.shuffle(rest)
        cut = iter(rest)
        hands = [
            mine if s == view.seat else [next(cut) for _ in range(5)] for s in range(view.players)
        ]
        stock = list(cut)
        pack = stack_pack(
            view.game,
            view.rules,
            view.players,
            view.dealer,
            hands,
            view.turn_up.code,
            stock=stock,
        )
        hand = Hand.deal(setup._replace(pack=pack, trace=False))
        while not hand.over and hand.to_act not in (None, view.seat):
            seat = hand.to_act
            assert seat is not None
            hand.apply(model_action(hand, rng, "sensible"))
            if (hand.declared[seat], hand.drawn[seat]) != (view.declared[seat], view.drawn[seat]):
                break
        else:
            if not hand.over and hand.to_act == view.seat:
                kept.append(hand)
                if len(kept) == wanted:
                    return kept
    raise AssertionError(f"only {len(kept)} deals do as the view shows")


def test_the_weighed_five_card_deals_are_those_the_model_of_the_table_makes() -> None:
    """After the first player drew, the coach's weighed deals (his keepers dealt first, the discards
    dealt apart from the stock, each deal weighed back) give him the trumps, and the stock
    the low plain cards, that deals made by the model itself and kept when they match the view
    give them, within 4
    standard errors of the difference. Without the weights the drawer's trumps fall short."""
    view = _view(
        "five-card",
        4,
        "deals:first-drew",
        lambda v: v.phase == "exchange" and _drawer(v) is not None and v.declared.count(None) == 3,
    )
    drawer = _drawer(view)
    assert drawer is not None
    trumps = Trumps.of(view.game, view.rules, view.trump)

    def count(cards: list[Card]) -> float:
        return float(sum(1 for c in cards if trumps.is_trump(c)))

    def low(cards: list[Card]) -> float:
        return float(sum(1 for c in cards if not trumps.is_trump(c) and c.value < 12))

    made = _as_the_model_has_them(view, 300)
    deals = sample_deals(view, samples=1200, seed="as the model", level="sensible")
    for name, measure, of_world, of_hand in (
        ("the drawer's trumps", count, lambda w: w.hands[drawer], lambda h: h.hands[drawer]),
        ("the stock's low plain cards", low, lambda w: w.stock, lambda h: h.stock),
    ):
        coach = [(measure(of_world(w)), x) for w, x in deals]
        model = [measure(of_hand(h)) for h in made]
        m_coach, m_model = _mean(coach), sum(model) / len(model)
        spread = _weighted_se(coach) ** 2 + _se(model) ** 2
        assert abs(m_coach - m_model) < 4 * math.sqrt(spread), (name, m_coach, m_model)
    unweighed = sum(count(w.hands[drawer]) for w, _ in deals) / len(deals)
    model_drawer = sum(count(h.hands[drawer]) for h in made) / len(made)
    assert unweighed < model_drawer - 0.2, (unweighed, model_drawer)


def _se(values: list[float]) -> float:
    n = len(values)
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _weighted_se(values: list[tuple[float, float]]) -> float:
    mean = _mean(values)
    total = sum(w for _, w in values)
    return math.sqrt(sum((w * (v - mean)) ** 2 for v, w in values)) / total
