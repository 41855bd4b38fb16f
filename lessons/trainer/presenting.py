"""What a page shows of a question: before the answer (:func:`shown`: the prompt, the position
and the choices, nothing that depends on the answer) and after it (:func:`graded`: each
choice marked, the engine's explanations with links to the rules and the source's passages).

The position is drawn by a template partial per kind (``trainer/parts.html#position-…``),
with a generic one for a kind that has none; each kind's data is prepared here, with seats
named as at the practice table (the learner is seat 0, "You") and cards as cards.

To ask a stored question on a page (the trainer, a lesson, a quiz)::

    context = asking_context(asked, q, answer_url=...)      # or graded_context(asked, q)
    {% include "trainer/parts.html#asked-question" %}        # or #graded-question

inside an element whose ``hx-target`` is what the answer's view returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from games.links import RuleLink, RuleLinks
from games.loo.cards import SUIT_NAMES, Card, card
from games.loo.errors import LooError
from games.loo.questions import KIND_BY_NAME, REGISTRY, Grade, Question
from games.loo.rulesets import GAME_NAMES, OPTION_BY_NAME, PRESETS
from games.naming import say, seat_name
from lessons.trainer import sourced
from lessons.trainer.forms import AnswerForm
from lessons.trainer.models import AskedQuestion

PARTS = "trainer/parts.html"


@dataclass(frozen=True)
class ShownChoice:
    id: str
    #: What the choice says: the engine's label, or for cards their names.
    text: str
    #: The cards the choice stands for, drawn beside its words (a card of the hand, a card of
    #: the trick, a hand of a flush).
    cards: tuple[Card, ...] = ()
    #: Said only to a screen reader: the cards' names when the words do not give them.
    spoken: str = ""


@dataclass(frozen=True)
class Fact:
    """One line of a position: "Trumps: hearts", with cards drawn after the words."""

    label: str
    text: str = ""
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Shown:
    """A question as a page may show it before it is answered: nothing here depends on the
    answer (a test renders questions whose answers differ and compares the pages)."""

    kind: str
    prompt: str
    multiple: bool
    choices: tuple[ShownChoice, ...]
    rules_title: str
    game_name: str
    #: The partial that draws the position, and what it needs.
    position_template: str
    position: dict[str, Any]
    #: The rules whose reading of an unclear text the answer rests on (another reading would
    #: answer otherwise: the question is never graded in a quiz), each linking to its page,
    #: which shows the readings.
    readings: tuple[RuleLink, ...] = ()


@dataclass(frozen=True)
class Feedback:
    choice: ShownChoice
    is_answer: bool
    chosen: bool


@dataclass(frozen=True)
class Graded:
    shown: Shown
    correct: bool
    feedback: tuple[Feedback, ...]
    #: Each sentence with its rule's links (None where the sentence before cites the same).
    explanations: tuple[tuple[str, RuleLink | None], ...]
    #: The rule the question exercised (known once answered).
    topic: RuleLink | None
    answers: tuple[ShownChoice, ...] = field(default=())


# -- positions, by kind ---------------------------------------------------------------------------


def _cards(codes: Iterable[str] | None) -> tuple[Card, ...]:
    return tuple(card(c) for c in codes or ())


def _trumps(position: dict[str, Any]) -> Fact:
    turn_up = position.get("turn_up")
    suit = SUIT_NAMES[position["trump"]]
    if turn_up:
        return Fact("Trumps", f"{suit}: the turn-up is", (card(turn_up),))
    return Fact("Trumps", suit)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _cards_position(q: Question) -> dict[str, Any]:
    """legal-cards, why-not: a moment of the play, from the learner's seat."""
    position = q.position
    facts = [_trumps(position)]
    if position.get("declared"):
        facts.append(Fact("Players in the play", str(position["declared"])))
    if position.get("trick_number"):
        facts.append(Fact("Trick", str(position["trick_number"])))
    trick = _cards(position.get("trick"))
    return {
        "facts": facts,
        "trick": [("Led" if i == 0 else _ordinal(i + 1), c) for i, c in enumerate(trick)],
        "hand": _cards(position["hand"]),
        "played": _cards(position.get("played")),
        "civil": bool(position.get("pam_be_civil")),
    }


def _trick_position(q: Question) -> dict[str, Any]:
    """trick-winner: a complete trick, in the order played."""
    position = q.position
    trick = _cards(position["trick"])
    return {
        "facts": [_trumps(position)],
        "trick": [("Led" if i == 0 else _ordinal(i + 1), c) for i, c in enumerate(trick)],
    }


