"""Build the engine's rule catalogue (games/loo/data/catalogue.json) from RULES.md, Part 1.

Usage: python scripts/build_catalogue.py [PATH_TO_RULES_MD] [-o OUT]

RULES.md lives in the shared folder beside the repository (../shared/RULES.md); the engine must
not need it at run time, so the JSON built here is committed, and a test checks that it is still
what this script makes from the current RULES.md.

Output: a JSON list of rules in document order. Each rule is an object:

    id                 the stable rule id from the "#### `id`: name" heading
    name               the short name after the colon in the heading
    group              a slug for the section (see GROUPS)
    section            the section heading, e.g. "1.6 Following"
    statement          the "**Rule.**" paragraph as one line of text; for the few rules that
                       have none, the sentence in STATEMENTS_WRITTEN_HERE below
    statement_source   "rules-md" (taken from RULES.md) or "editorial" (written here)
    sources            an object with one entry per source id (all five, always):
        status         one of STATUSES (see below)
        text           the bullet's text after "**source:**", sub-bullets joined
        citations      a list of {"locator", "quote"}: each quotation in the bullet with its
                       locator (e.g. "¶5", "Law 13", "3c:Play; 5c:Play")
    variants           the text of the "**Variants**" bullet, or "" if the rule has none
    notes              the rule's other labelled bullets ("Engine.", "Notes.", "Direction." ...)
                       as a list of {"label", "text"}

Text fields are plain text: "**" bold markers are removed, lines and sub-bullets are joined
with single spaces; quotation marks, `code spans` (rule ids, option values) and the emphasis
written inside quotations are kept as RULES.md has them.

The two modern, copyrighted pages (whiteknuckle, parlett) are not given in RULES.md's words,
which quote nearly every sentence of them: each of their bullets is MODERN_TEXTS's, our own
words with the same locators, quoting only what MODERN_QUOTES keeps (see there). Peel's
quotations are printed as his book has them, not with the web mirror's faults that RULES.md
keeps (see _as_in_source).

Status values (derived from how the bullet opens; anything else is "states"):

    states     the source states the rule (its text usually quotes it)
    implied    the source does not state it, but it follows from what the source says
               ("implied: ...", "implicit: ...", "silent. Implied by ...")
    subsumed   the source does not state it because a stronger rule of its own covers it
    silent     the source says nothing on the point ("silent ...", "describes no ...")
    refers     silent, but the passage that would cover the point is known to be missing from
               our copy of the text: a lost footnote, a page or chapter outside the excerpt
               ("silent (refers to ...)", "refers to ...", or a silent bullet that says the
               passage "is not in the text")

Plain Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_RULES_MD = REPO_ROOT.parent / "shared" / "RULES.md"
DEFAULT_OUT = REPO_ROOT / "games" / "loo" / "data" / "catalogue.json"

SOURCE_IDS = ("hoffmann", "britannica", "whiteknuckle", "parlett", "peel")
MODERN_SOURCES = ("whiteknuckle", "parlett")
STATUSES = ("states", "implied", "subsumed", "silent", "refers")

# Section number in Part 1 -> group slug. Part 1's section titles are the human labels.
GROUPS = {
    "1.1": "players-and-deal",
    "1.2": "stakes",
    "1.3": "declaring",
    "1.4": "exchange",
    "1.5": "leading",
    "1.6": "following",
    "1.7": "trick",
    "1.8": "pam",
    "1.9": "flushes",
    "1.10": "variants",
    "1.11": "irregularities",
}

# Statements for the rules that RULES.md gives without a "**Rule.**" line (some penalty entries
# in 1.11). One plain sentence each, neutral across the sources; what each source prescribes is
# in its own bullet.
STATEMENTS_WRITTEN_HERE = {
    "penalty-interfering-with-deal": (
        "A player who interferes with the cards while they are being dealt is penalised."
    ),
    "penalty-look-at-others-cards": (
        "A player who looks at or exposes another player's cards is penalised."
    ),
    "penalty-exposed-card": (
        "A declared player who exposes or names one of his own unplayed cards is penalised."
    ),
    "penalty-play-out-of-turn": (
        "A player who plays out of turn, or before everyone has declared, is penalised."
    ),
    "penalty-revoke": "A player who fails to follow suit when able (a revoke) is penalised.",
    "penalty-fail-to-head": (
        "A player who fails to head the trick, or to trump or overtrump, when obliged to is "
        "penalised."
    ),
}

# Statements and names of RULES.md that claim more than the texts say (issue 25, findings 8 and
# 9): each entry names words RULES.md must still hold (so that the day it is revised, the build
# stops and the entry is dropped) and what the catalogue says instead.
# - flush-tie-break: White Knuckle has no trump class (¶16, "precedence is given to the highest
#   card", A28), so "flushes of the same class" must not count it among those that have classes.
# - penalty-look-at-others-cards: Hoffmann's Law 6 punishes *exposing* another player's cards;
#   looking at them is Peel's offence (p. 24). "Seeing another player's hand" fits neither.
REWORDED_HERE: dict[tuple[str, str], tuple[str, str]] = {
    ("flush-tie-break", "statement"): (
        "Between flushes of the same class",
        "Between two flushes of the same class (both in trumps, or both in plain suits), the "
        "winner is decided by the cards (hoffmann, parlett) or by seat, the elder hand winning "
        "(britannica, peel). whiteknuckle has no trump class: apart from a flush with Pam, the "
        "flush with the highest card wins, in trumps or not.",
    ),
    ("penalty-look-at-others-cards", "name"): (
        "seeing another player's hand",
        "looking at or exposing another player's cards",
    ),
}


def _reworded(rule_id: str, field: str, text: str, where: str) -> str:
    """``text`` (a rule's statement or name in RULES.md), or what REWORDED_HERE says instead."""
    entry = REWORDED_HERE.get((rule_id, field))
    if entry is None:
        return text
    if entry[0] not in text:
        raise CatalogueError(
            f"{where}: RULES.md's {field} no longer says {entry[0]!r}: it has been revised, so "
            "drop the entry of REWORDED_HERE"
        )
    return entry[1]


# What peel says where part 1 of RULES.md was written before Peel's pp. 16-18 and 28-29 were
# recovered (../shared/sources/more/peel-full-loo.txt, 2026-11-25). Part 3's A39 and A54, revised
# that day, say what those pages say; part 1 still calls them "not in the text". Each entry
# names words that part 1's bullet must still hold (so that the day part 1 is revised, the build
# stops and the entry is dropped), and the bullet in RULES.md's own form, quoting the recovered
# pages word for word (the content loader checks each quotation against content/sources/peel.txt).
RECOVERED: dict[tuple[str, str], tuple[str, str]] = {
    ("players", "peel"): (
        "three-card: silent",
        'three-card: "The number of players who can take part in it is practically unlimited '
        'within the range of the pack played with" (p. 16); "the best game is played with five, '
        'or not more than seven persons" (p. 16). Above five, "relief is sought by the dealer '
        'standing out of the play, neither paying nor receiving on the tricks of that hand" '
        '(p. 16), by agreement (A54). Five-card: "not suitable for more than six players, even '
        'if five should not be regarded as the limit" (p. 27)',
    ),
    ("single", "peel"): (
        "not in the text",
        'the first dealer "proceeds to distribute the cards for what is termed a single, a term '
        'denoting that merely the dealer\'s stake is to be played for" (p. 18): "the dealer turns '
        "the top card face upwards in the middle of the table, and then distributes one card, "
        'similarly exposed, to each player" (p. 18); "If two or more receive superior cards, the '
        'higher takes the stake." (p. 18). After a hand with no loo "it becomes a single again, '
        'and the cards are dealt as already described for that round (see p. 18)" (p. 21). '
        'After a flush, at five-card Loo: "the next deal becomes a single" (p. 28), a pool of the '
        "dealer's stake (A52).",
    ),
    ("must", "peel"): (
        "not in the text",
        "silent. Peel has no must: his single is a deal of one card face up to each player, in "
        'which "the dealer turns the top card face upwards in the middle of the table, and then '
        'distributes one card, similarly exposed, to each player" (p. 18) (A39).',
    ),
    ("irish-loo", "peel"): (
        "not in the text",
        '"This is virtually the same as the five-card variety, except that three cards only are '
        'dealt to each player, and Pam is unknown." (p. 28). The peel rule set, fixed before the '
        "page was recovered, does not play it.",
    ),
    ("round-continues-until-no-loo", "peel"): (
        "silent",
        'a finish "may be made at any moment, either by an equal division of the amount in the '
        'pool among the players" (p. 17), or by releasing the looed, all standing on the last '
        'round without a miss; "If, however, a finish is desired before a single occurs, it is '
        "best to arrange it so as to fall immediately before the original dealer's turn to deal "
        'comes round again" (p. 17) (A54).',
    ),
}

# Bullets that RULES.md writes as stating the rule without a quotation, where the text has the
# words: a "which sources state this rule?" question names the source, and the question
# checker (tests/reference) wants a passage of the text to hold it to. Each in RECOVERED's
# form: words RULES.md's bullet must still hold, and the bullet with the text's words.
QUOTED_HERE: dict[tuple[str, str], tuple[str, str]] = {
    ("penalty-revoke", "hoffmann"): (
        "Law 12 is in the four-singles list",
        'Law 12 ("Every player is bound to follow suit if able to do so") is in the '
        'four-singles list: "Any player committing any infractions of Laws 9, 10, 11, 12, 13, '
        "or 14, must leave in the pool any tricks he may make, and forfeit to the pool four "
        'times the amount of a single" (after Law 14). Law 16 also gives a replay option '
        '(`revoke-replay`): "In the case of a revoke, it is in the option of any player, other '
        'than the offender, to require that the cards be taken up and the hand played again."',
    ),
}

# The modern pages (parlett, whiteknuckle) are copyrighted (../shared/sources/SOURCES.md): the
# site may quote them only in short passages, and in all no more than about a fifth of each
# page's rules text (issue 25; tests/lessons/test_copyright.py counts every quotation the site
# shows). RULES.md quotes nearly every sentence of both. So the catalogue gives each of their
# bullets in our own words, with its locators (the rule pages link the place), and keeps a
# quotation only where a reading of RULES.md part 3 or a disagreement between the sources
# turns on the words: MODERN_QUOTES is that choice, each with its reason, and the one place it
# is made (the passage files' "quote:" lines and the source questions draw on it).
MODERN_QUOTES: dict[tuple[str, str, str], str] = {
    (
        "limited-loo",
        "parlett",
        "In Limited Loo this amount is small and fixed.",
    ): ("whether a loo is fixed or the pool: Parlett's default is fixed, the pool an option (A31)"),
    (
        "limited-loo",
        "parlett",
        "pay an agreed stake to the pool",
    ): ("five-card Loo names no amount for a loo, so the pool may not divide (A32)"),
    (
        "unlimited-loo",
        "parlett",
        "contained at the start of that deal",
    ): ("the amount of an unlimited loo: the pool at the start of the deal (A31)"),
    (
        "double",
        "parlett",
        "left over from the previous deal",
    ): ("what a double is differs between the sources (the glossary defines it by these words)"),
    (
        "lead-rules-scope",
        "parlett",
        "must lead a trump if held",
    ): ("later leads are bound only to lead a trump (A12, trump after trick)"),
    (
        "lead-rules-scope",
        "parlett",
        "Eldest leads to the first trick.",
    ): ("five-card Loo puts no obligation on the first lead (A12)"),
    (
        "head-the-trick",
        "parlett",
        "than any so far played to it",
    ): ("Parlett's heading beats every card of the suit led so far (A1)"),
    (
        "must-trump",
        "parlett",
        "trump and overtrump if you can",
    ): ("must a void player trump when he cannot overtrump? (A15)"),
    (
        "pam-identity",
        "parlett",
        "always belongs to the trump suit",
    ): ("Pam is a trump and not a club when following suit (A3)"),
    (
        "pam-be-civil",
        "parlett",
        "(now or subsequently)",
    ): ("the call may be made whenever the ace is led, not only at the first lead"),
    (
        "pam-led-trump-must-be-played",
        "parlett",
        "If Pam is led you must play a trump",
    ): ("only Parlett states it; the other rule sets follow it by a reading (A40)"),
    (
        "flush-precedence",
        "parlett",
        "followed by a flush in trumps",
    ): ("a trump flush ranks as a class, against White Knuckle's order (A28)"),
    (
        "flush-tie-break",
        "parlett",
        "containing the highest top card or cards",
    ): ("flushes of one class are compared card by card from the top (A26)"),
    (
        "flush-payment-exemption",
        "parlett",
        "hold either Pam or a flush",
    ): ("the holder of Pam is exempt, unlike in the other sources (A25)"),
    (
        "must",
        "parlett",
        "nobody may pass",
    ): ("Parlett's must is an optional rule that bars only passing (A33)"),
    (
        "lead-rules-scope",
        "whiteknuckle",
        "The first lead must be the Ace of Trumps…",
    ): ("White Knuckle's lead rules stop at the first lead (A13)"),
    (
        "head-the-trick",
        "whiteknuckle",
        "than the one previously played",
    ): ("heading against the card played just before (A17)"),
    (
        "must-trump",
        "whiteknuckle",
        "then you must trump in",
    ): ("a void player must trump even when it cannot win (A15)"),
    (
        "pam-identity",
        "whiteknuckle",
        "the highest card in play",
    ): ("Pam's suit is not stated (A3)"),
    (
        "flush-loos-the-board",
        "whiteknuckle",
        "no other players being allowed to drop out",
    ): ("no one may pass once a flush is shown, unlike in the other sources"),
    (
        "flush-precedence",
        "whiteknuckle",
        "given to the flush with the 'Pam'",
    ): ("White Knuckle alone has no trump class of flushes (A28)"),
    (
        "flush-tie-break",
        "whiteknuckle",
        "given to the highest card",
    ): ("the literal reading of its flush order (A28)"),
    (
        "flush-payment-exemption",
        "whiteknuckle",
        "is exempt from settling up",
    ): ("a beaten flush pays nothing, unlike in the other sources (A25)"),
}

# The bullets of the modern pages that RULES.md calls stating a rule which the page only follows:
# it gives fixed stakes that divide, but says nothing of dividing (as the witnesses that give
# "three pence … a penny each" are "implied", content/witnesses.txt). A "which sources state
# this rule?" answer must not name a page for words it does not have. MODERN_TEXTS words them
# (not opening with "implied:", as RULES.md's bullets do: the rule page prints the status).
READ_AS_IMPLIED = frozenset({("stake-divisible", "parlett"), ("stake-divisible", "whiteknuckle")})

# Each bullet of the modern pages that RULES.md writes with quotations, in our own words: the
# same facts and locators, with only the quotations of MODERN_QUOTES.
MODERN_TEXTS: dict[tuple[str, str], str] = {
    ("players", "parlett"): (
        "three-card: up to sixteen players, five to seven recommended (3c:Players). Five-card: "
        "five to ten (5c:Players)"
    ),
    ("rank-order", "parlett"): (
        "52 cards, ranking from ace down to two in each suit (3c:Equipment; the same in 5c:Cards)"
    ),
    ("first-dealer", "parlett"): (
        "the lowest cut deals first, ace counting low (3c:Deal and 5c:Deal)"
    ),
    ("deal-order", "parlett"): (
        "three cards to each player and to the miss, one at a time (3c:Deal). Five-card: in a "
        "batch of three and one of two, either way round (5c:Deal)"
    ),
    ("deal-rotation", "parlett"): "the deal and the play pass to the left (3c:Deal)",
    ("turn-up-trump", "parlett"): "the card after the deal is turned for trumps (3c:Deal)",
    ("ante", "parlett"): "the dealer stakes three (3c:Deal); at five-card Loo, five (5c:Deal)",
    ("stake-divisible", "parlett"): (
        "the stakes are three (3c:Deal) and five (5c:Deal), which divide, but no rule says a "
        "stake must; and the five-card loo is an agreed stake, which need not divide "
        "(5c:Pay-off)."
    ),
    ("stake-divisible", "whiteknuckle"): (
        "the stakes are fixed, 3 chips (¶4) and 5 chips (¶14), so the pool always divides; the "
        "page says nothing of dividing."
    ),
    ("limited-loo", "parlett"): (
        '"In Limited Loo this amount is small and fixed." (intro); a player looed pays three to '
        'the pool (3c:Pay-off). Five-card: whoever is looed has to "pay an agreed stake to the '
        'pool" (5c:Pay-off)'
    ),
    ("unlimited-loo", "parlett"): (
        'an optional rule: a player looed pays the sum that the pool "contained at the start of '
        'that deal" (3c:Optional rules)'
    ),
    ("double", "parlett"): (
        'a pool holding more than the dealer\'s three, "left over from the previous deal", is a '
        "double (3c:Deal)"
    ),
    ("single", "parlett"): "a pool of three chips is a single (3c:Deal)",
    ("looed", "parlett"): (
        "a player who takes part and wins no trick is looed, and adds to the pool (3c:Object)"
    ),
    ("pool-division", "parlett"): (
        "each trick wins a third of the pool (3c:Pay-off); at five-card Loo, a fifth (5c:Pay-off)"
    ),
    ("indivisible-pool-rounding", "parlett"): (
        "silent. Its five-card loo, an agreed stake (5c:Pay-off), may leave a pool that five "
        "does not divide."
    ),
    ("declare-in-turn", "parlett"): (
        "each player in turn says whether he plays or throws his hand in (3c:Announcements)"
    ),
    ("take-miss", "parlett"): (
        "a player who offers to play may exchange his hand for the miss without seeing it "
        "(3c:Announcements)"
    ),
    ("miss-only-once", "parlett"): (
        "only the first to claim the miss, counting from the dealer's left, may take it "
        "(3c:Announcements)"
    ),
    ("miss-holder-must-play", "parlett"): (
        "having taken the miss, a player is bound to play it and cannot take his hand back "
        "(3c:Announcements)"
    ),
    ("all-pass-dealer-wins", "parlett"): (
        "if everyone passes, the pool goes to the dealer (3c:Announcements)"
    ),
    ("miss-holder-alone-wins", "parlett"): (
        "if the player who took the miss is the only one to play, he takes the pool "
        "(3c:Announcements)"
    ),
    ("dealer-must-play-against-one", "parlett"): (
        "if a single player before the dealer plays, on his own cards, the dealer may not pass "
        "(3c:Announcements)"
    ),
    ("dealer-defends-miss", "parlett"): (
        "the dealer may instead defend the miss: he plays, but neither wins nor pays, and only "
        "the other player settles with the pool (3c:Announcements)"
    ),
    ("five-card-exchange", "parlett"): (
        "each player who plays may discard any number of cards and draw as many from the top of "
        "the stock, the turn-up excepted (5c:Bidding)"
    ),
    ("elder-leads-first", "parlett"): (
        "the player on the dealer's left leads to the first trick (3c:Play; 5c:Play)"
    ),
    ("lead-rules-scope", "parlett"): (
        "Three-card: the lead obligations are attached to the first trick; the winner of a "
        'trick only "must lead a trump if held" (3c:Play). Five-card: no first-lead obligation '
        'at all: "Eldest leads to the first trick." (5c:Play)'
    ),
    ("lead-ace-of-trumps", "parlett"): (
        "the opening lead is the ace of trumps, if held (3c:Play). Five-card: silent."
    ),
    ("lead-king-when-ace-turned", "parlett"): (
        "or the king of trumps, if the turn-up is the ace (3c:Play)"
    ),
    ("lead-trump-holding-two", "parlett"): (
        "failing that, a trump, if the leader holds more than one (3c:Play)"
    ),
    ("lead-highest-trump-heads-up", "parlett"): (
        "and the highest of them if he plays against one opponent only (3c:Play)"
    ),
    ("trump-after-trick", "parlett"): (
        "whoever takes a trick leads next, and must lead a trump if he holds one (3c:Play); at "
        "five-card Loo too, if he can (5c:Play)"
    ),
    ("follow-suit", "parlett"): (
        "a player must follow suit if he can, and beat the best card of the suit so far "
        "(3c:Play; 5c:Play)"
    ),
    ("head-the-trick", "parlett"): (
        "to head the trick is to beat every card of the suit led so far: to play higher "
        '"than any so far played to it" (3c:Play fn)'
    ),
    ("must-trump", "parlett"): (
        'a player void in the suit led must "trump and overtrump if you can"; a player who can '
        "do neither discards what he likes (3c:Play; 5c:Play)"
    ),
    ("must-overtrump", "parlett"): (
        "a player who cannot follow must trump, and beat a trump already played, if he can "
        "(3c:Play)"
    ),
    ("trick-winner", "parlett"): (
        "the highest card of the suit led wins, or the highest trump if any is played (3c:Play; "
        "5c:Play)"
    ),
    ("pam-highest-trump", "parlett"): (
        "Pam, the knave of clubs, is always a trump and beats every card, the ace of trumps "
        "included (5c:Cards)"
    ),
    ("pam-identity", "parlett"): (
        'Pam is the knave of clubs, which "always belongs to the trump suit" (5c:Cards); the '
        "intro calls it the trump that is always top."
    ),
    ("pam-be-civil", "parlett"): (
        "the leader of the ace of trumps may call on Pam to be civil, and its holder may then "
        "not play it unless it is his only trump (5c:Play). This applies whenever the ace is "
        'led: "(now or subsequently)" (5c:Play).'
    ),
    ("pam-led-trump-must-be-played", "parlett"): (
        '"If Pam is led you must play a trump", when one is held (5c:Play)'
    ),
    ("flush-loos-the-board", "parlett"): (
        "the best flush takes all five tricks at once, with no play, and its holder is paid by "
        "each player who holds neither Pam nor a flush (5c:Flush)"
    ),
    ("flush-timing", "parlett"): (
        "the best flush, held before or after the exchange, loos the board at once (5c:Flush)"
    ),
    ("flush-precedence", "parlett"): (
        'four of a suit with Pam ranks first, "followed by a flush in trumps" (5c:Flush), then '
        "the plain-suit flushes, ranked by their top cards"
    ),
    ("flush-tie-break", "parlett"): (
        'between plain-suit flushes, the one "containing the highest top card or cards" wins '
        "(5c:Flush)"
    ),
    ("flush-payment-exemption", "parlett"): (
        'the flush is paid by every player except those who "hold either Pam or a flush" (5c:Flush)'
    ),
    ("must", "parlett"): (
        'an optional rule: with a single in the pool, "nobody may pass" (3c:Optional rules)'
    ),
    ("club-law", "parlett"): (
        "an optional rule: no one may pass when clubs are trumps (5c:Bidding). Five-card only; "
        "the exchange is still described."
    ),
    ("players", "whiteknuckle"): "from three to nine players, best with five (¶1)",
    ("rank-order", "whiteknuckle"): "a standard pack of 52, ace high and two low (¶2)",
    ("first-dealer", "whiteknuckle"): (
        "cards are dealt face up, one to each player in turn, and the first to receive a knave "
        "deals (¶3, Draw and Cut)"
    ),
    ("shuffle-and-cut", "whiteknuckle"): (
        "silent. Its only shuffle is for the draw for first dealer (¶3)."
    ),
    ("deal-order", "whiteknuckle"): (
        "one card at a time until each player has three, and three dealt face down in the "
        "centre as the miss (¶5). Five-card: in batches of two and three (¶14)"
    ),
    ("deal-rotation", "whiteknuckle"): "the deal passes to the left after each hand (¶5)",
    ("turn-up-trump", "whiteknuckle"): (
        "the next card is turned face up for trumps (¶5; five-card ¶14)"
    ),
    ("ante", "whiteknuckle"): (
        "the dealer puts 3 chips in the pool, which is then called a single (¶4). Five-card: 5 "
        "chips (¶14)"
    ),
    ("limited-loo", "whiteknuckle"): (
        "a player who wins no trick pays 3 chips to the pool (¶6). Five-card: 5 chips (¶15)"
    ),
    ("double", "whiteknuckle"): (
        "a pool holding more than that, left from a previous deal, is a double (¶4); the loos "
        "are carried forward as a double (¶12)"
    ),
    ("single", "whiteknuckle"): "the dealer's 3 chips in the pool are a single (¶4)",
    ("looed", "whiteknuckle"): (
        "each player tries to take a trick, at least, and so not be looed (¶6)"
    ),
    ("pool-division", "whiteknuckle"): (
        "each trick wins a third of the pool (¶12). Five-card: a fifth (¶15)"
    ),
    ("declare-in-turn", "whiteknuckle"): (
        "from the dealer's left, each player in turn says whether he plays or throws in his "
        "hand (¶7)"
    ),
    ("take-miss", "whiteknuckle"): (
        "a player who wants to play may exchange his hand for the miss unseen (¶7)"
    ),
    ("miss-only-once", "whiteknuckle"): (
        "the first to make the exchange stops every later player from making it (¶7)"
    ),
    ("miss-holder-must-play", "whiteknuckle"): (
        "having exchanged, he may neither drop out nor exchange back (¶7)"
    ),
    ("all-pass-dealer-wins", "whiteknuckle"): "if all pass, the dealer takes the pool (¶8)",
    ("miss-holder-alone-wins", "whiteknuckle"): (
        "if the player who took the miss is the only one to play, the dealer passing too, he "
        "takes the pool (¶8)"
    ),
    ("dealer-must-play-against-one", "whiteknuckle"): (
        "if only one player plays, and he has not taken the miss, the dealer may not pass (¶9)"
    ),
    ("dealer-defends-miss", "whiteknuckle"): (
        "the dealer may defend the miss, and then takes no part in the settlement (¶9)"
    ),
    ("five-card-exchange", "whiteknuckle"): (
        "each player may drop out, stand on his hand, or exchange any number of cards for as "
        "many from the top of the pack (¶14); one who exchanges may not then drop out (¶14)."
    ),
    ("elder-leads-first", "whiteknuckle"): (
        "the player on the dealer's left leads first; after that, whoever takes a trick leads (¶10)"
    ),
    ("lead-rules-scope", "whiteknuckle"): (
        '"The first lead must be the Ace of Trumps…" (¶10). Nothing is said about later leads.'
    ),
    ("lead-ace-of-trumps", "whiteknuckle"): (
        "the opening lead is the ace of trumps, if held (¶10)"
    ),
    ("lead-king-when-ace-turned", "whiteknuckle"): (
        "or the king of trumps, if the ace was turned up (¶10)"
    ),
    ("lead-trump-holding-two", "whiteknuckle"): (
        "failing that, a trump, if the leader has more than one (¶10)"
    ),
    ("lead-highest-trump-heads-up", "whiteknuckle"): (
        "and his highest trump if he plays against one other player only (¶10)"
    ),
    ("follow-suit", "whiteknuckle"): "a player who can follow suit must (¶11 b1)",
    ("head-the-trick", "whiteknuckle"): (
        'to head the trick, a player must beat the card before his, playing higher "than the '
        'one previously played" (¶11 b1)'
    ),
    ("must-trump", "whiteknuckle"): (
        'a player who cannot follow suit must trump: "then you must trump in" (¶11 b2); only a '
        "player who can "
        "neither follow nor trump may play any card (¶11 b4)"
    ),
    ("must-overtrump", "whiteknuckle"): (
        "if a trump is already in the trick, a player who cannot follow must play a higher "
        "trump, if he has one (¶11 b3)"
    ),
    ("trick-winner", "whiteknuckle"): (
        "the highest trump wins the trick, or, if none is played, the highest card of the suit "
        "led (¶11 b5)"
    ),
    ("pam-highest-trump", "whiteknuckle"): (
        "the knave of clubs, Pam, is the highest card in play, above the ace of trumps (¶15)"
    ),
    ("pam-identity", "whiteknuckle"): (
        'Pam is the knave of clubs (¶15). Its suit is not stated: "the highest card in play" (¶15).'
    ),
    ("pam-be-civil", "whiteknuckle"): (
        "whoever leads the trump ace may call on Pam to be civil, and its holder may then not "
        "play it if he has another trump (¶17)"
    ),
    ("flush-loos-the-board", "whiteknuckle"): (
        "the holder of a flush wins all five tricks and loos the whole table at once, with no "
        'play, "no other players being allowed to drop out" (¶16)'
    ),
    ("flush-timing", "whiteknuckle"): (
        "a flush held before or after an exchange loos the table at once, without play (¶16)"
    ),
    ("flush-precedence", "whiteknuckle"): (
        "between flushes, the first place is \"given to the flush with the 'Pam'\" (¶16)"
    ),
    ("flush-tie-break", "whiteknuckle"): (
        'if no flush holds Pam, first place is "given to the highest card" (¶16)'
    ),
    ("flush-payment-exemption", "whiteknuckle"): (
        'a player with a flush who is beaten by a better one "is exempt from settling up" (¶16)'
    ),
    ("round-continues-until-no-loo", "whiteknuckle"): (
        "play goes on over as many hands as the players wish, or until their chips run out (¶13)"
    ),
}

_PART1_HEADING = re.compile(r"^## 1\. ")
_PART_HEADING = re.compile(r"^## ")
_SECTION_HEADING = re.compile(r"^### (1\.\d+) (.+?)\s*$")
_RULE_HEADING = re.compile(r"^#### `([a-z0-9]+(?:-[a-z0-9]+)*)`(?: \([^)]*\))?: (.+?)\s*$")
_STATEMENT_START = re.compile(r"^\*\*Rule(?: \([^)]*\))?\.\*\*\s*")
_LABELLED_BULLET = re.compile(r"^- \*\*([^*]+?)[:.]\*\*\s*(.*)$")

# Locators, as Part 0.1 of RULES.md defines them (see _citations).
_LOCATOR = re.compile(
    r"¶\s?\d+(?:\s?b\d+)?"  # hoffmann, whiteknuckle: ¶5, ¶11 b2
    r"|\bLaws?\s\d+(?:[–-]\d+)?"  # hoffmann: Law 13, Laws 9–11
    r"|\bs\.\s\d+(?:[–-]\d+)?"  # britannica: s. 24, s. 24–25
    r"|\bp\.\s\d+(?:[–-]\d+)?"  # peel: p. 21, p. 19–20
    r"|\b[35]c:[A-Z][A-Za-z-]*(?: fn)?"  # parlett: 3c:Play, 5c:Pay-off, 3c:Play fn
    r"|\bintro\b"  # parlett's preamble
)
# A straight double quote inside a word is an OCR apostrophe (peel's "dealer"s"), not a mark.
_APOSTROPHE_QUOTE = re.compile(r'(?<=[A-Za-z])"(?=s\b)')
# Peel's page marks ("[28]") stand where a page of the book begins, inside his sentences.
_PAGE_MARK = re.compile(r"\s*\[\d\d\]\s*")
# Between a quotation and a later locator, a sentence break or a colon (which introduces the
# quotation that the locator belongs to) means the locator is not the first quotation's.
_SENTENCE_BREAK = re.compile(r"[.!?]\s+\S|:")


class CatalogueError(ValueError):
    """RULES.md does not have the shape this script expects."""


@dataclass
class _Bullet:
    label: str
    lines: list[str] = field(default_factory=list)


class _Span(NamedTuple):
    start: int
    end: int
    text: str


@dataclass
class _RawRule:
    id: str
    name: str
    section: str
    group: str
    line: int
    statement_lines: list[str] = field(default_factory=list)
    has_statement: bool = False
    bullets: list[_Bullet] = field(default_factory=list)


def read_texts(
    shared_sources: Path, passages: Path = REPO_ROOT / "content" / "sources"
) -> dict[str, str]:
    """Each source's words, where its quotations are looked for: the text as it reached us
    (../shared/sources), Peel's chapter as recovered (more/peel-full-loo.txt), and the passage
    file of a public-domain text (with its corrections; a modern page's file is in our own
    words, not the page's)."""
    texts = {}
    for source in SOURCE_IDS:
        parts = [(shared_sources / f"{source}.txt").read_text(encoding="utf-8")]
        if source == "peel":
            parts.append(
                (shared_sources / "more" / "peel-full-loo.txt").read_text(encoding="utf-8")
            )
        if source not in MODERN_SOURCES:
            parts.append((passages / f"{source}.txt").read_text(encoding="utf-8"))
        texts[source] = "\n".join(parts)
    return texts


class _Words:
    """A text's words (:func:`_words`), indexed to find a run of them quickly."""

    def __init__(self, text: str) -> None:
        self.words = _words(text)
        self.at: dict[str, list[int]] = {}
        for i, word in enumerate(self.words):
            self.at.setdefault(word, []).append(i)

    def has(self, quote: str) -> bool:
        """Whether each part of ``quote`` (between its "…") is a run of these words, in order:
        without regard to case, punctuation or quotation marks."""
        start = 0
        for part in filter(None, (_words(p) for p in quote.split("…"))):
            found = next(
                (
                    i
                    for i in self.at.get(part[0], ())
                    if i >= start and self.words[i : i + len(part)] == part
                ),
                None,
            )
            if found is None:
                return False
            start = found + len(part)
        return True


def _found_in(rules: list[dict[str, object]], texts: dict[str, str]) -> None:
    """Give each citation the sources whose text has its words ("found_in"): a quotation that
    two texts share cannot ask which source says it."""
    indexed = {source: _Words(texts[source]) for source in SOURCE_IDS}
    for rule in rules:
        for source, statement in rule["sources"].items():  # type: ignore[attr-defined]
            for citation in statement["citations"]:
                citation["found_in"] = [s for s in SOURCE_IDS if indexed[s].has(citation["quote"])]
                if source not in citation["found_in"]:
                    raise CatalogueError(
                        f"rule {rule['id']!r}, {source}: the quotation {citation['quote']!r} is "
                        "not in the text"
                    )


def build(markdown: str, texts: dict[str, str]) -> list[dict[str, object]]:
    """Return the catalogue for the RULES.md text `markdown`, as JSON-ready objects; `texts`
    (:func:`read_texts`) are the sources' texts, where each quotation is looked for."""
    raw_rules = list(_raw_rules(_part1(markdown)))
    ids = [raw.id for raw in raw_rules]
    duplicates = sorted({rule_id for rule_id in ids if ids.count(rule_id) > 1})
    if duplicates:
        raise CatalogueError(f"rule ids used twice in Part 1: {', '.join(duplicates)}")
    unused_texts = sorted(f"{r} ({s})" for r, s in MODERN_TEXTS if r not in ids)
    if unused_texts:
        raise CatalogueError(f"MODERN_TEXTS names unknown rules: {', '.join(unused_texts)}")
    unused = sorted(set(STATEMENTS_WRITTEN_HERE) - set(ids))
    if unused:
        raise CatalogueError(f"STATEMENTS_WRITTEN_HERE names unknown rules: {', '.join(unused)}")
    built = [_rule_object(raw) for raw in raw_rules]
    kept = {
        (rule["id"], source, citation["quote"])
        for rule in built
        for source, statement in rule["sources"].items()  # type: ignore[attr-defined]
        for citation in statement["citations"]
        if source in MODERN_SOURCES
    }
    unused_quotes = sorted(set(MODERN_QUOTES) - kept)
    if unused_quotes:
        raise CatalogueError(f"MODERN_QUOTES keeps quotations no bullet quotes: {unused_quotes}")
    _found_in(built, texts)
    return built


def render(rules: Sequence[dict[str, object]]) -> str:
    """The catalogue as the committed file's text: stable, pretty, ending with a newline."""
    return json.dumps(list(rules), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def _part1(markdown: str) -> list[tuple[int, str]]:
    """The numbered lines of Part 1, from its heading up to the next "## " heading."""
    lines = markdown.splitlines()
    start = next((i for i, line in enumerate(lines) if _PART1_HEADING.match(line)), None)
    if start is None:
        raise CatalogueError('no "## 1. " heading (Part 1, the rule catalogue) found')
    end = next(
        (i for i in range(start + 1, len(lines)) if _PART_HEADING.match(lines[i])), len(lines)
    )
    return [(i + 1, lines[i]) for i in range(start + 1, end)]


def _raw_rules(lines: list[tuple[int, str]]) -> Iterator[_RawRule]:
    section = group = ""
    rule: _RawRule | None = None
    for number, line in lines:
        if line.startswith("### "):
            if rule:
                yield rule
                rule = None
            match = _SECTION_HEADING.match(line)
            if not match or match.group(1) not in GROUPS:
                raise CatalogueError(f"line {number}: unexpected section heading {line!r}")
            section, group = f"{match.group(1)} {match.group(2)}", GROUPS[match.group(1)]
        elif line.startswith("#### "):
            if rule:
                yield rule
            match = _RULE_HEADING.match(line)
            if not match:
                raise CatalogueError(f"line {number}: unreadable rule heading {line!r}")
            if not section:
                raise CatalogueError(f"line {number}: rule heading before any section")
            rule = _RawRule(match.group(1), match.group(2), section, group, number)
        elif line.strip() == "---":
            if rule:
                yield rule
                rule = None
        elif rule is None:
            continue  # the introduction of Part 1 or of a section
        elif match := _LABELLED_BULLET.match(line):
            rule.bullets.append(_Bullet(match.group(1).strip(), [match.group(2)]))
        elif rule.bullets:
            if line.strip() and not line.startswith(" "):
                raise CatalogueError(f"line {number}: text after the bullets of {rule.id!r}")
            rule.bullets[-1].lines.append(line)
        elif match := _STATEMENT_START.match(line):
            if rule.has_statement:
                raise CatalogueError(f"line {number}: second statement for {rule.id!r}")
            rule.has_statement = True
            rule.statement_lines.append(line[match.end() :])
        elif rule.has_statement:
            rule.statement_lines.append(line)
        elif line.strip():
            raise CatalogueError(f"line {number}: text before the statement of {rule.id!r}")
    if rule:
        yield rule


def _rule_object(raw: _RawRule) -> dict[str, object]:
    where = f"rule {raw.id!r} (line {raw.line})"
    statement = _plain(raw.statement_lines)
    if raw.has_statement == (raw.id in STATEMENTS_WRITTEN_HERE):
        raise CatalogueError(
            f"{where}: "
            + (
                "has a **Rule.** line and an entry in STATEMENTS_WRITTEN_HERE"
                if raw.has_statement
                else "has no **Rule.** line: add a sentence to STATEMENTS_WRITTEN_HERE"
            )
        )
    if raw.has_statement and not statement:
        raise CatalogueError(f"{where}: empty **Rule.** statement")

    sources: dict[str, object] = {}
    variants: list[str] = []
    notes: list[dict[str, str]] = []
    for bullet in raw.bullets:
        text = _plain(bullet.lines)
        recovered = RECOVERED.get((raw.id, bullet.label)) or QUOTED_HERE.get((raw.id, bullet.label))
        if recovered is not None:
            if recovered[0] not in text:
                raise CatalogueError(
                    f"{where}, {bullet.label}: RULES.md no longer says {recovered[0]!r}: it has "
                    "been revised, so drop the entry of RECOVERED or QUOTED_HERE"
                )
            text = recovered[1]
        if bullet.label in SOURCE_IDS:
            text = _as_in_source(text, bullet.label)
            if bullet.label in MODERN_SOURCES:
                text = _in_our_words(raw.id, bullet.label, text, f"{where}, {bullet.label}")
            if bullet.label in sources:
                raise CatalogueError(f"{where}: two bullets for {bullet.label}")
            read = (raw.id, bullet.label) in READ_AS_IMPLIED
            sources[bullet.label] = {
                "status": "implied" if read else _status(text),
                "text": text,
                "citations": _citations(text, f"{where}, {bullet.label}"),
            }
        elif bullet.label.startswith("Variants"):
            variants.append(text)
        else:
            notes.append({"label": bullet.label, "text": text})
    missing = [source for source in SOURCE_IDS if source not in sources]
    if missing:
        raise CatalogueError(f"{where}: no bullet for {', '.join(missing)}")
    if len(variants) > 1:
        raise CatalogueError(f"{where}: more than one Variants bullet")

    return {
        "id": raw.id,
        "name": _reworded(raw.id, "name", raw.name, where),
        "group": raw.group,
        "section": raw.section,
        "statement": _reworded(
            raw.id, "statement", statement or STATEMENTS_WRITTEN_HERE[raw.id], where
        ),
        "statement_source": "rules-md" if raw.has_statement else "editorial",
        "sources": sources,
        "variants": variants[0] if variants else "",
        "notes": notes,
    }


def _in_our_words(rule_id: str, source: str, text: str, where: str) -> str:
    """A modern page's bullet as the catalogue gives it: MODERN_TEXTS's words, which must keep
    every locator of RULES.md's bullet and quote only what MODERN_QUOTES keeps, each part of it
    a run of words of one of the bullet's quotations."""
    quoted = [words for _, words in _quotations(text)]
    ours = MODERN_TEXTS.get((rule_id, source))
    if ours is None:
        if quoted:
            raise CatalogueError(
                f"{where}: RULES.md quotes a modern page: give the bullet in our own words in "
                "MODERN_TEXTS (and keep a quotation only in MODERN_QUOTES)"
            )
        return text
    lost = set(_LOCATOR.findall(text)) - set(_LOCATOR.findall(ours))
    if lost:
        raise CatalogueError(f"{where}: MODERN_TEXTS drops the locators {sorted(lost)}")
    if (rule_id, source) in READ_AS_IMPLIED and _status(text) != "states":
        raise CatalogueError(f"{where}: RULES.md has been revised: drop it from READ_AS_IMPLIED")
    if _status(ours) != _status(text):
        raise CatalogueError(f"{where}: MODERN_TEXTS changes the status {_status(text)!r}")
    for _, quote in _quotations(ours):
        if (rule_id, source, quote) not in MODERN_QUOTES:
            raise CatalogueError(f"{where}: {quote!r} is not one of MODERN_QUOTES")
        if not any(_Words(whole).has(quote) for whole in quoted):
            raise CatalogueError(f"{where}: {quote!r} is not in RULES.md's quotations")
    return ours


def _quotations(text: str) -> list[tuple[int, str]]:
    """(offset, words) of each quotation in a bullet's text."""
    masked = _APOSTROPHE_QUOTE.sub("'", text)
    return [(m.start(), m.group()[1:-1]) for m in re.finditer(r'"[^"]*"', masked)]


def _words(text: str) -> list[str]:
    """The words of ``text``, to compare quotations: lower case, letters and digits only; a
    word joined by an apostrophe, a mirror's double quote or dots stays one ("dealer's",
    "dealer"s" and "dealers" are one word, "ent.i.tled" is "entitled"); no page or note
    marks ("[28]")."""
    text = re.sub(r"\[\d+\]", " ", text)  # page and note marks
    joined = re.sub(r"(?<=[^\W_])[\"'’.*_]+(?=[^\W_])", "", text.lower())
    return re.findall(r"[^\W_]+", joined)


def _plain(lines: list[str]) -> str:
    """Markdown lines (with sub-bullets) as one line of text, without "**" markers."""
    pieces = []
    for line in lines:
        piece = line.strip()
        if piece.startswith("- "):
            piece = piece[2:]
        if piece:
            pieces.append(piece)
    return re.sub(r"\s+", " ", " ".join(pieces).replace("**", "")).strip()


def _as_in_source(text: str, source: str) -> str:
    """A source bullet's text with its quotations printed as the source has them: RULES.md
    quotes Peel from a web mirror that writes an apostrophe as a double quote ("dealer"s fee")
    and keeps the book's page marks inside a sentence ("the pool, [28] receives"); neither is
    a word of the book (../shared/sources/more/peel-full-loo.txt has them corrected).
    Hoffmann's footnote marks ("[28]") are his own and stay."""
    text = _APOSTROPHE_QUOTE.sub("'", text)
    if source != "peel":
        return text
    return re.sub(r'"[^"]*"', lambda quote: _PAGE_MARK.sub(" ", quote.group()), text)


def _status(text: str) -> str:
    if re.match(r"(?:implied|implicit)\b|silent\. Implied\b", text):
        return "implied"
    if text.startswith("refers to") or text.startswith("silent (refers to"):
        return "refers"
    if text.startswith("silent") or text.startswith("describes no"):
        return "refers" if "not in the text" in text else "silent"
    if text.startswith("subsumed"):
        return "subsumed"
    return "states"


def _citations(text: str, where: str) -> list[dict[str, str]]:
    """The quotations in a source bullet's text, each with its locator.

    A quotation's locator is the first parenthesised group after it that contains a locator
    (the group's whole text, e.g. "¶11; after Law 14"), if only other quotations and words with
    no sentence break or colon come between them: one locator may follow several quotations.
    Failing that, it is the last locator written before the quotation, in parentheses or in the
    prose ("Law 15: a declared player who "(1) Exposes..."", "the intro calls it "...""), and
    failing that there is none (""). Quotations inside a locator group are part of the locator
    ("(intro, "The basic idea…")"), not citations.
    """
    masked = _APOSTROPHE_QUOTE.sub("'", text)
    if masked.count('"') % 2:
        raise CatalogueError(f"{where}: unbalanced quotation marks in {text!r}")
    quotes = [_Span(m.start(), m.end(), m.group()[1:-1]) for m in re.finditer(r'"[^"]*"', masked)]
    for quote in quotes:  # blank them out, so that brackets and locators in them are not seen
        masked = masked[: quote.start + 1] + " " * len(quote.text) + masked[quote.end - 1 :]

    groups = []  # the parenthesised groups that hold a locator
    opened = []
    for i, char in enumerate(masked):
        if char == "(":
            opened.append(i)
        elif char == ")" and opened:
            start = opened.pop()
            if not opened and _LOCATOR.search(masked, start, i):
                groups.append(_Span(start, i + 1, text[start + 1 : i].strip()))
    in_prose = [
        _Span(m.start(), m.end(), m.group())
        for m in _LOCATOR.finditer(masked)
        if not any(group.start < m.start() < group.end for group in groups)
    ]

    citations = []
    for quote in quotes:
        if any(group.start < quote.start < group.end for group in groups):
            continue
        locator = ""
        following = next((group for group in groups if group.start >= quote.end), None)
        if following:
            between = re.sub(r'"\s*"', "", masked[quote.end : following.start])
            if not _SENTENCE_BREAK.search(between):
                locator = following.text
        if not locator:
            earlier = [span for span in groups + in_prose if span.end <= quote.start]
            if earlier:
                locator = max(earlier, key=lambda span: span.end).text
        citations.append({"locator": locator, "quote": text[quote.start + 1 : quote.end - 1]})
    return citations


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "rules_md",
        nargs="?",
        type=Path,
        default=DEFAULT_RULES_MD,
        help=f"path to RULES.md (default: {DEFAULT_RULES_MD})",
    )
    parser.add_argument(
        "-o",
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"where to write the catalogue (default: {DEFAULT_OUT})",
    )
    args = parser.parse_args(argv)
    try:
        texts = read_texts(args.rules_md.parent / "sources")
        rules = build(args.rules_md.read_text(encoding="utf-8"), texts)
    except (OSError, CatalogueError) as error:
        print(f"build_catalogue: {error}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(rules), encoding="utf-8")
    print(f"wrote {len(rules)} rules to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
