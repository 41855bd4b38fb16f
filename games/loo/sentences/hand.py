"""The sentences of a whole hand: the stake, the deal, the declarations, the play, the laws of
irregularity in the play and the settlement."""

from __future__ import annotations

from typing import Final

# The hand: the stake, the deal and the declarations (RULES.md 1.1-1.4, 1.10).
HAND: Final[dict[str, str]] = {
    "ante.fresh": "Every player stakes {n} to a fresh pool.",
    "ante.loos": "The loos of the last hand form the pool.",
    "ante.dealer": "The dealer stakes {n}.",
    "deal.cards": ("{n} cards each; the {turn_up:card} is turned up: {suit:suit} are trumps."),
    "deal.miss": (
        "{n} cards each and a miss; the {turn_up:card} is turned up: {suit:suit} are trumps."
    ),
    "dealer.stands-out": (
        "More than five are playing, so {d:S} {d:stands/stand} out of this deal, as agreed: "
        "{d:he} {d:deals/deal} no cards to {d:himself} and neither {d:pays/pay} nor "
        "{d:receives/receive} on the tricks."
    ),
    "all-pass.dealer-out": (
        "Everyone has passed and the dealer stands out: nobody plays, and the pool stays "
        "for the next deal."
    ),
    "lone-player.dealer-out": (
        "{p:S} alone {p:is/are} in the play, and the dealer stands out: {p:he} "
        "{p:takes/take} the pool without play."
    ),
    "single.deal": (
        "This deal is Peel's single deal (p. 18), played for the dealer's stake and what the "
        "pool carries: the dealer turns up the {turn_up:card} and deals one card face up to "
        "each player. The highest {suit:suit1} above it takes the pool; the others are looed "
        "a single loo."
    ),
    "single.card": "{p:S} {p:receives/receive} the {card:card}.",
    "single.wins": (
        "{p:S's} {card:card} is the highest {suit:suit1} above the turn-up: {p:he} "
        "{p:takes/take} the pool of {n}."
    ),
    "single.none": (
        "Nobody holds a {suit:suit1} above the {turn_up:card}: everyone is looed, and the "
        "pool of {n} stays for the next deal."
    ),
    "single.looed": (
        "{p:S} {p:is/are} looed on the single, a single loo (p. 18), and {p:pays/pay} {n} to the "
        "next pool."
    ),
    "must.no-miss": "This deal is a must: nobody may pass, and there is no miss.",
    "must.miss": "This deal is a must: nobody may pass; the miss may be taken.",
    "club-law": "Clubs are trumps: club law forces everyone to play.",
    "club-law.miss-withdrawn": (
        "Clubs are trumps: club law forces everyone to play, and the miss is withdrawn "
        "unseen: nobody may take it."
    ),
    "declare.play": "{p:S} {p:plays/play}.",
    "declare.pass": "{p:S} {p:passes/pass}.",
    "declare.take-miss": "{p:S} {p:takes/take} miss, and so must play.",
    "declare.defend-miss": (
        "{p:S}, the dealer, {p:plays/play} miss for the pool: any tricks {p:he} "
        "{p:takes/take} stay in the pool."
    ),
    "declare.defend-master": (
        "{p:S}, the dealer, {p:defends/defend} with master, the three cards below the "
        "turn-up, for the pool."
    ),
    "all-pass": (
        "Everyone before the dealer has passed: {d:S} {d:takes/take} the pool without play."
    ),
    "lone-miss": (
        "{p:S} alone {p:has/have} taken miss and everyone else has passed: {p:he} "
        "{p:takes/take} the pool without play."
    ),
    "exchange.draw": ("{p:S} {p:discards/discard} {n} and {p:draws/draw} {n}, and so must play."),
    "exchange.stand": "{p:S} {p:stands/stand} on {p:his} cards.",
    "flush.shown": "{p:S} {p:shows/show} a {kind:msg}: {cards:cards}.",
    # What the player to act may do, and why (Hand.options).
    "option.must": "This deal is a must: everyone, whatever his cards, is bound to play.",
    "part.dealer-vs-one.own|miss|miss-for-pool": (
        "play {d:his} own cards, take miss, or play miss for the pool"
    ),
    "part.dealer-vs-one.miss|miss-for-pool": "play miss for {d:himself} or for the pool",
    "part.dealer-vs-one.own|miss": "play {d:his} own cards or take miss",
    "option.dealer-vs-one": (
        "Only {one:S} {one:has/have} declared to play, on {one:his} own cards, so {d:S}, the "
        "dealer, may not pass: {d:he} may {menu:msg}."
    ),
    "option.dealer-vs-one-5c": (
        "Only {one:S} {one:has/have} declared to play, so {d:S}, the dealer, may not pass: "
        "at {game:msg} there is no miss, so {d:he} must play on {d:his} own cards "
        "({cite:msg})."
    ),
    "part.game.three-card": "three-card Loo",
    "part.game.five-card": "five-card Loo",
    "part.game.irish": "Irish Loo",
    "part.cite": "{source}, {where}",
    "part.cite-table": "by this table's options",
    "lone-player": (
        "{p:S} alone {p:is/are} in the play and everyone else has passed, the dealer "
        "included: at {game:msg}, with no miss, the dealer may pass against one player "
        "({cite:msg}), so {p:he} {p:takes/take} the pool without play."
    ),
    "option.master": (
        "{one:S} alone {one:has/have} taken miss: under these rules {d:S}, the dealer, must "
        "face {one:him}, with {d:his} own cards or with master."
    ),
    "option.lone-miss-holder": (
        "{one:S} alone {one:has/have} taken miss: if {d:S} {d:passes/pass}, {one:he} "
        "{one:takes/take} the pool without play."
    ),
    "option.miss-taken": "{h:S} {h:has/have} taken miss, so {p:S} may only play or pass.",
    "option.club-law-no-draw": "Under club law there is no drawing of cards.",
    "option.short-stock": (
        "Only {n} {n:card is/cards are} left in the stock, so {p:S} may draw at most {most}."
    ),
    "option.empty-stock": "No card is left in the stock, so {p:S} may not draw.",
    "option.replay": (
        "A revoke was made: any player other than the offender may require that the cards "
        "be taken up and the hand played again (Law 16)."
    ),
}

