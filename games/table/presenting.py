"""What every table's page shows, a practice table's, a lesson's guided hand's and a table for
people's: the table in play (:func:`table_page`) and a finished hand's replay
(:func:`replay_page`), each the one builder of its page (``games.table.page``: typed, frozen).
Each feature says what it offers (its addresses, the next deal, the take-back: ``Offers``)
and builds its own parts (``games.practice.presenting``, ``games.people.views``); every flag
the template reads is decided here. Views parse, authorize, call their service and render;
everything a page says about the hand is built here from one player's view of it
(``view_for(hand, seat)``), the only thing about the cards that reaches a template: no other
hand, the miss, the stock or the discards.
The practice table's human sits at seat 0 (``view_for(hand, HUMAN)``); a table for people
shows each person the same page from his own seat.

The English the table writes itself (its headings, who was looed, how many tricks, the
refusals of a view) is gathered here too, below the page-building, so that one later step can
route it through the engine's message catalogue (``games.loo.messages``) as the engine's own
sentences already are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Final

from games.links import RuleLink, RuleLinks
from games.loo import catalogue
from games.loo.cards import card
from games.loo.hand import IRREGULARITIES, Hand, IllegalAction, Payment
from games.loo.messages import Message, msg
from games.loo.play import trick_winner
from games.loo.rulesets import HAND_SIZE
from games.loo.view import PlayerView, TrickView
from games.naming import HUMAN, say, seat_label, seat_name, seat_possessive, stored_message
from games.table.forms import CHOICE_HELP, ActionForm
from games.table.page import (
    Alerts,
    CardRow,
    Controls,
    Decision,
    Felt,
    LastTrick,
    Log,
    LogLine,
    Offers,
    PaymentRow,
    Play,
    PracticePart,
    ReplayPage,
    SeatRow,
    Settlement,
    SingleCard,
    Stakes,
    TablePage,
    TrickDone,
    TrickLead,
)

# -- the table ------------------------------------------------------------------------------


def table_page(
    view: PlayerView,
    hand: Hand,
    links: RuleLinks,
    *,
    notes: Sequence[Mapping[str, Any]],
    version: int,
    offers: Offers,
    form: ActionForm | None = None,
    refusal: IllegalAction | None = None,
    laws: bool = False,
    first_dealer: Message | None = None,
    alerts: Alerts | None = None,
    names: Mapping[int, str] | None = None,
    focus: bool = False,
    practice: PracticePart | None = None,
) -> TablePage:
    """The table page of ``hand`` for the player ``view`` is for (``view.seat``), read from
    his chair: the felt's seats turned so that he sits at the foot and the others run from
    his left round to his right; his cards, his options and the rules that bind them; the
    status line ("Your turn ..."), the trick log and the settlement with him in the second
    person, the others by where they sit from him.

    A table for people builds it for each person at his own seat (``view_for(hand, seat)``),
    the practice table for its human at seat 0: ``links``, the rules as the table's source
    cites them (``RuleLinks.of(source, game)``); ``notes``, the table's notes of the hand
    (``games.loo.autoplay.Note``, as ``Autoplay.run`` and ``Autoplay.rules_note`` make them):
    the computer players' reasons are shown once the hand is over, and only where they rest
    on no card the viewer never sees (:func:`_resting_on_unseen_cards`); a person's rules notes
    only to himself; ``version``, the table's version the forms send back; ``offers``, what the
    feature offers at its table (its addresses, the next deal, the take-back...), from which
    the controls are decided here; ``form``, his last form, bound, if it has errors (a fresh
    one otherwise); ``refusal``, the engine's refusal of it; ``laws``, laws mode
    (irregularities stand and are punished); ``first_dealer``, how the first dealer was chosen
    (``Table.first_dealer_brief``, at the first deal only); ``alerts``, what the view has to
    say; ``names``, the people at the table by seat (their seats labelled "Left (ben)");
    ``focus``, the page puts focus on the viewer's first decision; ``practice``, the practice
    table's own parts: a lesson's guided hand that asks who takes a trick holds the table
    until he has said (no deal, take-back or finish; nothing says who holds the trick)."""
    if form is None or form.is_bound and not form.errors:
        form = ActionForm(view, initial={"version": version})
    alerts = alerts or Alerts()
    said = _say_to(view)
    guide = practice.guide if practice is not None else None
    asking = guide.ask if guide is not None else None
    # The computer players' reasons once the hand is over (during it they tell of hidden cards).
    log = linked(log_lines(view, notes, reasons=hand.over), links)
    refusal_rule = refusal.application.rule if refusal and refusal.application else ""
    options = view.options
    # No card laid to the trick yet: his card leads it.
    lead = not (view.trick and view.trick.plays)
    card_rows = [
        CardRow(
            c,
            links.link(c.why.rule) if c.why else None,
            said(c.why.message) if c.why else "",
            ("Lead" if lead else "Play") if c.legal else "Try",
        )
        for c in form.card_choices
    ]
    # The rules that forbid cards now, each said once beside the cards.
    binding: list[tuple[str, RuleLink | None]] = []
    for row in card_rows:
        if not row.choice.legal and row.text and (row.text, row.rule) not in binding:
            binding.append((row.text, row.rule))
    waiting = form.waiting and offers.waits
    may_deal = hand.over and offers.deals_on and asking is None
    watched = guide.rule if guide is not None else ""
    earlier, current = _split_log(log)
    decision = Decision(
        form=form,
        choice_help=[
            (value, label, CHOICE_HELP.get(value, "")) for value, label in form.choice_buttons
        ],
        explanations=[
            (said(a.message), links.link(a.rule)) for a in (options.explanations if options else ())
        ],
        card_rows=card_rows,
        play_help=_play_help(lead, bool(binding), laws and hand.rules.penalties != "none"),
        binding=binding,
        legal_notes=[
            (said(a.message), links.link(a.rule))
            for a in (options.legal.notes if options and options.legal else ())
        ],
        refusal_rule=links.link(refusal_rule) if refusal_rule else None,
        irregular_laws={
            what.replace("-", "_"): _law(IRREGULARITIES[what], links.source, links)
            for what in form.irregularities
        },
        waiting=waiting,
        declare_before=_declare_before(view) if form.waiting else "",
        civil_rule=links.link("pam-be-civil"),
        autofocus="",
        autofocus_card="",
    )
    if focus:
        autofocus, card_code = _first_decision(view, form, alerts, waiting, may_deal)
        decision = dataclasses.replace(decision, autofocus=autofocus, autofocus_card=card_code)
    felt = _felt(view, links, names or {})
    if guide is not None and guide.hides_lead:
        # Who holds the trick so far is his to work out; once it is complete, who took it too.
        felt = dataclasses.replace(
            felt, trick_lead=None, last_trick=None if asking else felt.last_trick
        )
    take_back = offers.take_back
    if asking is not None:
        take_back = dataclasses.replace(take_back, may=False)
    return TablePage(
        view=view,
        status=f"Trick {asking.number} is complete: who takes it?" if asking else _status(view),
        felt=felt,
        stakes=_stakes(view, hand, links, laws=laws, first_dealer=first_dealer),
        decision=decision,
        log=Log(
            lines=log,
            earlier=earlier,
            current=current,
            in_replay=False,
            first_new=0,
            earlier_marked=bool(watched and any(watched in line.event.rules for line in earlier)),
            watched=watched,
            reasons_later=view.phase != "over",
        ),
        settlement=_settlement(
            view, log, links, replay_url=offers.replay_url, review_url=offers.review_url
        ),
        controls=Controls(
            urls=offers.urls,
            version=version,
            may_deal=may_deal,
            deal_primary=guide is None,
            may_leave=offers.may_leave and view.phase == "over",
            finishes=() if asking else offers.finishes,
            may_withdraw=offers.may_withdraw and asking is None,
            deals_to_even=offers.deals_to_even,
            finished=offers.finished,
            finished_how=_FINISHED.get(offers.finished, ""),
            end_counters=offers.end_counters,
            take_back=take_back,
            shareable=offers.shareable if view.phase == "over" else "",
        ),
        alerts=alerts,
        practice=practice,
    )


def replay_page(
    view: PlayerView,
    hand: Hand,
    links: RuleLinks,
    *,
    notes: Sequence[Mapping[str, Any]],
    step: int,
    steps: int,
    first_new: int | None,
    here: str,
    reasons: bool = True,
    watched: str = "",
) -> ReplayPage:
    """A finished hand after its first ``step`` actions (of ``steps``), from the seat
    ``view`` is for, with its trace up to there (``notes``, those of the actions made by
    then): ``first_new``, the first line this step added (None: the whole log is new, at the
    deal); ``here``, the page's own address; ``reasons``, the computer players' reasons
    (those resting on no card the viewer never saw); ``watched``, a lesson's rule whose lines
    are marked."""
    log = linked(log_lines(view, notes, reasons=reasons), links)
    return ReplayPage(
        view=view,
        felt=_felt(view, links, {}),
        stakes=_stakes(view, hand, links, laws=False, first_dealer=None),
        log=Log(
            lines=log,
            earlier=[],
            current=log,
            in_replay=True,
            first_new=len(log) if first_new is None else first_new,
            earlier_marked=False,
            watched=watched,
            reasons_later=False,
        ),
        settlement=_settlement(view, log, links, replay_url="", review_url=""),
        step=step,
        steps=steps,
        here=here,
    )


def _play_help(lead: bool, binding: bool, laws_stand: bool) -> str:
    """What the table says beside the cards on the viewer's turn to play: which he may play
    (``binding``: some are not allowed), and what becomes of one the rules forbid (in laws
    mode, ``laws_stand``: it stands, and the law is applied at the end of the hand)."""
    verb = "led" if lead else "played"
    if binding:
        text = f"The raised cards may be {verb}; the greyed ones are not allowed."
    else:
        text = f"Any card may be {verb}."
    if laws_stand:
        return (
            f"{text} In laws mode a card the rules forbid may still be played, as at a real "
            "table: the law is applied at the end of the hand."
        )
    if binding:
        return f"{text} You may try a greyed card: it is refused, and the rule is explained."
    return text


def _first_decision(
    view: PlayerView, form: ActionForm, alerts: Alerts, waiting: bool, may_deal: bool
) -> tuple[str, str]:
    """What the player decides first on this table page, for its ``autofocus`` attribute, so
    that after a deal or a redirect focus is on it, with JavaScript or without (play.js moves
    it there only once the computer players' cards have all arrived): "card" (with the code
    of his first legal card), "discard", "choice", "wait" or "deal"; ("", "") when nothing is
    his to do, or when the page has an error to read first."""
    flashed_error = any(level == "error" for _text, level, _rule in alerts.flashed)
    if form.errors or alerts.error or flashed_error:
        return "", ""
    options = form.options
    if options is not None and options.kind == "play" and view.hand:
        first = next((c.card.code for c in form.card_choices if c.legal), "")
        return ("card", first) if first else ("", "")
    if options is not None and options.kind in ("declare", "replay"):
        exchange = options.kind == "declare" and view.phase == "exchange"
        return ("discard" if exchange and options.max_discards else "choice"), ""
    if waiting:
        return "wait", ""
    if may_deal:
        return "deal", ""
    return "", ""


def _say_to(view: PlayerView) -> Callable[[Message], str]:
    """The engine's sentences as the player ``view`` is for reads them."""
    return partial(say, players=view.players, me=view.seat)


