"""The sentences of the laws of irregularity: each offence named at the settlement, and the
laws of the deal, the declarations, looking and exposing."""

from __future__ import annotations

from typing import Final

# The laws of irregularity at the settlement: each offence named, and what became of the
# shares of tricks that stayed in the pool (RULES.md 1.11, readings A49-A51).
LAWS_SETTLEMENT: Final[dict[str, str]] = {
    "part.offence": "the {card:card} in trick {n}, when {p:he} had to {had:had}",
    "part.offence-out-of-turn": "the {card:card} played out of turn in trick {n}",
    "penalty.law-15": (
        "{p:S} threw up {p:his} cards for {offence:msg} and forfeited a single ({n}) to the "
        "pool (Law 15): {p:he} {p:is/are} not looed."
    ),
    "settle.took-for-pool": (
        "{p:S} took {n} {n:trick/tricks}, playing for the pool: {n:its share/their shares} "
        "({amount}) {n:stays/stay} there."
    ),
    "settle.took-forfeit": (
        "{p:S} took {n} {n:trick/tricks}, but {p:he} offended: {n:its share/their shares} "
        "({amount}) {n:stays/stay} in the pool for the next hand."
    ),
    "settle.took-nothing": (
        "{p:S} took {n} {n:trick/tricks}, but the player who transgressed the law does not win "
        "anything (p. 22): {n:its share/their shares} ({amount}) {n:stays/stay} in the pool "
        "for the next deal."
    ),
    "settle.took-retired": (
        "{p:S} took {n} {n:trick/tricks} before throwing up {p:his} cards: "
        "{n:its share/their shares} ({amount}) {n:stays/stay} in the pool for the next hand."
    ),
    "settle.last-player": (
        "Only {p:S} {p:is/are} left in the play, the others having thrown up their cards: "
        "{p:he} {p:takes/take} the pool ({n}), as when all the rest throw up their cards "
        "(Hoffmann ¶3)."
    ),
    "settle.alone-offender": (
        "{p:S} alone {p:is/are} left to take the pool without play, but {p:he} offended, "
        "and the player who transgressed the law does not win anything (p. 22): the pool "
        "({n}) stays for the next hand."
    ),
    "all-pass.dealer-retired": (
        "Everyone has passed, and {d:S}, the dealer, must retire for this hand: nobody "
        "plays, nobody takes the pool, and it ({n}) stays for the next hand."
    ),
    "settle.last-player-offender": (
        "Only {p:S} {p:is/are} left in the play, the others having thrown up their cards; "
        "but {p:he} offended, so the pool ({n}) stays for the next hand (after Law 14)."
    ),
    "pay.last-player": "the last in the play: the others threw up their cards (Law 15)",
}

