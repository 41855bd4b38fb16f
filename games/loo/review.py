"""The review of a finished hand for one player: each of his decisions weighed by the coach.

The hand is rebuilt from its setup and its action log (``Hand.deal`` and ``apply``, as a replay
is), and at each of the player's decisions the coach (:func:`~games.loo.coach.advise`) is asked
about *his view at that moment* (``view_for``), never about the hand itself: what the review says
of a decision rests on what he could see when he made it, so that two deals that differ only in
cards he never saw give the same review, byte for byte. Its sampling seed is made from that view
too (:func:`view_seed`), so that asking again gives the same answer and nothing hidden sways it.

What a decision cost is the coach's best option's expected counters less those of the option he
chose, over the same sampled deals; a decision within error of the best (``as_good``) costs
nothing. A decision with one legal option was forced and is not weighed: the rule that forced
it is named. A five-card draw the coach does not weigh (it weighs a handful of discard sets, not
every subset of the hand) is told as such, with the coach's own choice, and costs nothing here.

The sentences (the options, the review's lines) are :mod:`games.loo.sentences.coach`'s, built
here for both the table's "Ask the coach" and the review.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import card
from .coach import SAMPLES, Advice, Estimate, advise
from .hand import Action, Hand, HandSetup
from .messages import Message, msg, text
from .view import PlayerView, view_for

#: The sampled deals for each decision of a review: as many as an answer at the table's
#: (``coach.SAMPLES``), with the same seed (:func:`view_seed`), so that a decision the learner
#: asked the coach about is reviewed with the very figures he was shown (at 60, "-2.6" at the
#: table came back as "-2.9"). A five-card review then takes 0.3-0.6 s here, once: it is kept.
REVIEW_SAMPLES: Final = SAMPLES

#: How each declaring choice reads: as a verb (an option) and as a gerund (a decision made).
_CHOICES: Final[dict[str, tuple[str, str]]] = {
    "play": ("coach.do.play", "coach.doing.play"),
    "pass": ("coach.do.pass", "coach.doing.pass"),
    "take-miss": ("coach.do.take-miss", "coach.doing.take-miss"),
    "defend-miss": ("coach.do.defend-miss", "coach.doing.defend-miss"),
    "defend-master": ("coach.do.defend-master", "coach.doing.defend-master"),
    "demand": ("coach.do.demand", "coach.doing.demand"),
    "decline": ("coach.do.decline", "coach.doing.decline"),
}


def describe(action: Action, *, exchange: bool = False, gerund: bool = False) -> Message:
    """``action`` in words: "play the Q♥" (or "playing the Q♥"); ``exchange``: a declaration
    in five-card Loo's exchange, where to play is to stand or to draw."""
    form = 1 if gerund else 0
    if action.kind == "play":
        key = ("coach.do.civil", "coach.doing.civil") if action.civil else _CARD
        return msg(key[form], c=card(action.cards[0]))
    if exchange and action.choice == "play":
        if not action.cards:
            return msg(("coach.do.stand", "coach.doing.stand")[form])
        thrown = tuple(card(c) for c in action.cards)
        return msg(("coach.do.draw", "coach.doing.draw")[form], cs=thrown, n=len(thrown))
    return msg(_CHOICES[action.choice][form])


_CARD: Final = ("coach.do.card", "coach.doing.card")


def leaves_play(action: Action) -> bool:
    """A pass: the player takes no part in the play, and neither wins nor pays by it."""
    return action.kind == "declare" and action.choice == "pass"


def counters(value: float) -> str:
    """Counters as the coach's sentences write them: signed, to a tenth ("+1.4", "-2.0", "0");
    a figure that is not 0 but rounds to it, to a hundredth ("-0.04": a passer who pays for
    another's flush now and then), so that no figure reads "0" that is not."""
    text = f"{value:+.1f}"
    if text in ("+0.0", "-0.0"):
        small = f"{value:+.2f}"
        return "0" if small in ("+0.00", "-0.00") else small
    return text


def margin(value: float) -> str:
    """A margin as the sentences write it: to a tenth, to a hundredth below 0.05 ("0.04"),
    "under 0.01" below that (a margin that is not 0 never reads "0.00")."""
    if value >= 0.05:
        return f"{value:.1f}"
    return f"{value:.2f}" if value >= 0.005 else "under 0.01"


def share(value: float) -> str:
    return f"{value:.0%}"