# -- what both show -------------------------------------------------------------------------


def log_lines(
    view: PlayerView, notes: Sequence[Mapping[str, Any]], *, reasons: bool = True
) -> list[LogLine]:
    """The trick log as the player ``view`` is for reads it, each line with what its action's
    note says: the rules that bound his own decisions (a person's rules notes are his alone:
    they name his cards); ``reasons``: the computer players' reasons too (in the replay of a
    finished hand). At the table they wait for the hand to end, every one of them: most tell
    of cards the viewer cannot see ("a hand like this
    is looed in 83% of 8 sampled deals", "the only choice", a card played against the rules,
    which the table finds only when the hand is over); a careless player's lapse, which the
    table saw, is told by its own line of the trace, and why he did it ("too eager to see his
    cards") waits with the rest."""
    said = _say_to(view)
    lines = [LogLine(e, said(e.message), [card(c) for c in e.cards]) for e in view.events]
    last_trick = _last_trick_lines(view)
    unseen, knew_more = _resting_on_unseen_cards(view)
    # A note belongs to the first line of the trace its action produced.
    for note in notes:
        if not 0 <= note["event"] < len(lines):
            continue
        line = lines[note["event"]]
        if "reason" in note and reasons:
            reason = _reason(note["reason"], note["event"] in last_trick)
            if (
                reason.key.startswith("bot.lapse")
                or note["event"] not in unseen
                and (note["event"] not in knew_more or reason.key in _ON_SHOWN_CARDS)
            ):
                line.reason = said(reason)
        if "explanations" in note and note.get("seat", view.seat) == view.seat:
            line.explanations = [
                {"rule": e["rule"], "text": said(stored_message(e.get("message", e.get("text"))))}
                for e in note["explanations"]
            ]
    return lines


