"""Practice hands as a person plays them: by clicking, in Chromium, with JavaScript on (htmx
swaps the table) and off (plain forms, POST/redirect/GET); and axe-core on the table page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser import axe

# The tests share one database: each plays at a table of its own, in a session of its own.
# Every request on the live server's own threads (which share the test's connection on
# SQLite): either lane (tests/lanes.py).
pytestmark = [pytest.mark.usefixtures("shared_database"), pytest.mark.any_database]

PLAY = re.compile(r"^Play( \(draw for the ticked cards\))?$")


def _version(page: Page) -> str:
    return str(page.locator("input[name=version]").first.input_value())


def _take_turn(page: Page) -> None:
    """One decision, by clicking, as a learner might: a legal card, or play on the cards."""
    page.keyboard.press("Escape")  # the cards still arriving: a click would only skip them
    legal = page.locator("button.card-button:not([aria-disabled])")
    discard = page.locator("input[name=discards]")
    if legal.count():
        legal.first.click()
    elif page.get_by_role("button", name=PLAY).count():
        if discard.count():
            discard.first.check()
        page.get_by_role("button", name=PLAY).click()
    elif page.get_by_role("button", name="Let the result stand").count():
        page.get_by_role("button", name="Let the result stand").click()
    else:
        page.locator(".choices button").first.click()


def _play_out(page: Page) -> None:
    status = page.locator("#table-status")
    for _ in range(60):
        if "is over" in status.inner_text():
            return
        before = _version(page)
        _take_turn(page)
        expect(page.locator("input[name=version]").first).not_to_have_value(before)
    raise AssertionError("the hand did not end")


def _deal(page: Page, game: str, rules: str, players: int) -> None:
    page.goto("/play/")
    form = page.locator("form.chooser")
    form.get_by_label({"three-card": "Three-card Loo", "five-card": "Five-card Loo"}[game]).check()
    form.locator(f"input[name=rules][value={rules}]").check()
    form.get_by_label("Players, you included").fill(str(players))
    form.get_by_label("Beginners: random legal choices").check()
    form.get_by_role("button", name="Deal", exact=True).click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    # A deal can end before the player decides anything: peel's first deal is the single, one
    # card each (A39), and the next is the player's own deal, which the beginners may all pass
    # to him. Deal on until there is a decision to make.
    for _ in range(20):
        if "is over" not in page.locator("#table-status").inner_text():
            return
        before = _version(page)
        page.get_by_role("button", name="Deal the next hand").click()
        expect(page.locator("input[name=version]").first).not_to_have_value(before)
    raise AssertionError("twenty deals went by without a decision for the player")


def _check_settlement(page: Page) -> None:
    settlement = page.locator("#table-settlement")
    expect(settlement.get_by_role("heading", name="Settlement")).to_be_visible()
    expect(settlement).to_contain_text("Who pays what")
    expect(settlement).to_contain_text("to the next pool")


def test_a_three_card_hand_played_by_clicking(page: Page) -> None:
    page.goto("/play/")
    page.get_by_role("button", name="Deal me a hand").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Three-card Loo under Hoffmann (1909)"
    )
    expect(page.locator("#table-stakes")).to_contain_text("the turn-up is")

    _play_out(page)

    _check_settlement(page)
    before = _version(page)
    page.get_by_role("button", name="Deal the next hand").click()
    expect(page.locator("input[name=version]").first).not_to_have_value(before)
    expect(page.locator("#table-stakes")).to_contain_text("Deal 2")


def test_a_five_card_hand_played_by_clicking(page: Page) -> None:
    _deal(page, "five-card", "peel", 4)
    expect(page.get_by_role("heading", level=1)).to_have_text("Five-card Loo under Peel (1891)")

    _play_out(page)

    _check_settlement(page)
    page.get_by_role("link", name="Replay this deal step by step").click()
    expect(page.locator("#replay-status")).to_contain_text("Step 0 of")
    page.get_by_role("link", name="Next step").click()
    expect(page.locator("#replay-status")).to_contain_text("Step 1 of")
    expect(page).to_have_url(re.compile(r"\?step=1$"))


# Take-backs, offered and refused (issue 26): tests/browser/test_honest_table.py.


def test_an_illegal_card_is_refused_with_its_rule(js_page: Page, live_server: Any) -> None:
    """Find a deal where a card is forbidden on the human's turn, then press it."""
    page = js_page
    for players in range(3, 10):
        _deal(page, "three-card", "hoffmann", players)
        for _ in range(12):
            page.keyboard.press("Escape")  # the cards still arriving are all shown
            if "is over" in page.locator("#table-status").inner_text():
                break
            illegal = page.locator("button.card-button[aria-disabled=true]")
            if illegal.count():
                before = _version(page)
                reason = page.locator(".why:not(.why--legal)").first.inner_text()
                illegal.first.click(force=True)  # aria-disabled: Playwright would wait
                alert = page.locator(".alerts .alert--error")
                expect(alert).to_contain_text("may not be played")
                expect(alert.get_by_role("link").first).to_have_attribute(
                    "href", re.compile("/rules/")
                )
                assert "Not allowed." in reason
                assert _version(page) == before
                return
            before = _version(page)
            _take_turn(page)
            expect(page.locator("input[name=version]").first).not_to_have_value(before)
    pytest.fail("no deal offered an illegal card")


