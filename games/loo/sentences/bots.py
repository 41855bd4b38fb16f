"""The computer players' sentences: why each chose what it did, and a careless one's lapses."""

from __future__ import annotations

from typing import Final

# The computer players' reasons (games.loo.bots).
BOT_REASONS: Final[dict[str, str]] = {
    "bot.random-card": "a random legal card",
    "bot.let-stand": "lets the result stand",
    "bot.random-choice": "a random choice",
    "bot.slip": "a careless slip: a card the rules forbid (“{rule:rulename}”)",
    "bot.only-card": "{p:S} played the {card:card}: the only choice",
    "bot.last-card": "{p:S} played the {card:card}: the only card left in {p:his} hand",
    "bot.only-card-rule": (
        "{p:S} played the {card:card}: the only choice, under the rule “{rule:rulename}”"
    ),
    "bot.only-choice": "{p:S} chose to {choice}: the only choice",
    "bot.only-choice-rule": (
        "{p:S} chose to {choice}: the only choice, under the rule “{rule:rulename}”"
    ),
    "bot.best-card": (
        "{p:S} played the {card:card}: the best of {n} legal cards over {samples} sampled "
        "deals ({mean} counters on average)"
    ),
    "bot.pass": ("{p:S} passed: a hand like this is looed in {risk} of {samples} sampled deals"),
    "bot.take-miss": (
        "{p:S} took miss: the unseen miss did better than {p:his} own cards ({mean})"
    ),
    "bot.draw": (
        "{p:S} drew {n}: the best of {ways} ways to exchange ({mean} counters on average, "
        "looed in {looed})"
    ),
    "bot.choice": (
        "{p:S} chose to {choice}: {mean} counters on average, looed in {looed} of {samples} "
        "sampled deals"
    ),
    # The expert's (games.loo.bots.ExpertBot): the coach's figures for the option it took.
    "bot.expert-card": (
        "{p:S} played the {card:card}: the best of {n} legal cards over {samples} sampled "
        "deals ({mean} counters on average, a trick {trick} of the time)"
    ),
    "bot.expert-pass": (
        "{p:S} passed: over {samples} sampled deals the best of the other choices came to "
        "{other} counters on average, passing to {mean}"
    ),
    "bot.expert-take-miss": (
        "{p:S} took miss: the best choice over {samples} sampled deals ({mean} counters on "
        "average, a trick {trick} of the time)"
    ),
    "bot.expert-draw": (
        "{p:S} drew {n}: the best of {ways} ways to exchange over {samples} sampled deals "
        "({mean} counters on average, a trick {trick} of the time)"
    ),
    "bot.expert-choice": (
        "{p:S} chose to {choice}: the best of {n} choices over {samples} sampled deals "
        "({mean} counters on average, a trick {trick} of the time)"
    ),
}

# A careless computer player's lapses (games.loo.bots.CarelessBot.lapse): why he committed an
# irregularity, shown after its line of the trace.
LAPSES: Final[dict[str, str]] = {
    "bot.lapse-misdeal": "a careless slip in dealing",
    "bot.lapse-faced-card": "a careless slip: a card turned face up in dealing",
    "bot.lapse-interfere": "a careless slip: a hand on the cards while they were dealt",
    "bot.lapse-declare-early": "a careless slip: too eager to declare",
    "bot.lapse-look-early": "a careless slip: too eager to see {p:his} cards",
    "bot.lapse-look-miss": "a careless slip: too curious about the miss",
    "bot.lapse-look-hand": "a careless slip: a glance at {other:S's} cards",
    "bot.lapse-expose-hand": "a careless slip: {other:S's} cards turned up",
    "bot.lapse-expose": "a careless slip: a card held so that the table saw it",
    "bot.lapse-play-early": "a careless slip: too quick to play",
    # The dealer against one player when the miss is gone (games.loo.hand.declare).
    "part.dealer-vs-one.own": "play {d:his} own cards (the miss was thrown up)",
}
