"""What a lesson's guided table does for the learner, and what it holds back, in its first hand.

An early lesson's guided hand asks only what has been taught so far (``PracticeTable.guide``,
set by the lesson that deals it):

- ``"declares"`` (``{"lesson": title, "url": address}``): declaring is taught later, so the
  table declares for him (:func:`games.guided.made_for_learner`, which
  ``PracticeTable.run_bots`` makes: he plays) and says which
  lesson teaches it. The declaration is the table's, not his: it is not taken back.
- ``"asks": "trick-winner"``: he is to work out who takes each trick, so the table holds the
  answer back until he has said. Once a trick is complete the page shows it as it lay before
  it was gathered (:func:`held_view`): every card on the felt, but not who took it, in the
  log, the seats' tricks, who leads next or the settlement; nothing he does at the table is
  taken while a trick waits for his answer. ``"said"`` keeps his answers, one seat a trick.

The table's page and views call these, one line each; the proof that the rule comes up
(:mod:`games.guided`) walks the same lines, since the table declares for him there too, and
holding an answer back changes nothing the computer players do.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.urls import reverse

from games.links import RuleLinks
from games.loo.hand import Event, Hand
from games.loo.view import PlayerView, TrickView, _as_seen, public_events, view_for
from games.naming import HUMAN, say, seat_name
from games.table.page import Guide, GuideAsk, GuideDeclared

#: What a guided table asks (``guide["asks"]``).
TRICK_WINNER = "trick-winner"
#: Everything a guided hand may ask (the ``asks:`` of a lesson's guided hand).
ASKS = (TRICK_WINNER,)

#: Why the table does nothing while a trick waits for the learner's answer.
SAY_FIRST = "First say who takes the trick on the table: nothing moves on until you have."
#: An answer when no trick waits for one, or naming a player who played no card to it.
NOT_ASKED = "No trick waits for your answer, or that player played no card to it: nothing done."


def learner_decisions(guide: dict[str, Any] | None, hand: Hand) -> list[int]:
    """The indices in ``hand``'s log of the learner's own decisions: not a declaration the
    table made for him (which is not his to take back)."""
    made = bool(guide and guide.get("declares")) and hand.setup.hand_number == 1
    return [
        i
        for i, action in enumerate(hand.log)
        if action.seat == HUMAN and not (made and action.kind == "declare")
    ]


def pending_trick(guide: dict[str, Any] | None, hand: Hand) -> int | None:
    """The number of the trick whose winner the learner is to say now, if any: the first
    complete trick of the guided hand he has not answered."""
    if not guide or guide.get("asks") != TRICK_WINNER or hand.setup.hand_number != 1:
        return None
    said = len(guide.get("said", []))
    return said + 1 if said < len(hand.tricks) else None


def held_view(guide: dict[str, Any] | None, hand: Hand) -> PlayerView | None:
    """The learner's view of the hand as it lay when the pending trick was complete and not
    yet gathered (None with no trick pending): the hand replayed to its last card, the trick
    shown whole without its winner, the trace, counters and pool as they were before it."""
    number = pending_trick(guide, hand)
    if number is None:
        return None
    after = Hand.deal(hand.setup)
    done = 0
    while len(after.tricks) < number:
        after.apply(hand.log[done])
        done += 1
    before = Hand.replay(hand.setup, hand.log[: done - 1])
    trick = after.tricks[number - 1]
    seen = view_for(before, HUMAN)
    # The last card's line as the table saw it while the hand went on.
    still = public_events(before, HUMAN) + _as_played(after, len(before.events))
    return dataclasses.replace(
        view_for(after, HUMAN),
        to_act=None,
        options=None,
        trick=TrickView(trick.leader, tuple(trick.plays), trick.civil, None),
        events=still,
        **{name: getattr(seen, name) for name in _BEFORE_THE_TRICK},
    )


#: What a held trick shows as it stood before its last card: the tricks gathered, the phase,
#: the settlement, the counters and the pool.
_BEFORE_THE_TRICK = ("tricks", "phase", "outcome", "payments", "looed", "balances", "pool")


def _as_played(hand: Hand, first: int) -> tuple[Event, ...]:
    """The line of the card that completed the trick, as it was told before the trick was
    gathered (another player's card without the rules that bound him)."""
    event = hand.events[first]
    return (_as_seen(event, hand) if event.seat not in (None, HUMAN) else event,)


def guide(guide: dict[str, Any] | None, hand: Hand, pk: int, links: RuleLinks) -> Guide | None:
    """What the table page shows of a guided hand (of table ``pk``): the lesson, the line
    saying who declared for the learner, and the question on a trick he is to work out. While
    it waits, nothing at the table moves on, and nothing says who holds the trick
    (``games.table.presenting.table_page`` decides so)."""
    if not guide:
        return None
    first = hand.setup.hand_number == 1
    asks = guide.get("asks") == TRICK_WINNER and first
    declared = guide.get("declares") if first else None
    ask = None
    number = pending_trick(guide, hand) if asks else None
    if number is not None:
        trick = hand.tricks[number - 1]
        ask = GuideAsk(
            number=number,
            url=reverse("games:table-say", args=[pk]),
            choices=[
                (seat, seat_name(seat, hand.setup.players), card) for seat, card in trick.plays
            ],
        )
    return Guide(
        lesson=guide.get("lesson", ""),
        banner=guide.get("banner", ""),
        back=guide.get("back", ""),
        rule=guide["rule"],
        rule_link=links.link(guide["rule"]),
        declared=GuideDeclared(declared["lesson"], declared["url"]) if declared else None,
        ask=ask,
        hides_lead=asks,
    )


def say_winner(guide: dict[str, Any], hand: Hand, seat: int) -> tuple[dict[str, Any], str]:
    """The learner says ``seat`` takes the pending trick: the guide with his answer kept, and
    what the table says to it (right or not, and who took the trick and why, in the engine's
    words: its line of the trick log, held back till now). ValueError if no trick is pending
    or ``seat`` played no card to it."""
    number = pending_trick(guide, hand)
    if number is None:
        raise ValueError("no trick waits for an answer")
    trick = hand.tricks[number - 1]
    if seat not in [s for s, _ in trick.plays]:
        raise ValueError(f"seat {seat} played no card to trick {number}")
    taken = [e for e in hand.events if e.kind == "trick"][number - 1]
    right = "Right" if seat == trick.winner else "Not so"
    told = f"{right}: {say(taken.message, hand.setup.players)}"
    return {**guide, "said": [*guide.get("said", []), seat]}, told


def answers_kept(guide: dict[str, Any] | None, hand: Hand) -> dict[str, Any] | None:
    """After a take-back: the answers the learner gave for tricks still taken in ``hand``,
    so that a trick played again is asked again."""
    if not guide or "said" not in guide:
        return guide
    return {**guide, "said": guide["said"][: len(hand.tricks)]}