def test_a_card_is_played_with_the_keyboard(js_page: Page) -> None:
    page = js_page
    _deal(page, "three-card", "peel", 4)
    page.get_by_role("button", name="Play", exact=True).focus()
    before = _version(page)
    page.keyboard.press("Enter")
    expect(page.locator("input[name=version]").first).not_to_have_value(before)
    # Focus goes to what is decided next (a legal card, a choice), else to the status line,
    # once the computer players' cards have arrived (till then to "The others play…"); the
    # status line is announced through the live region, and the page does not move.
    focused = page.locator(":focus")
    expect(focused).to_have_count(1)
    assert focused.evaluate(
        "e => e.id === 'table-status' || e.matches('.table-status--wait')"
        " || !!e.closest('.my-hand')"
    ), focused.evaluate("e => e.outerHTML")
    page.keyboard.press("Escape")  # the cards still arriving are all shown
    expect(page.locator("#table-live")).to_contain_text(page.locator("#table-status").inner_text())


def test_the_table_fits_a_phone(phone_page: Page) -> None:
    _deal(phone_page, "five-card", "hoffmann", 6)

    scroll_width, client_width = phone_page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert scroll_width <= client_width == 375
    box = phone_page.locator(".my-hand .pcard").first.bounding_box()
    assert box is not None and box["width"] >= 40 and box["x"] + box["width"] <= 375


def test_axe_finds_nothing_serious_on_the_table_page(js_page: Page) -> None:
    page = js_page
    _deal(page, "five-card", "hoffmann", 4)
    states = 0
    for _ in range(40):
        serious = axe.serious(page)
        assert serious == [], axe.report(serious)
        states += 1
        if "is over" in page.locator("#table-status").inner_text():
            if states >= 2:
                break
            # The beginners ended this deal at once (everyone passed): deal the next.
            before = _version(page)
            page.get_by_role("button", name="Deal the next hand").click()
            expect(page.locator("input[name=version]").first).not_to_have_value(before)
            continue
        before = _version(page)
        _take_turn(page)
        expect(page.locator("input[name=version]").first).not_to_have_value(before)
    assert states >= 2
    page.get_by_role("link", name="Replay this deal step by step").click()
    page.get_by_role("link", name="Next step").click()
    expect(page.locator("#replay-status")).to_contain_text("Step 1 of")
    assert axe.serious(page) == []


@pytest.mark.parametrize("path", ["/play/", "/play/seed/three-card/peel/5/42/"])
def test_axe_finds_nothing_serious_on_the_chooser(js_page: Page, path: str) -> None:
    js_page.goto(path)

    serious = axe.serious(js_page)

    assert serious == [], axe.report(serious)


