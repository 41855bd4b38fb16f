"""The plain card rules of the five texts, written from the texts and RULES.md (parts 1-3),
never from the engine: which cards a player may play and which rule forbids each other card,
who takes a trick, which flush loos the board and who is excused from paying.

Kept deliberately small and literal so that a reader can check each line against its passage.
Where a text is unclear, the recommended reading of RULES.md part 3 is used and its A-number is
named beside the code; :data:`READINGS` lists the other defensible readings this model can also
play (a question whose answer changes between two of them rests on a reading).

Cards are codes as in RULES.md 0.2: rank + suit, ranks ``A K Q J T 9 … 2``, suits ``S H D C``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "SHDC"
PACK = tuple(r + s for s in SUITS for r in RANKS)
PAM = "JC"
#: Cards dealt to each player, and tricks in a hand, by game.
HAND_SIZE = {"three-card": 3, "five-card": 5, "irish": 3}


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


@dataclass(frozen=True)
class Options:
    """What a preset's text says (RULES.md part 2), only as far as the play of the cards needs.

    ``lead_scope``: which leads carry the lead obligations (``every``, ``first``, ``none``);
    ``two_trumps``: ``any`` (a trump), ``highest`` (peel), ``heads-up-only`` (Irish loo);
    ``sequence``: hoffmann's "in sequence or of equal value" exception (A9), and
    ``equal_value``: whether a trump turned up or played between two held trumps makes them
    "of equal value" (A9's reading of the lost footnote [28]; else only "in sequence");
    ``heads_up``: how many declared players make the heads-up rule bind (A8);
    ``after_trick``: trump after trick (``off``, ``any``, ``highest``);
    ``head``: ``winning`` (beat the winning card, A1) or ``led-suit`` (parlett's footnote);
    ``void``: ``heads`` (trump only a trump that heads, A16) or ``always`` (A15);
    ``flush_order``, ``flush_tie``, ``pam_exempt``: see :func:`flush_winner` and
    :func:`flush_exempt`.
    """

    lead_scope: str
    two_trumps: str
    sequence: bool
    heads_up: int
    after_trick: str
    head: str
    void: str
    flush_order: str
    flush_tie: str
    pam_exempt: bool
    #: Whether the text states "If Pam is led you must play a trump if you can" (parlett only).
    pam_led: bool = False
    #: Holding Pam and the ace of trumps (or the king, the ace turned up) where a "highest"
    #: rule binds: ``ace`` (the ace rule prevails, A6) or ``either`` (option ``pam-ace-lead``).
    pam_ace: str = "ace"
    equal_value: bool = True


_BASE = {
    # hoffmann ¶4-¶6, Laws 9-14, ¶11
    "hoffmann": Options(
        "every", "any", True, 2, "any", "winning", "heads", "trump>plain", "cards", True
    ),
    # britannica s. 19-26, 47-51
    "britannica": Options(
        "every", "any", False, 2, "any", "winning", "heads", "trump>plain", "elder", True
    ),
    # whiteknuckle ¶10-¶11, ¶16: lead rules are "first lead" rules, no trump after trick
    "whiteknuckle": Options(
        "first", "any", False, 2, "off", "led-suit", "always", "pam>rest", "cards", False
    ),
    # parlett 3c:Play (and its footnote), 5c:Play, 5c:Flush
    "parlett": Options(
        "first",
        "any",
        False,
        2,
        "any",
        "led-suit",
        "always",
        "pam>trump>plain",
        "cards",
        True,
        True,
    ),
    # peel p. 20-21, 27-28
    "peel": Options(
        "every",
        "highest",
        False,
        2,
        "highest",
        "winning",
        "heads",
        "trump>pam>plain",
        "elder",
        False,
    ),
}


def options(preset: str, game: str) -> Options:
    """The preset's options at ``game``: parlett's five-card schema states no lead obligation
    at all (A12); britannica's Irish loo leads a trump with two trumps only heads-up (s. 43)."""
    o = _BASE[preset]
    if preset == "parlett" and game == "five-card":
        o = replace(o, lead_scope="none")
    if preset == "britannica" and game == "irish":
        o = replace(o, two_trumps="heads-up-only")
    return o


#: Other defensible readings of unclear texts (RULES.md part 3), as option changes: a question
#: whose answer changes under one of them rests on that reading.
_PAM_OR_ACE = ("Pam or the ace, where the ace rule meets a 'highest' rule", {"pam_ace": "either"})
READINGS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "hoffmann": {
        "A8": (
            "three declared players still bind the heads-up rule (¶4's parenthesis)",
            {"heads_up": 3},
        ),
        # ¶4 and Law 11 state "in sequence or of equal value" themselves: only what makes two
        # trumps "of equal value" is the lost footnote's.
        "A9": (
            "footnote [28] is lost: only trumps in sequence, no gap counts as equal value",
            {"equal_value": False},
        ),
        "A16": ("'bound to trump' even when the trump cannot head", {"void": "always"}),
        # A27's footnote [29] ("Sometimes the preference is given to the elder hand,
        # irrespective of the value of the cards") reports another custom, not a reading of
        # ¶11's "that consisting of the better cards wins": no reading here (RULES.md A27
        # offers it as an option, "not as the default").
    },
    "britannica": {
        "A6": _PAM_OR_ACE,
    },
    "whiteknuckle": {
        "A6": _PAM_OR_ACE,
        "A17": ("'higher than the one previously played' read literally", {"head": "winning"}),
        "A28": (
            "a trump flush keeps its precedence (the paraphrase's oversight)",
            {"flush_order": "pam>trump>plain"},
        ),
    },
    "parlett": {
        "A15": ("'trump and overtrump if you can' as one duty", {"void": "heads"}),
    },
    "peel": {
        "A6": _PAM_OR_ACE,
    },
}


# --- cards in play --------------------------------------------------------------------------


def is_pam(card: str, game: str) -> bool:
    """Pam is the knave of clubs at five-card Loo only (every text; peel's trump-knave option
    is not played here)."""
    return game == "five-card" and card == PAM


def suit_of(card: str, trump: str, game: str) -> str:
    """The suit a card follows as: Pam belongs to the trump suit, not to clubs (A3)."""
    return trump if is_pam(card, game) else suit(card)


def is_trump(card: str, trump: str, game: str) -> bool:
    return suit_of(card, trump, game) == trump


def power(card: str, trump: str, game: str) -> int:
    """A card's height within its own suit: Pam above the ace of trumps."""
    return 99 if is_pam(card, game) else rank(card)


def led_suit(trick: Sequence[str], trump: str, game: str) -> str:
    """The suit led: a trick led with Pam is a trump lead (A40)."""
    return suit_of(trick[0], trump, game)


def beats(x: str, y: str, led: str, trump: str, game: str) -> bool:
    """Whether ``x`` would take a trick that ``y`` is winning (RULES.md 0.2 "Beats")."""
    sx, sy = suit_of(x, trump, game), suit_of(y, trump, game)
    if sx == trump and sy != trump:
        return True
    if sx == sy and sx in (trump, led):
        return power(x, trump, game) > power(y, trump, game)
    return False


def winning_index(trick: Sequence[str], trump: str, game: str) -> int:
    """The highest trump played, else the highest card of the suit led (every text:
    hoffmann ¶2, britannica s. 16, whiteknuckle ¶11 b5, parlett 3c:Play, peel p. 21)."""
    led = led_suit(trick, trump, game)
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], led, trump, game):
            best = i
    return best