def _reason(stored: Any, last_card: bool) -> Message:
    """A computer player's stored reason. One stored before a last card was said to be the
    only card in hand named the rule the play filed it under ("the only choice, under the
    rule “the first lead”"), which forced nothing: a card of the last trick is read as what
    it was (games.loo.bots)."""
    message = stored_message(stored)
    if last_card and message.key == "bot.only-card-rule":
        return msg("bot.last-card", p=message.args["p"], card=message.args["card"])
    return message


#: The lines by which a player gives up the cards he holds for others: what he decided before
#: them rested on cards that are never shown.
_HAND_CHANGES: Final = frozenset({"declare.take-miss", "declare.defend-miss", "exchange.draw"})


def _resting_on_unseen_cards(view: PlayerView) -> tuple[set[int], set[int]]:
    """The lines of the trace whose computer player's reason would tell of cards the viewer
    (``view.seat``) never sees, even once the hand is over: every decision of a player who did
    not play out all his cards face up (he passed, threw up his cards, took the pool without
    play, or the hand ended before the play), and the decisions a player made before taking
    the miss or drawing (the hand he gave up, his discards, are never shown). At a real table
    a player who passed keeps his cards and his reasons to himself ("looed in 83% of 8 sampled
    deals" would tell of them). Found from the public trace alone, so whether a reason is shown
    tells nothing either. A careless player's lapse rests on no card, and is told.

    And, apart, the lines of a player who took the miss or drew, after he did: he knows
    where the cards he gave up went, so a reason weighed over sampled deals rests on them
    ("+1.5 counters on average" was +3.0 with another card in the hand he gave up); one that
    rests on his own cards alone (:data:`_ON_SHOWN_CARDS`) is told."""
    played: dict[int, set[str]] = {}
    changed: dict[int, int] = {}
    for i, event in enumerate(view.events):
        if event.seat is None:
            continue
        if event.kind == "play":
            played.setdefault(event.seat, set()).update(event.cards)
        elif event.message.key in _HAND_CHANGES:
            changed[event.seat] = i
    unseen: set[int] = set()
    knew_more: set[int] = set()
    for i, event in enumerate(view.events):
        seat = event.seat
        if seat is None or seat == view.seat:
            continue
        if len(played.get(seat, ())) < HAND_SIZE[view.game] or i <= changed.get(seat, -1):
            unseen.add(i)
        elif seat in changed:
            knew_more.add(i)
    return unseen, knew_more


