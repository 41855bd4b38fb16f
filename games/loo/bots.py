"""Computer players. They see a :class:`~games.loo.view.PlayerView` and nothing else.

- :class:`BeginnerBot` makes random legal choices: it abides by every rule and knows nothing.
- :class:`CarelessBot` is a beginner who, where the laws let an irregular play stand (laws
  mode), now and then plays a card the rules forbid, so that the others meet the penalties
  and their rights (hoffmann's Law 16: demanding that a revoked hand be played again); and,
  asked by the table at any point of the hand (:meth:`CarelessBot.lapse`), now and then
  commits one of the other irregularities the laws punish: a misdeal, declaring or looking
  before his turn, looking at the miss or at another's cards, exposing a card.
- :class:`SensibleBot` decides by *determinisation*: it deals the cards it cannot see at random,
  consistently with what it has seen (its own cards, the cards played, who has shown himself void
  in a suit), plays each candidate decision out to the end of the hand in every sampled deal,
  and takes the one that wins it most counters on average. Its strength is measured by
  ``bench/engine.py``, not assumed.

Every decision says briefly why ("passed: looed in 70% of 24 sampled deals").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from .cards import PACK, Card, card
from .hand import Action, Hand, HandSetup, Trick
from .messages import Message, msg
from .play import Trumps, winning_index
from .rng import rng_for
from .rulesets import HAND_SIZE
from .view import PlayerView

BOT_KINDS: Final = ("beginner", "sensible", "careless")


@dataclass(frozen=True)
class Decision:
    action: Action
    #: Why, as a message (render it for the point of view that reads it).
    reason: Message


class Bot(Protocol):
    name: str

    def decide(self, view: PlayerView) -> Decision: ...


def _choices(view: PlayerView) -> list[Action]:
    """Every distinct action open to the player (discards: a handful of sensible sets)."""
    options = view.options
    assert options is not None and view.hand is not None
    seat = view.seat
    if options.kind == "play":
        assert options.legal is not None
        ace = "A" + view.trump
        return [
            Action.play(seat, c, civil=options.civil_call and c.code == ace)
            for c in options.legal.legal
        ]
    if options.kind == "replay":
        return [Action("replay", seat, "demand"), Action("replay", seat, "decline")]
    if view.phase == "exchange":
        actions = [Action.declare(seat, "pass")] if "pass" in options.choices else []
        for discards in _discard_sets(view, options.max_discards):
            actions.append(Action.declare(seat, "play", discards))
        return actions
    return [Action.declare(seat, c) for c in options.choices]


def _discard_sets(view: PlayerView, most: int) -> list[list[Card]]:
    """Stand, or throw the weak cards: non-trumps below a queen, all non-trumps, everything."""
    assert view.hand is not None
    trumps = Trumps.of(view.game, view.rules, view.trump)
    hand = list(view.hand)
    plain = [c for c in hand if not trumps.is_trump(c)]
    weak = [c for c in plain if c.value < 12]
    sets: list[list[Card]] = [[]]
    for candidate in (weak, plain, hand):
        candidate = candidate[:most]
        if candidate and candidate not in sets:
            sets.append(candidate)
    return sets


class BeginnerBot:
    """Random legal choices."""

    name = "beginner"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = rng_for(seed, "beginner")

    def decide(self, view: PlayerView) -> Decision:
        options = view.options
        assert options is not None and view.hand is not None
        rng = self.rng
        seat = view.seat
        if options.kind == "play":
            assert options.legal is not None
            played = rng.choice(options.legal.legal)
            civil = options.civil_call and played.code == "A" + view.trump
            # (A last card is no random choice: the only card in hand.)
            reason = (
                msg("bot.last-card", p=seat, card=played)
                if len(view.hand) == 1
                else msg("bot.random-card")
            )
            return Decision(Action.play(seat, played, civil), reason)
        if options.kind == "replay":
            return Decision(Action("replay", seat, "decline"), msg("bot.let-stand"))
        choice = rng.choice(options.choices)
        discards: list[Card] = []
        if view.phase == "exchange" and choice == "play" and options.max_discards:
            discards = rng.sample(list(view.hand), rng.randint(0, options.max_discards))
        return Decision(Action.declare(seat, choice, discards), msg("bot.random-choice"))


#: What a careless player may commit besides a forbidden card (``games.loo.hand.irregular``),
#: with the reason he gives.
LAPSES: Final = {
    "misdeal": "bot.lapse-misdeal",
    "faced-card": "bot.lapse-faced-card",
    "interfere": "bot.lapse-interfere",
    "declare-early": "bot.lapse-declare-early",
    "look-early": "bot.lapse-look-early",
    "look-miss": "bot.lapse-look-miss",
    "look-hand": "bot.lapse-look-hand",
    "expose": "bot.lapse-expose",
    "play-early": "bot.lapse-play-early",
}
_EXPOSE_HAND: Final = "bot.lapse-expose-hand"


class CarelessBot(BeginnerBot):
    """A beginner who slips: where an irregular play would stand (laws mode), with probability
    ``slip`` he plays a card the rules forbid him, if he holds one, instead of a legal one; and
    with probability ``lapse`` each time the table asks (:meth:`lapse`) he commits another
    irregularity open to him, once a hand at most."""

    name = "careless"
    #: The chance of a lapse each time the table asks, if the kind drawn is open to him: it asks
    #: every careless player at every point of the hand (about one hand in four has a lapse at
    #: five players, one in fifteen at three).
    lapse_chance = 0.04

    def __init__(self, seed: int | str = 0, slip: float = 0.2, lapse: float | None = None) -> None:
        super().__init__(seed)
        self.slip = slip
        if lapse is not None:
            self.lapse_chance = lapse
        self.lapse_rng = rng_for(seed, "lapse")

    def lapse(self, view: PlayerView) -> Decision | None:
        """Now and then, an irregularity the view says is open to him and would stand
        (``view.irregularities``: laws mode, under a source that punishes it), whether or not
        it is his turn; None otherwise. Once a hand at most; a card faced only by the dealer; a
        card exposed only while another is to play (at his own turn he plays it); a glance at
        another's cards only during the declarations. He chooses from what he sees: his own
        cards, and how many cards each other player holds (whose hand he glances at)."""
        rng = self.lapse_rng
        if not view.irregularities or rng.random() >= self.lapse_chance:
            return None
        # Each kind as likely as the next where it is open: those open all through the play
        # (exposing a card) would otherwise crowd out the rest.
        what = rng.choice(tuple(LAPSES))
        seat = view.seat
        others = [s for s in range(view.players) if s != seat and view.hand_sizes[s]]
        if (
            what not in view.irregularities
            or (what == "faced-card" and seat != view.dealer)
            or (what == "expose" and view.to_act == seat)
            or (what == "look-hand" and (view.phase == "play" or not others))
            or (what in ("expose", "play-early") and not view.hand)
            or any(e.kind == "irregular" and e.seat == seat for e in view.events)
        ):
            return None
        cards: tuple[str, ...] = ()
        reason = msg(LAPSES[what])
        if what == "look-hand":
            other = rng.choice(others)
            what = f"look-hand:{other}"
            # Under hoffmann's Law 6 the offence is exposing another's cards, not seeing them.
            hoffmann = view.rules.penalties == "hoffmann-laws"
            reason = msg(_EXPOSE_HAND if hoffmann else LAPSES["look-hand"], other=other)
        elif what == "look-early":
            reason = msg(LAPSES[what], p=seat)
        elif what in ("expose", "play-early"):
            assert view.hand is not None
            cards = (rng.choice(view.hand).code,)
        return Decision(Action("irregular", seat, what, cards), reason)

    def decide(self, view: PlayerView) -> Decision:
        options = view.options
        assert options is not None and view.hand is not None
        if options.kind == "play" and view.irregular_stands and self.rng.random() < self.slip:
            assert options.legal is not None
            forbidden = [c for c in view.hand if c not in options.legal.legal]
            if forbidden:
                played = self.rng.choice(forbidden)
                why = options.legal.why_not(played)
                return Decision(
                    Action.play(view.seat, played),
                    msg("bot.slip", rule=why.rule if why is not None else "?"),
                )
        return super().decide(view)


class SensibleBot:
    """Determinisation: sample the unseen cards, play each choice out, keep the best."""

    name = "sensible"

    def __init__(self, seed: int | str = 0, playouts: int = 48) -> None:
        self.rng = rng_for(seed, "sensible")
        self.playouts = playouts

    def decide(self, view: PlayerView) -> Decision:
        candidates = _choices(view)
        if len(candidates) == 1:
            only = candidates[0]
            return Decision(only, _only_reason(view, only))
        samples = max(6, self.playouts // len(candidates))
        worlds = [sample_world(view, self.rng) for _ in range(samples)]
        scores: list[tuple[float, float, Action]] = []
        for action in candidates:
            total = 0
            looed = 0
            for w, world in enumerate(worlds):
                hand = build_world(view, world)
                before = hand.balances[view.seat]
                hand.apply(action)
                playout(hand, random.Random(w))
                total += hand.balances[view.seat] - before
                looed += view.seat in hand.looed
            scores.append((total / samples, looed / samples, action))
        best = max(scores, key=lambda s: s[0])
        return Decision(best[2], _reason(view, best, scores, samples))


def _only_reason(view: PlayerView, action: Action) -> Message:
    """Why the only choice was the only one. A last card is the only card in hand: no rule
    made it so (the play's explanation of it, "the 9♠ is his last card", is filed under the
    rule of the lead or of following, which forced nothing). Any other only card was left by
    a rule that excluded the rest, and that rule is named; a declaration by its first."""
    options = view.options
    apps = options.explanations if options is not None else ()
    p = view.seat
    if action.kind == "play":
        played = card(action.cards[0])
        if view.hand is not None and len(view.hand) == 1:
            return msg("bot.last-card", p=p, card=played)
        rule = next((a.rule for a in apps if a.excluded), "")
        key = "bot.only-card-rule" if rule else "bot.only-card"
        return msg(key, p=p, card=played, rule=rule)
    rule = apps[0].rule if apps else ""
    key = "bot.only-choice-rule" if rule else "bot.only-choice"
    return msg(key, p=p, choice=action.choice, rule=rule)


def _reason(
    view: PlayerView,
    best: tuple[float, float, Action],
    scores: Sequence[tuple[float, float, Action]],
    samples: int,
) -> Message:
    mean, looed, action = best
    p = view.seat
    average = f"{mean:+.1f}"
    if action.kind == "play":
        return msg(
            "bot.best-card",
            p=p,
            card=card(action.cards[0]),
            n=len(scores),
            samples=samples,
            mean=average,
        )
    if action.choice == "pass":
        worst = [s for s in scores if s[2].choice != "pass"]
        risk = max((s[1] for s in worst), default=0.0)
        return msg("bot.pass", p=p, risk=f"{risk:.0%}", samples=samples)
    if action.choice == "take-miss":
        return msg("bot.take-miss", p=p, mean=average)
    if action.cards:
        return msg(
            "bot.draw",
            p=p,
            n=len(action.cards),
            ways=len(scores),
            mean=average,
            looed=f"{looed:.0%}",
        )
    return msg(
        "bot.choice",
        p=p,
        choice=action.choice,
        mean=average,
        looed=f"{looed:.0%}",
        samples=samples,
    )


# -- sampling the unseen cards --------------------------------------------------------------


@dataclass
class World:
    hands: list[list[Card]]
    miss: list[Card] | None
    thrown: dict[int, list[Card]]
    stock: list[Card]


def voids(view: PlayerView) -> dict[int, set[str]]:
    """Suits each player has shown himself void in (he did not follow the suit led)."""
    trumps = Trumps.of(view.game, view.rules, view.trump)
    found: dict[int, set[str]] = {}
    for trick in view.tricks + ((view.trick,) if view.trick else ()):
        if not trick.plays:
            continue
        led = trumps.suit_of(trick.plays[0][1])
        for seat, c in trick.plays[1:]:
            if trumps.suit_of(c) != led:
                found.setdefault(seat, set()).add(led)
    return found


def sample_world(view: PlayerView, rng: random.Random) -> World:
    """Deal the unseen cards at random, respecting the voids shown."""
    seen = view.visible_cards()
    unseen = [c for c in PACK if c not in seen]
    rng.shuffle(unseen)
    trumps = Trumps.of(view.game, view.rules, view.trump)
    void = voids(view)
    hands: list[list[Card]] = [[] for _ in range(view.players)]
    assert view.hand is not None
    hands[view.seat] = list(view.hand)
    needed = _cards_held(view)
    others = [s for s in range(view.players) if s != view.seat and needed[s]]
    others.sort(key=lambda s: -len(void.get(s, ())))
    for seat in others:
        # The cards everyone has seen him keep are his; the rest are drawn from the unseen.
        known = list(view.shown_held[seat]) if view.shown_held else []
        need = needed[seat] - len(known)
        banned = void.get(seat, set())
        take = [c for c in unseen if trumps.suit_of(c) not in banned][:need]
        if len(take) < need:  # the constraints cannot all be met: relax them
            take += [c for c in unseen if c not in take][: need - len(take)]
        chosen = set(take)
        unseen = [c for c in unseen if c not in chosen]
        hands[seat] = known + take
    size = HAND_SIZE[view.game]
    miss = None
    if view.miss_on_table:
        miss, unseen = unseen[:size], unseen[size:]
    thrown: dict[int, list[Card]] = {}
    for seat in range(view.players):
        if seat == view.seat:
            continue
        if view.declared[seat] in ("pass", "miss", "defend"):
            # A hand passed, or given up for miss or master.
            thrown[seat], unseen = unseen[:size], unseen[size:]
    stock = unseen[: view.stock_size]
    return World(hands, miss, thrown, stock)


def _played_by(view: PlayerView) -> list[list[Card]]:
    """The cards each seat has played to the tricks."""
    played: list[list[Card]] = [[] for _ in range(view.players)]
    for trick in view.tricks + ((view.trick,) if view.trick else ()):
        for seat, c in trick.plays:
            played[seat].append(c)
    return played


def _cards_held(view: PlayerView) -> list[int]:
    """How many cards each seat holds in the world to sample: its hand; and when the replay
    question is asked (Law 16, the play over), what a replay would give back to a player who
    threw up his cards (Law 15), besides those he played."""
    if view.phase != "replay":
        return list(view.hand_sizes)
    played = _played_by(view)
    size = HAND_SIZE[view.game]
    return [size - len(played[s]) if s in view.in_play else 0 for s in range(view.players)]


def build_world(view: PlayerView, world: World) -> Hand:
    """A hand in the sampled deal, at the point the view shows."""
    setup = HandSetup(
        game=view.game,
        rules=view.rules,
        players=view.players,
        dealer=view.dealer,
        hand_number=view.hand_number,
        seed=0,
        balances=view.balances,
        pool=view.pool,
        trace=False,
    )
    hand = Hand(setup)
    hand.phase = view.phase
    hand.to_act = view.to_act
    hand.turn_up = view.turn_up
    hand.trumps = Trumps.of(view.game, view.rules, view.trump)
    hand.pool_at_start = view.pool_at_start
    hand.must = view.must
    hand.club_law = view.club_law
    hand.single = view.single
    hand.double = view.double
    hand.hands = [list(h) for h in world.hands]
    hand.miss = list(world.miss) if world.miss is not None else None
    hand.thrown = {s: list(h) for s, h in world.thrown.items()}
    hand.stock = list(world.stock)
    hand.declared = list(view.declared)
    hand.drawn = list(view.drawn)
    hand.miss_holder = view.miss_holder
    hand.defender = view.defender
    hand.in_play = list(view.in_play)
    hand.retired = list(view.retired)
    hand.tricks = [Trick(t.leader, list(t.plays), t.civil, t.winner) for t in view.tricks]
    if view.phase == "replay":
        # Asked when the play is over: a replay takes up the hands as the play began (the cards
        # played, and any thrown up, sampled); the others are taken to let the result stand.
        played = _played_by(view)
        hand.start_of_play = [played[s] + hand.hands[s] for s in range(view.players)]
        hand.hands = [[] for _ in range(view.players)]
        hand.replay_asked = [view.seat]
    # The cards of the tricks taken stay face up and bind the leader (RULES.md A9).
    hand._played = tuple(c for t in view.tricks for _, c in t.plays)
    if view.trick is not None:
        hand.trick = Trick(view.trick.leader, list(view.trick.plays), view.trick.civil)
    return hand


# -- the quick policy used to play the sampled deals out --------------------------------------


def playout(hand: Hand, rng: random.Random) -> None:
    """Play ``hand`` to its end with a quick rule of thumb for every player."""
    while not hand.over:
        seat = hand.to_act
        if hand.phase == "play" and seat is not None:
            # The card the rule of thumb picks among the legal moves, played by the quiet API
            # (Hand.step: the legal moves just worked out are not worked out again).
            hand.step(_quick_card(hand, seat))
        else:
            hand.apply(quick_action(hand, rng))


def quick_action(hand: Hand, rng: random.Random) -> Action:
    seat = hand.to_act
    assert seat is not None
    phase = hand.phase
    if phase == "play":
        return Action.play(seat, _quick_card(hand, seat), civil=False)
    options = hand.options()
    if phase == "replay":
        return Action("replay", seat, "decline")
    strength = _strength(hand, hand.hands[seat])
    choices = options.choices
    if phase == "exchange":
        if "pass" in choices and strength < 0.9 and rng.random() < 0.6:
            return Action.declare(seat, "pass")
        trumps = hand.trumps
        weak = [c for c in hand.hands[seat] if not trumps.is_trump(c) and c.value < 12]
        return Action.declare(seat, "play", weak[: options.max_discards])
    if strength >= 1.0 and "play" in choices:
        return Action.declare(seat, "play")
    if "take-miss" in choices and rng.random() < 0.5:
        return Action.declare(seat, "take-miss")
    if "pass" in choices:
        return Action.declare(seat, "pass")
    return Action.declare(seat, choices[0])


def _strength(hand: Hand, cards: Sequence[Card]) -> float:
    """A rough count of likely tricks: trumps and aces."""
    trumps = hand.trumps
    score = 0.0
    for c in cards:
        if trumps.is_trump(c):
            score += 0.5 + trumps.rank(c) / 30
        elif c.value == 14:
            score += 0.6
        elif c.value == 13:
            score += 0.3
    return score


def _quick_card(hand: Hand, seat: int) -> Card:
    moves = hand.legal_moves(seat, explain=False).legal
    if len(moves) == 1:
        return moves[0]
    trumps = hand.trumps
    trick = hand.trick_cards()
    if not trick:
        return max(moves, key=lambda c: (trumps.is_trump(c), trumps.rank(c)))
    led = trumps.suit_of(trick[0])
    best = trick[winning_index(trick, trumps)]
    to_beat = trumps.power(best, led)
    winners = [c for c in moves if trumps.power(c, led) > to_beat]
    if winners:
        return min(winners, key=lambda c: trumps.power(c, led))
    return min(moves, key=lambda c: (trumps.is_trump(c), trumps.rank(c)))


def make_bot(kind: str, seed: int | str) -> BeginnerBot | SensibleBot:
    if kind == "beginner":
        return BeginnerBot(seed)
    if kind == "sensible":
        return SensibleBot(seed)
    if kind == "careless":
        return CarelessBot(seed)
    raise ValueError(f"unknown bot {kind!r}: choose one of {', '.join(BOT_KINDS)}")