def _flush_position(q: Question) -> dict[str, Any]:
    """flush: the hands shown, by seat from the learner, the elder hand; those that are choices
    are shown with the choices (asked who is excused, the winner's hand is not one)."""
    position = q.position
    hands = [_cards(h) for h in position["hands"]]
    choices = {c.id for c in q.choices}
    return {
        "facts": [_trumps(position)],
        "hands": [
            (_hand_name(position, i), h) for i, h in enumerate(hands) if str(i) not in choices
        ],
    }


def _players(position: dict[str, Any]) -> int | None:
    """How many sit at a question's table (a flush question's: its hands), so that a seat is
    named as the practice table names it, from the learner's left round to his right."""
    return position.get("players") or len(position.get("hands") or ()) or None


def _name(position: dict[str, Any], seat: int) -> str:
    """``seat`` as the practice table names it at this question's table."""
    return seat_name(seat, _players(position))


def _hand_name(position: dict[str, Any], seat: int) -> str:
    """The hand of ``seat`` in a flush question (the learner, seat 0, is the elder hand)."""
    return "You (the elder hand)" if seat == 0 else _name(position, seat)


DECLARED = {
    "play": "plays",
    "pass": "passes",
    "take-miss": "takes the miss",
    "miss": "takes the miss",
    "defend-miss": "plays the miss for the pool",
    "defend-master": "plays for the pool",
    "defend": "plays for the pool",
}


def declared(seat: int, choice: str) -> str:
    """What ``seat`` declared, after his name: "plays", or for the learner "play"."""
    said = DECLARED.get(choice, choice)
    if seat != 0:
        return said
    verb, _, rest = said.partition(" ")
    verb = {"plays": "play", "passes": "pass", "takes": "take"}.get(verb, verb)
    return f"{verb} {rest}".rstrip()


def _declaration_position(q: Question) -> dict[str, Any]:
    """declaration: the learner is to declare, after those before him."""
    position = q.position
    facts = [
        Fact("Players", str(position["players"])),
        Fact("Dealer", _name(position, position["dealer"])),
        _trumps(position),
    ]
    if "pool" in position:
        facts.append(Fact("Pool", str(position["pool"])))
    holder = position.get("miss_holder")
    if holder is not None:
        facts.append(Fact("The miss", f"taken by {holder_name(position, holder)}"))
    elif position.get("miss"):
        facts.append(Fact("The miss", "on the table"))
    flags = [
        text
        for key, text in (
            ("must", "A must: nobody may pass this deal."),
            ("club_law", "Club law: clubs are trumps, so everyone must play."),
        )
        if position.get(key)
    ]
    return {
        "facts": facts,
        "flags": flags,
        "hand": _cards(position.get("hand")),
        "declarations": [
            (_name(position, seat), declared(seat, choice))
            for seat, choice in position.get("declarations") or ()
        ],
    }


def holder_name(position: dict[str, Any], seat: int) -> str:
    return "you" if seat == 0 else _name(position, seat)


def _settlement_position(q: Question) -> dict[str, Any]:
    """settlement: who played, who took which trick; what does one seat win or pay? (Peel's
    single deal: the turn-up and every player's card, face up.)"""
    position = q.position
    if "single" in position:
        return {
            "facts": [
                Fact("Players", str(position["players"])),
                Fact("Dealer", _name(position, position["dealer"])),
                Fact("Stake", str(position["stake"])),
                Fact("Pool", str(position["pool"])),
                *_loo_facts(position),
                Fact("Turned up", "", _cards([position["turn_up"]])),
                *(
                    Fact(_name(position, seat), "face up", _cards([code]))
                    for seat, code in position["single"]
                ),
            ],
            "tricks": [],
        }
    facts = [
        Fact("Players", str(position["players"])),
        Fact("Dealer", _name(position, position["dealer"])),
        Fact("Stake", str(position["stake"])),
        Fact("Pool", str(position["pool"])),
        *_loo_facts(position),
        Fact("In the play", ", ".join(_name(position, s) for s in position["played"]) or "nobody"),
    ]
    if position.get("defender") is not None:
        facts.append(Fact("Plays for the pool", _name(position, position["defender"])))
    return {
        "facts": facts,
        "tricks": [(i + 1, _name(position, s)) for i, s in enumerate(position["tricks"])],
    }


