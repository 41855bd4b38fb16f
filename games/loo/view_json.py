"""A player's view read back from its JSON (:meth:`PlayerView.to_dict`), for the command
line's ``advise``: apart from ``view`` because it works out what the player may do through
the bots' deals, and the bots read views."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .bots import build_world, sample_world
from .cards import Card, parse_card
from .errors import PositionError
from .rulesets import RuleSet
from .view import PlayerView, TrickView


def view_from_dict(data: Mapping[str, Any], rules: RuleSet) -> PlayerView:
    """A view read back from :meth:`PlayerView.to_dict` (the command line's ``advise``), under
    ``rules`` (the dict names only a preset). The trace, the payments and a flush are not read
    (a flush shown ends the hand): ``events`` and ``payments`` come back empty. What the player
    may do is worked out again from the position, as the table would, in a deal that agrees
    with the view (``bots.build_world``), never taken from the dict."""

    def field(name: str) -> Any:
        if name not in data:
            raise PositionError(f"the view lacks its field {name!r}")
        return data[name]

    def number(name: str, value: object = None) -> int:
        value = field(name) if value is None else value
        if type(value) is not int:
            raise PositionError(f"field {name!r} must be a whole number, not {value!r}")
        return value

    def numbers(name: str) -> tuple[int, ...]:
        values = field(name)
        if not isinstance(values, list):
            raise PositionError(f"field {name!r} must be a list of whole numbers")
        return tuple(number(name, v) for v in values)

    def cards(name: str, values: object = None) -> tuple[Card, ...]:
        values = field(name) if values is None else values
        if not isinstance(values, list):
            raise PositionError(f"field {name!r} must be a list of card codes")
        return tuple(parse_card(c) for c in values)

    def trick(t: object) -> TrickView | None:
        if t is None:
            return None
        if not isinstance(t, dict) or not isinstance(t.get("plays"), list):
            raise PositionError(f"a trick must be an object with its plays, not {t!r}")
        plays = tuple((number("plays", p[0]), parse_card(p[1])) for p in t["plays"])
        winner = t.get("winner")
        leader = number("leader", t.get("leader"))
        return TrickView(leader, plays, bool(t.get("civil")), None if winner is None else winner)

    def optional(name: str) -> int | None:
        value = field(name)
        return None if value is None else number(name, value)

    if field("flush") is not None:
        raise PositionError("a flush has been shown: the hand is over, there is nothing to advise")
    if field("game") not in rules.games:
        raise PositionError(f"the rules {rules.name!r} do not play {field('game')!r}")
    hand = field("hand")
    tricks = field("tricks")
    if not isinstance(tricks, list):
        raise PositionError("field 'tricks' must be a list of tricks")
    view = PlayerView(
        seat=number("seat"),
        players=number("players"),
        game=str(field("game")),
        rules=rules,
        hand_number=number("hand_number"),
        dealer=number("dealer"),
        phase=str(field("phase")),
        to_act=optional("to_act"),
        trump=str(field("trump")),
        turn_up=parse_card(field("turn_up")),
        stake=number("stake"),
        pool=number("pool"),
        pool_at_start=number("pool_at_start"),
        balances=numbers("balances"),
        must=bool(field("must")),
        club_law=bool(field("club_law")),
        single=bool(field("single")),
        double=bool(field("double")),
        hand=None if hand is None else cards("hand"),
        own_discards=cards("own_discards"),
        seen=cards("seen"),
        hand_sizes=numbers("hand_sizes"),
        declared=tuple(field("declared")),
        drawn=numbers("drawn"),
        miss_on_table=bool(field("miss_on_table")),
        miss_holder=optional("miss_holder"),
        defender=optional("defender"),
        stock_size=number("stock_size"),
        in_play=numbers("in_play"),
        retired=numbers("retired"),
        tricks=tuple(t for t in map(trick, tricks) if t is not None),
        trick=trick(field("trick")),
        flush=None,
        outcome=str(field("outcome")),
        payments=(),
        looed=numbers("looed"),
        events=(),
        options=None,
        shown_held=tuple(cards("shown_held", h) for h in data.get("shown_held", [])),
        peeked=cards("peeked", data.get("peeked", [])),
    )
    listed = [*(view.hand or ()), *view.own_discards, view.turn_up]
    listed += [c for t in (*view.tricks, view.trick) if t is not None for _, c in t.plays]
    if len(set(listed)) != len(listed):
        raise PositionError("a card appears twice in the view")
    per_seat = ("balances", "hand_sizes", "declared", "drawn")
    if not 0 <= view.seat < view.players or any(len(data[f]) != view.players for f in per_seat):
        raise PositionError(
            f"the seat, balances, hand sizes and declarations must fit {view.players} players"
        )
    if view.to_act != view.seat or view.hand is None:
        return view
    world = build_world(view, sample_world(view, random.Random(0)))
    return replace(view, options=world.options())
