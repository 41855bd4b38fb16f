"""Every sentence the engine can say, as data: a :class:`Message` is a key and typed arguments,
and :func:`render` turns it into English for a point of view.

The engine never writes English itself. A rule it applies, a note, an option and why it is
shaped so, a line of the trace, a payment, an offence, a computer player's reason: each is a
``Message("play.follow-suit", {"p": 2, "led": "H", ...})``, and its template lives in
:mod:`games.loo.sentences` (:data:`TEMPLATES`), data apart from this code, so that one place
lists every sentence the game can say (and a translation would replace just that package).

A template is English with placeholders ``{name}`` or ``{name:form}``. The form says what the
argument is, and so how it is written:

- a **seat** (an int, the engine's seat index; ``None`` is the pool; :data:`PLAYER` is the
  player to move of a bare position, whose seat nobody gave): ``{p:S}`` names it ("you",
  "West", "seat 3"), ``{p:S's}`` its possessive ("your", "West's"; standing alone,
  ``{p:yours}``: "yours", "West's"), ``{p:he}``, ``{p:him}``,
  ``{p:his}``, ``{p:himself}`` its pronouns, and ``{p:plays/play}`` a verb that agrees with it
  (the first form for a third person, the second for "you"); a list of seats, ``{ps:Ss}``
  ("you, West, North") or ``{ps:Ss-and}`` ("you, West and North");
- a **card** (a code, ``"QH"``): ``{c:card}`` → "Q♥"; ``{c:tname}`` → "Pam (J♣)" when the
  message's ``pam`` argument is that card, else "Q♥"; **cards** (a list of codes):
  ``{cs:cards}`` → "Q♥, 3♥ and K♠", ``{cs:tcards}`` → "Pam (J♣), Q♥ and 3♥",
  ``{cs:tnames}`` → "Pam (J♣), Q♥ or 3♥";
- a **suit** (``"H"``): ``{s:suit}`` → "hearts", ``{s:suit1}`` → "heart";
- **rule ids** (a list of ids): ``{r:had}`` → the phrases of :data:`HAD_TO` joined by "; ";
  one id, ``{rule:rulename}`` → the rule's name in the catalogue ("follow suit if you can"):
  a reader is never shown an id;
- a **message** nested in another: ``{m:msg}``; a list of them, ``{ms:and}`` (joined by
  "and"), ``{ms:semi}`` (by semicolons) or ``{ms:or}`` (a list: "play, pass or take miss");
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
from .sentences import HAD_TO, TEMPLATES

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
        elif form in _LIST_JOINS or form == "or":
            kind = "msgs"
        elif form in ("Ss", "Ss-and"):
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
        return _listed([_tname(_card(c), pam_card) for c in value], "and")
    if form in ("tname", "tnames"):
        pam = args.get("pam")
        pam_card = _card(pam) if pam is not None else None
        names_ = [_tname(_card(c), pam_card) for c in (value if form == "tnames" else [value])]
        return _listed(names_, "or")
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
    if form == "or":
        return _listed(
            [render(m, viewer, names, begins=start and i == 0) for i, m in enumerate(value)], "or"
        )
    if form == "Ss":
        return ", ".join("you" if s == viewer else seat_word(s, names) for s in value)
    if form == "Ss-and":
        return _listed(["you" if s == viewer else seat_word(s, names) for s in value], "and")
    if "/" in form:
        one, many = form.split("/")
        count = len(value) if isinstance(value, (list, tuple)) else value
        return one if count == 1 else many
    return str(value)


def _listed(words: Sequence[str], last: str) -> str:
    """Words as a list in a sentence: "a", "a and b", "a, b and c" (``last``: and, or)."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


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
