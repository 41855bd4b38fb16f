"""The table page as one typed model: what a table's template shows, built in one place
(:func:`games.table.presenting.table_page`, :func:`games.table.presenting.replay_page`) for
the practice table, a lesson's guided hand and a table for people alike.

A page is frozen and holds no rule of the game: every flag the template reads (may the
player deal, leave, take back; where the replay is) is decided by the builder, from the
engine's view of the hand and what each feature offers (:class:`Offers`, the practice table's
:class:`PracticePart`). The template reads ``page.felt``, ``page.decision``, ``page.log``,
``page.settlement``, ``page.controls``... and decides nothing but how to show them.

The parts each feature builds itself (the practice table's session, its coach, a lesson's
guide, the pace) are typed here too, so that the table's page names everything it shows;
the features fill them in (``games.practice.presenting``, ``games.practice.guidance``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django import forms

from games.links import RuleLink
from games.loo.cards import Card
from games.loo.hand import Event
from games.loo.view import PlayerView
from games.models import PracticeTable
from games.table.forms import ActionForm, CardChoice

# -- the felt -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatRow:
    """A player as his seat on the felt shows him. ``slot``: where the seat is drawn round the
    felt, and his card of the trick before it (``presenting.seat_slots``); ``label``: his
    position in short ("2nd left"); ``elder``: the elder hand, on the dealer's left, who
    declares and leads first."""

    seat: int
    name: str
    label: str
    slot: str
    counters: int
    dealer: bool
    elder: bool
    to_act: bool
    declared: str
    cards: int
    tricks: int
    looed: bool


@dataclass(frozen=True)
class Play:
    """A card of a trick, with who played it and the slot of his seat (his card lies in front
    of it)."""

    name: str
    label: str
    slot: str
    card: Card


@dataclass(frozen=True)
class TrickLead:
    """The card that wins a trick so far (or took it), and why, in the engine's words."""

    index: int
    name: str
    card: Card
    why: list[tuple[str, RuleLink]]
    #: Whose card it is ("your", "the player on your left's").
    whose: str = ""


@dataclass(frozen=True)
class TrickDone:
    """A trick gathered: its number, its cards and who took it."""

    number: int
    plays: list[Play]
    winner: str


@dataclass(frozen=True)
class LastTrick:
    """The trick taken last, with who took it and why (``lead``)."""

    number: int
    plays: list[Play]
    lead: TrickLead


@dataclass(frozen=True)
class Felt:
    """The felt: the seats round it (``me`` at its foot, the ``opponents`` from his left round
    to his right), the trick on it and the last one taken, the tricks gathered."""

    seats: list[SeatRow]
    me: SeatRow
    opponents: list[SeatRow]
    #: Two seats on each side of the felt: the trick lies in three rows, not two.
    two_sides: bool
    #: The pool in the felt's centre while the hand is played: "single" or "double" ("carried
    #: over" under a source without the word), and ", a
    #: must", ", club law" ("" once it is over).
    pool_kind: str
    trick: list[Play]
    #: Who holds the trick so far (None: no card laid, or a guided hand asks it).
    trick_lead: TrickLead | None
    last_trick: LastTrick | None
    tricks: list[TrickDone]


# -- the stakes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Stakes:
    """What this deal is played for, and the mode the table plays in."""

    dealer_name: str
    #: How the first dealer was chosen ("" after the first deal).
    first_dealer: str
    loo_cost: int
    #: What a newcomer plays for ("" at Peel's single deal).
    goal: str
    ante_rule: RuleLink
    loo_rule: RuleLink
    deal_rule: RuleLink
    #: What the rule set's source calls a pool with loos carried over ("double", or "carried
    #: over" under a source that has no such word).
    carried: str
    must_rule: RuleLink
    club_law_rule: RuleLink
    division_rule: RuleLink
    #: Laws mode (irregularities stand), and whether its rules price them.
    laws: bool
    laws_stand: bool


# -- the trick log --------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Log:
    """The trick log: at the table, the current trick's lines (``current``) and the earlier
    ones folded away (``earlier``); in a replay, every line (``lines``) with those the step
    added marked from ``first_new``."""

    lines: list[LogLine]
    earlier: list[LogLine]
    current: list[LogLine]
    #: A replay's log: every line, those its step added marked from ``first_new``.
    in_replay: bool
    first_new: int
    #: A line marked with the lesson's rule is never folded away unseen.
    earlier_marked: bool
    #: The rule whose lines are marked (a lesson's guided hand's), or "".
    watched: str
    #: The computer players' reasons wait for the hand's end: the log says so meanwhile.
    reasons_later: bool


