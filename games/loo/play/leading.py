"""The rules of a lead (RULES.md 1.5): the ace of trumps (or the king when the ace is turned
up), two or more trumps, the highest heads-up, trump after trick; each told, on the explaining
path, as the rule applications that narrowed the leader's cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..cards import Card
from ..messages import Message, msg
from ..rulesets import RuleSet
from .core import (
    NO_WORDS,
    Position,
    Reasons,
    Trumps,
    cards_but,
    pam_among,
    trump_count,
)


def top_sequence(p: Position, trumps_held: Sequence[Card]) -> list[Card]:
    """The leader's highest trump and every held trump of equal value to it (RULES.md A9).

    Two trumps are of equal value when every trump ranked between them is out of play: the
    turn-up, or a card played to an earlier trick.
    """
    return _top_sequence(p.trumps, p.played, p.turn_up, trumps_held)


def _top_sequence(
    t: Trumps, played: Sequence[Card], turn_up: Card | None, trumps_held: Sequence[Card]
) -> list[Card]:
    held = set(trumps_held)
    out = set(played)
    if turn_up is not None:
        out.add(turn_up)
    sequence: list[Card] = []
    for c in t._order:
        if c in held:
            sequence.append(c)
        elif sequence and c not in out:
            break
    return sequence


def lead_cards(
    t: Trumps,
    rules: RuleSet,
    game: str,
    hand: Sequence[Card],
    turn_up: Card | None,
    declared: int,
    trick_number: int,
    played: Sequence[Card],
    why: Reasons | None = None,
) -> tuple[Card, ...]:
    """The cards the leader may lead, in the order of ``hand`` (the fields of a Position without
    a trick); ``why``, on the explaining path, collects the rules that decided it."""
    if len(hand) == 1 and why is None:
        # A last card is always playable (no rule can leave a player nothing to play): the
        # last trick of every hand, without the rules that would say so.
        return tuple(hand)
    trumps = t.members[t.suit]
    trumps_held = []
    for c in hand:
        if c in trumps:
            trumps_held.append(c)
    if not trumps_held and why is None:
        # Every lead rule asks for a trump: without one, any card may be led.
        return tuple(hand)
    if len(trumps_held) > 1:
        trumps_held.sort(key=t.rank_of_card.__getitem__, reverse=True)
    # Each rule narrows the cards allowed to some of the trumps held (None: any card yet).
    allowed: set[Card] | None = None
    scope = rules.lead_scope(game)
    later = trick_number > 1
    bind = scope == "every-lead" or (scope == "first-lead-only" and not later)
    # The sentences' words for a later lead (only on the explaining path).
    scope_words = _EVERY_LEAD if later and bind else NO_WORDS

    # The ace of trumps, or the king when the ace is the turn-up (RULES.md 1.5).
    forced: Card | None = None
    if bind and trumps_held:
        # (Held trumps: the few cards to look through for the ace or the king.)
        ace = t.ace
        if ace in trumps_held:
            forced, rule = ace, "lead-ace-of-trumps"
        elif turn_up is ace and t.king in trumps_held:
            forced, rule = t.king, "lead-king-when-ace-turned"
        if forced is not None:
            keep = {forced}
            if rules.pam_ace_lead == "either" and t.pam is not None and t.pam in hand:
                keep.add(t.pam)
            allowed = keep
            if why is not None:
                _explain_forced(why, rule, forced, keep, scope_words)

    # Two or more trumps; heads-up, the highest (RULES.md 1.5).
    if bind and forced is None and len(trumps_held) >= 2:
        allowed = _two_trumps(
            t, rules, game, hand, trumps_held, turn_up, declared, played, later, scope_words, why
        )

    # Trump after trick (RULES.md 1.5): from trick 2 on, independent of the lead scope.
    if later and trumps_held and rules.trump_after_trick != "off":
        if rules.trump_after_trick == "highest" and forced is None:
            highest = trumps_held[0]
            allowed = {highest} if allowed is None else allowed & {highest}
            if why is not None:
                _explain_trump_after_trick(why, t, hand, trumps_held, True)
        else:
            allowed = set(trumps_held) if allowed is None else allowed & set(trumps_held)
            if why is not None:
                _explain_trump_after_trick(why, t, hand, trumps_held, False)
    elif later and trumps_held and not bind and why is not None:
        why.note("trump-after-trick", "note.no-trump-after-trick")
    if why is not None and not bind and not later and scope == "none":
        why.note("lead-rules-scope", "note.first-lead-free", game=game)

    if allowed is None:
        legal_cards = tuple(hand)
    else:
        # (A plain loop: filter with a set's __contains__ costs more for a handful of cards.)
        kept = []
        for c in hand:
            if c in allowed:
                kept.append(c)
        legal_cards = tuple(kept)
    if why is not None and len(hand) == 1 and not why.apps:
        why.add("elder-leads-first", "lead.last-card", card=hand[0])
    return legal_cards


def _two_trumps(
    t: Trumps,
    rules: RuleSet,
    game: str,
    hand: Sequence[Card],
    trumps_held: list[Card],
    turn_up: Card | None,
    declared: int,
    played: Sequence[Card],
    later: bool,
    scope_words: Message,
    why: Reasons | None,
) -> set[Card] | None:
    """The cards a leader holding two or more trumps (``trumps_held``, highest first) may
    lead, where no ace or king is forced: the highest, or any trump, and heads-up the highest
    (or one of equal value); None if no rule of them binds."""
    allowed: set[Card] | None = None
    two = rules.two_trumps_rule(game)
    if later and rules.trump_after_trick == "highest" and two == "any-trump":
        # peel's "lead one" replaces "the highest" on the original lead only (A41); trump
        # after trick asks for the highest from trick 2 on.
        two = "highest"
    highest = trumps_held[0]
    if two == "highest":
        allowed = {highest} if allowed is None else allowed & {highest}
        if why is not None:
            why.add(
                "lead-highest-of-two-or-three",
                "lead.highest-of-two",
                cards_but(hand, [highest]),
                n=len(trumps_held),
                held=tuple(trumps_held),
                highest=highest,
                pam=pam_among(t, *trumps_held),
                scope=scope_words,
            )
    elif two == "any-trump" or (two == "heads-up-only" and declared == 2):
        allowed = set(trumps_held) if allowed is None else allowed & set(trumps_held)
        if why is not None:
            why.add(
                "lead-trump-holding-two",
                "lead.trump-holding-two",
                cards_but(hand, trumps_held),
                held=tuple(trumps_held),
                pam=pam_among(t, *trumps_held),
                scope=scope_words,
            )
    elif why is not None:  # heads-up-only, more than two in the play
        why.note("irish-loo", "note.irish-two-trumps", n=declared)
    threshold = rules.heads_up_threshold
    if two != "highest" and threshold != "n/a" and declared <= int(threshold):
        if rules.heads_up_sequence_exception == "on":
            seq = _top_sequence(t, played, turn_up, trumps_held)
        else:
            seq = [highest]
        allowed = set(seq) if allowed is None else allowed & set(seq)
        if why is not None:
            counted = {"n": declared} if declared != 2 else {}
            why.add(
                "lead-highest-trump-heads-up",
                "lead.heads-up-two" if declared == 2 else "lead.heads-up",
                cards_but(hand, seq),
                **counted,
                highest=highest,
                pam=pam_among(t, highest),
                equal=_equal_value_words(why.p, seq) if len(seq) > 1 else msg("part.none"),
            )
    return allowed


def _explain_trump_after_trick(
    why: Reasons, t: Trumps, hand: Sequence[Card], trumps_held: list[Card], highest: bool
) -> None:
    """Trump after trick: lead the highest trump (``highest``) or any trump; with one trump
    they are the same card."""
    if len(trumps_held) == 1:
        (only,) = trumps_held
        why.add(
            "trump-after-trick",
            "lead.trump-after-trick-one",
            cards_but(hand, trumps_held),
            trump=only,
            pam=pam_among(t, only),
        )
    elif highest:
        why.add(
            "trump-after-trick",
            "lead.trump-after-trick-highest",
            cards_but(hand, trumps_held[:1]),
            count=trump_count(trumps_held),
            highest=trumps_held[0],
            pam=pam_among(t, trumps_held[0]),
        )
    else:
        why.add(
            "trump-after-trick",
            "lead.trump-after-trick",
            cards_but(hand, trumps_held),
            count=trump_count(trumps_held),
            held=tuple(trumps_held),
            pam=pam_among(t, *trumps_held),
        )


def _explain_forced(why: Reasons, rule: str, forced: Card, keep: set[Card], scope: Message) -> None:
    t = why.p.trumps
    pam = t.pam
    if pam is not None and pam in keep:
        tail = msg("part.or-pam", pam=pam)
    elif pam is not None and pam in why.p.hand:
        tail = msg("part.ace-over-pam", pam=pam)
    else:
        tail = msg("part.end")
    excluded = cards_but(why.p.hand, keep)
    if forced.rank == "A":
        why.add(rule, "lead.ace", excluded, card=forced, scope=scope, tail=tail)
    else:
        why.add(
            rule, "lead.king-ace-turned", excluded, card=forced, ace=t.ace, scope=scope, tail=tail
        )


_EVERY_LEAD: Final = msg("part.every-lead")


def _equal_value_words(p: Position, seq: Sequence[Card]) -> Message:
    t = p.trumps
    order = t.order()
    rest = seq[1:]
    gaps = [c for c in order[order.index(seq[0]) : order.index(seq[-1]) + 1] if c not in set(seq)]
    if not gaps:
        why = msg("part.in-sequence")
    else:
        turned = p.turn_up is not None and p.turn_up in gaps
        played = tuple(c for c in gaps if c is not p.turn_up)
        if turned and played:
            why = msg("part.equal-turn-up-played", turn_up=p.turn_up, played=played)
        elif turned:
            why = msg("part.equal-turn-up", turn_up=p.turn_up)
        else:
            why = msg("part.equal-played", played=played)
    return msg("part.equal-value", rest=tuple(rest), pam=pam_among(t, *rest), why=why)