# --- following ------------------------------------------------------------------------------


def _follow(
    o: Options, hand: Sequence[str], trick: Sequence[str], trump: str, game: str, civil: bool
) -> dict[str, set[str]]:
    """For each rule that binds a follower, the cards it leaves him."""
    led = led_suit(trick, trump, game)
    best = trick[winning_index(trick, trump, game)]
    trumped = suit_of(best, trump, game) == trump and led != trump
    allowed: dict[str, set[str]] = {}
    of_led = {c for c in hand if suit_of(c, trump, game) == led}
    if of_led:
        allowed["follow-suit"] = set(of_led)
        # Pam is a trump, not a club (A3): a plain club led, Pam cannot follow it.
        if led == "C" and trump != "C" and game == "five-card" and PAM in hand:
            allowed["pam-identity"] = set(hand) - {PAM}
        # parlett names Pam led a trump lead outright (5c:Play); the others imply it (A40).
        if is_pam(trick[0], game) and o.pam_led:
            allowed["pam-led-trump-must-be-played"] = set(of_led)
        candidates = set(of_led)
        if civil and PAM in of_led and len(of_led) > 1:
            # "pass the trick, if he can do so without a revoke" / "may not play it unless
            # holding no other trump" (A5): Pam barred, and heading gives way to the call.
            allowed["pam-be-civil"] = set(hand) - {PAM}
            candidates.discard(PAM)
        if o.head == "winning":
            heading = {c for c in candidates if beats(c, best, led, trump, game)}
        else:  # parlett's footnote: higher than every card of the suit led so far (A1, A17)
            top = max(power(c, trump, game) for c in trick if suit_of(c, trump, game) == led)
            heading = {c for c in candidates if power(c, trump, game) > top}
        if heading and heading != candidates:
            allowed["head-the-trick"] = heading | (set(hand) - of_led)
        return allowed
    trumps = {c for c in hand if suit_of(c, trump, game) == trump}
    heading = {c for c in trumps if beats(c, best, led, trump, game)}
    if heading:
        rule = "must-overtrump" if trumped else "must-trump"
        allowed[rule] = heading
        if trumped and o.void == "always":
            # "you must trump in" (whiteknuckle ¶11 b2): a discard is forbidden twice over.
            allowed["must-trump"] = trumps
    elif trumps and o.void == "always":
        allowed["must-trump"] = trumps
    return allowed


