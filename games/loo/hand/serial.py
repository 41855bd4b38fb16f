"""A hand's stored form (STYLE.md rule 2): :meth:`Serial.to_dict` and :meth:`Serial.from_dict`,
and a setup's (:func:`setup_to_dict`, :func:`setup_from_dict`).

A stored hand keeps its setup and action log, and its state so that it can be checked: loading
replays the log from the seed and refuses a state that does not match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Self

from ..cards import Card
from ..errors import LooError
from ..rulesets import RuleSet
from .state import Action, HandSetup, HandState, Trick

#: 2: sentences are stored as messages (data), not as English. A hand or table of version 1
#: still loads: its sentences are worked out again from its seed and actions.
FORMAT_VERSION: Final = 2


class Serial(HandState):
    """The hand to and from plain data."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        data = self._to_dict()
        irregular = self.irregular
        if irregular is not None:
            # Only when something irregular happened, so that other hands' state is as before.
            data["state"]["irregular"] = {
                "redeals": irregular.redeals,
                "peeked": {str(s): [c.code for c in cs] for s, cs in irregular.peeked.items()},
                "retiring": {str(s): rule for s, rule in irregular.retiring.items()},
                "looked": list(irregular.looked),
                "shown_before": [c.code for c in irregular.shown_before],
                "deferred": [[s, n, rule] for s, n, rule, _ in irregular.deferred],
            }
            if irregular.paid_loo:
                data["state"]["irregular"]["paid_loo"] = list(irregular.paid_loo)
            if irregular.no_winnings:
                data["state"]["irregular"]["no_winnings"] = {
                    str(s): rule for s, rule in irregular.no_winnings.items()
                }
        return data

    def _to_dict(self) -> dict[str, Any]:
        def codes(cards: Sequence[Card] | None) -> list[str] | None:
            return None if cards is None else [c.code for c in cards]

        return {
            "version": FORMAT_VERSION,
            "setup": setup_to_dict(self.setup),
            "log": [a.to_dict() for a in self.log],
            "state": {
                "phase": self.phase,
                "to_act": self.to_act,
                "balances": list(self.balances),
                "pool": self.pool,
                "pool_at_start": self.pool_at_start,
                "must": self.must,
                "club_law": self.club_law,
                "single": self.single,
                "double": self.double,
                "dealt": [codes(h) for h in self.dealt],
                "hands": [codes(h) for h in self.hands],
                "miss": codes(self.miss),
                "miss_withdrawn": self.miss_withdrawn,
                "turn_up": self.turn_up.code,
                "stock": codes(self.stock),
                "discards": codes(self.discards),
                "thrown": {str(s): codes(h) for s, h in self.thrown.items()},
                "exchanged": {str(s): codes(h) for s, h in self.exchanged.items()},
                "declared": list(self.declared),
                "drawn": list(self.drawn),
                "miss_holder": self.miss_holder,
                "defender": self.defender,
                "in_play": list(self.in_play),
                "retired": list(self.retired),
                "tricks": [_trick_to_dict(t) for t in self.tricks],
                "trick": _trick_to_dict(self.trick) if self.trick else None,
                "start_of_play": [codes(h) for h in self.start_of_play],
                "offences": [o.to_dict() for o in self.offences],
                "seen": codes(self.seen),
                "replaying": self.replaying,
                "replay_asked": list(self.replay_asked),
                "outcome": self.outcome,
                "payments": [p.to_dict() for p in self.payments],
                "looed": list(self.looed),
                "no_loo": self.no_loo,
                "flush": self.flush.to_dict() if self.flush else None,
                "events": [e.to_dict() for e in self.events],
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, strict: bool = True) -> Self:
        """Restore a hand by replaying its seed and action log.

        The stored state is checked against the replay on everything but its sentences, which
        the replay tells again (as messages; a hand of format version 1 stored them in
        English): ``strict`` refuses a hand whose cards, counters or outcome differ. Not
        strict, the replay wins: a hand stored before a rule was read anew (issue 12's
        readings changed some outcomes) still loads, as the rules now play its actions.
        """
        version = data.get("version")
        if version not in (1, FORMAT_VERSION):
            raise LooError(f"unknown hand format version {version!r}")
        setup = setup_from_dict(data["setup"])
        log = [Action.from_dict(a) for a in data["log"]]
        if strict:
            hand = cls.replay(setup, log)
        else:
            # The actions the rules now allow, in order: a hand stored before its rule set was
            # read anew (peel's first deal, a must until p. 18 was recovered, is now the single
            # of one card each: A39) keeps what still applies and goes on from there.
            hand = cls.deal(setup)
            for action in log:
                try:
                    hand.apply(action)
                except LooError:
                    break
        if strict and _without_sentences(hand.to_dict()["state"]) != _without_sentences(
            data["state"]
        ):
            raise LooError("the stored hand does not match a replay of its actions")
        return hand


def _without_sentences(state: dict[str, Any]) -> dict[str, Any]:
    """A stored hand's state less what it says in words (its trace, the reasons of its
    payments and offences, its flush's explanations): what a stored hand is checked on, so
    that a change of wording never keeps a hand from loading."""
    rest = {k: v for k, v in state.items() if k != "events"}
    rest["payments"] = [{k: v for k, v in p.items() if k != "reason"} for p in state["payments"]]
    rest["offences"] = [
        {k: v for k, v in o.items() if k not in ("text", "message")} for o in state["offences"]
    ]
    if state.get("flush"):
        rest["flush"] = {k: v for k, v in state["flush"].items() if k != "explanations"}
    return rest


def _trick_to_dict(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "plays": [[s, c.code] for s, c in trick.plays],
        "civil": trick.civil,
        "winner": trick.winner,
    }


def setup_to_dict(setup: HandSetup) -> dict[str, Any]:
    return {
        "game": setup.game,
        **setup.rules.to_dict(),
        "players": setup.players,
        "dealer": setup.dealer,
        "hand_number": setup.hand_number,
        "seed": setup.seed,
        "balances": list(setup.balances),
        "pool": setup.pool,
        "first": setup.first,
        "prev_no_loo": setup.prev_no_loo,
        "prev_flush": setup.prev_flush,
        "laws": setup.laws,
        "trace": setup.trace,
        "pack": list(setup.pack) if setup.pack else None,
        # Only when set: a setup's dict reads as it did before (A54).
        **({"last_round": True} if setup.last_round else {}),
    }


def setup_from_dict(data: dict[str, Any]) -> HandSetup:
    return HandSetup(
        game=data["game"],
        rules=RuleSet.from_dict(data),
        players=int(data["players"]),
        dealer=int(data["dealer"]),
        hand_number=int(data["hand_number"]),
        seed=data["seed"],
        balances=tuple(int(b) for b in data["balances"]),
        pool=int(data["pool"]),
        first=bool(data["first"]),
        prev_no_loo=bool(data["prev_no_loo"]),
        prev_flush=bool(data["prev_flush"]),
        laws=bool(data.get("laws", False)),
        trace=bool(data.get("trace", True)),
        pack=tuple(data["pack"]) if data.get("pack") else None,
        last_round=bool(data.get("last_round", False)),
    )
