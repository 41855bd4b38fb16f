"""The analysis board (issue 38, games/practice/analysis*.py): a finished hand's decision or a
position set up from nothing, weighed by the coach; its sampled deals (paginated, filtered),
each option's line of play in a chosen deal, and what-if. No board of a hand in play; another
browser gets none; laws mode and an honest table none (403); limited when it computes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse
from django.utils.html import escape

from games.loo import analysis as engine
from games.loo.cards import PACK
from games.loo.coach import SAMPLES
from games.loo.hand import Hand, HandSetup, IllegalAction
from games.loo.review import option_line, view_seed
from games.loo.rulesets import RuleSet
from games.loo.view import view_for
from games.models import PracticeHand, PracticeTable
from games.naming import HUMAN, say
from games.practice import analysis, coaching

pytestmark = pytest.mark.django_db


def _finished(player: Any, **fields: Any) -> tuple[PracticeTable, PracticeHand]:
    practice = player.new_table(players=fields.pop("players", 5), **fields)
    player.play_out(practice.pk)
    practice.refresh_from_db()
    number = player.current_hand(practice.pk).setup.hand_number
    return practice, PracticeHand.objects.get(table=practice, number=number)


def _with_decisions(
    player: Any, least: int = 2, **fields: Any
) -> tuple[PracticeTable, PracticeHand, list[int]]:
    for seed in range(1, 40):
        practice, record = _finished(player, seed=seed, **fields)
        steps = analysis.decision_steps(record)
        if len(steps) >= least:
            return practice, record, steps
    raise AssertionError(f"no hand with {least} decisions of the human's")


def _options(html: str) -> list[str]:
    return re.findall(r'<li class="board__option[^"]*">(.*?)(?: <strong|</li>)', html)


def test_a_finished_hand_s_decision_has_the_coach_s_figures_deals_and_lines(player: Any) -> None:
    practice, record, steps = _with_decisions(player, game="five-card")
    url = reverse("games:hand-board", args=[practice.pk, record.number, steps[0]])
    # Linked from the replay's step before the decision, and from the review.
    replay = player.client.get(
        reverse("games:hand-replay", args=[practice.pk, record.number]), {"step": steps[0]}
    ).content.decode()
    assert f'href="{url}"' in replay
    review = player.client.get(reverse("games:hand-review", args=[practice.pk, record.number]))
    assert f'href="{url}"' in review.content.decode()
    response = player.client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    rows = _options(html)
    assert len(rows) >= 2 and all(":" in r for r in rows), rows
    assert "best</strong>" in html
    # The deals: a page of ten of the coach's 120, each linked to its lines of play.
    assert f"{SAMPLES} of {SAMPLES} deals." in html
    assert html.count('class="board__deal') - html.count("board__deal-") == analysis.PER_PAGE
    assert "Next deals" in html and "Previous deals" not in html
    # Every card at the decision, the hand being over.
    assert "Every card at this moment" in html
    lines = player.client.get(url, {"deal": 3}).content.decode()
    assert "Lines of play in deal 3" in lines
    assert lines.count('class="board__line"') == len(rows)
    assert re.search(r"You (win|lose) \d+ counters?\.|You win and lose nothing\.", lines)
    # The page of deals after the first.
    second = player.client.get(url, {"page": 2}).content.decode()
    assert "Page 2 of" in second and "Previous deals" in second


def test_the_lines_of_play_are_playouts_of_the_figures_deals() -> None:
    """Each option's line in each of the coach's deals is that option played to the end of
    the hand in that deal; over the deals, weighted as the coach weighs them, the lines come
    to the option's figure within its margin (the figure weighs the last cards' every line,
    a line shows one)."""
    for game, seed in (("three-card", 7), ("five-card", 3)):
        hand = Hand.deal(HandSetup(game, RuleSet.preset("hoffmann"), 4, 3, 1, seed, (0,) * 4, 0))
        while hand.to_act != 0:
            hand.apply(engine.coach_choices(view_for(hand, hand.to_act))[-1])
        view = view_for(hand, 0)
        seed_text = view_seed(view)
        advice = engine.advice(view, samples=24, seed=seed_text, level="sensible")
        deals = engine.deals_for(view, 24, seed_text, "sensible")
        assert len(deals) == advice.samples
        for estimate in advice.options:
            lines = [
                engine.line_of_play(view, world, estimate.action, seed=seed_text, index=i)
                for i, (world, _) in enumerate(deals)
            ]
            assert all(line.outcome for line in lines)
            weights = [w for _, w in deals]
            mean = sum(line.gain * w for line, w in zip(lines, weights, strict=True)) / sum(weights)
            assert abs(mean - estimate.expected_counters) <= max(2 * estimate.margin95, 0.5)


def test_the_deals_filter_by_where_a_card_lies(player: Any) -> None:
    practice, record, steps = _with_decisions(player, least=1, game="three-card", rules="hoffmann")
    url = reverse("games:hand-board", args=[practice.pk, record.number, steps[0]])
    position = analysis.finished_position(record, steps[0], {})
    deals = engine.deals_for(position.view, SAMPLES, _seed(position))
    unseen = [c for c in sorted(_unseen(position), key=lambda c: c.code)]
    seat = next(s for s in range(1, practice.players) if deals[0][0].hands[s])
    card = unseen[0]
    expected = sum(1 for world, _ in deals if card in world.hands[seat])
    html = player.client.get(url, {"where": seat, "card": card.code}).content.decode()
    assert f"{expected} of {SAMPLES} deals match." in html
    if any(world.miss for world, _ in deals):
        in_miss = sum(1 for world, _ in deals if world.miss and card in world.miss)
        html = player.client.get(url, {"where": "miss", "card": card.code}).content.decode()
        assert f"{in_miss} of {SAMPLES} deals" in html


def _seed(position: analysis.Position) -> str:
    return view_seed(position.view)


def _unseen(position: analysis.Position) -> set[Any]:
    return set(PACK) - position.view.visible_cards()


def test_what_if_a_card_is_changed_the_figures_move_and_a_bad_change_is_refused(
    player: Any,
) -> None:
    practice, record, steps = _with_decisions(player, least=1, game="three-card")
    url = reverse("games:hand-board", args=[practice.pk, record.number, steps[0]])
    position = analysis.finished_position(record, steps[0], {})
    mine = position.view.hand
    assert mine
    before = _options(player.client.get(url).content.decode())
    into = sorted(_unseen(position), key=lambda c: (-c.value, c.code))[0]
    changed = player.client.get(url, {"swap_out": mine[0].code, "swap_in": into.code})
    assert changed.status_code == 200
    html = changed.content.decode()
    assert "board-refusal" not in html
    assert f"{into.label}" in html
    assert _options(html) != before or mine[0].value == into.value
    # A card he can see cannot come into his hand: refused in words, the decision as it was.
    bad = player.client.get(url, {"swap_out": mine[0].code, "swap_in": position.view.turn_up.code})
    text = bad.content.decode()
    assert bad.status_code == 200 and "That cannot be:" in text and "one you can see" in text
    assert _options(text) == before


def test_no_board_of_a_hand_in_play_nor_of_a_step_that_is_no_decision(player: Any) -> None:
    practice = player.new_table(players=5, seed=2)
    hand = player.current_hand(practice.pk)
    assert not hand.over
    number = hand.setup.hand_number
    for step in range(0, 3):
        url = reverse("games:hand-board", args=[practice.pk, number, step])
        assert player.client.get(url).status_code == 404
    # The hand over: a step of the computer players' is no decision of his.
    practice, record, steps = _with_decisions(player, least=1)
    others = [i for i, a in enumerate(record.log) if a["seat"] != 0]
    url = reverse("games:hand-board", args=[practice.pk, record.number, others[0]])
    assert player.client.get(url).status_code == 404
    url = reverse("games:hand-board", args=[practice.pk, record.number, record.steps + 5])
    assert player.client.get(url).status_code == 404


def test_another_browser_gets_no_board_and_laws_mode_none(player: Any) -> None:
    practice, record, steps = _with_decisions(player, least=1)
    url = reverse("games:hand-board", args=[practice.pk, record.number, steps[0]])
    assert Client().get(url).status_code == 404
    laws, record = _finished(player, seed=2, mode="laws")
    found = [
        i for i, a in enumerate(record.log) if a["seat"] == 0 and a["kind"] in ("declare", "play")
    ]
    url = reverse("games:hand-board", args=[laws.pk, record.number, found[0]])
    response = player.client.get(url)
    assert response.status_code == 403
    assert coaching.NOT_HERE in response.content.decode()


def test_a_set_up_position_is_checked_and_weighed(client: Client) -> None:
    url = reverse("games:board")
    page = client.get(url)
    assert page.status_code == 200 and "Set up a position" in page.content.decode()
    fields = {
        "game": "three-card",
        "rules": "hoffmann",
        "players": 5,
        "hand": "AH KH 7C",
        "turn_up": "9H",
        "declarations": "pass play",
    }
    html = client.get(url, fields).content.decode()
    assert "That position cannot happen" not in html, html
    rows = _options(html)
    assert {r.split(":")[0] for r in rows} >= {"Play", "Pass"}, rows
    # What the player set, never the engine's filler cards for the others.
    assert "Every card at this moment" not in html
    # The same card twice: refused in plain words.
    html = client.get(url, {**fields, "hand": "AH AH 7C"}).content.decode()
    assert "That position cannot happen: the ace of hearts is twice in your hand." in html
    html = client.get(url, {**fields, "turn_up": "AH"}).content.decode()
    assert "That position cannot happen: the ace of hearts is in your hand and the turn-up." in html


@override_settings(
    RATE_LIMITS={**settings.RATE_LIMITS, "coach-per-session": (1, 600)},
)
def test_a_board_is_limited_when_it_computes_and_cached_by_its_inputs(client: Client) -> None:
    url = reverse("games:board")
    fields = {
        "game": "three-card",
        "rules": "hoffmann",
        "players": 4,
        "hand": "QS 8D 3C",
        "turn_up": "2S",
    }
    assert client.get(url, fields).status_code == 200
    # The same inputs again: from the cache, not counted; a page of deals or a line costs nothing.
    assert client.get(url, {**fields, "page": 2}).status_code == 200
    assert client.get(url, {**fields, "deal": 5}).status_code == 200
    # Other inputs compute: over the limit.
    assert client.get(url, {**fields, "hand": "QS 8D 4C"}).status_code == 429


def test_what_if_another_player_had_declared_otherwise(player: Any) -> None:
    """A declaration before his changed: the position is checked again (a declaration the rules
    forbid there is refused in words), and the figures are those of the new position."""
    for seed in range(1, 40):
        practice, record = _finished(player, seed=seed, game="three-card", rules="hoffmann")
        steps = analysis.decision_steps(record)
        position = analysis.finished_position(record, steps[0], {}) if steps else None
        if position and position.view.phase == "declare":
            before = [s for s in range(1, practice.players) if position.view.declared[s]]
            if before:
                break
    else:
        raise AssertionError("no hand where a player declared before the human")
    url = reverse("games:hand-board", args=[practice.pk, record.number, steps[0]])
    other = before[0]
    was = position.view.declared[other]
    choice = "pass" if was != "pass" else "play"
    html = player.client.get(url, {"other": other, "choice": choice}).content.decode()
    assert "board-refusal" not in html, html
    changed = analysis.finished_position(record, steps[0], {"other": other, "choice": choice})
    assert changed.view.declared[other] == choice
    assert f"Pool: {changed.view.pool}" in html
    # A second miss is refused by the rules, in words.
    taken = [s for s in before if position.view.declared[s] == "miss"]
    if taken and len(before) > 1:
        again = next(s for s in before if s != taken[0])
        html = player.client.get(url, {"other": again, "choice": "take-miss"}).content.decode()
        assert "That cannot be:" in html


def test_a_swapped_card_must_fit_the_voids_shown() -> None:
    """A card of a suit he showed he lacked cannot come into his hand (the engine's voids)."""
    for seed in range(1, 200):
        hand = Hand.deal(
            HandSetup("three-card", RuleSet.preset("hoffmann"), 4, 3, 1, seed, (0,) * 4, 0)
        )
        while not hand.over:
            view = view_for(hand, 0)
            found = engine.voids(view).get(0) if hand.to_act == 0 else None
            if found and view.hand:
                unseen = [c for c in PACK if c not in view.visible_cards()]
                trumps = engine.Trumps.of(view.game, view.rules, view.trump)
                lacked = next(c for c in unseen if trumps.suit_of(c) in found)
                with pytest.raises(engine.BoardError, match="a suit you showed you lacked"):
                    engine.swap_card(hand, 0, view.hand[0], lacked)
                return
            hand.apply(engine.coach_choices(view_for(hand, hand.to_act or 0))[0])
    raise AssertionError("no hand where the human showed a void before a decision")


def _rule_set_choices(html: str) -> list[str]:
    found = re.search(r'<select id="whatif-rules" name="rules"[^>]*>(.*?)</select>', html, re.S)
    assert found, "no rule set in the what-if"
    return re.findall(r'<option value="([^"]*)"', found.group(1))


def test_what_if_another_rule_set_the_same_cards_and_play_weighed_under_it(player: Any) -> None:
    """The rule set of a finished hand's decision changed in the what-if: the same cards and
    the same actions before it, checked by the engine under the other rule set, and the
    coach's figures for the decision under it (what it would give for that view)."""
    practice, record, steps = _with_decisions(player, least=1, game="three-card", rules="hoffmann")
    url = reverse("games:hand-board", args=[practice.pk, record.number, steps[0]])
    html = player.client.get(url).content.decode()
    position = analysis.finished_position(record, steps[0], {})
    choices = analysis.other_rule_sets(position)
    offered = _rule_set_choices(html)
    assert offered[0] == "" and offered[1:] == [pid for pid, _ in choices.held]
    assert choices.held, choices.refused
    for sentence in choices.refused:
        assert sentence in html
    pid, title = choices.held[0]
    response = player.client.get(url, {"rules": pid})
    assert response.status_code == 200
    changed = response.content.decode()
    assert "board-refusal" not in changed, changed
    assert (
        f"Weighed under {title}</strong>" in changed and "played under Hoffmann (1909)" in changed
    )
    assert f'<option value="{pid}" selected>' in changed
    under = analysis.finished_position(record, steps[0], {"rules": pid})
    assert under.view.rules.name == pid and under.played_under == "Hoffmann (1909)"
    assert under.view.hand == position.view.hand and under.view.turn_up == position.view.turn_up
    assert under.view.declared == position.view.declared
    assert [(a.kind, a.seat, a.choice) for a in under.hand.log] == [
        (a.kind, a.seat, a.choice) for a in position.hand.log
    ]
    view = under.view
    advice = engine.advice(view, samples=SAMPLES, seed=view_seed(view), level=practice.opponents)
    exchange = view.phase == "exchange"
    expected = [
        escape(say(option_line(e, HUMAN, exchange=exchange), view.players)) for e in advice.options
    ]
    assert _options(changed) == expected
    # The deals' filter and pages keep the rule set.
    assert f"rules={pid}" in changed.split('id="deals"')[1]


def test_a_rule_set_that_cannot_hold_the_position_is_said_so_in_words(player: Any) -> None:
    """Five-card Loo at eight players: Peel seats three to six, so Peel is not offered; its
    reason is on the page, and asking for it anyway is refused, the decision as it was."""
    practice, record, steps = _with_decisions(
        player, least=1, game="five-card", rules="hoffmann", players=8
    )
    url = reverse("games:hand-board", args=[practice.pk, record.number, steps[0]])
    html = player.client.get(url).content.decode()
    assert "peel" not in _rule_set_choices(html)
    assert "Not under " in html
    assert "Peel (1891): seats 3 to 6 players at five-card Loo, not 8." in html
    before = _options(html)
    refused = player.client.get(url, {"rules": "peel"}).content.decode()
    assert "That cannot be: Peel (1891) seats 3 to 6 players at five-card Loo, not 8." in refused
    assert _options(refused) == before


def test_under_rules_says_why_a_rule_set_cannot_hold_a_decision() -> None:
    """Each reason the engine gives comes from a real difference of the rule sets: a deal that
    would be peel's single, a must dealt without a miss, and the player's own play that the
    other rule set forbids (a card of his that he could not have played)."""
    found: dict[str, str] = {}
    wanted = {
        "a single": "this deal would be a single",
        "no miss": "a must with no miss",
        "own play": "the hand cannot go as it did: You",
    }
    for game, base, seed in [
        (g, b, s)
        for g in ("three-card", "five-card")
        for b in ("britannica", "whiteknuckle", "hoffmann")
        for s in range(1, 30)
    ]:
        setup = HandSetup(
            game,
            RuleSet.preset(base),
            5,
            seed % 5,
            1,
            seed,
            (0,) * 5,
            0,
            first=seed % 2 == 0,
            prev_no_loo=seed % 4 == 1,
        )
        hand = Hand.deal(setup)
        while not hand.over:
            choices = engine.coach_choices(view_for(hand, hand.to_act or 0))
            hand.apply(choices[seed % len(choices)])
        for step in engine.decisions(setup, hand.log, 0):
            for pid in ("peel", "hoffmann", "parlett"):
                if pid == base:
                    continue
                try:
                    engine.under_rules(setup, hand.log, step, 0, RuleSet.preset(pid))
                except engine.BoardError as error:
                    for what, text in wanted.items():
                        if text in str(error):
                            found.setdefault(what, str(error))
        if len(found) == len(wanted):
            break
    assert set(found) == set(wanted), found
    # Peel's single is a deal after no loo or the first: the must is Hoffmann's after no loo.
    assert found["a single"].startswith("under Peel (1891)")
    assert found["no miss"].startswith("under Hoffmann (1909)")


def test_a_set_up_position_s_rule_set_in_the_what_if(client: Client) -> None:
    url = reverse("games:board")
    fields = {
        "game": "five-card",
        "rules": "hoffmann",
        "players": 8,
        "hand": "AH KH 7C 5D 2S",
        "turn_up": "9H",
    }
    html = client.get(url, fields).content.decode()
    offered = _rule_set_choices(html)
    assert offered[0] == "hoffmann" and "peel" not in offered and "britannica" in offered
    # Issue 37's check says why, as the set-up form would.
    assert "Peel (1891): a table of eight players, but the peel rules seat three to six" in html
    # The set-up's own rule set is not carried twice: the what-if's select is the one.
    whatif = html.split('id="whatif-title"')[1].split("</form>")[0]
    assert 'type="hidden" name="rules"' not in whatif
    changed = client.get(url, {**fields, "rules": "britannica"}).content.decode()
    assert "under Britannica (1911)" in changed and "That position cannot happen" not in changed


def test_under_another_rule_set_the_others_cards_are_taken_as_they_were_laid() -> None:
    """A card another player laid that the other rule set would forbid him, holding what he
    held (a rule about cards the human could not see), is taken as laid: the decision is
    weighed under that rule set with the tricks he saw, never refused for it."""
    for seed in range(1, 80):
        setup = HandSetup(
            "five-card", RuleSet.preset("whiteknuckle"), 5, seed % 5, 1, seed, (0,) * 5, 0
        )
        hand = Hand.deal(setup)
        while not hand.over:
            choices = engine.coach_choices(view_for(hand, hand.to_act or 0))
            hand.apply(choices[seed % len(choices)])
        other = RuleSet.preset("hoffmann")
        for step in engine.decisions(setup, hand.log, 0):
            try:
                changed = engine.under_rules(setup, hand.log, step, 0, other)
            except engine.BoardError:
                continue
            quiet = changed._replace(trace=False)
            strict = Hand.deal(quiet)
            for action in hand.log[:step]:
                try:
                    strict.apply(action)
                except IllegalAction:
                    break  # another's card the other rule set forbids: taken as laid
            else:
                continue
            assert action.seat != 0
            under = view_for(engine.replay_as_seen(quiet, hand.log[:step], 0), 0)
            before = view_for(Hand.replay(setup._replace(trace=False), hand.log[:step]), 0)
            assert under.tricks == before.tricks and under.trick == before.trick
            assert under.rules.name == "hoffmann"
            return
    raise AssertionError("no hand where another's card broke the other rule set's lead rules")
