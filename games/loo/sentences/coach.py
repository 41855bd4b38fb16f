"""The coach's sentences: each option of a decision and its odds, and the review of a finished
hand's decisions (games.loo.review). A figure is written as the coach measured it (a share as
"71%", counters signed, "+1.4"); the margin of error always goes with it, since the figures come
from sampled deals: at 95% ("± 0.4": with every deal counted, the figure would come out within
it 19 times in 20), on the
difference deal by deal where two options are compared; "exact" where every deal was counted."""

from __future__ import annotations

from typing import Final

COACH: Final[dict[str, str]] = {
    # An option, as a verb ("Play: 71% …") and as a gerund ("Passing gave up …").
    "coach.do.play": "play",
    "coach.doing.play": "playing",
    "coach.do.pass": "pass",
    "coach.doing.pass": "passing",
    "coach.do.take-miss": "take miss",
    "coach.doing.take-miss": "taking miss",
    "coach.do.defend-miss": "play miss for the pool",
    "coach.doing.defend-miss": "playing miss for the pool",
    "coach.do.defend-master": "defend with master",
    "coach.doing.defend-master": "defending with master",
    "coach.do.demand": "demand a replay",
    "coach.doing.demand": "demanding a replay",
    "coach.do.decline": "let the result stand",
    "coach.doing.decline": "letting the result stand",
    "coach.do.stand": "play, drawing no card",
    "coach.doing.stand": "playing without drawing",
    "coach.do.draw": "play, throwing out the {cs:cards} and drawing {n}",
    "coach.doing.draw": "throwing out the {cs:cards} and drawing {n}",
    "coach.do.card": "play the {c:card}",
    "coach.doing.card": "playing the {c:card}",
    "coach.do.civil": "lead the {c:card} calling “Pam, be civil”",
    "coach.doing.civil": "leading the {c:card} calling “Pam, be civil”",
    # Asking the coach: one line an option. Every figure with its 95% margin ("± 0.4"), or
    # "exact" when every deal of the hidden cards was counted.
    "coach.option": (
        "{do:msg}: {chance} (±\u00a0{chance_error}) to take a trick{unopposed:msg}, {mean} "
        "counters on average (±\u00a0{error})"
    ),
    "coach.option.exact": (
        "{do:msg}: {chance} to take a trick{unopposed:msg}, {mean} counters on average (exact)"
    ),
    "coach.option.out": (
        "{do:msg}: {mean} counters on average (±\u00a0{error}); {p:S} {p:takes/take} no part in "
        "the play"
    ),
    "coach.option.out-exact": (
        "{do:msg}: {mean} counters on average (exact); {p:S} {p:takes/take} no part in the play"
    ),
    "coach.option.out-sure": "{do:msg}: {mean} counters; {p:S} {p:takes/take} no part in the play",
    "coach.option.sure": "{do:msg}: {chance} to take a trick{unopposed:msg}, {mean} counters",
    # After "… to take a trick": the pool won with nobody playing against him.
    "coach.unopposed": ", {chance} to win the pool with nobody playing against {p:him}",
    "coach.ways": "The coach weighs {n} ways to draw, not every set of cards.",
    "coach.samples": (
        "Each figure is an average over {n} deals of the cards {p:S} cannot see, played out "
        "against these players ({level:msg}), knowing what they have done: each deal weighs as "
        "likely as it makes their declarations, draws and cards{effective:msg}. "
        "“±” is the margin at 95%: with every deal counted, the figure would come out within "
        "it 19 times in 20."
    ),
    "coach.effective": " (together worth {n} deals weighed alike)",
    "coach.level.beginner": "beginners, who choose at random",
    "coach.level.careless": "careless beginners, who choose at random",
    "coach.level.sensible": "sensible players, as measured",
    "coach.level.expert": "expert players, modelled as sensible ones",
    "coach.exact": (
        "Exact: every one of the {n} deals of the cards {p:S} cannot see was counted, played out "
        "against these players ({level:msg}), knowing what they have done."
    ),
    "coach.close": (
        "Too close to call: {best:msg} leads {other:msg} by {diff} counters on average, within "
        "its margin (±\u00a0{error}, on the difference deal by deal)."
    ),
    "coach.clear": (
        "{best:msg} is ahead of the next best, {other:msg}, by {diff} counters on average "
        "(±\u00a0{error}, on the difference deal by deal)."
    ),
    # The review of a finished hand, one line a decision of the player's.
    "coach.agrees-sure": "{did:msg}: the coach agrees ({mean} counters)",
    "coach.agrees": "{did:msg}: the coach agrees ({mean} counters on average, ±\u00a0{error})",
    "coach.close-call": (
        "{did:msg}: too close to call against {best:msg} ({mean} against {best_mean} counters "
        "on average; the difference, {diff}, is within its margin, ±\u00a0{error})"
    ),
    "coach.cost": (
        "{did:msg} gave up about {cost} counters here: {best:msg} would have taken a trick "
        "about {chance} of the time{unopposed:msg} ({best_mean} counters on average against "
        "{mean}; the difference ±\u00a0{error})"
    ),
    "coach.cost-out": (
        "{did:msg} gave up about {cost} counters here: {best:msg}, out of the play, would have "
        "come to {best_mean} counters on average against {mean} (the difference ±\u00a0{error})"
    ),
    "coach.forced": "{did:msg}: forced, under the rule “{rule:rulename}”",
    "coach.only": "{did:msg}: the only choice",
    "coach.unweighed": (
        "{did:msg}: not one of the ways the coach weighs; its choice was {best:msg}, "
        "{best_mean} counters on average (±\u00a0{error})"
    ),
    "coach.summary": (
        "{n} {n:decision/decisions} weighed: together they gave up about {cost} counters on "
        "average against the coach's choices."
    ),
    "coach.summary-forced": "{n} {n:decision/decisions}, each forced: nothing to weigh.",
    "coach.summary-agrees": "{n} {n:decision/decisions} weighed: the coach agrees with each.",
}
