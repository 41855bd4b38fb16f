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
- :class:`ExpertBot` (:mod:`games.loo.expert`) weighs a declaration itself, every option
  played out in the same sampled deals by the coach's policy (which searches the last tricks
  exactly), scored by the counters it comes to and those it wins of the pool; and plays the
  coach's best card (:func:`games.loo.coach.advise`). Its strength against sensible players
  is measured by ``bench/coach.py``.

Every decision says briefly why ("passed: looed in 70% of 24 sampled deals").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from .cards import Card, card
from .coach import Advice, Estimate, advise
from .expert import PLAY_SAMPLES, as_estimates, judge
from .hand import Action
from .messages import Message, msg
from .rng import rng_for
from .view import PlayerView

# The sampling and the rule of thumb live in .worlds (the coach builds on them, and the expert
# on the coach); named here too, as the bots' own.
from .worlds import World as World
from .worlds import _choices
from .worlds import build_world as build_world
from .worlds import playout as playout
from .worlds import quick_action as quick_action
from .worlds import sample_world as sample_world
from .worlds import voids as voids

BOT_KINDS: Final = ("beginner", "sensible", "careless", "expert")


@dataclass(frozen=True)
class Decision:
    action: Action
    #: Why, as a message (render it for the point of view that reads it).
    reason: Message


class Bot(Protocol):
    name: str

    def decide(self, view: PlayerView) -> Decision: ...


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


class ExpertBot:
    """The expert (:mod:`games.loo.expert`): a declaration weighed over ``2 * samples`` sampled
    deals, every option in the same deals, by the counters it comes to and what it wins of the
    pool; a card, the coach's best over ``samples`` (:func:`games.loo.coach.advise`). All from
    the player's view alone. A single choice is made at once, with the sensible player's reason
    for it. Seeded as the others: the same view and seed, the same decision."""

    name = "expert"

    def __init__(self, seed: int | str = 0, samples: int = PLAY_SAMPLES) -> None:
        self.rng = rng_for(seed, "expert")
        self.samples = samples

    def decide(self, view: PlayerView) -> Decision:
        candidates = _choices(view)
        if len(candidates) == 1:
            only = candidates[0]
            return Decision(only, _only_reason(view, only))
        seed = self.rng.getrandbits(64)
        if view.phase in ("declare", "exchange"):
            judgement = judge(view, seed, samples=2 * self.samples)
            estimates = as_estimates(judgement)
            advice = Advice(view.seat, judgement.samples, seed, estimates)
            chosen = estimates[judgement.options.index(judgement.best)]
            return Decision(chosen.action, _expert_reason(view, advice, chosen))
        advice = advise(view, samples=self.samples, seed=seed)
        return Decision(advice.best.action, _expert_reason(view, advice, advice.best))


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


def _expert_reason(view: PlayerView, advice: Advice, best: Estimate) -> Message:
    """Why the expert's choice ``best`` was taken, in its figures: what it came to on average
    over the sampled deals, and how often it took a trick (a pass, which takes none: what the
    best of the other choices came to)."""
    action = best.action
    p = view.seat
    n = len(advice.options)
    samples = advice.samples
    mean = f"{best.expected_counters:+.1f}"
    trick = f"{best.p_trick:.0%}"
    if action.kind == "play":
        played = card(action.cards[0])
        return msg(
            "bot.expert-card", p=p, card=played, n=n, samples=samples, mean=mean, trick=trick
        )
    if action.kind == "declare" and action.choice == "pass":
        others = [e.expected_counters for e in advice.options if e is not best]
        other = f"{max(others):+.1f}"
        return msg("bot.expert-pass", p=p, samples=samples, mean=mean, other=other)
    if action.kind == "declare" and action.choice == "take-miss":
        return msg("bot.expert-take-miss", p=p, samples=samples, mean=mean, trick=trick)
    if view.phase == "exchange" and action.cards:
        return msg(
            "bot.expert-draw",
            p=p,
            n=len(action.cards),
            ways=n,
            samples=samples,
            mean=mean,
            trick=trick,
        )
    return msg(
        "bot.expert-choice",
        p=p,
        choice=action.choice,
        n=n,
        samples=samples,
        mean=mean,
        trick=trick,
    )


def make_bot(kind: str, seed: int | str) -> BeginnerBot | SensibleBot | ExpertBot:
    if kind == "beginner":
        return BeginnerBot(seed)
    if kind == "sensible":
        return SensibleBot(seed)
    if kind == "careless":
        return CarelessBot(seed)
    if kind == "expert":
        return ExpertBot(seed)
    raise ValueError(f"unknown bot {kind!r}: choose one of {', '.join(BOT_KINDS)}")
