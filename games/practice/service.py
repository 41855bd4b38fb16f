"""The practice table's rules: the service its views (and a lesson's guided hand, in
``lessons``) call, as the tables for people have theirs (``games.people.service``). Every
change of a practice table is made here: dealing a new table within the limits, a decision of
the human and the computer players' replies, the next deal, Peel's finishes, a take-back, a
guided hand's answer, leaving the table.

Each change reads the table the page showed (:func:`load`: its ``version``), works on the
engine's state and stores it (:func:`_store`: nothing is stored if another request changed the
table meanwhile). It returns the sentences saying what it did, for the human; a refusal raises
:class:`Refused` with the sentence to show, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from django.conf import settings
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse

from games.loo.autoplay import Note
from games.loo.errors import LooError
from games.loo.hand import Hand, IllegalAction, setup_from_dict
from games.loo.table import WITHDRAW, Table, first_deal_of
from games.loo.view import view_for
from games.models import SHARE_SALT, PracticeHand, PracticeTable, copy_seed, new_seed
from games.naming import HUMAN, say
from games.practice import guidance
from games.table import presenting
from games.table.forms import ActionForm
from games.variations import options_for
from loo_site import limits

# -- what the service says -------------------------------------------------------------------

#: Why a finished guided hand is not taken back.
GUIDED_HAND_OVER: Final = (
    "The lesson's guided hand is over and stays as it was played: go back to the lesson, or "
    "deal the next hand."
)
NOTHING_TO_TAKE_BACK: Final = "You have made no decision in this deal to take back."
#: Why an honest table offers no take-back, on its page and to a take-back posted there.
HONEST_TABLE: Final = "This is an honest table: no decision is taken back, as at a real table."
TAKEBACK_REFUSED: Final = "Your last decision cannot be taken back."
#: Why a table one has left does nothing more, and why one leaves only between deals.
TABLE_LEFT: Final = "You have left this table: the session is over, and nothing more is dealt."
FINISH_THE_HAND: Final = "Finish this deal first: you may leave the table between deals."
LEFT_THE_TABLE: Final = "You left the table. Here is the final standing."
NO_SHARED_HAND: Final = "No shared hand has this address."
NO_HAND: Final = "This table has no hand."


def session_full(tables: int) -> str:
    """Why a browser without an account may not deal another table."""
    return (
        f"This browser already has {tables} tables with a hand in "
        "progress: finish one of them (or log in, and keep them all) before dealing another."
    )


def takeback_refused(refusal: IllegalAction) -> str:
    """A refused take-back, with the engine's reason."""
    if refusal.message.key in TAKEBACK_UNSAID:
        return say(refusal.message)
    return f"{TAKEBACK_REFUSED} {say(refusal.message)}"


#: Refusals of a take-back not said beside the button: there is no decision to take back.
TAKEBACK_UNSAID: Final = ("takeback.nothing", "error.no-hand")


class Refused(Exception):
    """What the human asked cannot be done now; ``str(error)`` says why, to him. Nothing was
    changed."""


class Stale(Refused):
    """The page was out of date (another tab, or a second click): nothing was done."""

    def __init__(self) -> None:
        super().__init__(presenting.STALE)


class ActionRefused(Refused):
    """A decision the form or the engine refused: ``form`` (bound, with its errors) and the
    engine's ``refusal`` (None if the form refused it), for the table page to show."""

    def __init__(self, form: ActionForm, refusal: IllegalAction | None = None) -> None:
        super().__init__(" ".join(str(e) for e in form.non_field_errors()))
        self.form, self.refusal = form, refusal