#: The reasons that rest on the cards a computer player holds, and the rules, alone: told of
#: a player who gave up cards, once he has shown all he held after.
_ON_SHOWN_CARDS: Final = frozenset(
    {
        "bot.last-card",
        "bot.only-card",
        "bot.only-card-rule",
        "bot.only-choice",
        "bot.only-choice-rule",
    }
)


def _last_trick_lines(view: PlayerView) -> set[int]:
    """The lines of the trace that play to a last trick, where each player holds one card:
    those after the hand size less one tricks since the play began (or began again, after a
    revoke)."""
    found: set[int] = set()
    tricks = 0
    for i, event in enumerate(view.events):
        if event.kind in ("play-begins", "replay"):
            tricks = 0
        elif event.kind == "trick":
            tricks += 1
        elif event.kind == "play" and tricks == HAND_SIZE[view.game] - 1:
            found.add(i)
    return found


def linked(log: list[LogLine], links: RuleLinks) -> list[LogLine]:
    for line in log:
        line.rules = [links.link(r) for r in line.event.rules]
    return log


def seat_slots(players: int, me: int = HUMAN) -> list[str]:
    """Where each seat is drawn round the felt, by seat index, for the viewer at seat ``me``
    (the practice table's human unless told): he at the foot (``you``), the others from his
    left round to his right, up the left side, across the top
    and down the right side: one seat on each side up to six players (none across the top at
    three), two on each side from seven. The names are the CSS classes ``at-…`` of
    ``play.css``, which lays the seats and the trick's cards out on one grid."""
    others = players - 1
    sides = 1 if others <= 5 else 2
    top = others - 2 * sides
    left = ["left"] if sides == 1 else ["left-low", "left-high"]
    right = ["right"] if sides == 1 else ["right-high", "right-low"]
    across = [f"top-{i}-of-{top}" for i in range(1, top + 1)]
    round_the_felt = ["you", *left, *across, *right]
    return [round_the_felt[(seat - me) % players] for seat in range(players)]


