"""What the practice table's pages show: the table in play, a finished hand's replay, the
chooser's rule sets. Views parse, authorize, call the engine and render; everything a page says
about the hand is built here from the human's view of it (``view_for(hand, HUMAN)``), the only
thing about the cards that reaches a template: no other hand, the miss, the stock or the
discards.

The English the table writes itself (its headings, who was looed, how many tricks, the
refusals of a view) is gathered here too, below the page-building, so that one later step can
route it through the engine's message catalogue (``games.loo.messages``) as the engine's own
sentences already are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from django.contrib.messages.storage.base import Message as StoredMessage
from django.urls import reverse

from games import guidance
from games.forms import CHOICE_HELP, ActionForm
from games.links import RuleLink, RuleLinks, source_url
from games.loo import catalogue
from games.loo.cards import Card, card
from games.loo.hand import IRREGULARITIES, Event, Hand, IllegalAction, Payment
from games.loo.messages import Message, msg
from games.loo.play import trick_winner
from games.loo.rulesets import GAME_NAMES, HAND_SIZE, PRESETS
from games.loo.table import Table
from games.loo.view import PlayerView, TrickView, view_for
from games.models import MAX_PLAYERS, PracticeHand, PracticeTable
from games.naming import HUMAN, say, seat_name, stored_message

# -- the chooser ----------------------------------------------------------------------------


def chooser_presets() -> list[dict[str, Any]]:
    """Each rule set with its source's page and the games it plays, with their numbers of
    players at a practice table."""
    return [
        {
            "preset": p,
            "url": source_url(p.id),
            "games": [(GAME_NAMES[g], *_player_range(p.rules.players(g))) for g in p.rules.games],
        }
        for p in PRESETS.values()
    ]


def _player_range(limits: tuple[int, int]) -> tuple[int, int]:
    return limits[0], min(limits[1], MAX_PLAYERS)


# -- the table ------------------------------------------------------------------------------


def table_context(
    practice: PracticeTable,
    table: Table,
    hand: Hand,
    *,
    form: ActionForm | None = None,
    refusal: IllegalAction | None = None,
    notice: str = "",
    error: str = "",
    done: Sequence[str] = (),
    stored: Iterable[StoredMessage] = (),
) -> dict[str, Any]:
    """The table page's context for ``hand`` (the table's current one): ``form``, the human's
    last form (a fresh one unless it has errors), ``refusal``, the engine's refusal of it;
    ``notice`` and ``error``, what the view has to say; ``done``, what his decision did;
    ``stored``, messages left by a redirect (without JavaScript)."""
    view = guidance.held_view(practice.guide, hand) or view_for(hand, HUMAN)
    if table.finish_way is not None and hand.over:
        # Peel's finish (the pool shared, a withdrawal) moved counters after the hand: the
        # table shows where they stand now.
        view = dataclasses.replace(view, balances=tuple(table.balances), pool=table.pool)
    if form is None or form.is_bound and not form.errors:
        form = ActionForm(view, initial={"version": practice.version})
    # The computer players' reasons once the hand is over (during it they tell of hidden cards).
    log = _log_lines(view, practice.notes, reasons=hand.over)
    refusal_rule = refusal.application.rule if refusal and refusal.application else ""
    # Messages left by a redirect (no JavaScript): a refusal carries its rule in its tags.
    flashed = [
        (m.message, m.level_tag, next((t[5:] for t in m.tags.split() if t[:5] == "rule:"), ""))
        for m in stored
    ]
    flashed += [(text, "info", "") for text in done]
    links = RuleLinks.of(practice.rules, practice.game)
    options = view.options
    explanations = [
        (say(a.message), links.link(a.rule)) for a in (options.explanations if options else ())
    ]
    card_rows = [(c, links.link(c.why.rule) if c.why else None) for c in form.card_choices]
    # The rules that forbid cards now, each said once beside the cards.
    binding: list[tuple[str, RuleLink | None]] = []
    for choice, rule in card_rows:
        if not choice.legal and choice.why and (say(choice.why.message), rule) not in binding:
            binding.append((say(choice.why.message), rule))
    log_earlier, log_current = _split_log(_linked(log, links))
    notes = [
        (say(a.message), links.link(a.rule))
        for a in (options.legal.notes if options and options.legal else ())
    ]
    return {
        "practice": practice,
        "view": view,
        "status": _status(view),
        "form": form,
        "choice_help": [
            (value, label, CHOICE_HELP.get(value, "")) for value, label in form.choice_buttons
        ],
        "log": log,
        "log_earlier": log_earlier,
        "log_current": log_current,
        "flush_lines": [line for line in log if line.event.kind == "flush"],
        "explanations": explanations,
        "card_rows": card_rows,
        "binding": binding,
        "legal_notes": notes,
        "refusal_rule": links.link(refusal_rule) if refusal_rule else None,
        "flashed": [
            (text, level, links.link(rule) if rule else None) for text, level, rule in flashed
        ],
        "notice": notice,
        "error": error,
        "version": practice.version,
        "urls": {
            "act": reverse("games:table-act", args=[practice.pk]),
            "next": reverse("games:table-next", args=[practice.pk]),
            "takeback": reverse("games:table-takeback", args=[practice.pk]),
            "finish": reverse("games:table-finish", args=[practice.pk]),
        },
        # Peel's ways to finish the game (p. 17, A54), and what ending it now would leave.
        "finishes": table.finishes(),
        "may_withdraw": table.may_withdraw(HUMAN),
        "deals_to_even": table.deals_to_even(),
        "finished": table.finish_way if table.session_over else "",
        "end_counters": table.balances[HUMAN],
        **_take_back(practice, table, hand),
        # A line marked with the lesson's rule is never folded away unseen.
        "earlier_marked": bool(
            practice.guide
            and any(practice.guide["rule"] in line.event.rules for line in log_earlier)
        ),
        "can_deal": hand.over and not table.session_over,
        # A finished hand is shared by its replay (and that deal to play again): nothing
        # about a hand in progress, nor the table's later deals.
        "shareable": PracticeHand.share_url(practice.pk, hand.setup.hand_number)
        if hand.over
        else "",
        "laws_stand": practice.laws and hand.rules.penalties != "none",
        "irregular_laws": {
            what.replace("-", "_"): _law(IRREGULARITIES[what], practice.rules, links)
            for what in form.irregularities
        },
        "declare_before": _declare_before(view) if form.waiting else "",
        "first_dealer": _first_dealer(table) if hand.setup.hand_number == 1 else "",
        "links": links,
        "guide_rule": links.link(practice.guide["rule"]) if practice.guide else None,
        **_table_context(view, hand, links),
        **guidance.guide_context(practice.guide, hand, practice.pk),
    }


def _take_back(practice: PracticeTable, table: Table, hand: Hand) -> dict[str, Any]:
    """Whether the human's last decision may be taken back (``can_take_back``), and if it may
    not, why not, beside where the button would be: at an honest table
    (``honest_table``), none ever; else none once something hidden was shown because of it
    (``takeback_refused``, the engine's reason: ``Table.takeback_refusal``). Nothing is said
    before he has decided anything in this deal, nor of a lesson's finished guided hand."""
    if practice.honest:
        return {
            "can_take_back": False,
            "honest_table": HONEST_TABLE,
            "takeback_refused": "",
            "takeback_offered": "",
        }
    refusal = table.takeback_refusal(HUMAN)
    said = (
        ""
        if refusal is None or refusal.key in _TAKEBACK_UNSAID or practice.guided_hand_over(hand)
        else say(refusal)
    )
    return {
        "can_take_back": refusal is None and his_own_last(practice, hand),
        "honest_table": "",
        "takeback_refused": f"{TAKEBACK_REFUSED} {said}" if said else "",
        "takeback_offered": TAKEBACK_OFFERED,
    }


def his_own_last(practice: PracticeTable, hand: Hand) -> bool:
    """Whether the last action of ``hand`` is a decision the learner made himself, not one
    the table made for him (a guided hand's declaration: ``guidance.learner_decisions``)."""
    mine = guidance.learner_decisions(practice.guide, hand)
    return bool(mine) and mine[-1] == len(hand.log) - 1


#: Refusals of a take-back not said beside the button: there is no decision to take back.
_TAKEBACK_UNSAID: Final = ("takeback.nothing", "error.no-hand")


# -- a finished hand ------------------------------------------------------------------------


def replay_context(record: PracticeHand, step: int, *, here: str, share_url: str) -> dict[str, Any]:
    """A finished hand after its first ``step`` actions (at most its number of actions), as
    the human saw it, with its trace up to there: ``here``, the page's own address;
    ``share_url``, the link that shares it ("" on a shared replay)."""
    steps = record.steps
    hand = record.replay(step)
    view = view_for(hand, HUMAN)
    log = _log_lines(view, [n for n in record.notes if n["action"] < step])
    # The lines this step added to the trace.
    first_new = len(record.replay(step - 1).events) if step else len(log)
    links = RuleLinks.of(record.table.rules, record.table.game)
    return {
        "record": record,
        "practice": record.table,
        "view": view,
        "step": step,
        "steps": steps,
        "log": _linked(log, links),
        "flush_lines": [line for line in log if line.event.kind == "flush"],
        "first_new": first_new,
        "in_replay": True,
        "here": here,
        "share_url": share_url,
        "shared": not share_url,
        "links": links,
        **_table_context(view, hand, links),
    }


# -- what both show -------------------------------------------------------------------------


@dataclass
class LogLine:
    """One line of the trick log: an event of the public trace, named for this table, and
    what a computer player said about its decision or the rules that bound the human."""

    event: Event
    text: str
    cards: list[Card]
    reason: str = ""
    explanations: list[dict[str, str]] = field(default_factory=list)
    rules: list[RuleLink] = field(default_factory=list)


def _log_lines(
    view: PlayerView, notes: list[dict[str, Any]], *, reasons: bool = True
) -> list[LogLine]:
    """The trick log, each line with what its action's note says; ``reasons``: the computer
    players' reasons too (in the replay of a finished hand). At the table they wait for the
    hand to end, every one of them: most tell of cards the human cannot see ("a hand like this
    is looed in 83% of 8 sampled deals", "the only choice", a card played against the rules,
    which the table finds only when the hand is over); a careless player's lapse, which the
    table saw, is told by its own line of the trace, and why he did it ("too eager to see his
    cards") waits with the rest."""
    lines = [LogLine(e, say(e.message), [card(c) for c in e.cards]) for e in view.events]
    last_trick = _last_trick_lines(view)
    # A note belongs to the first line of the trace its action produced.
    for note in notes:
        if not 0 <= note["event"] < len(lines):
            continue
        line = lines[note["event"]]
        if "reason" in note and reasons:
            line.reason = say(_reason(note["reason"], note["event"] in last_trick))
        if "explanations" in note:
            line.explanations = [
                {"rule": e["rule"], "text": say(stored_message(e.get("message", e.get("text"))))}
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


def _linked(log: list[LogLine], links: RuleLinks) -> list[LogLine]:
    for line in log:
        line.rules = [links.link(r) for r in line.event.rules]
    return log


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    counters: int
    dealer: bool
    to_act: bool
    declared: str
    cards: int
    tricks: int
    looed: bool


@dataclass(frozen=True)
class PaymentRow:
    payer: str
    payee: str
    amount: int
    reason: str
    rule: RuleLink


DECLARED = {
    None: "",
    "play": "plays",
    "pass": "passed",
    "miss": "took miss",
    "defend": "plays for the pool",
    "out": "stands out of this deal",
}


def _table_context(view: PlayerView, hand: Hand, links: RuleLinks) -> dict[str, Any]:
    """What the table shows besides the log, all from the human's view."""
    tricks_won = {s: 0 for s in range(view.players)}
    for t in view.tricks:
        if t.winner is not None:
            tricks_won[t.winner] += 1
    seats = [
        SeatRow(
            seat=s,
            name=seat_name(s),
            counters=view.balances[s],
            dealer=s == view.dealer,
            to_act=s == view.to_act,
            declared=DECLARED.get(view.declared[s], view.declared[s] or ""),
            cards=view.hand_sizes[s],
            tricks=tricks_won[s],
            looed=s in view.looed,
        )
        for s in [(view.dealer + 1 + k) % view.players for k in range(view.players)]
    ]
    payments = [_payment_row(p, links) for p in view.payments if p.rule != "ante"]
    # The rule that prices a loo under these rules: the engine's own answer.
    loo_rule = hand.loo_rule()
    return {
        "seats": seats,
        "payments": payments,
        "ante_rule": links.link("ante"),
        "single_rule": links.link("single"),
        "loo_cost": hand.loo_amount(),
        "loo_rule": links.link(loo_rule),
        "deal_rule": links.link("single" if view.single else "double"),
        "must_rule": links.link("must"),
        "club_law_rule": links.link("club-law"),
        "civil_rule": links.link("pam-be-civil"),
        "flush_cards": [list(f.cards) for f in view.flush.flushes] if view.flush else [],
        "tricks": [
            {
                "number": i + 1,
                "plays": [(seat_name(s), c) for s, c in t.plays],
                "winner": seat_name(t.winner),
            }
            for i, t in enumerate(view.tricks)
        ],
        "trick": [(seat_name(s), c) for s, c in view.trick.plays] if view.trick else [],
        "trick_lead": _trick_lead(view, view.trick, links) if view.trick else None,
        "last_trick": _last_trick(view, links),
        "opponents": [s for s in seats if s.seat != HUMAN],
        "me": next(s for s in seats if s.seat == HUMAN),
        "looed_line": _looed_line(view.looed),
        "my_tricks_line": _my_tricks_line(view, tricks_won[HUMAN]),
        "single_cards": _single_cards(view, seats),
    }


def _single_cards(view: PlayerView, seats: list[SeatRow]) -> list[tuple[str, Card, bool]]:
    """peel's single deal (A39): each player's card, dealt face up, in the order dealt, and
    whether it took the pool."""
    if view.outcome != "single-deal":
        return []
    return [
        (row.name, view.shown_held[row.seat][0], row.seat in view.in_play)
        for row in seats
        if view.shown_held[row.seat]
    ]


@dataclass(frozen=True)
class TrickLead:
    """The card that wins a trick so far (or took it), and why, in the engine's words."""

    index: int
    name: str
    card: Card
    why: list[tuple[str, RuleLink]]


def _trick_lead(view: PlayerView, trick: TrickView, links: RuleLinks) -> TrickLead | None:
    """Who holds the trick with the cards laid so far: the engine's ``trick_winner``, which
    says why ("the highest trump", "Pam"). A lone card leads it, with nothing to explain."""
    cards = [c for _, c in trick.plays]
    if not cards:
        return None
    if len(cards) == 1:
        return TrickLead(0, seat_name(trick.plays[0][0]), cards[0], [])
    result = trick_winner(view.game, view.rules, view.trump, cards)
    why = [(say(a.message), links.link(a.rule)) for a in result.explanations]
    return TrickLead(result.winner, seat_name(trick.plays[result.winner][0]), result.card, why)


def _last_trick(view: PlayerView, links: RuleLinks) -> dict[str, Any] | None:
    """The trick taken last, with who took it and why: shown while the next is not yet led, and
    when the hand is over (with JavaScript, played out before the next one when the computer
    players took it)."""
    if not view.tricks:
        return None
    done = view.tricks[-1]
    lead = _trick_lead(view, done, links)
    if lead is None or done.winner is None:
        return None
    if done.plays[lead.index][0] != done.winner:  # taken otherwise (a law): say only who took it
        lead = TrickLead(lead.index, seat_name(done.winner), lead.card, [])
    return {
        "number": len(view.tricks),
        "plays": [(seat_name(s), c) for s, c in done.plays],
        "lead": lead,
    }


def _split_log(log: list[LogLine]) -> tuple[list[LogLine], list[LogLine]]:
    """The trick log as (earlier, current): the current trick's lines (the last trick's, until
    the next is led), or the whole log before the play."""
    ends = [i for i, line in enumerate(log) if line.event.kind == "trick"]
    if not ends:
        return [], log
    start = ends[-1] + 1 if ends[-1] + 1 < len(log) else (ends[-2] + 1 if len(ends) > 1 else 0)
    return log[:start], log[start:]


def _looed_line(looed: tuple[int, ...]) -> str:
    """Who was looed, in the order of the play ("You, West and East were looed."): whoever
    paid a loo, for taking no trick or, under peel, for an offence."""
    if not looed:
        return ""
    if len(looed) == 1:
        return say(msg("table.looed-one", p=looed[0]))
    return say(msg("table.looed-many", ps=list(looed)))


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
    """What the human's tricks won him: the engine's own settlement line when their shares
    stayed in the pool (or he took the pool alone), else their count."""
    for event in view.events:
        if event.seat == HUMAN and event.message.key in _OWN_TRICKS_LINES:
            return say(event.message)
    if not tricks:
        return say(msg("table.no-trick", p=HUMAN))
    return say(msg("table.tricks-won", p=HUMAN, n=tricks))


def _first_dealer(table: Table) -> str:
    """How the first dealer was chosen, without the cards of the cut: those came from another
    shuffle, and naming them beside this deal's cards would only confuse."""
    return say(table.first_dealer_brief)


def _status(view: PlayerView) -> str:
    """The heading of the table: whose turn it is and what to do."""
    return say(_status_message(view))


def _status_message(view: PlayerView) -> Message:
    if view.phase == "over":
        single = view.outcome == "single-deal"
        return msg("table.single-over" if single else "table.over", n=view.hand_number)
    options = view.options
    if options is None:
        declaring = view.phase in ("declare", "exchange")
        return msg("table.waiting-to-declare" if declaring else "table.waiting", p=view.to_act)
    if options.kind == "play":
        lead = view.trick is None or not view.trick.plays
        return msg("table.lead" if lead else "table.play", p=HUMAN)
    if options.kind == "replay":
        return msg("table.replay", p=HUMAN)
    if view.phase == "exchange":
        return msg("table.exchange", p=HUMAN)
    said = [msg(f"table.choice.{c}") for c in options.choices if c in _SAID_CHOICES]
    if not said:
        return msg("table.declare-any", p=HUMAN)
    return msg("table.declare", p=HUMAN, choices=said)


#: The declarations the heading names ("Your turn to declare: play, pass or take miss").
_SAID_CHOICES: Final = ("play", "pass", "take-miss")


def _law(rule_id: str, source: str, links: RuleLinks) -> tuple[str, RuleLink]:
    """What the table's source says of a law (its words, from the rule catalogue), and the
    rule's links: shown beside the control that breaks it, before it is broken."""
    said = [s.text for s in catalogue.rule(rule_id).sources if s.source == source]
    return (said[0] if said else ""), links.link(rule_id)


def _declare_before(view: PlayerView) -> str:
    """Who declares before the human, in order, as a sentence ("West and North declare before
    you, in turn; then it is your turn.")."""
    assert view.to_act is not None
    first = view.to_act
    before = [(first + k) % view.players for k in range((HUMAN - first) % view.players)]
    return say(msg("table.declare-before", ps=before, p=HUMAN))


def _payment_row(payment: Payment, links: RuleLinks) -> PaymentRow:
    return PaymentRow(
        payer=seat_name(payment.payer),
        payee=seat_name(payment.payee),
        amount=payment.amount,
        reason=say(payment.reason),
        rule=links.link(payment.rule),
    )


# -- what the table's views say -------------------------------------------------------------

STALE: Final = (
    "This page was out of date (another tab, or a second click?), so nothing was done. "
    "Here is the table as it stands now."
)
#: Why a finished guided hand is not taken back.
GUIDED_HAND_OVER: Final = (
    "The lesson's guided hand is over and stays as it was played: go back to the lesson, or "
    "deal the next hand."
)
NOTHING_TO_TAKE_BACK: Final = "You have made no decision in this deal to take back."
#: Why an honest table offers no take-back, on its page and to a take-back posted there.
HONEST_TABLE: Final = "This is an honest table: no decision is taken back, as at a real table."
#: Beside the take-back button: how long it is offered.
TAKEBACK_OFFERED: Final = (
    "Offered only until something hidden (the miss, a card drawn, another player's answer) "
    "is shown because of your decision."
)


def takeback_refused(refusal: IllegalAction) -> str:
    """A refused take-back, with the engine's reason."""
    if refusal.message.key in _TAKEBACK_UNSAID:
        return say(refusal.message)
    return f"{TAKEBACK_REFUSED} {say(refusal.message)}"


TAKEBACK_REFUSED: Final = "Your last decision cannot be taken back."
TOO_MANY_TABLES: Final = "Too many practice tables have been dealt."
NO_VERSION: Final = "This request could not be read: it lacks the table's version. Reload the page."
BAD_STEP: Final = "The step must be a whole number from 0 to the number of actions in the hand."
NO_SHARED_HAND: Final = "No shared hand has this address."
NO_HAND: Final = "This table has no hand."


def session_full(tables: int) -> str:
    """Why a browser without an account may not deal another table."""
    return (
        f"This browser already has {tables} tables with a hand in "
        "progress: finish one of them (or log in, and keep them all) before dealing another."
    )


def sentence(text: str) -> str:
    """An engine error's text as a sentence: a capital and a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
