"""Every sentence the engine can say, as data: a :class:`Message` is a key and typed arguments,
and :func:`render` turns it into English for a point of view.

The engine never writes English itself. A rule it applies, a note, an option and why it is
shaped so, a line of the trace, a payment, an offence, a computer player's reason: each is a
``Message("play.follow-suit", {"p": 2, "led": "H", ...})``, and its template lives in
:data:`TEMPLATES` below, so that one page lists every sentence the game can say (and a
translation would replace just this page).

A template is English with placeholders ``{name}`` or ``{name:form}``. The form says what the
argument is, and so how it is written:

- a **seat** (an int, the engine's seat index; ``None`` is the pool; :data:`PLAYER` is the
  player to move of a bare position, whose seat nobody gave): ``{p:S}`` names it ("you",
  "West", "seat 3"), ``{p:S's}`` its possessive ("your", "West's"; standing alone,
  ``{p:yours}``: "yours", "West's"), ``{p:he}``, ``{p:him}``,
  ``{p:his}``, ``{p:himself}`` its pronouns, and ``{p:plays/play}`` a verb that agrees with it
  (the first form for a third person, the second for "you"); a list of seats, ``{ps:Ss}``
  ("you, West, North");
- a **card** (a code, ``"QH"``): ``{c:card}`` → "Q♥"; ``{c:tname}`` → "Pam (J♣)" when the
  message's ``pam`` argument is that card, else "Q♥"; **cards** (a list of codes):
  ``{cs:cards}`` → "Q♥, 3♥ and K♠", ``{cs:tcards}`` → "Pam (J♣), Q♥ and 3♥",
  ``{cs:tnames}`` → "Pam (J♣), Q♥ or 3♥";
- a **suit** (``"H"``): ``{s:suit}`` → "hearts", ``{s:suit1}`` → "heart";
- **rule ids** (a list of ids): ``{r:had}`` → the phrases of :data:`HAD_TO` joined by "; ";
  one id, ``{rule:rulename}`` → the rule's name in the catalogue ("follow suit if you can"):
  a reader is never shown an id;
- a **message** nested in another: ``{m:msg}``; a list of them, ``{ms:and}`` (joined by
  "and") or ``{ms:semi}`` (by semicolons);
- anything else is written as it is (a count, a rule id, a game); ``{n:card/cards}`` after a
  count (or a list) agrees with it: the first form for one, the second otherwise.

Whose point of view: :func:`render` takes the ``viewer``, the seat that reads the sentence.
The viewer is "you" and every verb and pronoun of his agrees by construction ("You are looed
and pay 6"); other seats are called by the ``names`` the caller gives, or "seat N"; with no
viewer the whole sentence is in the third person. A seat's word that begins a sentence is
capitalised.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from string import Formatter
from typing import Any, Final, NamedTuple

from . import catalogue
from .cards import BY_CODE, SUIT_NAMES, SUIT_SINGULAR, Card, card, displays
from .errors import LooError

#: The seat of "the player" to move in a bare position (:func:`~games.loo.play.legal` of a
#: Position, which has no seat): the default viewer, so that a position's reasons read "You
#: must follow suit" as the player's own.
PLAYER: Final = -1


class Message(NamedTuple):
    """A sentence as data: its template's key and the arguments the template names."""

    key: str
    args: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """JSON: cards as codes, nested messages as dicts (see :func:`message_from_dict`)."""
        return {"key": self.key, "args": {k: _arg_to_json(v) for k, v in self.args.items()}}

    def render(self, viewer: int | None = PLAYER, names: Names = None) -> str:
        return render(self, viewer, names)

    def __str__(self) -> str:
        return render(self)

    def __hash__(self) -> int:
        # A tuple holding a dict: hashed by its key and its arguments' items (all hashable:
        # seats, counts, cards, tuples of them, messages), so that messages can be compared
        # and grouped like the tuples they are.
        return hash((self.key, tuple(sorted(self.args.items()))))


#: How the caller names the seats that are not the viewer: a list or mapping by seat index, a
#: function of the seat index, or None for "seat N".
Names = Sequence[str] | Mapping[int, str] | Callable[[int], str] | None