DECLARED = {
    None: "",
    "play": "plays",
    "pass": "passed",
    "miss": "took miss",
    "defend": "plays for the pool",
    "out": "stands out of this deal",
}


def _felt(view: PlayerView, links: RuleLinks, names: Mapping[int, str]) -> Felt:
    """The felt, read from the chair of ``view.seat``; ``names``: the people at a table for
    people, by seat, whose seats the felt labels with their names ("Left (ben)"): there one
    looks for a friend's seat, not for a place."""
    tricks_won = {s: 0 for s in range(view.players)}
    for t in view.tricks:
        if t.winner is not None:
            tricks_won[t.winner] += 1
    n, me = view.players, view.seat
    slots = seat_slots(n, me)
    # The elder hand, on the dealer's left, declares first: marked while the players declare.
    elder = (view.dealer + 1) % n
    seats = [
        SeatRow(
            seat=s,
            name=seat_name(s, n, me),
            label=seat_label(s, n, me),
            slot=slots[s],
            counters=view.balances[s],
            dealer=s == view.dealer,
            elder=s == elder and view.phase in ("declare", "exchange"),
            to_act=s == view.to_act,
            declared=DECLARED.get(view.declared[s], view.declared[s] or ""),
            cards=view.hand_sizes[s],
            tricks=tricks_won[s],
            looed=s in view.looed,
        )
        # Fixed seats: the viewer's, then from his left round to his right, the same every deal.
        for s in ((me + k) % n for k in range(n))
    ]

    def plays(trick: TrickView) -> list[Play]:
        return [
            Play(seat_name(s, n, me), seat_label(s, n, me), slots[s], c) for s, c in trick.plays
        ]

    return Felt(
        seats=seats,
        me=seats[0],
        opponents=[
            dataclasses.replace(row, label=f"{row.label} ({names[row.seat]})")
            if row.seat in names
            else row
            for row in seats[1:]
        ],
        two_sides="left-low" in slots,
        pool_kind=""
        if view.phase == "over"
        else ("single" if view.single else carried_word(links.source))
        + (", a must" if view.must else "")
        + (", club law" if view.club_law else ""),
        trick=plays(view.trick) if view.trick else [],
        trick_lead=_trick_lead(view, view.trick, links) if view.trick else None,
        last_trick=_last_trick(view, links, plays),
        tricks=[
            TrickDone(number=i + 1, plays=plays(t), winner=seat_name(t.winner, n, me))
            for i, t in enumerate(view.tricks)
        ],
    )


