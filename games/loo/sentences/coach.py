"""The coach's sentences: each option of a decision and its odds, and the review of a finished
hand's decisions (games.loo.review). A figure is written as the coach measured it (a share as
"71%", counters signed, "+1.4"); the margin of error always goes with it, since the figures come
from sampled deals."""

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
    # Asking the coach: one line an option.
    "coach.option": (
        "{do:msg}: {chance} to take a trick{unopposed:msg}, {mean} counters on average "
        "(±\u00a0{error})"
    ),
    "coach.option.out": (
        "{do:msg}: {mean} counters on average (±\u00a0{error}); {p:S} {p:takes/take} no part in "
        "the play"
    ),
    "coach.option.out-sure": "{do:msg}: {mean} counters; {p:S} {p:takes/take} no part in the play",
    "coach.option.sure": "{do:msg}: {chance} to take a trick{unopposed:msg}, {mean} counters",
    # After "… to take a trick": the pool won with nobody playing against him.
    "coach.unopposed": ", {chance} to win the pool with nobody playing against {p:him}",
    "coach.ways": "The coach weighs {n} ways to draw, not every set of cards.",
    "coach.samples": "Each figure is an average over {n} deals of the cards {p:S} cannot see.",
    # The review of a finished hand, one line a decision of the player's.
    "coach.agrees-sure": "{did:msg}: the coach agrees ({mean} counters)",
    "coach.agrees": "{did:msg}: the coach agrees ({mean} counters on average, ±\u00a0{error})",
    "coach.cost": (
        "{did:msg} gave up about {cost} counters here: {best:msg} would have taken a trick "
        "about {chance} of the time{unopposed:msg} ({best_mean} counters on average against "
        "{mean}, ±\u00a0{error})"
    ),
    "coach.cost-out": (
        "{did:msg} gave up about {cost} counters here: {best:msg}, out of the play, would have "
        "come to {best_mean} counters on average against {mean} (±\u00a0{error})"
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