def msg(key: str, **args: Any) -> Message:
    """A message (checked to have a template; its arguments are checked by the tests)."""
    if key not in TEMPLATES:
        raise KeyError(f"no template for message {key!r}")
    return Message(key, args)


def _arg_to_json(value: Any) -> Any:
    if type(value) is Card:
        return value.code
    if type(value) is Message:
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_arg_to_json(v) for v in value]
    return value


def message_from_dict(data: Mapping[str, Any]) -> Message:
    """The message :meth:`Message.to_dict` wrote, its arguments typed again by its template
    (cards as :class:`Card`, lists as tuples): equal to the message that was written."""
    key = str(data["key"])
    if key not in TEMPLATES:
        raise ValueError(f"unknown message key {key!r}")
    args: dict[str, Any] = {}
    kinds = arg_kinds(key)
    for name, value in dict(data.get("args", {})).items():
        kind = kinds.get(name)
        if value is None:
            args[name] = None
        elif kind == "msg":
            args[name] = message_from_dict(value)
        elif kind == "msgs":
            args[name] = tuple(message_from_dict(m) for m in value)
        elif kind == "card":
            args[name] = _card(value)
        elif kind == "cards":
            args[name] = tuple(_card(c) for c in value)
        elif isinstance(value, list):
            args[name] = tuple(value)
        else:
            args[name] = value
    return Message(key, args)


def text(text: str) -> Message:
    """A sentence the engine did not write (an old stored one): shown as it is."""
    return Message("text", {"text": text})


class MessageError(LooError):
    """A refusal told as a :class:`Message`, so that it can be shown from any point of view
    (:meth:`render`); ``str()`` gives it as the player to move reads it. It lives here, not
    in :mod:`.errors`, so that the errors import nothing and no import goes round in a circle
    (cards → errors → messages → cards)."""

    def __init__(self, message: Message | str) -> None:
        self.message: Message = message if isinstance(message, Message) else text(message)
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.render()

    def render(self, viewer: int | None = PLAYER, names: Names = None) -> str:
        return render(self.message, viewer, names)


# -- rendering --------------------------------------------------------------------------------

_SEAT_FORMS: Final = frozenset({"S", "S's", "yours", "he", "him", "his", "himself"})
_PRONOUNS: Final = {
    "he": ("he", "you"),
    "him": ("him", "you"),
    "his": ("his", "your"),
    "himself": ("himself", "yourself"),
}
_SENTENCE_END: Final = re.compile(r"[.!?] +$")
_CARD_FORMS: Final = frozenset({"card", "cards", "tname", "tnames"})
#: Lists of messages, and what joins them.
_LIST_JOINS: Final = {"and": " and ", "semi": "; "}


@cache
def _parts(key: str) -> tuple[tuple[str, str, str, bool], ...]:
    """The template of ``key`` as (literal, argument, form, starts a sentence) pieces."""
    template = TEMPLATES[key]
    parts: list[tuple[str, str, str, bool]] = []
    for literal, name, form, _ in Formatter().parse(template):
        start = (not parts and literal == "") or bool(_SENTENCE_END.search(literal))
        parts.append((literal, name or "", form or "", start))
    return tuple(parts)


@cache
def arg_kinds(key: str) -> dict[str, str]:
    """What each argument of ``key``'s template is: "seat", "card", "cards", "suit", "rules",
    "msg" or "value" (inferred from the forms the template writes it in)."""
    kinds: dict[str, str] = {}
    for _, name, form, _ in _parts(key):
        if not name:
            continue
        if form in _SEAT_FORMS:
            kind = "seat"
        elif form in ("card", "tname"):
            kind = "card"
        elif form in ("cards", "tnames", "tcards"):
            kind = "cards"
        elif form in ("suit", "suit1"):
            kind = "suit"
        elif form == "had":
            kind = "rules"
        elif form == "msg":
            kind = "msg"
        elif form in _LIST_JOINS:
            kind = "msgs"
        elif form == "Ss":
            kind = "seats"
        else:
            kind = "value"
        if kinds.get(name, "value") == "value":
            kinds[name] = kind
    if any(form in ("tname", "tnames", "tcards") for _, _, form, _ in _parts(key)):
        kinds.setdefault("pam", "card")
    return kinds