def _stakes(
    view: PlayerView, hand: Hand, links: RuleLinks, *, laws: bool, first_dealer: Message | None
) -> Stakes:
    # The rule that prices a loo under these rules: the engine's own answer.
    loo_cost = hand.loo_amount()
    return Stakes(
        dealer_name=seat_name(view.dealer, view.players, view.seat),
        first_dealer=_say_to(view)(first_dealer) if first_dealer is not None else "",
        loo_cost=loo_cost,
        goal=_goal(view, loo_cost),
        ante_rule=links.link("ante"),
        loo_rule=links.link(hand.loo_rule()),
        deal_rule=links.link("single" if view.single else "double"),
        carried=carried_word(links.source),
        must_rule=links.link("must"),
        club_law_rule=links.link("club-law"),
        division_rule=links.link("pool-division"),
        laws=laws,
        laws_stand=laws and hand.rules.penalties != "none",
    )


def _settlement(
    view: PlayerView, log: list[LogLine], links: RuleLinks, *, replay_url: str, review_url: str
) -> Settlement:
    n, me = view.players, view.seat
    said = _say_to(view)
    tricks = sum(1 for t in view.tricks if t.winner == me)
    return Settlement(
        payments=[_payment_row(p, links, said, n, me) for p in view.payments if p.rule != "ante"],
        flush_cards=[list(f.cards) for f in view.flush.flushes] if view.flush else [],
        flush_lines=[line for line in log if line.event.kind == "flush"],
        single_cards=_single_cards(view),
        single_rule=links.link("single"),
        outcome=_OUTCOMES.get(view.outcome, ""),
        looed_line=_looed_line(view.looed, said),
        my_tricks_line=_my_tricks_line(view, tricks),
        replay_url=replay_url,
        review_url=review_url,
    )


#: A share of the pool, by the number of tricks in a hand.
_SHARES: Final = {3: "a third", 5: "a fifth"}

#: The sources that call a pool with loos carried over a "double": only the modern pages
#: (Parlett 3c:Deal, White Knuckle ¶4). Under the others the table says what it holds, in
#: words they would not contradict (issue 39: a Peel table called its pool a double).
CALL_IT_DOUBLE: Final = frozenset({"parlett", "whiteknuckle"})


def carried_word(source: str) -> str:
    """What the table calls a pool that holds loos carried over, under ``source``'s rules."""
    return "double" if source in CALL_IT_DOUBLE else "carried over"


def _goal(view: PlayerView, loo_cost: int) -> str:
    """What a newcomer plays for at this table, from the engine's facts of this deal: the
    number of tricks (each wins a share of the pool), what a loo costs, and whether he may
    stand out (not in a must, nor under club law); nothing at Peel's single deal, which asks
    nothing of him."""
    if view.outcome == "single-deal":
        return ""
    tricks = HAND_SIZE[view.game]
    share = _SHARES.get(tricks, f"one {tricks}th")
    pool = view.pool_at_start
    text = (
        f"The goal: take at least one trick. Each of the {tricks} tricks wins {share} of the "
        f"pool ({pool // tricks} of its {pool} counters this deal); a player who plays and takes "
        f"no trick is looed, and pays {loo_cost} into the next pool."
    )
    if view.must or view.club_law:
        return text + " This deal nobody may pass: everyone plays."
    return text + " With poor cards, pass: a player who stands out risks nothing more."


def _single_cards(view: PlayerView) -> list[SingleCard]:
    """peel's single deal (A39): each player's card, dealt face up, in the order dealt, and
    whether it took the pool, with his seat's place round the felt (the cards lie there)."""
    if view.outcome != "single-deal":
        return []
    n, me = view.players, view.seat
    slots = seat_slots(n, me)
    dealt = sorted(range(n), key=lambda seat: (seat - view.dealer - 1) % n)
    return [
        SingleCard(
            seat_name(seat, n, me),
            view.shown_held[seat][0],
            seat in view.in_play,
            seat_label(seat, n, me),
            slots[seat],
        )
        for seat in dealt
        if view.shown_held[seat]
    ]