def option_line(estimate: Estimate, seat: int, *, exchange: bool) -> Message:
    """One option of an answer at the table: "Play: 71% (± 8%) to take a trick, +1.4
    counters on average (± 0.6)", every figure with its 95% margin; "(exact)" when every deal
    was counted; a figure with no spread at all (every deal came to the same) without one."""
    do = describe(estimate.action, exchange=exchange)
    mean = counters(estimate.expected_counters)
    error = margin(estimate.margin95)
    # Every deal came to the same: no margin to show ("± 0.00" read as a fault).
    sure = estimate.margin95 == 0 and estimate.p_trick_margin95 == 0 and not estimate.exact
    if leaves_play(estimate.action):
        if estimate.exact:
            return msg("coach.option.out-exact", do=do, mean=mean, p=seat)
        if sure:
            return msg("coach.option.out-sure", do=do, mean=mean, p=seat)
        return msg("coach.option.out", do=do, mean=mean, error=error, p=seat)
    chance = share(estimate.p_trick)
    if estimate.exact:
        return msg(
            "coach.option.exact",
            do=do,
            chance=chance,
            unopposed=unopposed(estimate.p_unopposed, seat),
            mean=mean,
        )
    if sure:
        return msg(
            "coach.option.sure",
            do=do,
            chance=chance,
            unopposed=unopposed(estimate.p_unopposed, seat),
            mean=mean,
        )
    return msg(
        "coach.option",
        do=do,
        chance=chance,
        chance_error=share(estimate.p_trick_margin95),
        unopposed=unopposed(estimate.p_unopposed, seat),
        mean=mean,
        error=error,
    )


def unopposed(p_unopposed: float, seat: int) -> Message:
    """After "… to take a trick": how often the option wins the pool with nobody playing
    against him (nothing, if it rounds to 0%). Without it "Take the miss: 18% to take a
    trick, +3.5 counters on average" read as a fault: the others mostly pass to him."""
    if round(100 * p_unopposed) == 0:
        return text("")
    return msg("coach.unopposed", chance=share(p_unopposed), p=seat)


def answer_notes(view: PlayerView, advice: Advice) -> list[Message]:
    """What an answer at the table says of itself: the deals it averages over (or counted, all
    of them), against which players and knowing what they have done; whether the best is
    clear of the next or too close to call (the margin of their difference, deal by deal);
    and at a five-card draw how many ways to draw it weighs (not every set of cards)."""
    level = msg(f"coach.level.{advice.level}")
    if advice.exact:
        notes = [msg("coach.exact", n=advice.samples, p=view.seat, level=level)]
    else:
        weighed = round(advice.effective)
        effective = msg("coach.effective", n=weighed) if weighed < advice.samples else text("")
        notes = [
            msg("coach.samples", n=advice.samples, p=view.seat, level=level, effective=effective)
        ]
    runner = next_best(advice)
    if runner is not None:
        exchange = view.phase == "exchange"
        key = "coach.close" if runner.as_good and not advice.exact else "coach.clear"
        notes.append(
            msg(
                key,
                best=describe(advice.best.action, exchange=exchange),
                other=describe(runner.action, exchange=exchange),
                diff=margin(runner.diff),
                error=margin(runner.diff_margin95),
            )
        )
    if view.phase == "exchange" and view.options is not None and view.options.max_discards:
        draws = sum(1 for e in advice.options if e.action.choice == "play")
        notes.append(msg("coach.ways", n=draws))
    return notes


def next_best(advice: Advice) -> Estimate | None:
    """The option nearest the best (None when there is one option)."""
    others = [e for e in advice.options if e is not advice.best]
    return max(others, key=lambda e: e.expected_counters) if others else None


def view_seed(view: PlayerView) -> str:
    """A sampling seed made from the view alone: the same view, the same seed (and advice);
    nothing the player cannot see goes into it."""
    text = json.dumps(view.to_dict(), sort_keys=True, default=str)
    return "view:" + hashlib.sha256(text.encode()).hexdigest()[:20]