# -- the settlement -------------------------------------------------------------------------


@dataclass(frozen=True)
class PaymentRow:
    payer: str
    payee: str
    amount: int
    reason: str
    rule: RuleLink


@dataclass(frozen=True)
class SingleCard:
    """Peel's single deal (A39): a player's card, dealt face up, and whether it took the
    pool; ``label`` and ``slot``: his seat's, for the card to lie in front of it on the felt
    as a trick's cards do."""

    name: str
    card: Card
    won: bool
    label: str = ""
    slot: str = ""


@dataclass(frozen=True)
class Settlement:
    """A finished hand's settlement: who took which trick, who pays what, and the links
    after it (``replay_url``, ``review_url``: "" where none is offered, as in a replay)."""

    payments: list[PaymentRow]
    flush_cards: list[list[Card]]
    flush_lines: list[LogLine]
    single_cards: list[SingleCard]
    #: What became of a pool not played for, in a sentence ("Everyone before the dealer
    #: passed, ..."): "" when the hand was played, a flush shown or Peel's single dealt.
    outcome: str
    single_rule: RuleLink
    looed_line: str
    my_tricks_line: str
    replay_url: str
    review_url: str


# -- the decision ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CardRow:
    """One of the viewer's cards on his turn to play, with the rule and the words that forbid
    it (None and "" when it may be played)."""

    choice: CardChoice
    rule: RuleLink | None
    text: str
    #: What its button does, for a screen reader: "Play", "Lead" or (a card not allowed) "Try".
    verb: str


@dataclass(frozen=True)
class Decision:
    """What the viewer decides now, and the rules that bind him: his form and its buttons,
    his cards to play, the laws he may break (laws mode), where focus goes first."""

    form: ActionForm
    #: Each declaration's button: (value, label, help).
    choice_help: list[tuple[str, str, str]]
    #: The engine's explanations of his options, each with its rule.
    explanations: list[tuple[str, RuleLink]]
    card_rows: list[CardRow]
    #: Beside the cards: which may be played (or led), and what happens to one that may not.
    play_help: str
    #: The rules that forbid cards now, each said once beside the cards.
    binding: list[tuple[str, RuleLink | None]]
    #: Rules that do not bind here (the engine's notes on the legal cards).
    legal_notes: list[tuple[str, RuleLink]]
    #: The rule the engine's refusal of his last form cites.
    refusal_rule: RuleLink | None
    #: Laws mode's irregularities offered now: ``declare_early``, ``expose``: what the source
    #: says of each, and its rule.
    irregular_laws: dict[str, tuple[str, RuleLink]]
    #: Others declare before him, and the table waits for him to let them.
    waiting: bool
    declare_before: str
    civil_rule: RuleLink
    #: The page's first decision, for ``autofocus``: "card" (``autofocus_card``, the code of
    #: his first legal card), "discard", "choice", "wait", "deal" or "".
    autofocus: str
    autofocus_card: str


# -- the controls ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TableUrls:
    """Where the table's forms post ("" where the table offers no such thing)."""

    act: str
    next: str
    leave: str = ""
    takeback: str = ""
    finish: str = ""


@dataclass(frozen=True)
class TakeBack:
    """Whether the viewer's last decision may be taken back, and what is said beside where
    the button would be: ``offered`` (beside the button), ``honest`` (an honest table never
    offers it) or ``refused`` (why not now)."""

    may: bool = False
    offered: str = ""
    honest: str = ""
    refused: str = ""


@dataclass(frozen=True)
class Controls:
    """What the viewer may do at the table besides his decision, each decided by the
    builder: deal the next hand, finish the game Peel's ways, leave, take back."""

    urls: TableUrls
    version: int
    may_deal: bool
    #: The deal button is the page's main action (not on a guided hand: back to the lesson).
    deal_primary: bool
    #: The felt's "Leave the table" (a practice table's, between deals).
    may_leave: bool
    #: Peel's ways to finish the game (p. 17, A54) offered now.
    finishes: tuple[str, ...]
    may_withdraw: bool
    deals_to_even: int
    #: How the game was finished ("" while it goes on), said after "The game is over" (": the
    #: pool was shared equally"), and the viewer's counters at its end.
    finished: str
    finished_how: str
    end_counters: int
    take_back: TakeBack
    #: A finished hand's share link ("" during a hand).
    shareable: str


@dataclass(frozen=True)
class Alerts:
    """What the page has to say first: the flashed messages, each (text, level, rule); a
    notice (a stale page) and an error (a refusal)."""

    flashed: list[tuple[str, str, RuleLink | None]] = field(default_factory=list)
    notice: str = ""
    error: str = ""


