"""The sentences of rule questions (:mod:`games.loo.questions`): the prompts asked of the
learner and the explanations of their answers."""

from __future__ import annotations

from typing import Final

# Rule questions (games.loo.questions), asked of the learner.
QUESTIONS: Final[dict[str, str]] = {
    "question.legal-cards": "Which of {p:his} cards may {p:S} play?",
    "question.why-not": "Why may {p:S} not play the {card:card}?",
    "question.trick-winner": "{trump:suit} are trumps. Who takes this trick?",
    "question.flush": "{trump:suit} are trumps. Whose flush loos the board?",
    "question.flush-exempt": (
        "{trump:suit} are trumps and {p:S's} flush loos the board. Which of the other hands "
        "are excused from paying?"
    ),
    "question.declaration": "What may {p:S} do now?",
    "question.may-take-miss": (
        "The miss lies on the table untaken: {p:S} may take it in place of {p:his} own "
        "cards (and must then play)."
    ),
    "question.may-exchange": (
        "{p:S} may play, throwing out up to {n} {n:card/cards} and drawing as many from the "
        "stock, or pass."
    ),
    "question.dealer-may-pass": (
        "Only {one:S} {one:has/have} declared to play, and under these rules {d:S} may "
        "still pass: {one:S} then {one:takes/take} the pool without play."
    ),
    "question.settlement": "How many counters {p:does/do} {p:S} receive or pay?",
    "question.settlement-single": (
        "This deal is the single: one card face up to each player. How many counters "
        "{p:does/do} {p:S} receive or pay?"
    ),
    "question.settlement-net": (
        "When the hand is settled, how many counters {p:does/do} {p:S} receive or pay? "
        "(The counters staked before the deal are not counted: only what the settlement "
        "pays {p:him} or takes from {p:him}.)"
    ),
    "question.settlement-single-net": (
        "This deal is the single: one card face up to each player. When it is settled, how "
        "many counters {p:does/do} {p:S} receive or pay? (The counters staked before the deal "
        "are not counted: only what the settlement pays {p:him} or takes from {p:him}.)"
    ),
    "question.single-loo-price": (
        "A loo on the single costs {n} under these rules (a full loo costs {loo})."
    ),
    "question.settle-receives": "{p:S} {p:receives/receive} {n} from the pool: {why:msg}.",
    "question.settle-pays": "{p:S} {p:pays/pay} {n}: {why:msg}.",
    "question.pool-shares": "The pool of {pool} is shared among the {k} tricks: {n} a trick.",
    "question.pool-shares-odd": (
        "The pool of {pool} does not divide by {k}: each trick takes {n}, and the first "
        "{odd} one more each."
    ),
    "question.defender": (
        "{p:S} took the miss against one player to play for the pool: what {p:his} tricks "
        "win stays in it, and {p:he} cannot be looed."
    ),
    "question.loo-price.fixed": "Under these rules a loo costs a fixed {n}.",
    "question.loo-price.pool": "Under these rules a loo costs what the pool held: {n}.",
    "question.loo-price.mixed": "Under these rules a loo costs the pool, up to a limit: {n}.",
    "question.settle-without-play": (
        "{w:S} took the pool without play, so {p:S} neither {p:receives/receive} nor "
        "{p:pays/pay} anything."
    ),
    "question.settle-passed": (
        "{p:S} passed: only a player in the play is looed, so {p:he} neither "
        "{p:receives/receive} nor {p:pays/pay} anything."
    ),
    "question.rests-on-reading": (
        "This answer rests on {reading} (the rule “{rule:rulename}”): read otherwise, the "
        "text gives another answer, so the question is not used in a graded quiz."
    ),
    "question.source-which": "Which of these sources state the rule “{name}”?",
    "question.source-quote": "Which source says this? “{quote}”",
    "question.source-quote-rule": "Which source says this (the rule “{name}”)? “{quote}”",
    "question.source-says.states": "{source} states it: {says}",
    "question.source-says.implied": "{source} implies it: {says}",
    "question.source-says.subsumed": "{source} covers it in a wider rule: {says}",
    "question.source-says.silent": "{source} is silent on it{says}",
    "question.source-says.refers": (
        "{source} says nothing on it in our copy (the passage is missing): {says}"
    ),
    "question.miss-must-play": (
        "Whoever takes the miss must play it: {p:S} cannot take it and then pass."
    ),
    "question.penalty": (
        "{told:msg} The hand is then played out. All told, how many counters "
        "{p:does/do} {p:S} receive or pay in this hand?"
    ),
    "question.penalty-nothing": "{p:S} neither {p:receives/receive} nor {p:pays/pay} anything.",
    "question.offence.misdeal": "{p:S}, dealing, {p:misdeals/misdeal}.",
    "question.offence.faced-card": "{p:S}, dealing, {p:finds/find} a card faced in the pack.",
    "question.offence.interfere": "{p:S} {p:interferes/interfere} with the deal.",
    "question.offence.declare-early": "{p:S} {p:declares/declare} before {p:his} turn.",
    "question.offence.look-early": (
        "{p:S} {p:looks/look} at {p:his} cards before {p:his} turn to declare."
    ),
    "question.offence.look-miss": "{p:S} {p:looks/look} at the miss without taking it.",
    "question.offence.look-hand": "{p:S} {p:looks/look} at {o:S's} cards.",
    "question.offence.expose": "{p:S} {p:shows/show} the {card:card} from {p:his} hand.",
    "question.offence.play-early": (
        "{p:S} {p:plays/play} the {card:card} before everyone has declared."
    ),
    # What the card breaks, in words (never a rule's catalogue name, which may be a label:
    # "peel's rule", issue 39).
    "question.offence.card": (
        "{p:S} {p:plays/play} the {card:card}, though {p:he} {p:is/are} bound to {had:had}."
    ),
    "question.offence.out-of-turn": "{p:S} {p:plays/play} the {card:card} out of turn.",
    "question.seat": "{p:S}",
    "question.procedure-dealt": (
        "{d:S} {d:deals/deal} to {n} players from the pack laid out here, top card first. "
        "Which cards {p:does/do} {p:S} receive?"
    ),
    "question.procedure-dealt-how": (
        "{d:S} {d:deals/deal} to {n} players from the pack laid out here, top card first, "
        "{how:msg}. Which cards {p:does/do} {p:S} receive?"
    ),
    "question.deal-pattern.singly": "one card at a time to each player from {d:his} left",
    "question.deal-pattern.singly-miss": (
        "one card at a time to each player from {d:his} left, and a card to the miss "
        "straight after each of {d:his} own"
    ),
    "question.deal-pattern.3-then-2": (
        "three cards at a time to each player from {d:his} left, then two at a time"
    ),
    "question.deal-pattern.2-and-3": (
        "two cards at a time to each player from {d:his} left, then three at a time"
    ),
    "question.deal-pattern-default": (
        "{how:msg} (the source says nothing of how the cards are dealt: this is our default)"
    ),
    "question.deal-pattern-miss-reading": (
        "{how:msg} (the source does not say where the miss's cards fall in the deal: this is "
        "our reading)"
    ),
    "question.procedure-dealt-miss": (
        "{d:S} {d:deals/deal} to {n} players and a miss from the pack laid out here, top "
        "card first. Which cards {p:does/do} {p:S} receive?"
    ),
    "question.procedure-turn-up-miss": (
        "{d:S} {d:deals/deal} to {n} players and a miss from the pack laid out here, top "
        "card first. Which card is turned up for trumps?"
    ),
    "question.dealt": "{p:S} {p:receives/receive} {cards:cards}.",
    "question.dealt-miss": "The miss is {cards:cards}.",
    "question.dealt-how": (
        "{d:S} {d:deals/deal} {how:msg}: {p:S} {p:receives/receive} the {places} cards from "
        "the top of the pack, {cards:cards}."
    ),
    "question.dealt-miss-how": "The miss receives the {places} cards, {cards:cards}.",
    "question.procedure-turn-up": (
        "{d:S} {d:deals/deal} to {n} players from the pack laid out here, top card first. "
        "Which card is turned up for trumps?"
    ),
    "question.turned-up": (
        "When every hand is dealt, the next card, the {k}th from the top, is turned up: "
        "the {card:card}, so {suit:suit} are trumps."
    ),
    "question.procedure-pool": "How many counters are in the pool when the cards are dealt?",
    "question.pool-holds": "The pool holds {n} ({carried} of them carried from the last hand).",
    # Where a carried pool came from (RULES.md A56: questions.pool_history), one line told
    # from the hands played before at the question's table.
    "question.pool-history": (
        "The pool of {pool} came from the hands before: {steps:semi}; {stake:msg}."
    ),
    "question.pool-history-whole": (
        "The pool of {pool} came whole from the hands before: {steps:semi}."
    ),
    "question.pool-stake-dealer": "the dealer's stake of {n} for this deal makes {total}",
    "question.pool-stake-all": "the stakes for this deal, {n} in all, make {total}",
    "question.pool-held": "{s} in the pool",
    "question.pool-held-fined": "{s} in the pool and {n} paid into it in penalties",
    "question.pool-step": "at deal {deal}, with {held:msg}, {parts:and}, leaving {e}",
    "question.pool-step-one": "at deal {deal}, with {held:msg}, {parts:and}",
    "question.pool-step-fresh": (
        "at deal {deal}, with {held:msg}, all of it was won, and {parts:and}, leaving {e}"
    ),
    "question.pool-step-fresh-one": (
        "at deal {deal}, with {held:msg}, all of it was won, and {parts:and}"
    ),
    "question.pool-step-single": (
        "at deal {deal}, a single with {held:msg}, {parts:and}, leaving {e}"
    ),
    "question.pool-step-single-one": "at deal {deal}, a single with {held:msg}, {parts:and}",
    "question.pool-step-single-fresh": (
        "at deal {deal}, a single with {held:msg}, all of it was won, and {parts:and}, leaving {e}"
    ),
    "question.pool-step-single-fresh-one": (
        "at deal {deal}, a single with {held:msg}, all of it was won, and {parts:and}"
    ),
    "question.pool-step-left": (
        "at deal {deal}, with {held:msg}, what was paid in was shared out with it, leaving {e}"
    ),
    "question.pool-part.defended": (
        "the dealer, playing the miss for the pool, left in it the {n} his {count} "
        "{k:trick/tricks} won{cite}"
    ),
    "question.pool-part.master": (
        "the dealer, playing for the pool with the master, left in it the {n} his {count} "
        "{k:trick/tricks} won{cite}"
    ),
    "question.pool-part.offender": (
        "an offender, who wins nothing, left in it the {n} his {count} {k:trick/tricks} won{cite}"
    ),
    "question.pool-part.offender-alone": (
        "the one player left to take it had offended, so its {n} stayed"
    ),
    "question.pool-part.untaken": "nobody took the {n} in it",
    "question.pool-part.looed": "{k} players were looed at {n} each",
    "question.pool-part.looed-one": "a player was looed for {n}",
    "question.pool-part.looed-sum": "looed players paid {n}",
    "question.pool-part.penalties": "{n} {n:was/were} paid in penalties",
    "question.procedure-next": "Who declares next?",
    "question.declares-first": (
        "The players declare in turn from the dealer's left: {p:S} {p:is/are} first after {d:S}."
    ),
    "question.declares-next": (
        "The players declare in turn, to the left: after {last:S} comes {p:S}."
    ),
    "question.procedure-lead": "Who leads to the first trick?",
    "question.procedure-seen": (
        "{ps:Ss} passed. Which of these cards {p:has/have} {p:S} seen in this hand?"
    ),
    "question.passed-unseen": (
        "A hand thrown up is laid face down and nobody sees it: {cards:cards} "
        "{cards:was/were} never shown."
    ),
    "question.procedure-flush": ("{p:S} {p:is/are} dealt a flush. When is it shown?"),
    # The coach's question (issue 28): its figures are the coach's, written as strings.
    "question.declare": (
        "It is {p:S's} turn to declare. What should {p:S} do to win most counters on average?"
    ),
    "question.declare-best": (
        "The coach would {best}: over {n} deals dealt at random from what {p:S} can see, "
        "played out for every choice, that wins {lead} counters more on average than the "
        "next best ({next}), far beyond its margin of error (about {error})."
    ),
    "question.declare-option": (
        "{option}: {chance} to take a trick{unopposed:msg}, {counters} counters on average."
    ),
    "question.declare-option-draw": (
        "{option}, throwing out the {cards:cards}: {chance} to take a trick{unopposed:msg}, "
        "{counters} counters on average."
    ),
    "question.declare-option-out": "{option}: {counters} counters on average.",
    "question.declare-stakes": (
        "Each trick wins {share} of the pool of {pool}, and a player who plays and takes "
        "no trick is looed and pays {loo} into the next pool; a player who passes takes no "
        "trick and pays no loo."
    ),
}