# The rest of the laws (games.loo.hand.irregular): the deal, the declarations, looking and
# exposing, in laws mode.
LAWS: Final[dict[str, str]] = {
    "irregular.misdeal": (
        "{p:S}, the dealer, {p:misdeals/misdeal}: {p:he} {p:forfeits/forfeit} a single "
        "({n}) to the pool, and there is a fresh deal by the same dealer (Law 3)."
    ),
    "irregular.misdeal-peel": (
        "{p:S}, the dealer, {p:misdeals/misdeal}: {p:he} {p:is/are} looed a single ({n}) to "
        "the pool, and the cards are dealt again by the same player (p. 23-24)."
    ),
    "irregular.faced-card": (
        "A card is found face up in the pack: the cards are shuffled and cut again, and "
        "{p:S}, the dealer, {p:deals/deal} afresh, with no penalty (Law 2)."
    ),
    # Versions 2-4 of the question bank (penalty-loo-before-play = full-loo).
    "irregular.interfere": (
        "{p:S} {p:interferes/interfere} with the cards during the deal: {p:he} {p:is/are} "
        "looed ({n}, to the next pool), but the deal stands (p. 24)."
    ),
    # Versions 5-8 of the question bank (interfering-winnings = as-played).
    "irregular.interfere-single": (
        "{p:S} {p:interferes/interfere} with the cards during the deal: {p:he} {p:is/are} "
        "looed (p. 24), a single loo as for most penalties before the play ({n}, to the pool "
        "at once; p. 23-24), and may still play; the deal stands."
    ),
    "irregular.interfere-nothing": (
        "{p:S} {p:interferes/interfere} with the cards during the deal: {p:he} {p:is/are} "
        "looed (p. 24), a single loo as for most penalties before the play ({n}, to the pool "
        "at once; p. 23-24); the deal stands, and {p:he} may still play, but the player who "
        "transgressed the law does not win anything: what {p:his} tricks would win stays in "
        "the pool for the next deal (p. 22)."
    ),
    "irregular.declare-early": (
        "{p:S} {p:declares/declare} before {p:his} turn: {p:he} {p:pays/pay} {n} to the "
        "pool, and {p:declares/declare} again when {p:his} turn comes."
    ),
    "irregular.look-early": (
        "{p:S} {p:looks/look} at {p:his} cards before {p:his} turn to declare: {p:he} "
        "{p:pays/pay} {n} to the pool, and may still play."
    ),
    "irregular.look-miss": (
        "{p:S} {p:looks/look} at the miss without taking it: {p:he} {p:forfeits/forfeit} a "
        "single ({n}) to the pool and must retire for this hand (Law 6)."
    ),
    "irregular.look-miss-peel": (
        "{p:S} {p:looks/look} at the miss without taking it: {p:he} {p:is/are} looed a "
        "single ({n}) to the pool, and may still play (p. 24)."
    ),
    "irregular.look-hand": (
        "{p:S} {p:exposes/expose} {other:S's} cards: {p:he} {p:forfeits/forfeit} a single "
        "({n}) to the pool and must retire for this hand (Law 6)."
    ),
    "irregular.look-hand-peel": (
        "{p:S} {p:looks/look} at {other:S's} cards: {p:he} {p:is/are} looed the full loo "
        "({n}, to the next pool) and must throw up {p:his} cards (p. 24)."
    ),
    "irregular.look-hand-peel-now": (
        "{p:S} {p:looks/look} at {other:S's} cards: {p:he} {p:is/are} looed the full loo "
        "({n}, into this deal's pool at once) and must throw up {p:his} cards (p. 22, 24)."
    ),
    "irregular.look-hand-stood-now": (
        "{p:S} {p:looks/look} at {other:S's} cards, having declared to stand: {p:he} "
        "{p:pays/pay} {p:his} loo ({n}) into the pool at once and {p:plays/play} on, but can "
        "win nothing (p. 24)."
    ),
    "irregular.look-hand-stood": (
        "{p:S} {p:looks/look} at {other:S's} cards, having declared to stand: {p:he} "
        "{p:plays/play} on, but {p:is/are} looed and can win nothing (p. 24)."
    ),
    "irregular.expose": (
        "{p:S} {p:exposes/expose} the {card:card}: {p:he} must throw up {p:his} cards and "
        "forfeit a single to the pool (Law 15)."
    ),
    "irregular.expose-peel": (
        "{p:S} {p:exposes/expose} the {card:card}: {p:he} will be looed, and the hand "
        "played again (p. 25)."
    ),
    "irregular.play-early": (
        "{p:S} {p:plays/play} the {card:card} before all have declared: {p:he} must throw up "
        "{p:his} cards and forfeit a single to the pool (Law 15)."
    ),
    "irregular.play-early-peel": (
        "{p:S} {p:plays/play} the {card:card} before all have declared: {p:he} will be "
        "looed (p. 25); the card stays face up."
    ),
    "offence.look-hand": "{p:S} looked at {other:S's} cards.",
    "offence.expose": "{p:S} exposed the {card:card}.",
    "offence.play-early": "{p:S} played the {card:card} before all had declared.",
    "part.offence-look-hand": "looking at another player's cards",
    "part.offence-play-early": "the {card:card} played before all had declared",
    "part.offence-expose": "the {card:card} exposed in trick {n}",
    "option.retire": "{p:S} looked where {p:he} should not: {p:he} must retire for this hand.",
    "option.retire-exposed": (
        "{p:S} exposed another player's cards: {p:he} must retire for this hand (Law 6)."
    ),
    # How a penalty question tells hoffmann's Law 6 offence (peel's, looking, is
    # question.offence.look-hand).
    "question.offence.expose-hand": "{p:S} {p:exposes/expose} {o:S's} cards.",
    "pay.misdeal": "a misdeal: a single to the pool (Law 3)",
    "pay.misdeal-peel": "a misdeal: looed a single, to the pool (p. 23)",
    "pay.declare-early": "declaring out of turn (Law 5)",
    "pay.declare-early-peel": "declaring out of turn: looed a single, to the pool (p. 24)",
    "pay.look-early": "looking at one's cards out of turn (Law 5)",
    "pay.look-early-peel": (
        "looking at one's cards out of turn: looed a single, to the pool (p. 24)"
    ),
    "pay.look-miss": "looking at the miss without taking it (Law 6)",
    "pay.look-miss-peel": (
        "looking at the miss without taking it: looed a single, to the pool (p. 24)"
    ),
    "pay.interfere": "interfering with the deal: looed a single, to the pool (p. 23-24)",
    "pay.look-hand": "exposing another player's cards (Law 6)",
    "pay.look-hand-peel": (
        "looking at another player's cards: looed the full loo, to the pool (p. 22, 24)"
    ),
    "pay.expose": "a single for exposing a card (Law 15)",
    "pay.play-early": "a single for playing before all had declared (Law 15)",
    "pay.irregular-loo": "looed for an irregularity, to the next pool",
    "error.misdeal": "Only the dealer misdeals, and only before anyone has declared.",
    "error.interfere": "Only another player interferes with the deal, before anyone declares.",
    "error.law-silent": "These rules state no law for that (the rule “{rule:rulename}”).",
    "error.laws-only": (
        "Only in laws mode, under rules that state a penalty for it, is that let stand."
    ),
    "error.not-early": "{p:S} cannot do that before {p:his} turn now.",
    "error.no-miss-to-look-at": "There is no miss for {p:S} to look at now.",
    "error.no-hand-to-look-at": "There is no other hand for {p:S} to look at there.",
    "error.not-early-play": "{p:S} cannot play a card before all have declared now.",
    "error.not-an-irregularity": "{what} is not an irregularity the laws know.",
    "error.irregular": "{why:msg}",
    "error.irregular-card": "{p:S} {p:holds/hold} no such card.",
    "error.irregular-no-cards": "That irregularity names no card.",
    "error.look-whose": "Say whose cards {p:S} {p:looks/look} at.",
}