# --- leading --------------------------------------------------------------------------------


def _ranked_trumps(hand: Iterable[str], trump: str, game: str) -> list[str]:
    return sorted(
        (c for c in hand if is_trump(c, trump, game)),
        key=lambda c: power(c, trump, game),
        reverse=True,
    )


def _trump_ladder(trump: str, game: str) -> list[str]:
    """Every trump of the pack, highest first."""
    ladder = [r + trump for r in reversed(RANKS) if not (game == "five-card" and r + trump == PAM)]
    return ([PAM] if game == "five-card" else []) + ladder


def top_sequence(hand: Sequence[str], trump: str, game: str, out_of_play: set[str]) -> set[str]:
    """The leader's highest trump and every trump he holds equivalent to it: every trump
    ranked between them is the turn-up or was played to an earlier trick (0.2, A9)."""
    mine = set(_ranked_trumps(hand, trump, game))
    ladder = _trump_ladder(trump, game)
    start = min(ladder.index(c) for c in mine)
    top = {ladder[start]}
    for c in ladder[start + 1 :]:
        if c in mine:
            top.add(c)
        elif c not in out_of_play:
            break
    return top


def _lead(
    o: Options,
    hand: Sequence[str],
    trump: str,
    game: str,
    turn_up: str | None,
    declared: int,
    trick_number: int,
    played: Sequence[str],
) -> dict[str, set[str]]:
    """For each lead obligation that binds, the cards it leaves the leader (1.5)."""
    allowed: dict[str, set[str]] = {}
    trumps = _ranked_trumps(hand, trump, game)
    in_scope = o.lead_scope == "every" or (o.lead_scope == "first" and trick_number == 1)
    forced: str | None = None
    if in_scope:
        ace, king = "A" + trump, "K" + trump
        if ace in hand:
            allowed["lead-ace-of-trumps"] = {ace}
            forced = ace
        elif turn_up == ace and king in hand:
            allowed["lead-king-when-ace-turned"] = {king}
            forced = king
        if len(trumps) >= 2:
            if o.two_trumps == "highest":
                allowed["lead-highest-of-two-or-three"] = {trumps[0]}
            elif o.two_trumps == "any" or (o.two_trumps == "heads-up-only" and declared == 2):
                allowed["lead-trump-holding-two"] = set(trumps)
            if o.two_trumps != "highest" and declared <= o.heads_up:
                if o.sequence:
                    out = set(played) | ({turn_up} if turn_up else set())
                    if not o.equal_value:
                        out = set()
                    allowed["lead-highest-trump-heads-up"] = top_sequence(hand, trump, game, out)
                else:
                    allowed["lead-highest-trump-heads-up"] = {trumps[0]}
    if trick_number >= 2 and trumps and o.after_trick != "off":
        allowed["trump-after-trick"] = {trumps[0]} if o.after_trick == "highest" else set(trumps)
    if forced is not None:
        # The ace (or king) rule prevails over the "highest" rules (pam-ace-lead = ace, A6);
        # under "either" Pam, the highest trump, may be led instead.
        also = {forced}
        highest = {"lead-highest-trump-heads-up", "lead-highest-of-two-or-three"}
        if o.pam_ace == "either" and is_pam(PAM, game) and PAM in trumps and highest & set(allowed):
            also.add(PAM)
        allowed = {rule: cards | also for rule, cards in allowed.items()}
    return allowed