def _trick_lead(view: PlayerView, trick: TrickView, links: RuleLinks) -> TrickLead | None:
    """Who holds the trick with the cards laid so far: the engine's ``trick_winner``, which
    says why ("the highest trump", "Pam"). A lone card leads it, with nothing to explain."""
    cards = [c for _, c in trick.plays]
    if not cards:
        return None
    n, me = view.players, view.seat
    if len(cards) == 1:
        return TrickLead(0, seat_name(trick.plays[0][0], n, me), cards[0], [], "")
    result = trick_winner(view.game, view.rules, view.trump, cards)
    said = _say_to(view)
    why = [(said(a.message), links.link(a.rule)) for a in result.explanations]
    seat = trick.plays[result.winner][0]
    name, whose = seat_name(seat, n, me), seat_possessive(seat, n, me)
    return TrickLead(result.winner, name, result.card, why, whose)


def _last_trick(
    view: PlayerView, links: RuleLinks, plays: Callable[[TrickView], list[Play]]
) -> LastTrick | None:
    """The trick taken last, with who took it and why: shown while the next is not yet led, and
    when the hand is over (with JavaScript, played out before the next one when the computer
    players took it), then without the why: the settlement and the log say it, and the
    felt's own reason would stay under the final standing as if a trick were still in play."""
    if not view.tricks:
        return None
    done = view.tricks[-1]
    lead = _trick_lead(view, done, links)
    if lead is None or done.winner is None:
        return None
    if view.phase == "over" or done.plays[lead.index][0] != done.winner:
        # Over, or taken otherwise (a law): say only who took it.
        lead = TrickLead(lead.index, seat_name(done.winner, view.players, view.seat), lead.card, [])
    return LastTrick(number=len(view.tricks), plays=plays(done), lead=lead)


def _split_log(log: list[LogLine]) -> tuple[list[LogLine], list[LogLine]]:
    """The trick log as (earlier, current): the current trick's lines (the last trick's, until
    the next is led), or the whole log before the play."""
    ends = [i for i, line in enumerate(log) if line.event.kind == "trick"]
    if not ends:
        return [], log
    start = ends[-1] + 1 if ends[-1] + 1 < len(log) else (ends[-2] + 1 if len(ends) > 1 else 0)
    return log[:start], log[start:]


def _looed_line(looed: tuple[int, ...], said: Callable[[Message], str]) -> str:
    """Who was looed, in the order of the play ("You, West and East were looed."): whoever
    paid a loo, for taking no trick or, under peel, for an offence."""
    if not looed:
        return ""
    if len(looed) == 1:
        return said(msg("table.looed-one", p=looed[0]))
    return said(msg("table.looed-many", ps=list(looed)))


#: The settlement's lines that say what became of a player's tricks when they did not simply
#: win their shares: played for the pool, forfeited by an offender, or the pool taken alone.
_OWN_TRICKS_LINES = frozenset(
    {
        "settle.took-for-pool",
        "settle.took-forfeit",
        "settle.took-retired",
        "settle.last-player",
        "settle.last-player-offender",
    }
)


def _my_tricks_line(view: PlayerView, tricks: int) -> str:
    """What the viewer's tricks won him: the engine's own settlement line when their shares
    stayed in the pool (or he took the pool alone), else their count."""
    said, me = _say_to(view), view.seat
    for event in view.events:
        if event.seat == me and event.message.key in _OWN_TRICKS_LINES:
            return said(event.message)
    if not tricks:
        return said(msg("table.no-trick", p=me))
    return said(msg("table.tricks-won", p=me, n=tricks))


def _status(view: PlayerView) -> str:
    """The heading of the table: whose turn it is and what to do, for the viewer."""
    return _say_to(view)(_status_message(view))