# -- the review -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One decision of the player's in a finished hand."""

    #: Its place in the hand's action log.
    index: int
    action: Action
    #: A declaration in five-card Loo's exchange (to play is then to stand or to draw).
    exchange: bool
    #: The coach's answer; None when the decision was forced.
    advice: Advice | None
    #: The coach's estimate of the option he chose; None when forced or not weighed.
    chosen: Estimate | None
    #: The rule that left him one option (a forced decision), if a rule did.
    rule: str = ""

    @property
    def forced(self) -> bool:
        return self.advice is None

    @property
    def cost(self) -> float:
        """What the decision gave up on average against the coach's choice (0: as good)."""
        if self.advice is None or self.chosen is None or self.chosen.as_good:
            return 0.0
        return max(0.0, self.advice.best.expected_counters - self.chosen.expected_counters)

    @property
    def agrees(self) -> bool:
        return self.chosen is not None and self.chosen.as_good

    @property
    def message(self) -> Message:
        """The decision in a sentence: forced (and by which rule), as good as the coach's
        choice, or what it gave up."""
        did = describe(self.action, exchange=self.exchange, gerund=True)
        if self.advice is None:
            return (
                msg("coach.forced", did=did, rule=self.rule)
                if self.rule
                else msg("coach.only", did=did)
            )
        best = self.advice.best
        if self.chosen is None:
            return msg(
                "coach.unweighed",
                did=did,
                best=describe(best.action, exchange=self.exchange),
                best_mean=counters(best.expected_counters),
                error=margin(best.margin95),
            )
        chosen = self.chosen
        mean = counters(chosen.expected_counters)
        if chosen.as_good and chosen.margin95 == 0:
            return msg("coach.agrees-sure", did=did, mean=mean)
        if chosen.as_good and chosen is not best and chosen.diff > 0:
            # Within the margin of the difference: too close to call, said so.
            return msg(
                "coach.close-call",
                did=did,
                best=describe(best.action, exchange=self.exchange, gerund=True),
                mean=mean,
                best_mean=counters(best.expected_counters),
                diff=margin(chosen.diff),
                error=margin(chosen.diff_margin95),
            )
        if chosen.as_good:
            return msg("coach.agrees", did=did, mean=mean, error=margin(chosen.margin95))
        # The margin of what he gave up: the difference's, deal by deal.
        error = margin(chosen.diff_margin95)
        best_did = describe(best.action, exchange=self.exchange, gerund=True)
        if leaves_play(best.action):
            return msg(
                "coach.cost-out",
                did=did,
                cost=f"{self.cost:.1f}",
                best=best_did,
                best_mean=counters(best.expected_counters),
                mean=mean,
                error=error,
            )
        return msg(
            "coach.cost",
            did=did,
            cost=f"{self.cost:.1f}",
            best=best_did,
            chance=share(best.p_trick),
            unopposed=unopposed(best.p_unopposed, self.advice.seat),
            best_mean=counters(best.expected_counters),
            mean=mean,
            error=error,
        )


@dataclass(frozen=True)
class Review:
    seat: int
    samples: int
    #: In the order they were made.
    decisions: tuple[Decision, ...]

    @property
    def cost(self) -> float:
        return sum(d.cost for d in self.decisions)

    def by_cost(self) -> list[Decision]:
        """The decisions that cost most first (then in the order they were made)."""
        return sorted(self.decisions, key=lambda d: (-d.cost, d.index))

    @property
    def summary(self) -> Message:
        weighed = [d for d in self.decisions if not d.forced]
        if not weighed:
            return msg("coach.summary-forced", n=len(self.decisions))
        if self.cost == 0:
            return msg("coach.summary-agrees", n=len(weighed))
        return msg("coach.summary", n=len(weighed), cost=f"{self.cost:.1f}")

    def to_dict(self) -> dict[str, Any]:
        """JSON: every figure and sentence of the review (two reviews compare by it)."""
        return {
            "seat": self.seat,
            "samples": self.samples,
            "summary": self.summary.to_dict(),
            "decisions": [
                {
                    "index": d.index,
                    "action": d.action.to_dict(),
                    "cost": round(d.cost, 4),
                    "advice": d.advice.to_dict() if d.advice else None,
                    "message": d.message.to_dict(),
                }
                for d in self.decisions
            ],
        }


def review(
    setup: HandSetup,
    log: Sequence[Action],
    seat: int,
    *,
    samples: int = REVIEW_SAMPLES,
    level: str = "sensible",
) -> Review:
    """Each of ``seat``'s decisions in the hand that ``setup`` deals and ``log`` plays, weighed
    from his view at the moment he made it (the module's docstring), against the table's
    players at ``level``."""
    hand = Hand.deal(setup)
    decisions = []
    for index, action in enumerate(log):
        if action.seat == seat and action.kind in ("declare", "play", "replay"):
            view = view_for(hand, seat)
            if view.options is not None and view.to_act == seat and view.hand is not None:
                decisions.append(_decision(view, index, action, samples, level))
        hand.apply(action)
    return Review(seat, samples, tuple(decisions))


def _decision(view: PlayerView, index: int, action: Action, samples: int, level: str) -> Decision:
    options = view.options
    assert options is not None
    exchange = view.phase == "exchange"
    forced = _forcing_rule(view)
    if forced is not None:
        return Decision(index, action, exchange, None, None, forced)
    advice = advise(view, samples=samples, seed=view_seed(view), level=level)
    chosen = next((e for e in advice.options if _same(e.action, action)), None)
    return Decision(index, action, exchange, advice, chosen)


def _forcing_rule(view: PlayerView) -> str | None:
    """The rule that left the player one option ("" if none did: his last card), or None when
    he had a choice."""
    options = view.options
    assert options is not None and view.hand is not None
    if options.kind == "play":
        assert options.legal is not None
        if len(options.legal.legal) > 1:
            return None
        binding = [a for a in options.legal.explanations if a.excluded]
        return binding[0].rule if binding else ""
    if len(options.choices) > 1 or (view.phase == "exchange" and options.max_discards):
        return None
    return options.explanations[0].rule if options.explanations else ""


def _same(offered: Action, made: Action) -> bool:
    return (offered.kind, offered.choice, sorted(offered.cards), offered.civil) == (
        made.kind,
        made.choice,
        sorted(made.cards),
        made.civil,
    )
