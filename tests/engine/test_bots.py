"""Computer players: they play only legal moves, see only their view, and say why."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence

from games.loo import RuleSet
from games.loo.bots import (
    LAPSES,
    BeginnerBot,
    Bot,
    CarelessBot,
    Decision,
    SensibleBot,
    sample_world,
    voids,
)
from games.loo.hand import Action, Hand, HandSetup, IllegalAction, stack_pack
from games.loo.messages import render
from games.loo.rng import rng_for
from games.loo.table import Table, TableConfig
from games.loo.view import view_for


def test_bots_play_whole_sessions_with_legal_moves_only() -> None:
    for game, preset in [
        ("three-card", "hoffmann"),
        ("five-card", "peel"),
        ("irish", "britannica"),
    ]:
        table = Table(TableConfig(game, RuleSet.preset(preset), 5, seed=3))
        bots = [
            SensibleBot(1, playouts=12),
            BeginnerBot(2),
            BeginnerBot(3),
            SensibleBot(4, 12),
            BeginnerBot(5),
        ]
        for _ in range(4):
            hand = table.deal()
            while not hand.over:
                seat = hand.to_act
                assert seat is not None
                decision = bots[seat].decide(view_for(hand, seat))
                assert render(decision.reason, None)
                table.apply(decision.action)  # raises if illegal
        assert table.chips() == 500


def _decisions(table: Table, bots: Sequence[Bot], hands: int) -> Iterator[tuple[Hand, Decision]]:
    """Each decision of ``bots`` over ``hands`` deals at ``table``, with the hand it is made
    in, carried out once the caller has looked at it (it raises if it may not stand)."""
    for _ in range(hands):
        hand = table.deal()
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            decision = bots[seat].decide(view_for(hand, seat))
            yield hand, decision
            table.apply(decision.action)


def _careless_offences(laws: bool, preset: str, hands: int = 30) -> int:
    """Offences recorded in a session of five careless players who slip half the time."""
    table = Table(TableConfig("five-card", RuleSet.preset(preset), 5, seed=9, laws=laws))
    bots = [CarelessBot(f"careless:{seat}", slip=0.5) for seat in range(5)]
    played: dict[int, Hand] = {}
    for hand, decision in _decisions(table, bots, hands):
        played[id(hand)] = hand
        if decision.reason.key == "bot.slip":
            # Only where an irregular play stands, and only with a card the rules forbid.
            view = view_for(hand, decision.action.seat)
            assert view.irregular_stands and view.options and view.options.legal
            (code,) = decision.action.cards
            assert code not in {c.code for c in view.options.legal.legal}
    assert table.chips() == 500
    return sum(len(hand.offences) for hand in played.values())


def test_a_careless_player_slips_only_where_the_laws_let_a_slip_stand() -> None:
    # Laws mode under sources with penalties: slips stand, and are recorded as offences.
    assert _careless_offences(True, "hoffmann") > 0
    assert _careless_offences(True, "peel") > 0
    # Learning mode, or a source that states no penalties: he abides by every rule.
    assert _careless_offences(False, "hoffmann") == 0
    assert _careless_offences(True, "parlett") == 0


def test_the_sensible_bot_decides_from_its_view_alone() -> None:
    """Two deals that look the same from seat 0 (same hand, same turn-up) but differ in every
    hidden card get the same decision."""
    rules = RuleSet.preset("hoffmann")
    mine = ["KH", "QH", "3S"]
    others = [["AS", "2C", "5D"], ["9H", "TS", "JC"], ["4D", "6C", "8S"]]
    shuffled = [["9H", "4D", "8S"], ["AS", "6C", "JC"], ["TS", "2C", "5D"]]
    decisions = []
    for hands in (others, shuffled):
        pack = stack_pack("three-card", rules, 4, 3, [mine, *hands], "7H", ["AD", "KD", "QD"])
        setup = HandSetup("three-card", rules, 4, 3, 2, 0, (100,) * 4, 0, pack=pack)
        hand = Hand.deal(setup)
        view = view_for(hand, 0)
        decisions.append(SensibleBot("same").decide(view))
    assert decisions[0] == decisions[1]


def test_unseen_cards_are_dealt_consistently_with_the_voids_shown() -> None:
    table = Table(TableConfig("five-card", RuleSet.preset("hoffmann"), 4, seed=8))
    bot = BeginnerBot(8)
    hand = table.deal()
    checked = False
    while not hand.over:
        seat = hand.to_act
        assert seat is not None
        view = view_for(hand, seat)
        shown = voids(view)
        if view.phase == "play" and shown:
            world = sample_world(view, rng_for(1, "test"))
            for other, suits in shown.items():
                if other != seat:
                    assert not {c.suit for c in world.hands[other]} & suits - {view.trump}
            assert set(world.hands[seat]) == set(view.hand or ())
            checked = True
        table.apply(bot.decide(view).action)
        if hand.over and not checked:
            hand = table.deal()
    assert checked or hand.over


def test_a_bot_explains_its_choice() -> None:
    table = Table(TableConfig("three-card", RuleSet.preset("peel"), 4, seed=21, start="after-loo"))
    hand = table.deal()
    assert hand.to_act is not None
    decision = SensibleBot(0, playouts=12).decide(view_for(hand, hand.to_act))
    reason = render(decision.reason, None)
    assert reason.startswith(f"Seat {hand.to_act + 1} ")
    assert "sampled deals" in reason or "only" in reason
    # From the bot's own point of view, the same reason is in the second person.
    assert render(decision.reason, hand.to_act).startswith("You ")
    assert dataclasses.is_dataclass(decision)


def test_a_forced_card_is_put_down_to_the_rule_that_forced_it_and_a_last_card_to_none() -> None:
    """Issue 26: a last card was "the only choice, under the rule “the first lead”" (or
    "follow suit if you can", though it did not follow): the play files its sentence ("the 9♠
    is his last card") under those rules, which forced nothing. A last card is the only card
    in hand, said so with no rule; another only card names a rule that excluded the rest."""
    last = ruled = 0
    sessions = [("three-card", "hoffmann"), ("five-card", "peel"), ("irish", "britannica")]
    for game, preset in sessions:
        table = Table(TableConfig(game, RuleSet.preset(preset), 4, seed=f"only:{game}"))
        bots = [SensibleBot(s, playouts=6) if s % 2 else BeginnerBot(s) for s in range(4)]
        for hand, decision in _decisions(table, bots, 6):
            view = view_for(hand, decision.action.seat)
            key, args = decision.reason
            if decision.action.kind == "play" and view.hand is not None and len(view.hand) == 1:
                assert key == "bot.last-card" and "rule" not in args
                assert render(decision.reason, None).endswith("the only card left in his hand")
                last += 1
            elif key == "bot.only-card-rule":
                assert view.options is not None
                assert args["rule"] in [a.rule for a in view.options.explanations if a.excluded]
                ruled += 1
    assert last > 20 and ruled > 0


def test_the_public_phrases_and_penalties_name_catalogue_rules() -> None:
    from games.loo.catalogue import rule_ids
    from games.loo.hand import HAD_TO, OFFENCE_RULE

    assert set(HAD_TO) <= rule_ids()
    assert set(OFFENCE_RULE) | set(OFFENCE_RULE.values()) <= rule_ids()


def _replay_question(game: str, players: int) -> tuple[Hand, int]:
    """A hoffmann hand in laws mode where seat 1 revoked and another player is asked whether to
    demand a replay (Law 16), found by playing seeded hands: seat 1 plays a forbidden card
    whenever it has one, everyone else the first card offered."""
    for seed in range(200):
        table = Table(TableConfig(game, RuleSet.preset("hoffmann"), players, seed, laws=True))
        hand = table.deal()
        while not hand.over and hand.phase != "replay":
            seat = hand.to_act
            assert seat is not None
            if hand.phase == "play" and seat == 0:
                legal = hand.choices()
                wrong = [c for c in hand.hands[0] if c not in legal]
                table.apply(Action.play(0, wrong[0] if wrong else legal[0]))
            else:
                choices = hand.choices()
                table.step("play" if "play" in choices else choices[0])
        if hand.phase == "replay":
            assert hand.to_act is not None and hand.to_act != 0
            return hand, hand.to_act
    raise AssertionError("no seed led to a replay question")


def test_the_sensible_bot_answers_the_replay_question() -> None:
    """After a revoke under hoffmann's Law 16 the others choose to demand a replay or let the
    result stand; a sensible bot plays both out in its sampled deals (replayed from the cards
    it saw played) and chooses."""
    for game, players in (("three-card", 3), ("five-card", 5)):
        hand, seat = _replay_question(game, players)
        view = view_for(hand, seat)
        decision = SensibleBot(f"replay:{game}", playouts=12).decide(view)
        assert decision.action.kind == "replay"
        assert decision.action.choice in ("demand", "decline")
        assert decision.action.seat == seat
        hand.apply(decision.action)  # the engine takes it
        assert hand.over or hand.phase in ("play", "replay")


def test_in_a_replay_the_cards_everyone_watched_are_known() -> None:
    """hoffmann Law 16: when a replay is demanded, the hand is played again with the same
    cards, which every player saw played. A sensible bot's sampled deals give each player the
    cards he was seen to play and has not yet played again (before, it drew them from the
    unseen cards, ran short, and a sampled player had nothing to play)."""
    for game, players in (("three-card", 3), ("five-card", 5)):
        hand, seat = _replay_question(game, players)
        hand.apply(Action("replay", seat, "demand"))
        assert hand.replaying and hand.phase == "play"
        steps = 0
        while not hand.over:
            to_act = hand.to_act
            assert to_act is not None
            view = view_for(hand, to_act)
            for s in hand.in_play:
                assert set(view.shown_held[s]) == set(hand.hands[s])
            world = sample_world(view, rng_for(steps, "replay"))
            for s in hand.in_play:
                assert sorted(world.hands[s], key=str) == sorted(hand.hands[s], key=str)
            hand.apply(SensibleBot(f"r{steps}", playouts=6).decide(view).action)
            steps += 1
        assert steps > 0


def test_bots_keep_playing_whatever_irregularities_a_human_commits() -> None:
    """Laws mode under the two sources with penalties: seat 1 (the human's seat on the site)
    now and then plays any card it holds, or plays out of turn; the computer players (sensible
    and careless) meet revokes, Law 15's retirement, Law 16's question and the replay, and
    every hand still ends with the chips conserved."""
    for preset in ("hoffmann", "peel"):
        for game in RuleSet.preset(preset).games:
            for players in (3, 5):
                rng = random.Random(f"irregular:{preset}:{game}:{players}")
                table = Table(TableConfig(game, RuleSet.preset(preset), players, "irr", laws=True))
                bots: list[Bot] = [
                    SensibleBot(f"s{s}", playouts=6) if s % 2 else CarelessBot(f"c{s}")
                    for s in range(players)
                ]
                for _ in range(5):
                    hand = table.deal()
                    for _ in range(300):
                        if hand.over:
                            break
                        if hand.phase == "play" and hand.hands[0] and rng.random() < 0.3:
                            try:  # any card, in turn or out of turn
                                table.apply(Action.play(0, rng.choice(hand.hands[0])))
                                continue
                            except IllegalAction:
                                pass
                        seat = hand.to_act
                        assert seat is not None
                        if seat == 0:
                            table.step(rng.choice(hand.choices()))
                        else:
                            table.apply(bots[seat].decide(view_for(hand, seat)).action)
                    assert hand.over
                assert table.chips() == players * table.config.chips


def _lapses(preset: str, game: str, players: int, hands: int) -> list[tuple[int, Action]]:
    """A session of careless players who are asked, before every decision, whether they lapse
    (always tempted: ``lapse=1``), as the practice table asks them; the lapses committed."""
    table = Table(TableConfig(game, RuleSet.preset(preset), players, "lapse", laws=True))
    committed: list[tuple[int, Action]] = []
    for number in range(hands):
        hand = table.deal()
        for point in range(400):
            if hand.over:
                break
            for seat in range(players):
                view = view_for(hand, seat)
                lapse = CarelessBot(f"{number}:{point}:{seat}", lapse=1.0).lapse(view)
                if lapse is None:
                    continue
                action = lapse.action
                # Only what the engine says would stand, and only his own cards.
                assert action.choice.partition(":")[0] in view.irregularities
                assert set(action.cards) <= {c.code for c in view.hand or ()}
                assert render(lapse.reason, None).startswith("a careless slip")
                table.apply(action)
                committed.append((seat, action))
                # He learns a hidden card only by looking where he should not (the miss,
                # another's hand): then his view shows what he saw.
                peeked = set(view_for(hand, seat).peeked)
                what, _, other = action.choice.partition(":")
                if what == "look-hand":
                    assert peeked - view.visible_cards() == set(hand.hands[int(other)])
                elif what == "look-miss":
                    assert peeked - view.visible_cards() == set(hand.miss or ())
                else:
                    assert peeked <= set(view.peeked)
                break
            else:
                seat = hand.to_act
                assert seat is not None
                table.apply(CarelessBot(f"{number}:{point}").decide(view_for(hand, seat)).action)
        assert hand.over
        # Once a hand at most, each.
        lapsed = [e.seat for e in hand.events if e.kind == "irregular"]
        assert len(lapsed) == len(set(lapsed))
    assert table.chips() == players * table.config.chips
    return committed


def test_a_careless_player_lapses_only_where_the_laws_punish_it() -> None:
    kinds: set[str] = set()
    for preset in ("hoffmann", "peel"):
        for game in ("three-card", "five-card"):
            kinds |= {a.choice.partition(":")[0] for _, a in _lapses(preset, game, 5, 6)}
    assert set(LAPSES) - kinds <= {"faced-card", "misdeal"}, kinds
    # Under the sources that state no penalty, and outside laws mode, never.
    table = Table(TableConfig("three-card", RuleSet.preset("britannica"), 4, "x", laws=True))
    hand = table.deal()
    assert all(CarelessBot(s, lapse=1.0).lapse(view_for(hand, s)) is None for s in range(4))
    table = Table(TableConfig("three-card", RuleSet.preset("hoffmann"), 4, "x"))
    hand = table.deal()
    assert all(CarelessBot(s, lapse=1.0).lapse(view_for(hand, s)) is None for s in range(4))


def test_a_careless_dealer_may_misdeal_as_he_deals() -> None:
    for seed in range(200):
        table = Table(TableConfig("three-card", RuleSet.preset("hoffmann"), 4, "md", laws=True))
        hand = table.deal()
        view = view_for(hand, hand.dealer)
        lapse = CarelessBot(seed, lapse=1.0).lapse(view)
        if lapse is not None and lapse.action.choice == "misdeal":
            assert lapse.reason.key == "bot.lapse-misdeal"
            table.apply(lapse.action)
            assert hand.irregular is not None and hand.irregular.redeals == 1
            assert not any(hand.declared)  # the declarations start again
            # Not twice in one hand.
            assert CarelessBot(seed, lapse=1.0).lapse(view_for(hand, hand.dealer)) is None
            return
    raise AssertionError("no seed gave a misdeal")