def _deal_in_laws_mode(page: Page, seed: int, opponents: str) -> None:
    """A three-card hoffmann table for three in laws mode, from the shareable link of ``seed``."""
    page.goto(f"/play/seed/three-card/hoffmann/3/{seed}/")
    form = page.locator("form.chooser")
    form.locator(f"input[name=opponents][value={opponents}]").check()
    form.locator("input[name=mode][value=laws]").check()
    form.get_by_role("button", name="Deal these cards").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))


def _revoke_and_play_out(page: Page, seed: int) -> bool:
    """Deal a three-card hoffmann table in laws mode with sensible opponents, revoke once if the
    learner can (a card forbidden because he can follow suit) and play the hand out; whether he
    revoked."""
    _deal_in_laws_mode(page, seed, "sensible")
    revoked = False
    for _ in range(60):
        page.keyboard.press("Escape")  # the cards still arriving are all shown
        if "is over" in page.locator("#table-status").inner_text():
            return revoked
        before = _version(page)
        revokes = [
            button
            for button in page.locator("button.card-button[aria-disabled]").all()
            if "follow suit"
            in page.locator(f"#{button.get_attribute('aria-describedby')}").inner_text()
        ]
        if not revoked and revokes:
            revokes[0].click(force=True)  # aria-disabled: Playwright would wait
            revoked = True
        else:
            _take_turn(page)
        expect(page.locator("input[name=version]").first).not_to_have_value(before)
    raise AssertionError("the hand did not end")


def test_a_revoke_in_laws_mode_stands_and_the_opponents_answer_law_16(page: Page) -> None:
    """Laws mode under hoffmann, by clicking: the learner revokes (plays a card of another suit
    though he can follow); it stands; at the end the sensible computer players choose to demand
    a replay or let the result stand (Law 16), and the hand is settled. The first deals that
    give the learner a revoke are tried in turn."""
    for seed in range(1, 30):
        if _revoke_and_play_out(page, seed):
            break
    else:
        pytest.fail("no deal let the learner revoke")
    text = page.locator("main").text_content() or ""  # the log's earlier lines are folded
    assert "irregularly, against the rule “follow suit if you can”" in text
    assert "lets the result stand" in text or "requires the hand to be played again" in text
    _check_settlement(page)


def _expose_a_card(page: Page, seed: int) -> bool:
    """Deal a three-card hoffmann table in laws mode with beginners, let the others declare,
    play, and at the learner's first turn in the play expose a card; whether he could."""
    _deal_in_laws_mode(page, seed, "beginner")
    for _ in range(10):
        if "is over" in page.locator("#table-status").inner_text():
            return False
        expose = page.get_by_role("button", name="Expose this card")
        if expose.count():
            page.get_by_label("Card to expose").select_option(index=0)
            before = _version(page)
            expose.click()
            expect(page.locator("input[name=version]").first).not_to_have_value(before)
            return True
        before = _version(page)
        _take_turn(page)
        expect(page.locator("input[name=version]").first).not_to_have_value(before)
    return False


def test_a_card_is_exposed_in_laws_mode_and_the_law_is_applied(page: Page) -> None:
    """Laws mode under hoffmann, by clicking: the learner waits while the others declare
    (offered to declare before his turn), lets them, plays, and exposes a card in the play: he
    throws up his cards and forfeits a single (Law 15), said at once and in the trick log."""
    for seed in range(1, 30):
        if _expose_a_card(page, seed):
            break
    else:
        pytest.fail("no deal brought the learner to the play")
    said = re.compile(
        r"You expose the \S+: you must throw up your cards and forfeit a single to the pool"
    )
    expect(page.locator(".alerts .alert--info")).to_contain_text(said)
    expect(page.locator("#table-log")).to_contain_text(said)
    _check_settlement(page)
    expect(page.locator("#table-settlement")).to_contain_text("A single for exposing a card")