def _loo_facts(position: dict[str, Any]) -> list[Fact]:
    """The loo agreed at the table, where the question shows it (version 5): a fixed loo, or
    the limit of a loo that is the pool."""
    facts = []
    if "loo" in position:
        facts.append(Fact("A loo (as agreed)", str(position["loo"])))
    if "limit" in position:
        facts.append(Fact("A loo is the pool, limited to", str(position["limit"])))
    return facts


def _penalty_position(q: Question) -> dict[str, Any]:
    """penalty: a settlement, the offender named (the offence is the prompt's)."""
    shown = _settlement_position(q)
    shown["facts"].append(Fact("The offender", _name(q.position, q.position["offender"])))
    return shown


def _procedure_position(q: Question) -> dict[str, Any]:
    """procedure: the table (players, dealer), and what the question lays out: the pack in
    the order dealt, the declarations, the tricks so far, a flush."""
    position = q.position
    facts = [
        Fact("Players", str(position["players"])),
        Fact("Dealer", _name(position, position["dealer"])),
    ]
    if "miss" in position:
        facts.append(Fact("A miss", "dealt" if position["miss"] else "not dealt"))
    if "stake" in position:
        facts.append(Fact("Stake", str(position["stake"])))
    if "first" in position:
        last = (
            "this is the first deal"
            if position["first"]
            else "it ended in a flush"
            if position.get("last_hand_flush")
            else "somebody was looed"
            if position["last_hand_looed"]
            else "nobody was looed"
        )
        facts.append(Fact("The last hand", last))
        facts.append(Fact("Counters carried from it", str(position["carried"])))
    if position.get("miss_holder") is not None:
        facts.append(Fact("The miss", f"taken by {holder_name(position, position['miss_holder'])}"))
    if "holder" in position:
        facts.append(
            Fact(
                f"{_name(position, position['holder'])}'s cards", "", _cards(position.get("flush"))
            )
        )
    return {
        "facts": facts,
        "pack": _cards(position.get("pack")),
        "declarations": [
            (_name(position, seat), declared(seat, choice))
            for seat, choice in position.get("declarations") or ()
        ],
        "has_declarations": "declarations" in position,
        "tricks": [(i + 1, _cards(t)) for i, t in enumerate(position.get("tricks") or ())],
    }


def _source_position(q: Question) -> dict[str, Any]:
    """source: the prompt says it all (the rule, or the words quoted). The rule's name is not
    shown again: where it names a source ("Peel's rule") the engine leaves it out."""
    return {}


def _generic_position(q: Question) -> dict[str, Any]:
    """Any other kind: each field of the position on a line of its own."""
    position = q.position
    facts = []
    for key, value in position.items():
        if key in ("game", "rules"):
            continue
        label = key.replace("_", " ").replace("-", " ").capitalize()
        values = value if isinstance(value, list) else [value]
        cards = _maybe_cards(values)
        if cards is not None:
            facts.append(Fact(label, "" if cards else "none", cards))
        else:
            facts.append(Fact(label, ", ".join(str(v) for v in values)))
    return {"facts": facts}


def _maybe_cards(values: list[Any]) -> tuple[Card, ...] | None:
    if not all(isinstance(v, str) and len(v) == 2 for v in values):
        return None
    try:
        return _cards(values)
    except LooError:
        return None


#: The partial that draws each shape of position a kind shows (its ``Kind.shows``: kinds may
#: share one), and what prepares its data.
SHAPES: dict[str, tuple[str, Callable[[Question], dict[str, Any]]]] = {
    "cards": ("position-cards", _cards_position),
    "trick": ("position-trick", _trick_position),
    "flush": ("position-flush", _flush_position),
    "declaration": ("position-declaration", _declaration_position),
    "settlement": ("position-settlement", _settlement_position),
    "source": ("position-source", _source_position),
    "procedure": ("position-procedure", _procedure_position),
}
#: Each kind's partial, read from the engine's registry of kinds.
POSITIONS: dict[str, tuple[str, Callable[[Question], dict[str, Any]]]] = {
    k.name: SHAPES[k.shows] for k in REGISTRY if k.shows in SHAPES
}
GENERIC = ("position-generic", _generic_position)


def _position(q: Question) -> tuple[str, dict[str, Any]]:
    partial, prepare = POSITIONS.get(q.kind, GENERIC)
    try:
        return f"{PARTS}#{partial}", prepare(q)
    except (KeyError, TypeError, ValueError, LooError):
        # A position not in the form this kind's partial knows: show it field by field.
        return f"{PARTS}#{GENERIC[0]}", _generic_position(q)