def _status_message(view: PlayerView) -> Message:
    if view.phase == "over":
        single = view.outcome == "single-deal"
        return msg("table.single-over" if single else "table.over", n=view.hand_number)
    options = view.options
    if options is None:
        declaring = view.phase in ("declare", "exchange")
        return msg("table.waiting-to-declare" if declaring else "table.waiting", p=view.to_act)
    me = view.seat
    if options.kind == "play":
        lead = view.trick is None or not view.trick.plays
        return msg("table.lead" if lead else "table.play", p=me)
    if options.kind == "replay":
        return msg("table.replay", p=me)
    if view.phase == "exchange":
        return msg("table.exchange", p=me)
    said = [msg(f"table.choice.{c}") for c in options.choices if c in _SAID_CHOICES]
    if not said:
        return msg("table.declare-any", p=me)
    return msg("table.declare", p=me, choices=said)


#: The declarations the heading names ("Your turn to declare: play, pass or take miss"):
#: every one a button offers, the dealer's against one player too ("take miss or play miss
#: for the pool", not "take miss" over two buttons).
_SAID_CHOICES: Final = ("play", "pass", "take-miss", "defend-miss", "defend-master")


def _law(rule_id: str, source: str, links: RuleLinks) -> tuple[str, RuleLink]:
    """What the table's source says of a law (its words, from the rule catalogue), and the
    rule's links: shown beside the control that breaks it, before it is broken."""
    said = [s.text for s in catalogue.rule(rule_id).sources if s.source == source]
    return (said[0] if said else ""), links.link(rule_id)


def _declare_before(view: PlayerView) -> str:
    """Who declares before the viewer, in order, as a sentence ("West and North declare
    before you, in turn; then it is your turn.")."""
    assert view.to_act is not None
    first, me = view.to_act, view.seat
    before = [(first + k) % view.players for k in range((me - first) % view.players)]
    return _say_to(view)(msg("table.declare-before", ps=before, p=me))


def _payment_row(
    payment: Payment, links: RuleLinks, said: Callable[[Message], str], players: int, me: int
) -> PaymentRow:
    return PaymentRow(
        payer=seat_name(payment.payer, players, me),
        payee=seat_name(payment.payee, players, me),
        amount=payment.amount,
        reason=said(payment.reason),
        rule=links.link(payment.rule),
    )


#: What became of a pool nobody played for (or one alone), by the hand's outcome: the
#: settlement's first line (a flush, and Peel's single deal, show their cards instead).
_OUTCOMES: Final = {
    "all-pass": "Everyone before the dealer passed, so the dealer takes the pool without play.",
    "lone-miss": "One player took miss and everyone else passed: he takes the pool without play.",
    "retired": "Everyone passed, and the dealer, who must retire for this hand, takes nothing: "
    "nobody plays, and the pool stays for the next deal.",
    "offender": "One player alone was left to take the pool without play, but he had offended, "
    "so he wins nothing: the pool stays for the next deal.",
    "nobody-plays": "Everyone passed, and the dealer stands out of this deal: nobody plays, and "
    "the pool stays for the next deal.",
    "lone-player": "One player alone played and everyone else passed, the dealer too: he takes "
    "the pool without play.",
}

#: How a game was finished, Peel's ways (p. 17, A54), after "The game is over".
_FINISHED: Final = {
    "divide": ": the pool was shared equally",
    "until-single": ": a hand went by in which nobody was looed",
    "last-round": ": the last deal was played with everyone standing, and nobody paid a loo",
    "withdraw": ": you withdrew at your turn to deal, paying for the deal",
}


# -- what the table's views say -------------------------------------------------------------

STALE: Final = (
    "This page was out of date (another tab, or a second click?), so nothing was done. "
    "Here is the table as it stands now."
)
NO_VERSION: Final = "This request could not be read: it lacks the table's version. Reload the page."
BAD_STEP: Final = "The step must be a whole number from 0 to the number of actions in the hand."


def sentence(text: str) -> str:
    """An engine error's text as a sentence: a capital and a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