# --- the legal set --------------------------------------------------------------------------


@dataclass(frozen=True)
class Legal:
    """The cards a player may play, and for each card he may not, the rules that forbid it."""

    cards: frozenset[str]
    forbidding: dict[str, frozenset[str]]


def legal(preset: str, position: dict[str, Any], o: Options | None = None) -> Legal:
    """The legal set in a question's ``position`` (the fields the ``legal`` command takes)."""
    game = position["game"]
    o = o or options(preset, game)
    hand = list(position["hand"])
    trick = list(position["trick"])
    trump = position["trump"]
    if trick:
        allowed = _follow(o, hand, trick, trump, game, bool(position.get("pam_be_civil")))
    else:
        allowed = _lead(
            o,
            hand,
            trump,
            game,
            position.get("turn_up"),
            position["declared"],
            position["trick_number"],
            position.get("played") or [],
        )
    cards = set(hand)
    for kept in allowed.values():
        cards &= kept
    forbidding = {
        c: frozenset(r for r, kept in allowed.items() if c not in kept)
        for c in hand
        if c not in cards
    }
    return Legal(frozenset(cards), forbidding)


# --- flushes --------------------------------------------------------------------------------


def flush_suit(hand: Sequence[str], game: str = "five-card") -> str | None:
    """The suit of a flush: five cards of one suit, or four and Pam (every text), else None."""
    if len(hand) != 5:
        return None
    rest = [c for c in hand if not is_pam(c, game)]
    suits = {suit(c) for c in rest}
    if len(suits) == 1 and len(rest) >= 4:
        return suits.pop()
    return None


def _flush_key(o: Options, hand: Sequence[str], trump: str) -> tuple[Any, ...]:
    s = flush_suit(hand)
    trumps = s == trump
    pam = PAM in hand
    cls: tuple[bool, ...]
    if o.flush_order == "trump>plain":  # hoffmann ¶11, britannica s. 49
        cls = (trumps,)
    elif o.flush_order == "pam>rest":  # whiteknuckle ¶16, read literally (A28)
        cls = (pam,)
    elif o.flush_order == "pam>trump>plain":  # parlett 5c:Flush
        cls = (pam, trumps)
    else:  # "trump>pam>plain": peel p. 28, extended to two trump flushes (A26)
        cls = (trumps, pam)
    if o.flush_tie == "cards":  # better cards / highest card, Pam the highest (A27, A26)
        cards: tuple[int, ...] = tuple(
            sorted((99 if c == PAM else rank(c) for c in hand), reverse=True)
        )
    else:
        cards = ()
    return cls + (cards,)


def flush_winner(
    preset: str, hands: Sequence[Sequence[str]], trump: str, o: Options | None = None
) -> int | None:
    """The index of the flush that loos the board: ``hands`` are listed from the dealer's
    left, so an exact tie goes to the lower index (the elder hand: britannica s. 51, peel p. 28,
    and the fallback of the others, 1.9 flush-tie-break)."""
    o = o or options(preset, "five-card")
    flushes = [i for i, h in enumerate(hands) if flush_suit(h)]
    if not flushes:
        return None
    best = flushes[0]
    for i in flushes[1:]:
        if _flush_key(o, hands[i], trump) > _flush_key(o, hands[best], trump):
            best = i
    return best


def flush_exempt(
    preset: str, hands: Sequence[Sequence[str]], winner: int, o: Options | None = None
) -> set[int]:
    """Who does not pay the flush: a losing flush (every text), and the holder of Pam under
    hoffmann ¶11, britannica s. 50 and parlett 5c:Flush (1.9 flush-payment-exemption)."""
    o = o or options(preset, "five-card")
    out = set()
    for i, h in enumerate(hands):
        if i == winner:
            continue
        if flush_suit(h) or (o.pam_exempt and PAM in h):
            out.add(i)
    return out
