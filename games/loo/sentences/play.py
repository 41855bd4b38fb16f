"""The sentences of card play: pieces nested in others, the rules that bind a lead and a card
played to a trick, the phrases of what a player had to do, and flushes."""

from __future__ import annotations

from typing import Final

#: Short phrases for a rule that constrained someone's card ("West had to …").
HAD_TO: Final = {
    "follow-suit": "follow suit",
    "pam-identity": "follow with a real club, not Pam",
    "pam-led-trump-must-be-played": "play a trump to Pam",
    "head-the-trick": "head the trick",
    "must-trump": "trump",
    "must-overtrump": "overtrump",
    "pam-be-civil": "pass the trick: Pam, be civil",
    "lead-ace-of-trumps": "lead the ace of trumps",
    "lead-king-when-ace-turned": "lead the king of trumps, the ace being turned up",
    "lead-trump-holding-two": "lead a trump, holding two or more",
    "lead-highest-trump-heads-up": "lead the highest trump, heads-up",
    "lead-highest-of-two-or-three": "lead the highest of two or more trumps",
    "trump-after-trick": "lead a trump, having taken the last trick",
}

# Pieces of sentences, nested in others with ``{name:msg}``.
PIECES: Final[dict[str, str]] = {
    "part.none": "",
    "part.end": ".",
    "part.every-lead": " (the lead rules bind every lead)",
    "part.or-pam": ", or Pam ({pam:card}) instead.",
    "part.ace-over-pam": (
        ". It must be led even though Pam ({pam:card}) ranks higher: the ace rule prevails "
        "over the rules that ask for the highest trump."
    ),
    "part.a-trump": "a trump",
    "part.n-trumps": "{n} trumps",
    "part.in-sequence": "they are in sequence",
    "part.equal-turn-up": (
        "they are of equal value: the {turn_up:card} between them is the turn-up"
    ),
    "part.equal-played": (
        "they are of equal value: the {played:cards} between them {played:was/were} played"
    ),
    "part.equal-turn-up-played": (
        "they are of equal value: the {turn_up:card} between them is the turn-up and the "
        "{played:cards} between them {played:was/were} played"
    ),
    "part.equal-value": " — or {rest:tnames}, since {why:msg}",
    "part.pam-led": "Pam ({card:card}) was led, which is a trump lead",
    "part.trumps-led": "trumps were led ({card:card})",
    "part.suit-led": "{suit:suit} were led ({card:card})",
    "part.head-trumped": (
        ". Under these rules heading means beating every card of the suit led, even though "
        "the trick has been trumped."
    ),
}

# Card play: the rules that bind a lead (RULES.md 1.5) ...
LEAD: Final[dict[str, str]] = {
    "lead.ace": (
        "{p:S} {p:holds/hold} the ace of trumps ({card:card}), so {p:he} must lead "
        "it{scope:msg}{tail:msg}"
    ),
    "lead.king-ace-turned": (
        "The ace of trumps ({ace:card}) is the turn-up and {p:S} {p:holds/hold} the king "
        "({card:card}), so {p:he} must lead it{scope:msg}{tail:msg}"
    ),
    "lead.highest-of-two": (
        "{p:S} {p:holds/hold} {n} trumps ({held:tcards}), so {p:he} must lead the highest, "
        "{highest:tname}{scope:msg}."
    ),
    "lead.trump-holding-two": (
        "{p:S} {p:holds/hold} two or more trumps ({held:tcards}), so {p:he} must lead one of "
        "them{scope:msg}."
    ),
    "lead.heads-up-two": (
        "Only two players are in the play and {p:S} {p:holds/hold} two or more trumps, so "
        "{p:he} must lead {p:his} highest, {highest:tname}{equal:msg}."
    ),
    "lead.heads-up": (
        "Only {n} players are in the play and {p:S} {p:holds/hold} two or more trumps, so "
        "{p:he} must lead {p:his} highest, {highest:tname}{equal:msg}."
    ),
    "lead.trump-after-trick-highest": (
        "Trump after trick: {p:S} won the last trick and {p:holds/hold} {count:msg}, so "
        "{p:he} must lead {p:his} highest trump, {highest:tname}."
    ),
    "lead.trump-after-trick-one": (
        "Trump after trick: {p:S} won the last trick and {p:holds/hold} one trump, "
        "{trump:tname}, so {p:he} must lead it."
    ),
    "lead.trump-after-trick": (
        "Trump after trick: {p:S} won the last trick and {p:holds/hold} {count:msg} "
        "({held:tcards}), so {p:he} must lead a trump."
    ),
    "lead.last-card": (
        "{p:S} won the last trick, so {p:he} {p:leads/lead}; the {card:card} is {p:his} last card."
    ),
    "note.irish-two-trumps": (
        "At Irish Loo two trumps oblige a trump lead only when two players are in; {n} are, "
        "so {p:S} may lead any card."
    ),
    "note.no-trump-after-trick": (
        "These rules have no trump after trick, and their lead rules do not bind this lead, "
        "so {p:S} may lead any card."
    ),
    "note.first-lead-free": (
        "These rules put no obligation on the first lead at {game} Loo: {p:S} may lead any card."
    ),
}