class TooManyTables(Refused):
    """Too many tables were dealt lately, or the limits cannot be counted: ``response``, the
    answer the limits give (loo_site.limits: the 429 page, or the 503 one)."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__(response.content.decode(errors="replace")[:200])
        self.response = response


class SessionFull(Refused):
    """A browser without an account whose tables all have a hand in progress."""


# -- dealing a new table ---------------------------------------------------------------------


def reserve_table(request: HttpRequest) -> None:
    """Before a new table is dealt, whatever asks for it (the chooser, a shared deal, a
    lesson's guided hand): count it against the limits and make room for it, or refuse
    (:class:`TooManyTables`: too many tables lately; :class:`SessionFull`: a browser
    without an account whose tables are all in play), changing nothing."""
    owner = request.user if request.user.is_authenticated else None
    if owner is None and request.session.session_key is None:
        # The table belongs to this browser session: make sure it has one.
        request.session.create()
    # Counted at once, this account's or session's and this address's: none slips past.
    taken = limits.take(request, "tables-per-session", "tables-per-address")
    if isinstance(taken, HttpResponse):
        raise TooManyTables(taken)
    if owner is None and not make_room(request.session.session_key or ""):
        limits.give_back(*taken)
        raise SessionFull(session_full(settings.SESSION_TABLES))


def make_room(session_key: str) -> bool:
    """Keep a browser session (no account) to ``SESSION_TABLES`` tables with the one about to
    be dealt: its oldest finished tables go; never a hand in progress (False: no room)."""
    tables = list(
        PracticeTable.objects.filter(owner=None, session_key=session_key)
        .order_by("updated")
        .only("pk", "state")
    )
    excess = len(tables) - (settings.SESSION_TABLES - 1)
    if excess <= 0:
        return True
    finished = [t.pk for t in tables if t.hand_over][:excess]
    if len(finished) < excess:
        return False
    PracticeTable.objects.filter(pk__in=finished).delete()
    return True


def deal(request: HttpRequest, data: dict[str, Any], *, honest: bool) -> PracticeTable:
    """A new table as the chooser's form chose it (``data``, its cleaned data; ``honest``:
    no take-backs; the variations agreed: ``games.variations``), for whoever made
    ``request``, once :func:`reserve_table` let it be."""
    return PracticeTable.deal_new(
        game=data["game"],
        rules=data["rules"],
        options=options_for(data.get("variations") or ()),
        players=data["players"],
        seed=data["seed"] if data["seed"] is not None else new_seed(),
        opponents=data["opponents"],
        laws=data["mode"] == "laws",
        honest=honest,
        owner=request.user if request.user.is_authenticated else None,
        session_key=request.session.session_key or "",
    )


def shared_hand(token: str) -> PracticeHand:
    """The finished hand a share token names; 404 for a token this site did not sign (or
    whose hand is gone)."""
    try:
        pk, number = signing.loads(token, salt=SHARE_SALT)
        return PracticeHand.objects.select_related("table").get(table_id=pk, number=number)
    except (signing.BadSignature, ValueError, TypeError, PracticeHand.DoesNotExist):
        raise Http404(NO_SHARED_HAND) from None


def deal_shared(request: HttpRequest, record: PracticeHand) -> PracticeTable:
    """ "Play this deal yourself": a new table whose first deal is the shared hand's cards
    (the same pack, dealer and seats: ``first_deal_of``) and whose later deals are new cards,
    so that a shared hand tells nothing of the deals that followed it at its table; once
    :func:`reserve_table` let it be."""
    setup = setup_from_dict(record.setup)
    pack, start = first_deal_of(setup)
    original = record.table
    return PracticeTable.deal_new(
        game=original.game,
        rules=original.rules,
        players=original.players,
        seed=new_seed(),
        opponents=original.opponents,
        laws=original.laws,
        honest=original.laws,
        owner=request.user if request.user.is_authenticated else None,
        session_key=request.session.session_key or "",
        engine_seed=copy_seed(setup.seed, setup.hand_number),
        first_pack=pack,
        start=start,
        first_dealer=setup.dealer,
        rule_set=setup.rules,
    )


# -- at the table ----------------------------------------------------------------------------


def current_hand(table: Table) -> Hand:
    if table.hand is None:  # every stored table has been dealt
        raise Http404(NO_HAND)
    return table.hand


def load(practice: PracticeTable, version: int) -> Table:
    """The engine's state of the table whose page showed ``version``, for a change: refused
    when the page was stale (:class:`Stale`) or the human has left the table."""
    if version != practice.version:
        raise Stale
    if practice.left:
        raise Refused(TABLE_LEFT)
    return practice.to_engine()


def act(practice: PracticeTable, table: Table, data: Any) -> list[str]:
    """One decision of the human (the posted ``data`` of the table's form); then the computer
    players act until it is his turn again. Returns what his decision cost him, if it broke a
    law (in the engine's words)."""
    hand = current_hand(table)
    if guidance.pending_trick(practice.guide, hand) is not None:
        raise Refused(guidance.SAY_FIRST)
    form = ActionForm(view_for(hand, HUMAN), data)
    if not form.is_valid():
        raise ActionRefused(form)
    action = form.action()
    notes = list(practice.notes)
    if action is None:
        # He lets the others declare (he was waiting, and could have declared before them).
        return _store(practice, table, practice.run_bots(table, notes))
    first_event = len(hand.events)
    try:
        table.apply(action)
    except IllegalAction as refusal:
        form.add_error(None, say(refusal.message, practice.players))
        raise ActionRefused(form, refusal) from None
    except LooError as error:
        form.add_error(None, presenting.sentence(str(error)))
        raise ActionRefused(form) from None
    hand = current_hand(table)
    # An irregularity of his: what it costs him, in the engine's words, said at once.
    done = [
        say(e.message, practice.players) for e in hand.events[first_event:] if e.kind == "irregular"
    ]
    # The rules that bound the human's decision, for the trick log: they name only his cards.
    if bound := practice.autoplay.rules_note(hand, action, form.options, first_event):
        notes.append(bound)
    notes = practice.run_bots(table, notes)
    return _store(practice, table, notes, done)


def deal_next(practice: PracticeTable, table: Table) -> list[str]:
    """The next deal at the same table, once the hand is over."""
    try:
        table.deal()
    except LooError as error:
        raise Refused(presenting.sentence(str(error))) from None
    return _store(practice, table, practice.run_bots(table, [], wait=True))


def finish(practice: PracticeTable, table: Table, way: str) -> list[str]:
    """Finish the game one of Peel's ways (p. 17, A54), once the hand is over, or withdraw
    at one's turn to deal: the engine refuses any other way, or any other moment."""
    try:
        done = table.withdraw(HUMAN) if way == WITHDRAW else table.finish(way)
    except LooError as error:
        raise Refused(presenting.sentence(str(error))) from None
    return _store(practice, table, practice.notes, [say(done, practice.players)])


def take_back(practice: PracticeTable, table: Table) -> list[str]:
    """Take back the human's last decision in this deal, while nothing hidden has been shown
    because of it (``Table.takeback_refusal``: no other seat has acted since, nothing was
    revealed, the hand is not over); at an honest table, never; nor a decision the table made
    for him, nor one of a lesson's finished guided hand."""
    hand = current_hand(table)
    if practice.honest:
        raise Refused(HONEST_TABLE)
    if practice.guided_hand_over(hand):
        raise Refused(GUIDED_HAND_OVER)
    keep = len(hand.log) - 1
    if table.takeback_refusal(HUMAN) is None and not his_own_last(practice, hand):
        # The last decision is one the table made for him (a guided hand's declaration).
        raise Refused(NOTHING_TO_TAKE_BACK)
    try:
        # Refused, changing nothing, once something hidden was shown because of it.
        table.take_back_decision(HUMAN)
    except IllegalAction as refusal:
        raise Refused(takeback_refused(refusal)) from None
    notes = [n for n in practice.notes if n["action"] < keep]
    practice.guide = guidance.answers_kept(practice.guide, current_hand(table))
    return _store(practice, table, notes)


def his_own_last(practice: PracticeTable, hand: Hand) -> bool:
    """Whether the last action of ``hand`` is a decision the learner made himself, not one
    the table made for him (a guided hand's declaration: ``guidance.learner_decisions``)."""
    mine = guidance.learner_decisions(practice.guide, hand)
    return bool(mine) and mine[-1] == len(hand.log) - 1


def say_winner(practice: PracticeTable, table: Table, seat: str) -> list[str]:
    """A guided hand that asks who takes each trick: the learner's answer for the trick on
    the table (``seat``, as posted), told right or wrong with the engine's reason; then the
    table moves on. An answer when none is asked, or naming a seat that played no card to it,
    is refused."""
    try:
        guide, told = guidance.say_winner(practice.guide or {}, current_hand(table), int(seat))
    except ValueError:
        raise Refused(guidance.NOT_ASKED) from None
    practice.guide = guide
    return _store(practice, table, list(practice.notes), [told])


def leave(practice: PracticeTable, table: Table) -> list[str]:
    """Leave the table between deals: the session ends with its final standing, and no more
    is dealt at it (the chooser lists it as ended)."""
    if not current_hand(table).over:
        raise Refused(FINISH_THE_HAND)
    if not practice.leave():
        raise Stale
    return [LEFT_THE_TABLE]


def _store(
    practice: PracticeTable, table: Table, notes: list[Note], done: Sequence[str] = ()
) -> list[str]:
    """Save the table and return ``done``; if another request changed it meanwhile, nothing
    is saved (:class:`Stale`)."""
    if not practice.update_from_engine(table, notes):
        raise Stale
    return list(done)