def seat_word(seat: int | None, names: Names) -> str:
    """What a seat that is not the viewer is called."""
    if seat is None:
        return "the pool"
    if names is not None:
        if callable(names):
            return names(seat)
        if isinstance(names, Mapping):
            if seat in names:
                return names[seat]
        elif 0 <= seat < len(names):
            return names[seat]
    if seat == PLAYER:
        return "the player"
    return f"seat {seat + 1}"


def render(
    message: Message, viewer: int | None = PLAYER, names: Names = None, *, begins: bool = True
) -> str:
    """``message`` in English, read by ``viewer`` (None: nobody at the table; the third
    person throughout), the other seats called by ``names``. (``begins``: whether the message
    begins a sentence; a message nested in another begins one only where it stands first.)"""
    key, args = message
    if key == "text":
        return str(args["text"])
    out: list[str] = []
    for i, (literal, name, form, start) in enumerate(_parts(key)):
        out.append(literal)
        if not name:
            continue
        if i == 0 and not literal:
            start = begins
        value = args[name]
        word = _word(key, args, name, value, form, viewer, names, start)
        if start and word:
            word = word[:1].upper() + word[1:]
        out.append(word)
    return "".join(out)


def _word(
    key: str,
    args: Mapping[str, Any],
    name: str,
    value: Any,
    form: str,
    viewer: int | None,
    names: Names,
    start: bool,
) -> str:
    kind = arg_kinds(key)[name]
    if kind == "seat":
        you = viewer is not None and value == viewer
        if form == "S":
            return "you" if you else seat_word(value, names)
        if form == "S's":
            return "your" if you else seat_word(value, names) + "'s"
        if form == "yours":
            return "yours" if you else seat_word(value, names) + "'s"
        if form in _PRONOUNS:
            return _PRONOUNS[form][you]
        third, second = form.split("/")
        return second if you else third
    if form == "card":
        return _card(value).display
    if form == "cards":
        return displays([_card(c) for c in value])
    if form == "tcards":
        pam = args.get("pam")
        pam_card = _card(pam) if pam is not None else None
        shown = [_tname(_card(c), pam_card) for c in value]
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    if form in ("tname", "tnames"):
        pam = args.get("pam")
        pam_card = _card(pam) if pam is not None else None
        names_ = [_tname(_card(c), pam_card) for c in (value if form == "tnames" else [value])]
        if len(names_) == 1:
            return names_[0]
        return ", ".join(names_[:-1]) + " or " + names_[-1]
    if form == "suit":
        return SUIT_NAMES[value]
    if form == "suit1":
        return SUIT_SINGULAR[value]
    if form == "had":
        return "; ".join(HAD_TO[r] for r in value)
    if form == "rulename":
        return rule_name(value)
    if form == "msg":
        return render(value, viewer, names, begins=start)
    if form in _LIST_JOINS:
        return _LIST_JOINS[form].join(
            render(m, viewer, names, begins=start and i == 0) for i, m in enumerate(value)
        )
    if form == "Ss":
        return ", ".join("you" if s == viewer else seat_word(s, names) for s in value)
    if "/" in form:
        one, many = form.split("/")
        count = len(value) if isinstance(value, (list, tuple)) else value
        return one if count == 1 else many
    return str(value)


def rule_name(rule_id: str) -> str:
    """A rule's name as a reader sees it (the catalogue's); an id the catalogue does not know
    is called "the rules"."""
    try:
        return catalogue.rule(rule_id).name
    except catalogue.UnknownRule:
        return "the rules"


def _card(value: Card | str) -> Card:
    if type(value) is Card:
        return value
    found = BY_CODE.get(value)  # type: ignore[arg-type]
    return found if found is not None else card(str(value))


def _tname(c: Card, pam: Card | None) -> str:
    return f"Pam ({c.display})" if c is pam else c.display


def codes(cards: Iterable[Card]) -> tuple[str, ...]:
    """Cards as the codes a message keeps."""
    return tuple(c.code for c in cards)