# The play, the laws of irregularity and the settlement (RULES.md 1.5-1.8, 1.11, 1.12).
PLAY: Final[dict[str, str]] = {
    "play-begins": "{n} play: {players:Ss}. {p:S} {p:leads/lead}.",
    "play.lead": "{p:S} {p:leads/lead} the {card:card}.",
    "play.lead-had": "{p:S} {p:leads/lead} the {card:card} (had to {had:had}).",
    "play.lead-civil": ('{p:S} {p:leads/lead} the {card:card} and {p:calls/call} "Pam, be civil".'),
    "play.lead-civil-had": (
        '{p:S} {p:leads/lead} the {card:card} and {p:calls/call} "Pam, be civil" (had to '
        "{had:had})."
    ),
    "play.follow": "{p:S} {p:plays/play} the {card:card}.",
    "play.follow-had": "{p:S} {p:plays/play} the {card:card} (had to {had:had}).",
    "trick.taken": "{p:S} {p:takes/take} trick {n}. {why:msg}",
    "rotation": "Players play in rotation.",
    "offence.irregular": (
        "{p:S} {p:plays/play} the {card:card} irregularly, against the rule "
        "“{rule:rulename}”; the law will be applied at the end of the hand."
    ),
    "offence.out-of-turn": "{p:S} played the {card:card} out of turn.",
    "offence.out-of-turn-law-15": (
        "{p:S} played the {card:card} out of turn: {p:he} must throw up {p:his} cards and "
        "forfeit a single to the pool (Law 15)."
    ),
    "offence.out-of-turn-replay": (
        "{p:S} played the {card:card} out of turn: {p:he} {p:is/are} looed and the hand "
        "will be replayed."
    ),
    "replay.demand": "{p:S} {p:requires/require} the hand to be played again.",
    "replay.decline": "{p:S} {p:lets/let} the result stand.",
    "replay.start": "The cards are taken up and the hand is played again in proper order.",
    "settle.took": "{p:S} took {n} {n:trick/tricks}.",
    "settle.looed": "{p:S} {p:is/are} looed and {p:pays/pay} {n} to the next pool.",
    "penalty.four-singles": (
        "{p:S} {p:forfeits/forfeit} four singles ({n}) to the next pool (after Law 14) for "
        "{offences:semi}."
    ),
    "penalty.peel-looed": (
        "{p:S} {p:is/are} looed, {p:pays/pay} {n} to the next pool and {p:wins/win} nothing "
        "(Peel, pp. 22, 25), for {offences:semi}."
    ),
    # Why counters moved (Payment.reason).
    "pay.fresh-pool": "every player stakes a fresh pool",
    "pay.dealer-stake": "the dealer's stake",
    "pay.without-play": "takes the pool without play",
    "pay.trick": "trick {n}",
    "pay.trick-for-pool": "trick {n}, won by the dealer for the pool: it stays there",
    "pay.trick-offender": "trick {n}, won by an offender: left in the pool",
    "pay.looed": "looed: no trick",
    "pay.single-win": "the single: the highest card of the turned-up suit",
    "pay.single-loo": "looed on the single",
    "pay.four-singles": "four singles to the next pool (after Law 14), for {offences:semi}",
    "pay.peel-looed": "looed (Peel, p. 25), for {offences:semi}",
    "pay.flush": "the flush takes the pool",
    "pay.flush-loo-holder": "looed by the flush, paid to its holder",
    "pay.flush-loo-pool": "looed by the flush, to the next pool",
    "pay.law-15": "a single, Law 15, for {offence:msg}",
    # Refusals (IllegalAction): what the engine says of an action it does not allow.
    "error.takeback": "There are only {n} actions to take back.",
    "error.hand-over": "The hand is over.",
    "error.no-seat": "This table has no seat number {n}.",
    "error.not-your-turn": "It is not {p:S's} turn.",
    "error.not-now": "A {kind} action is not possible now ({phase}).",
    "error.not-a-choice": "{choice} is not a choice open to {p:S} now.",
    "error.replay-cards": "A replay is demanded or declined without cards.",
    "error.card-discards": "A card is played without discards.",
    "error.card-now": "A card is played now, not {choice}.",
    "error.forbidden-card": "The {card:card} may not be played.",
    "error.exchange-three-card": "Cards are exchanged only at five-card and Irish Loo.",
    "error.not-open": "{choice} is not open to {p:S} now (choose {choices}).",
    "error.not-open-why": "{choice} is not open to {p:S} now (choose {choices}): {why:msg}",
    "error.pass-draws": "A player who passes draws no cards.",
    "error.too-many-discards": "{p:S} may discard at most {n} cards now.",
    "error.discarded-twice": "The {card:card} is discarded twice.",
    "error.one-card": "Play exactly one card.",
    "error.not-in-play": "{p:S} {p:is/are} not in the play.",
    "error.civil": '"Pam, be civil" is called only when leading the ace of trumps.',
    "error.out-of-turn": "It is {turn:S's} turn, not {p:yours}.",
    "error.replay-answer": "Answer 'demand' or 'decline'.",
    "error.hand-not-over": "The hand in progress is not over.",
    "error.session-over": "The session is over.",
    "error.finished": "The game is finished: nothing in it can be taken back now.",
    "error.no-finish": (
        "The game cannot be finished that way ({way}) now: Peel's ways to finish are "
        "offered under his rules, once the hand is over."
    ),
    "finish.divide": (
        "The game is finished by an equal division of the pool: its {pool} counters give "
        "each player {n}{extra:msg}."
    ),
    "finish.odd": (
        ", and the odd {n:counter goes/counters go} to the first {n:player/players} from "
        "the dealer's left{n:/, one each}"
    ),
    "finish.until-single": (
        "The game goes on until a hand in which nobody is looed, and ends there."
    ),
    "finish.single-now": "Nobody was looed in the last hand, so the game ends now.",
    "finish.last-round": (
        "The next deal is the last: everyone stands on his cards, there is no miss, and "
        "whoever takes no trick is released from his loo."
    ),
    "last-round": (
        "The last round: everyone stands and there is no miss; whoever takes no trick is "
        "released from his loo."
    ),
    "option.last-round": "This is the last round: everyone stands on his cards.",
    "settle.released": (
        "{p:S} took no trick, but on the last round {p:is/are} released from the loo."
    ),
    "finish.withdraw": (
        "{p:S} {p:withdraws/withdraw} from the game at {p:his} turn to deal, paying {n} for "
        "the deal into the pool."
    ),
    "error.no-withdraw": (
        "{p:S} may withdraw only at {p:his} turn to deal, between hands, under Peel's rules."
    ),
    "error.no-hand": "No hand has been dealt.",
    # How the first dealer was chosen (RULES.md first-dealer).
    "dealer.first-knave": (
        "Cards are dealt face up round the table; {p:S} {p:receives/receive} the first "
        "knave ({card:card}) and {p:deals/deal} first."
    ),
    "dealer.lowest-cut": (
        "Each player cuts; {p:S} {p:cuts/cut} the lowest card ({card:card}, ace low) and "
        "{p:deals/deal} first."
    ),
    "dealer.first-knave-brief": (
        "Cards are dealt face up round the table; {p:S} {p:receives/receive} the first "
        "knave and {p:deals/deal} first."
    ),
    "dealer.as-before": ("{p:S} {p:deals/deal} first, as in the deal this table was dealt from."),
    "dealer.as-before-brief": (
        "{p:S} {p:deals/deal} first, as in the deal this table was dealt from."
    ),
    # Why a player's last decision may not be taken back (Table.takeback_refusal).
    "takeback.nothing": "{p:S} {p:has/have} made no decision in this deal to take back.",
    "takeback.hand-over": (
        "The hand is over: {p:he} {p:has/have} seen how it was settled and why the others "
        "did what they did."
    ),
    "takeback.others-since": (
        "The others have played since {p:his} last decision: {p:he} {p:has/have} seen their "
        "answers."
    ),
    "takeback.seen-miss": "{p:S} {p:has/have} seen the miss.",
    "takeback.seen-drawn": "{p:S} {p:has/have} seen the cards {p:he} drew.",
    "takeback.seen-hidden": (
        "{p:S} {p:has/have} seen hidden cards because of {p:his} last decision."
    ),
    "dealer.lowest-cut-brief": (
        "Each player cuts; {p:S} {p:cuts/cut} the lowest card and {p:deals/deal} first."
    ),
}
