"""``declare``: the coach's question (issue 28). A moment of the declarations at a real deal,
shown as the table shows it to the learner: "What should you declare?" (play, pass or take the
miss at three-card Loo; play or pass at five-card and Irish Loo). The answer is the coach's
best option (:func:`games.loo.coach.advise` on the learner's :class:`~games.loo.view.PlayerView`:
it never sees a card he cannot), and a position is asked only where that answer is clear
(:data:`MARGIN_ERRORS`, :data:`MARGIN_COUNTERS`); the feedback shows every option's figures.

What it costs: the coach plays :data:`SAMPLES` sampled deals out once for every option, about
0.3-0.6 s at three-card Loo and 0.8-1 s at five-card on this machine; most deals that would miss
the margin are screened out first over :data:`SCREEN_SAMPLES` (0.1-0.2 s), so that a question
takes about a second to make (``tests/engine/test_declare_questions.py`` measures it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .. import coach_v7, table_model
from ..cards import card
from ..coach import Advice, Estimate, advise
from ..hand import Hand
from ..messages import Message, msg
from ..options import HAND_SIZE
from ..play import RuleApplication
from ..review import unopposed
from ..view import view_for
from .base import Ask, Choice, Kind, Question, seats_from
from .deals import deal_hand, random_step
from .declaration import DECLARATION_LABELS, declaring_position

#: The sampled deals the coach weighs a question's options over, by game (issue 28: its
#: standard error on a declaration is then about 0.1-0.3 of a counter). At 400 a question took
#: 0.6-1.5 s to weigh; at these the margin below still held on every question of the test's
#: sample, weighed again with another sampling seed and twice the deals. Five-card Loo weighs
#: four or five draws for "play", each played out in every deal, so it weighs fewer deals.
SAMPLES: Final = {"three-card": 300, "irish": 300, "five-card": 200}
#: A question is asked only where the best option's lead over the next best is at least this
#: many standard errors of that difference. The difference's error is bounded by the sum of the
#: two options' own errors (the coach gives those, not the deal-by-deal difference): it is the
#: exact error where the next best is to pass (which pays the same in every deal), and larger
#: than the true one otherwise, so the margin is never less than it says.
MARGIN_ERRORS: Final = 4.0
#: ... and at least this many counters on average: a lead too small to matter at a real table
#: is not a lesson, however sure.
MARGIN_COUNTERS: Final = 1.0
#: A deal is first weighed over this many sampled deals, and weighed again over
#: :data:`SAMPLES` only if the best option leads the next by :data:`SCREEN_LEAD` counters (the
#: least lead asked for): most deals that would miss the margin then cost a fifth of a second,
#: not one or two seconds.
SCREEN_SAMPLES: Final = 40
SCREEN_LEAD: Final = MARGIN_COUNTERS
#: How many deals of a search the coach weighs before the search gives up (the others are
#: skipped at once): a clear position turns up in one deal in two or three (more often at
#: five-card Loo), so a search that weighed this many has no clear answer to find.
COACHED_DEALS: Final = 24

#: The rule each game's declaring is under: what the question is about.
DECLARING_RULE: Final = {
    "three-card": "declare-in-turn",
    "five-card": "five-card-exchange",
    "irish": "irish-loo",
}
DECLARE_RULES: Final = ("declare-in-turn", "take-miss", "five-card-exchange", "irish-loo")

#: Each declaration as the feedback names it, mid-sentence.
_DOING: Final = {
    "play": "play",
    "pass": "pass",
    "take-miss": "take the miss",
    "defend-miss": "take the miss and play for the pool",
    "defend-master": "play for the pool with master",
}
#: How the share of the pool one trick wins reads, by the number of tricks.
_SHARE: Final = {3: "a third", 5: "a fifth"}


@dataclass(frozen=True)
class Weighed:
    """The coach's figures for each declaration a question offers: the best of its actions
    (five-card Loo's "play" is a handful of draws: the best of them), best first."""

    ranked: tuple[tuple[str, Estimate | coach_v7.Estimate], ...]

    @property
    def lead(self) -> float:
        """The best declaration's lead over the next best, in counters on average."""
        return self.ranked[0][1].expected_counters - self.ranked[1][1].expected_counters

    @property
    def error(self) -> float:
        """A bound on the standard error of :attr:`lead` (:data:`MARGIN_ERRORS`)."""
        return self.ranked[0][1].stderr + self.ranked[1][1].stderr

    def clear(self) -> bool:
        """Whether the best declaration beats every other by the margin."""
        return self.lead >= max(MARGIN_COUNTERS, MARGIN_ERRORS * self.error)


def weighed(advice: Advice | coach_v7.Advice) -> Weighed:
    best: dict[str, Estimate | coach_v7.Estimate] = {}
    for e in advice.options:
        kept = best.get(e.action.choice)
        if kept is None or e.expected_counters > kept.expected_counters:
            best[e.action.choice] = e
    ranked = sorted(best.items(), key=lambda item: -item[1].expected_counters)
    return Weighed(tuple(ranked))


def coach_seed(rng: random.Random) -> str:
    """The coach's sampling seed for a question's deal, drawn from the question's seeded
    draws (so the answer is made again from the question's seed), and not the seed itself,
    which a trainer page keeps secret: the position shows it (``position["coach"]``)."""
    return f"{rng.getrandbits(48):012x}"


def _make_declare(ask: Ask, rng: random.Random, attempt: int) -> Question | None:
    rule = DECLARING_RULE.get(ask.game)
    wanted = ask.rule
    if attempt >= COACHED_DEALS or rule is None:
        return None
    if wanted is not None and wanted not in (rule, "take-miss"):
        return None
    if wanted == "take-miss" and ask.game != "three-card":
        return None
    hand = deal_hand(ask.rules, ask.game, rng, attempt, session=ask.played, played_before=True)
    while hand.phase in ("declare", "exchange"):
        options = hand.options()
        bound = [rule, *(["take-miss"] if "take-miss" in options.choices else [])]
        if len(options.choices) > 1 and ask.wants(bound) and rng.random() < 0.5:
            return ask_coach(ask, hand, bound, coach_seed(rng))
        random_step(hand, rng)
    return None


def ask_coach(ask: Ask, hand: Hand, bound: Sequence[str], seed: str) -> Question | None:
    """The question at this moment of ``hand``, the coach weighing it with ``seed`` from the
    view of the player to declare alone; None if the answer is not clear by the margin."""
    seat = hand.options().seat
    view = view_for(hand, seat)
    # Versions up to 7 were graded by the coach as it was (coach_v7); 8 on, by the coach that
    # models the table (sensible players, as the trainer's question supposes), version 8 with
    # that model as it was then measured (table_model.VERSION_8).
    weigh = coach_v7.advise if ask.version <= 7 else advise
    with table_model.using(table_model.VERSION_8 if ask.version == 8 else table_model.CURRENT):
        screen = weighed(weigh(view, samples=SCREEN_SAMPLES, seed=f"screen:{seed}"))
        if screen.lead < SCREEN_LEAD:
            return None
        samples = SAMPLES[ask.game]
        figures = weighed(weigh(view, samples=samples, seed=seed))
    if not figures.clear():
        return None
    offered = hand.options()
    choices = tuple(Choice(c, DECLARATION_LABELS[c]) for c in offered.choices)
    position = declaring_position(ask, hand, seat)
    position["coach"] = {"samples": samples, "seed": seed}
    return ask.question(
        "declare",
        msg("question.declare", p=seat),
        bound,
        seats_from(seat, hand.players),
        position=position,
        choices=choices,
        answer=(figures.ranked[0][0],),
        explanations=_explained(hand, seat, bound, figures, offered.explanations),
        origin=(hand.setup, tuple(hand.log), seat),
    )


def _explained(
    hand: Hand,
    seat: int,
    bound: Sequence[str],
    figures: Weighed,
    rules_applied: tuple[RuleApplication, ...],
) -> tuple[RuleApplication, ...]:
    """Why: the coach's choice and its lead, every option's figures, what playing risks and
    wins, and the rules that made the options what they are."""
    rule = bound[0]
    (best, top), (second, _) = figures.ranked[:2]
    apps = [
        RuleApplication(
            rule,
            msg(
                "question.declare-best",
                p=seat,
                best=_DOING[best],
                next=_DOING[second],
                n=SAMPLES[hand.game],
                lead=f"{figures.lead:.1f}",
                error=f"{figures.error:.1f}",
            ),
        )
    ]
    for choice, e in sorted(figures.ranked, key=lambda item: hand.options().choices.index(item[0])):
        apps.append(RuleApplication(rule, _option(choice, e, seat)))
    tricks = HAND_SIZE[hand.game]
    apps.append(
        RuleApplication(
            "looed",
            msg(
                "question.declare-stakes",
                share=_SHARE.get(tricks, f"one {tricks}th"),
                pool=hand.pool,
                loo=hand.loo_amount(),
            ),
        )
    )
    if "take-miss" in bound:
        apps.append(RuleApplication("take-miss", msg("question.may-take-miss", p=seat)))
    apps.extend(a for a in rules_applied if a.rule not in {x.rule for x in apps})
    return tuple(apps)


def _option(choice: str, e: Estimate | coach_v7.Estimate, seat: int) -> Message:
    counters = _signed(e.expected_counters)
    label = DECLARATION_LABELS[choice]
    if choice == "pass":
        return msg("question.declare-option-out", option=label, counters=counters)
    chance = f"{round(100 * e.p_trick)}%"
    alone = unopposed(e.p_unopposed, seat)
    if e.action.cards:
        return msg(
            "question.declare-option-draw",
            option=label,
            cards=tuple(card(c) for c in e.action.cards),
            chance=chance,
            unopposed=alone,
            counters=counters,
        )
    return msg(
        "question.declare-option", option=label, chance=chance, unopposed=alone, counters=counters
    )


def _signed(x: float) -> str:
    """Counters as the feedback writes them: "+1.4", "-0.3", "0"."""
    shown = f"{x:+.1f}"
    return "0" if shown in ("+0.0", "-0.0") else shown


DECLARE: Final = Kind(
    name="declare",
    title="What to declare (the coach)",
    make=_make_declare,
    rules=DECLARE_RULES,
    since=7,
    judgement=True,
    # Made only when asked for: a second to make, and about judgement, not a rule's meaning.
    about_play=False,
    shows="declaration",
)
