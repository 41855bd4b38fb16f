"""The rules of a card played to a trick (RULES.md 1.6-1.8): follow suit, Pam's identity,
"Pam, be civil", head the trick, and for a player void of the suit led, trump and overtrump;
each told, on the explaining path, as the rule applications that narrowed his cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..cards import Card
from ..catalogue import rule as catalogue_rule
from ..messages import Message, msg
from ..rulesets import RuleSet
from .core import (
    NO_WORDS,
    Reasons,
    Trumps,
    cards_but,
    pam_among,
    trump_count,
    winning_index,
)


def follow_cards(
    t: Trumps,
    rules: RuleSet,
    hand: Sequence[Card],
    trick: Sequence[Card],
    pam_be_civil: bool = False,
    why: Reasons | None = None,
) -> tuple[Card, ...]:
    """The cards the player may play to ``trick`` (not empty), in the order of ``hand`` (the
    fields of a Position); ``why``, on the explaining path, collects the rules that decided it."""
    if len(hand) == 1 and why is None:
        return tuple(hand)  # a last card is always playable (as in lead_cards)
    suit_of = t.suit_of_card
    lead_card = trick[0]
    led = suit_of[lead_card]
    power, of_led, stronger_than = t.following[led]
    # The power of the card now winning the trick (see winning_index), and what beats it.
    # (Plain loops: for a handful of cards they cost less than map, filter or a comprehension.)
    to_beat = 0
    for c in trick:
        v = power[c]
        if v > to_beat:
            to_beat = v
    stronger = stronger_than[to_beat]
    # Trumped: a plain suit led and a trump played (every trump outranks every plain card).
    trumped = to_beat > 100 and led != t.suit
    # Heading: beat every card of the suit led (which, untrumped, is the winning card); once
    # the trick is trumped, only under beat-led-suit (beat-winning-card: no card of the suit led
    # can head it).
    target = lead_card
    if not trumped:
        beats = stronger
    elif rules.head_scope == "beat-led-suit":
        target = max((c for c in trick if suit_of[c] == led), key=power.__getitem__)
        beats = t.above[target]
    else:
        beats = _NOTHING
    followers = []
    heading = []
    for c in hand:
        if c in of_led:
            followers.append(c)
            if c in beats:
                heading.append(c)
    if not followers:
        return _void_cards(t, rules, hand, trick, led, trumped, stronger, why)

    pam = t.pam
    if why is not None:
        _explain_follow_suit(why, t, rules, hand, followers, lead_card, led)

    candidates = followers
    if pam_be_civil and pam is not None and pam in followers:
        others = [c for c in followers if c is not pam]
        if others:
            candidates = others
            if why is not None:
                key = (
                    "follow.civil-pass"
                    if rules.pam_be_civil == "pass-without-revoke"
                    else "follow.civil"
                )
                why.add("pam-be-civil", key, (pam,), ace=trick[0], pam=pam, others=tuple(others))
        elif why is not None:
            why.note("pam-be-civil", "note.civil-only-trump", pam=pam)
    elif heading and len(heading) < len(followers):
        candidates = heading
        if why is not None:
            # Untrumped, the card to head is the winning one.
            if not trumped:
                target = trick[winning_index(trick, t)]
            _explain_heading(why, t, followers, heading, target, lead_card, trumped)
    elif why is not None and trumped and rules.head_scope != "beat-led-suit":
        win = trick[winning_index(trick, t)]
        why.note("head-the-trick", "note.trumped-no-head", win=win, led=led)

    if why is not None and len(hand) == 1 and not why.apps:
        why.add("follow-suit", "follow.last-card", card=hand[0], lead=lead_card)
    return tuple(candidates)


def _void_cards(
    t: Trumps,
    rules: RuleSet,
    hand: Sequence[Card],
    trick: Sequence[Card],
    led: str,
    trumped: bool,
    stronger: frozenset[Card],
    why: Reasons | None,
) -> tuple[Card, ...]:
    """The cards a player void of the suit ``led`` may play: must he trump, or overtrump? (A
    trump heads the trick when it is one of ``stronger``, the cards that beat the one now
    winning it.)"""
    trumps = t.members[t.suit]
    trumps_held = []
    heading = []
    for c in hand:
        if c in trumps:
            trumps_held.append(c)
            if c in stronger:
                heading.append(c)
    legal_cards: Sequence[Card] = hand
    rule = ""
    if trumps_held:
        if heading:
            legal_cards = heading
            rule = "must-overtrump" if trumped else "must-trump"
        elif rules.void_trump == "always":
            legal_cards = trumps_held
            rule = "must-trump"
    if why is not None:
        _explain_void(why, t, hand, trick, led, legal_cards, trumps_held, rule)
    return tuple(legal_cards)


def _explain_follow_suit(
    why: Reasons,
    t: Trumps,
    rules: RuleSet,
    hand: Sequence[Card],
    followers: list[Card],
    lead_card: Card,
    led: str,
) -> None:
    """The sentences for a player who holds the suit led: the cards it excludes, and Pam's
    identity (:func:`follow_cards` has found his ``followers``)."""
    suit_of = t.suit_of_card
    pam = t.pam
    # A club led, clubs not trumps: Pam belongs to the trumps, not to clubs (RULES.md A3).
    pam_excluded = pam is not None and pam in hand and pam.suit == led and led != t.suit
    if pam_excluded and pam is not None:
        why.add(
            "pam-identity",
            "follow.pam-identity",
            (pam,),
            pam=pam,
            led=led,
            lead=lead_card,
            followers=tuple(followers),
        )
    plain_excluded = tuple(c for c in hand if suit_of[c] != led and not (pam_excluded and c is pam))
    if plain_excluded:
        led_words = _led_words(t, lead_card)
        if lead_card is pam and _source_states(rules, "pam-led-trump-must-be-played"):
            why.add(
                "pam-led-trump-must-be-played",
                "follow.trump-to-pam",
                plain_excluded,
                led=led_words,
                followers=tuple(followers),
            )
        why.add(
            "follow-suit",
            "follow.suit",
            plain_excluded,
            led=led_words,
            followers=tuple(followers),
            excluded=plain_excluded,
        )


def _explain_heading(
    why: Reasons,
    t: Trumps,
    followers: list[Card],
    heading: list[Card],
    target: Card,
    lead_card: Card,
    trumped: bool,
) -> None:
    """The sentence for a player who must head the trick: his ``heading`` cards beat
    ``target``; the other ``followers`` may not be played."""
    beaten = cards_but(followers, heading)
    why.add(
        "head-the-trick",
        "follow.head" if target is lead_card else "follow.head-card",
        beaten,
        heading=tuple(heading),
        target=target,
        pam=pam_among(t, target, *heading),
        beaten=beaten,
        tail=msg("part.head-trumped" if trumped else "part.end"),
    )


#: No card: what heads a trick that no card of the suit led can head.
_NOTHING: Final[frozenset[Card]] = frozenset()


def _led_words(t: Trumps, lead_card: Card) -> Message:
    if lead_card is t.pam:
        return msg("part.pam-led", card=lead_card)
    suit = t.suit_of_card[lead_card]
    if suit == t.suit:
        return msg("part.trumps-led", card=lead_card)
    return msg("part.suit-led", suit=suit, card=lead_card)


def _explain_void(
    why: Reasons,
    t: Trumps,
    hand: Sequence[Card],
    trick: Sequence[Card],
    led: str,
    legal_cards: Sequence[Card],
    trumps_held: list[Card],
    rule: str,
) -> None:
    """The sentences for a player who holds no card of the suit led (:func:`follow_cards` has
    decided ``legal_cards`` and the ``rule`` that bound him, if any)."""
    win = trick[winning_index(trick, t)]
    excluded = cards_but(hand, legal_cards)
    always = legal_cards is trumps_held
    legal_cards = tuple(legal_cards)
    held = tuple(trumps_held)
    # Holding Pam of the suit led, he has "no clubs" because Pam is a trump: say so (A3).
    pam = t.pam
    if pam is not None and pam in hand and pam.suit == led and led != t.suit:
        aside = msg("part.pam-is-trump", pam=pam, suit=led)
    else:
        aside = NO_WORDS
    if excluded and rule == "must-overtrump":
        why.add(
            rule,
            "void.overtrump",
            excluded,
            led=led,
            aside=aside,
            win=win,
            pam=pam_among(t, win, *legal_cards),
            legal=legal_cards,
        )
    elif excluded and always:
        count = trump_count(trumps_held)
        why.add(
            rule,
            "void.trump-always",
            excluded,
            led=led,
            aside=aside,
            count=count,
            held=held,
            win=win,
            pam=pam_among(t, win, *held),
        )
    elif excluded:
        why.add(
            rule,
            "void.must-trump",
            excluded,
            led=led,
            aside=aside,
            legal=legal_cards,
            pam=pam_among(t, *legal_cards),
        )
    elif trumps_held and not rule:
        why.note(
            "must-trump",
            "note.void-trumps-too-low",
            led=led,
            aside=aside,
            held=held,
            win=win,
            pam=pam_among(t, win, *held),
        )
    if len(hand) == 1 and not why.apps:
        why.add("follow-suit", "void.last-card", led=led, aside=aside, card=hand[0])


def _source_states(rules: RuleSet, rule_id: str) -> bool:
    """Whether the source a rule set follows states ``rule_id`` (not merely implies it)."""
    return catalogue_rule(rule_id).source(rules.source).status == "states"