def _choice(q: Question, choice_id: str, label: str) -> ShownChoice:
    """A choice with the cards it stands for: a card of the learner's hand, a card of the
    trick (by its index), or a hand of the flushes shown (by its index)."""
    position = q.position
    found = KIND_BY_NAME.get(q.kind)
    shape = found.shows if found is not None else ""
    try:
        if shape == "trick":
            i = int(choice_id)
            c = card(position["trick"][i])
            who = "Led" if i == 0 else _ordinal(i + 1)
            return ShownChoice(
                choice_id, f"{c.label[:1].upper()}{c.label[1:]} ({who.lower()})", (c,)
            )
        if shape == "flush":
            i = int(choice_id)
            hand = _cards(position["hands"][i])
            return ShownChoice(
                choice_id, _hand_name(position, i), hand, ": " + ", ".join(c.label for c in hand)
            )
        if choice_id.startswith("seat:"):
            return ShownChoice(choice_id, _name(q.position, int(choice_id.removeprefix("seat:"))))
        if shape == "procedure" and len(choice_id) == 2:
            c = card(choice_id)
            return ShownChoice(choice_id, c.label[:1].upper() + c.label[1:], (c,))
        if choice_id in (position.get("hand") or ()):
            c = card(choice_id)
            return ShownChoice(choice_id, c.label[:1].upper() + c.label[1:], (c,))
    except (IndexError, KeyError, TypeError, ValueError, LooError):
        pass
    return ShownChoice(choice_id, label)


def shown(q: Question) -> Shown:
    """What a page shows before the answer: prompt, position, choices."""
    template, position = _position(q)
    return Shown(
        kind=q.kind,
        prompt=say(sourced.prompt(q), _players(q.position)),
        multiple=q.multiple,
        choices=tuple(_choice(q, c.id, c.label) for c in q.choices),
        rules_title=PRESETS[q.rules].title,
        game_name=GAME_NAMES[q.game],
        position_template=template,
        position=position,
        readings=_readings(q),
    )


def _readings(q: Question) -> tuple[RuleLink, ...]:
    if not q.readings:
        return ()
    links = RuleLinks.of(q.rules, q.game)
    rules = dict.fromkeys(OPTION_BY_NAME[name].rule for name in q.readings)
    return tuple(links.link(rule) for rule in rules)


def graded(q: Question, grade: Grade, topic: str = "") -> Graded:
    """What a page shows after the answer: each choice marked, and why."""
    links = RuleLinks.of(q.rules, q.game)
    page = shown(q)
    by_id = {c.id: c for c in page.choices}
    feedback = tuple(
        Feedback(by_id[c.id], is_answer, chosen) for c, is_answer, chosen in grade.feedback
    )
    return Graded(
        shown=page,
        correct=grade.correct,
        feedback=feedback,
        explanations=_explained(grade, links, _players(q.position), q.game),
        topic=links.link(topic) if topic else None,
        answers=tuple(f.choice for f in feedback if f.is_answer),
    )


def _explained(
    grade: Grade, links: RuleLinks, players: int | None, game: str
) -> tuple[tuple[str, RuleLink | None], ...]:
    """The engine's explanations, each linked to its rule, once for a run of sentences about
    the same rule. A source question's five sentences are about one rule and each about one
    source: each links the passage of its own source (under the drill's rule set's, Hoffmann's
    words would be labelled "Parlett (modern), 5c:Cards")."""
    said: list[tuple[str, RuleLink | None]] = []
    previous = None
    for a in grade.explanations:
        source = sourced.source_of(a.message)
        if source is not None:
            link: RuleLink | None = RuleLinks.of(source, game).link(a.rule)
        else:
            link = links.link(a.rule) if a.rule != previous else None
        said.append((say(sourced.explanation(a.message), players), link))
        previous = a.rule
    return tuple(said)


# -- the context of the partials ------------------------------------------------------------------


def asking_context(
    asked: AskedQuestion, q: Question, *, answer_url: str, form: AnswerForm | None = None
) -> dict[str, Any]:
    """What ``trainer/parts.html#asked-question`` needs: the question as shown, its form (a
    bound one with its errors), and where the answer goes."""
    form = form if form is not None else AnswerForm(q)
    return {
        "asked": asked,
        "shown": shown(q),
        "form": form,
        "chosen": form.chosen(),
        "answer_url": answer_url,
    }


def graded_context(asked: AskedQuestion, q: Question, grade: Grade | None = None) -> dict[str, Any]:
    """What ``trainer/parts.html#graded-question`` needs (the row must be answered)."""
    return {"asked": asked, "graded": graded(q, grade or asked.grade(q), asked.topic)}