def remap(message: Message, seats: Callable[[int], int]) -> Message:
    """``message`` with every seat argument ``s`` replaced by ``seats(s)`` (a flush compared
    among hands listed from the elder hand, told with the table's seats)."""
    kinds = arg_kinds(message.key)
    args = dict(message.args)
    for name, value in args.items():
        kind = kinds.get(name)
        if kind == "seat" and value is not None and value != PLAYER:
            args[name] = seats(value)
        elif kind == "msg" and value is not None:
            args[name] = remap(value, seats)
        elif kind == "msgs":
            args[name] = tuple(remap(m, seats) for m in value)
        elif kind == "seats":
            args[name] = tuple(seats(s) for s in value)
    return Message(message.key, args)


# -- the phrases and the templates -------------------------------------------------------------

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

#: Every sentence the engine can say, by key. (Filled in by the sections below.)
TEMPLATES: Final[dict[str, str]] = {
    # A sentence stored before sentences were data, shown as it was written.
    "text": "{text}",
}

# Pieces of sentences, nested in others with ``{name:msg}``.
TEMPLATES.update(
    {
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
)

# Card play: the rules that bind a lead (RULES.md 1.5) ...
TEMPLATES.update(
    {
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
            "{p:S} won the last trick, so {p:he} {p:leads/lead}; the {card:card} is {p:his} last "
            "card."
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
            "These rules put no obligation on the first lead at {game} Loo: {p:S} may lead any "
            "card."
        ),
    }
)

# ... and a card played to a trick (RULES.md 1.6-1.8).
TEMPLATES.update(
    {
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
        "trick.trumped": (
            "The trick was trumped: the highest trump played, the {win:card}, takes it."
        ),
        "trick.highest": (
            "No trump was played: the highest {led:suit1}, the {win:card}, takes the trick."
        ),
        "trick.pam-identity": "Pam ({pam:card}) is a trump, not a {suit:suit1}.",
        "error.not-held": "{p:S} {p:does/do} not hold the {card:card}.",
        "error.forbidden": "The {card:card} may not be played. {why:msg}",
    }
)