# -- the practice table's parts -------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """A player's standing in the session: his counters now, his net since the first deal,
    how many times he was looed, and his counters after each finished deal."""

    seat: int
    label: str
    counters: int
    net: int
    looed: int
    after: list[int]


@dataclass
class ChartLine:
    """A player's line on the running score's chart, and where its label is written."""

    you: bool
    points: str
    label: str
    end: float
    label_y: float = 0.0


@dataclass(frozen=True)
class Chart:
    """The running score as SVG: its size (user units), one line a player, the axis' values
    (y, value) and the deals' ticks (x, deal)."""

    width: int
    height: int
    lines: list[ChartLine]
    label_x: float
    axis: list[tuple[float, int]]
    left: int
    right: float
    bottom: int
    ticks: list[tuple[float, int]]


@dataclass(frozen=True)
class Session:
    """The session so far: the finished deals' standings and chart; whether the human has
    left the table."""

    deals_played: int
    standings: list[Standing]
    deal_numbers: list[int]
    chart: Chart | None
    left: bool


@dataclass(frozen=True)
class GuideAsk:
    """A guided hand's question on a complete trick: who takes it? Each choice (seat, name,
    card)."""

    number: int
    url: str
    choices: list[tuple[int, str, Card]]


@dataclass(frozen=True)
class GuideDeclared:
    """The lesson that teaches declaring, named where the table declares for the learner."""

    lesson: str
    url: str


@dataclass(frozen=True)
class Guide:
    """A lesson's guided hand (``PracticeTable.guide``): the lesson, its banner and the way
    back, the rule whose log lines are marked (``rule``, linked: ``rule_link``); who
    declared for the learner (``declared``), the question on the trick he is to work out
    (``ask``); ``hides_lead``: who holds a trick is his to work out."""

    lesson: str
    banner: str
    back: str
    rule: str
    rule_link: RuleLink
    declared: GuideDeclared | None
    ask: GuideAsk | None
    hides_lead: bool


@dataclass(frozen=True)
class Coach:
    """The coach at the table: the "Ask the coach" form while the human decides (``url``,
    its address for htmx), and the answer he asked for (without JavaScript: ``?coach=1``),
    as ``games.practice.coaching.answer`` made it."""

    offered: bool
    url: str
    answer: Mapping[str, object] | None


@dataclass(frozen=True)
class PaceShown:
    """The computer players' pace as this browser session set it: its form, and the pause
    before each card and the hold of a finished trick (milliseconds); ``wait``: a finished
    trick stays until "Next trick"."""

    form: forms.Form
    pause: int
    hold: int
    wait: bool


@dataclass(frozen=True)
class PracticePart:
    """What only the practice table shows: its table, a lesson's guide, the session, the
    coach and the pace."""

    table: PracticeTable
    guide: Guide | None
    session: Session
    coach: Coach | None = None
    pace: PaceShown | None = None


# -- the page -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Offers:
    """What a feature offers at its table, for the builder to decide the controls from: the
    forms' addresses; whether the table deals on once a hand is over; Peel's finishes and
    withdrawal; the take-back; the links after a finished hand; whether the viewer may wait
    for the others to declare before his turn (a practice table's human)."""

    urls: TableUrls
    deals_on: bool = False
    may_leave: bool = False
    finishes: tuple[str, ...] = ()
    may_withdraw: bool = False
    deals_to_even: int = 0
    finished: str = ""
    end_counters: int = 0
    take_back: TakeBack = TakeBack()
    replay_url: str = ""
    review_url: str = ""
    shareable: str = ""
    waits: bool = True


@dataclass(frozen=True)
class TablePage:
    """A table's page for one viewer (``view.seat``): the heading (``status``), the felt,
    the stakes, his decision, the trick log, the settlement, the controls and the alerts;
    ``practice``: the practice table's own parts (None at a table for people)."""

    view: PlayerView
    status: str
    felt: Felt
    stakes: Stakes
    decision: Decision
    log: Log
    settlement: Settlement
    controls: Controls
    alerts: Alerts
    practice: PracticePart | None = None


@dataclass(frozen=True)
class ReplayPage:
    """A finished hand after its first ``step`` actions (of ``steps``), as the viewer saw it:
    the felt, the stakes, the settlement and the log as the table showed them then;
    ``here``, the page's address (the steps' links)."""

    view: PlayerView
    felt: Felt
    stakes: Stakes
    log: Log
    settlement: Settlement
    step: int
    steps: int
    here: str