# ... and a card played to a trick (RULES.md 1.6-1.8).
FOLLOW: Final[dict[str, str]] = {
    "follow.pam-identity": (
        "Pam ({pam:card}) belongs to the trump suit, not to {led:suit}: it does not follow "
        "the {lead:card} led, and {p:S} {p:holds/hold} {followers:cards}, so {p:he} must "
        "follow with a real {led:suit1}."
    ),
    "follow.trump-to-pam": (
        "{led:msg}: {p:S} must play a trump if {p:he} can ({followers:cards})."
    ),
    "follow.suit": (
        "{p:S} must follow suit: {led:msg}, and {p:he} {p:holds/hold} {followers:cards}, so "
        "the {excluded:cards} may not be played."
    ),
    "follow.civil-pass": (
        "“Pam, be civil”: the {ace:card} was led with the call, so {p:S} must pass the trick "
        "with another trump ({others:cards}) and may not play Pam ({pam:card}). The call "
        "overrides heading the trick."
    ),
    "follow.civil": (
        "“Pam, be civil” was called on the {ace:card}: {p:S} may not play Pam ({pam:card}) "
        "while {p:he} {p:holds/hold} another trump ({others:cards})."
    ),
    "follow.head": (
        "{p:S} must head the trick: {p:his} {heading:tcards} {heading:beats/beat} the "
        "{target:tname} led, so the {beaten:cards} may not be played{tail:msg}"
    ),
    "follow.head-card": (
        "{p:S} must head the trick: {p:his} {heading:tcards} {heading:beats/beat} the "
        "{target:tname}, so the {beaten:cards} may not be played{tail:msg}"
    ),
    "follow.last-card": (
        "{p:S} must follow suit: the {card:card} is {p:his} last card and it follows the "
        "{lead:card} led."
    ),
    "void.overtrump": (
        "{p:S} {p:has/have} no {led:suit}{aside:msg} and the trick has been trumped with the "
        "{win:tname}: {p:he} must overtrump with a higher trump ({legal:tcards})."
    ),
    "void.trump-always": (
        "{p:S} {p:has/have} no {led:suit}{aside:msg} and {p:he} {p:holds/hold} {count:msg} "
        "({held:tcards}), so {p:he} must play a trump even though it cannot beat the "
        "{win:tname}."
    ),
    "void.must-trump": (
        "{p:S} {p:has/have} no {led:suit}{aside:msg}, so {p:he} must trump: {p:his} "
        "{legal:tcards} {legal:heads/head} the trick."
    ),
    "void.last-card": (
        "{p:S} {p:has/have} no {led:suit}{aside:msg} to follow with; the {card:card} is "
        "{p:his} last card, so {p:he} {p:plays/play} it."
    ),
    "part.pam-is-trump": " (Pam, {pam:card}, is a trump, not a {suit:suit1})",
    "note.civil-only-trump": (
        "“Pam, be civil” was called, but Pam ({pam:card}) is {p:his} only trump, so {p:he} "
        "must play it — and it wins the trick."
    ),
    "note.trumped-no-head": (
        "The trick has been trumped ({win:card}), so no {led:suit1} can head it: {p:S} may "
        "play any {led:suit1}."
    ),
    "note.void-trumps-too-low": (
        "{p:S} {p:has/have} no {led:suit}{aside:msg}, and {p:his} {held:trump/trumps} "
        "({held:tcards}) cannot beat the {win:tname}: {p:he} {p:is/are} not bound to trump, "
        "so {p:he} may play any card."
    ),
    "trick.pam": (
        "Pam ({win:card}) is the highest trump, above the ace of trumps: it takes the trick."
    ),
    "trick.trumps-led": "Trumps were led; the highest trump, the {win:card}, takes the trick.",
    "trick.trumped": ("The trick was trumped: the highest trump played, the {win:card}, takes it."),
    "trick.highest": (
        "No trump was played: the highest {led:suit1}, the {win:card}, takes the trick."
    ),
    "trick.pam-identity": "Pam ({pam:card}) is a trump, not a {suit:suit1}.",
    "error.not-held": "{p:S} {p:does/do} not hold the {card:card}.",
    "error.forbidden": "The {card:card} may not be played. {why:msg}",
}