# Flushes (RULES.md 1.9).
TEMPLATES.update(
    {
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
            "Between flushes of the same class the better cards win: {p:S's} {cards:cards} "
            "beats {others:and}{pam_note:msg}.{equal:msg}"
        ),
        "flush.tie-highest": (
            "Between flushes of the same class the highest card wins: {p:S's} {cards:cards} "
            "beats {others:and}{pam_note:msg}.{equal:msg}"
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
)

# The hand: the stake, the deal and the declarations (RULES.md 1.1-1.4, 1.10).
TEMPLATES.update(
    {
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
            "This deal is the single: the dealer turns up the {turn_up:card} and deals one card "
            "face up to each player. The highest {suit:suit1} above it takes the pool; the "
            "others are looed a single loo."
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
            "{p:S} {p:is/are} looed a single loo and {p:pays/pay} {n} to the next pool."
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
        "exchange.draw": (
            "{p:S} {p:discards/discard} {n} and {p:draws/draw} {n}, and so must play."
        ),
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
            "{p:S} alone {p:is/are} in the play and everyone else has passed: {p:he} "
            "{p:takes/take} the pool without play."
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
)

# The play, the laws of irregularity and the settlement (RULES.md 1.5-1.8, 1.11, 1.12).
TEMPLATES.update(
    {
        "play-begins": "{n} play: {players:Ss}. {p:S} {p:leads/lead}.",
        "play.lead": "{p:S} {p:leads/lead} the {card:card}.",
        "play.lead-had": "{p:S} {p:leads/lead} the {card:card} (had to {had:had}).",
        "play.lead-civil": (
            '{p:S} {p:leads/lead} the {card:card} and {p:calls/call} "Pam, be civil".'
        ),
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
        "dealer.lowest-cut-brief": (
            "Each player cuts; {p:S} {p:cuts/cut} the lowest card and {p:deals/deal} first."
        ),
    }
)

# The computer players' reasons (games.loo.bots).
TEMPLATES.update(
    {
        "bot.random-card": "a random legal card",
        "bot.let-stand": "lets the result stand",
        "bot.random-choice": "a random choice",
        "bot.slip": "a careless slip: a card the rules forbid (“{rule:rulename}”)",
        "bot.only-card": "{p:S} played the {card:card}: the only choice",
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
        "bot.pass": (
            "{p:S} passed: a hand like this is looed in {risk} of {samples} sampled deals"
        ),
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
    }
)

# The laws of irregularity at the settlement: each offence named, and what became of the
# shares of tricks that stayed in the pool (RULES.md 1.11, readings A49-A51).
TEMPLATES.update(
    {
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
        "settle.took-retired": (
            "{p:S} took {n} {n:trick/tricks} before throwing up {p:his} cards: "
            "{n:its share/their shares} ({amount}) {n:stays/stay} in the pool for the next hand."
        ),
        "settle.last-player": (
            "Only {p:S} {p:is/are} left in the play, the others having thrown up their cards: "
            "{p:he} {p:takes/take} the pool ({n}), as when all the rest throw up their cards "
            "(Hoffmann ¶3)."
        ),
        "settle.last-player-offender": (
            "Only {p:S} {p:is/are} left in the play, the others having thrown up their cards; "
            "but {p:he} offended, so the pool ({n}) stays for the next hand (after Law 14)."
        ),
        "pay.last-player": "the last in the play: the others threw up their cards (Law 15)",
    }
)

# The rest of the laws (games.loo.hand.irregular): the deal, the declarations, looking and
# exposing, in laws mode.
TEMPLATES.update(
    {
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
        "irregular.interfere": (
            "{p:S} {p:interferes/interfere} with the cards during the deal: {p:he} {p:is/are} "
            "looed ({n}, to the next pool), but the deal stands (p. 24)."
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
            "{p:S} {p:sees/see} {other:S's} cards: {p:he} {p:forfeits/forfeit} a single ({n}) to "
            "the pool and must retire for this hand (Law 6)."
        ),
        "irregular.look-hand-peel": (
            "{p:S} {p:looks/look} at {other:S's} cards: {p:he} {p:is/are} looed the full loo "
            "({n}, to the next pool) and must throw up {p:his} cards (p. 24)."
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
        "pay.misdeal": "a misdeal: a single to the pool (Law 3)",
        "pay.misdeal-peel": "a misdeal: looed a single, to the pool (p. 23)",
        "pay.declare-early": "declaring out of turn (Law 5; p. 24)",
        "pay.look-early": "looking at one's cards out of turn (Law 5; p. 24)",
        "pay.look-miss": "looking at the miss without taking it (Law 6; p. 24)",
        "pay.look-hand": "seeing another player's cards (Law 6)",
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
)

# A careless computer player's lapses (games.loo.bots.CarelessBot.lapse): why he committed an
# irregularity, shown after its line of the trace.
TEMPLATES.update(
    {
        "bot.lapse-misdeal": "a careless slip in dealing",
        "bot.lapse-faced-card": "a careless slip: a card turned face up in dealing",
        "bot.lapse-interfere": "a careless slip: a hand on the cards while they were dealt",
        "bot.lapse-declare-early": "a careless slip: too eager to declare",
        "bot.lapse-look-early": "a careless slip: too eager to see {p:his} cards",
        "bot.lapse-look-miss": "a careless slip: too curious about the miss",
        "bot.lapse-look-hand": "a careless slip: a glance at {other:S's} cards",
        "bot.lapse-expose": "a careless slip: a card held so that the table saw it",
        "bot.lapse-play-early": "a careless slip: too quick to play",
        # The dealer against one player when the miss is gone (games.loo.hand.declare).
        "part.dealer-vs-one.own": "play {d:his} own cards (the miss was thrown up)",
    }
)

# Rule questions (games.loo.questions), asked of the learner.
TEMPLATES.update(
    {
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
        "question.offence.card": (
            "{p:S} {p:plays/play} the {card:card}, against the rule “{rule:rulename}”."
        ),
        "question.offence.out-of-turn": "{p:S} {p:plays/play} the {card:card} out of turn.",
        "question.seat": "{p:S}",
        "question.procedure-dealt": (
            "{d:S} {d:deals/deal} to {n} players from the pack laid out here, top card first. "
            "Which cards {p:does/do} {p:S} receive?"
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
        "question.procedure-next": "Who declares next?",
        "question.declares-first": (
            "The players declare in turn from the dealer's left: {p:S} {p:is/are} first after "
            "{d:S}."
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
    }
)