# Flushes (RULES.md 1.9).
FLUSHES: Final[dict[str, str]] = {
    "part.trump-flush": "trump flush",
    "part.plain-flush": "plain flush",
    "part.trump-flush-pam": "trump flush with Pam",
    "part.plain-flush-pam": "plain flush with Pam",
    "part.flush-of": "the {kind:msg} of {p:S}",
    "part.flush-cards": "{p:S's} {cards:cards}",
    "part.precedence.trump>plain": "A flush in trumps takes precedence of one in a plain suit",
    "part.precedence.pam>rest": "The flush with Pam takes precedence",
    "part.precedence.pam>trump>plain": (
        "The best flush is four of a suit with Pam, then a flush in trumps"
    ),
    "part.precedence.trump>pam>plain": ("A flush in trumps is superior, then a flush with Pam"),
    "part.pam-highest-card": " (Pam counts as the highest card)",
    "part.flush-equal": " The cards are equal in rank, so the elder hand wins.",
    "part.exempt-losing-flush": "{p:S} {p:holds/hold} a losing flush",
    "part.exempt-pam": "{p:S} {p:holds/hold} Pam",
    "flush.precedence": "{why:msg}: {better:and} {better:beats/beat} {beaten:and}.",
    "flush.tie-better": (
        "{between:msg} the better cards win: {p:S's} {cards:cards} "
        "beats {others:and}{pam_note:msg}.{equal:msg}"
    ),
    "flush.tie-highest": (
        "{between:msg} the highest card wins: {p:S's} {cards:cards} "
        "beats {others:and}{pam_note:msg}.{equal:msg}"
    ),
    # Which flushes are compared by their cards: those of one class (both in trumps, or both
    # plain, or both with Pam, as the rules rank them); under whiteknuckle's order (pam>rest,
    # A28) a trump flush and a plain one are not of one class: the rules have no trump class.
    "part.between.class": "Between flushes of the same class",
    "part.between.pam": "Between flushes with Pam",
    "part.between.no-trump-class": (
        "White Knuckle's rules, alone of the sources, give a flush in trumps no precedence "
        "over a plain one (“precedence is given to the highest card”, ¶16): between flushes "
        "without Pam, in trumps or not,"
    ),
    "flush.tie-elder": (
        "Between flushes that do not take precedence of one another, the elder hand wins: "
        "{p:S} {p:sits/sit} nearest the dealer's left."
    ),
    "flush.loos-the-board": (
        "{p:S} {p:holds/hold} a {kind:msg} ({cards:cards}) and {p:loos/loo} the board: the "
        "hand is not played, the flush takes the pool and every other player pays a loo."
    ),
    "flush.exemption": "Excused from paying: {reasons:semi}.",
}
