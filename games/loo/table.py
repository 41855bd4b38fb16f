"""A table: a session of hands of Loo at one table, with the deal passing to the left.

The table keeps the counters (``balances``) and the pool between hands and decides what the
next deal is: a single (under peel, a deal of one card each), a double, a must, club law
(RULES.md 1.2, 1.10), and when a session ends (``round-continues-until-no-loo``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import Card
from .errors import LooError
from .hand import (
    FORMAT_VERSION,
    Action,
    Hand,
    HandSetup,
    IllegalAction,
    refuse,
    setup_from_dict,
    setup_to_dict,
)
from .messages import Message, msg, render
from .rng import deal_rng, rng_for, shuffled_pack
from .rulesets import RuleSet
from .view import view_for

#: Cut order for choosing the dealer: ace low (RULES.md first-dealer).
ACE_LOW: Final = "A23456789TJQK"

#: How a table may begin (:attr:`TableConfig.start`): ``fresh``, its first deal; ``after-loo``,
#: as after a hand in which a player was looed (his loo, a stake, carried into the pool: a
#: double, neither a single nor a must); ``after-no-loo``, as after a hand nobody was looed
#: (a single, and a must where the rule set plays one then).
STARTS: Final = ("fresh", "after-loo", "after-no-loo")


#: The declarations that take the miss into the hand: the player sees its cards.
MISS_CHOICES: Final = ("take-miss", "defend-miss")


#: Peel's ways to finish a game (p. 17; RULES.md A54), which a table under his rule set
#: offers once a hand is over: ``divide``, "an equal division of the amount in the pool among
#: the players" now; ``until-single``, "to play on until what is known as a 'single' occurs,
#: i.e., when each of the players who declared to stand has secured a trick": the game ends
#: after the next hand in which nobody is looed; ``last-round``, "releasing those who failed to
#: win a trick in the previous deal from the penalty ... In this case all 'stand' on the last
#: round, and there is no 'miss'": read as one last deal in which everyone stands, without a
#: miss, and nobody who takes no trick pays a loo.
FINISHES: Final = ("divide", "until-single", "last-round")

#: How a game can end besides :data:`FINISHES`: a player withdraws at his turn to deal (peel
#: p. 17), paying for his deal.
WITHDRAW: Final = "withdraw"


@dataclass(frozen=True)
class TableConfig:
    game: str
    rules: RuleSet
    players: int
    seed: int | str
    chips: int = 100
    #: Laws mode: an irregular play stands and the source's penalty is applied.
    laws: bool = False
    #: A session of this many rounds (every player deals once a round); None: open.
    rounds: int | None = None
    #: Keep the public trace of each hand (off for fast simulations).
    trace: bool = True
    #: Keep every finished hand's setup and actions (:attr:`Table.history`,
    #: :meth:`Table.finished_hand`). Off, a table holds only the hand in progress, and a long
    #: session costs no more memory than a short one: the practice site stores each finished
    #: hand itself, and a simulation needs only the counters.
    keep_history: bool = False
    #: A lesson's guided hand: the first hand is dealt from this stacked pack (52 card codes,
    #: top first: :func:`~games.loo.hand.deal.stack_pack`) instead of the shuffle; the hands
    #: after it are shuffled as usual.
    first_pack: tuple[str, ...] | None = None
    #: How the table begins (:data:`STARTS`): a fresh table, or as if a hand had just been
    #: played, with a loo (its pool carried into the first hand) or without one.
    start: str = "fresh"
    #: The seed of every deal after the first; None: the first's (:attr:`seed`). A practice
    #: table's public seed is shown and shared: dealing its later hands from a seed kept
    #: secret at the table means that a copy of the table made from the public seed (or
    #: from a finished hand) deals the same first hand and new cards after it, so that no
    #: one can play the original's later deals first at a copy.
    later_seed: str | None = None
    #: Who deals first; None: chosen by :attr:`seed` as the rule set says
    #: (:func:`choose_first_dealer`). A table that deals a finished hand again (its stacked
    #: pack in :attr:`first_pack`) gives its dealer the same seat, so that every seat gets
    #: the same cards.
    first_dealer: int | None = None

    def __post_init__(self) -> None:
        self.rules.require_game(self.game)
        low, high = self.rules.players(self.game)
        if not low <= self.players <= high:
            raise LooError(
                f"{self.game} Loo under the {self.rules.source} rules is for {low} to {high} "
                f"players, not {self.players}"
            )
        if self.start not in STARTS:
            raise LooError(f"unknown start {self.start!r} (starts: {', '.join(STARTS)})")
        if self.first_dealer is not None and not 0 <= self.first_dealer < self.players:
            raise LooError(f"no seat {self.first_dealer} at a table of {self.players}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            **self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "chips": self.chips,
            "laws": self.laws,
            "rounds": self.rounds,
            "trace": self.trace,
            "keep_history": self.keep_history,
            # Only when set: a table's dict reads as it did before lessons stacked deals.
            **({"first_pack": list(self.first_pack)} if self.first_pack else {}),
            **({"start": self.start} if self.start != "fresh" else {}),
            **({"later_seed": self.later_seed} if self.later_seed is not None else {}),
            **({"first_dealer": self.first_dealer} if self.first_dealer is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        return cls(
            game=data["game"],
            rules=RuleSet.from_dict(data),
            players=int(data["players"]),
            seed=data["seed"],
            chips=int(data.get("chips", 100)),
            laws=bool(data.get("laws", False)),
            rounds=data.get("rounds"),
            trace=bool(data.get("trace", True)),
            keep_history=bool(data.get("keep_history", False)),
            first_pack=tuple(data["first_pack"]) if data.get("first_pack") else None,
            start=str(data.get("start", "fresh")),
            later_seed=str(data["later_seed"]) if data.get("later_seed") is not None else None,
            first_dealer=int(data["first_dealer"])
            if data.get("first_dealer") is not None
            else None,
        )

    def seed_of(self, hand_number: int) -> int | str:
        """The seed deal ``hand_number`` (1 the first) is shuffled from."""
        if hand_number == 1 or self.later_seed is None:
            return self.seed
        return self.later_seed


def choose_first_dealer(rules: RuleSet, players: int, seed: int | str) -> tuple[int, Message]:
    """The first dealer by the procedure the rule set names, and how it fell out."""
    pack = shuffled_pack(rng_for(seed, "first-dealer"))
    if rules.first_dealer == "first-jack-face-up":
        for i, c in enumerate(pack):
            if c.rank == "J":
                seat = i % players
                return seat, msg("dealer.first-knave", p=seat, card=c)
        raise AssertionError("a pack holds four knaves")
    # Lowest cut, ace low; players who tie cut again from the rest of the pack.
    contenders = list(range(players))
    cards = iter(pack)
    while True:
        cuts = {seat: next(cards) for seat in contenders}
        low = min(ACE_LOW.index(c.rank) for c in cuts.values())
        contenders = [s for s, c in cuts.items() if ACE_LOW.index(c.rank) == low]
        if len(contenders) == 1:
            seat = contenders[0]
            return seat, msg("dealer.lowest-cut", p=seat, card=cuts[seat])


def first_deal_of(setup: HandSetup) -> tuple[tuple[str, ...], str]:
    """The stacked pack (:attr:`TableConfig.first_pack`) and the start
    (:attr:`TableConfig.start`) with which a new table, its first dealer ``setup.dealer``
    (:attr:`TableConfig.first_dealer`), deals the cards of the hand ``setup`` began again:
    the same pack, the same dealer, and a start as after a hand with or without a loo as that
    hand had. What a start cannot give differs: the counters are fresh, and the pool holds
    a fresh stake or one loo, not what that hand's held."""
    pack = setup.pack or tuple(
        c.code for c in shuffled_pack(deal_rng(setup.seed, setup.hand_number))
    )
    if setup.first:
        start = "fresh"
    elif setup.prev_no_loo:
        start = "after-no-loo"
    else:
        start = "after-loo"
    return tuple(pack), start


class Table:
    """A session at one table. ``hand`` is the deal in progress (or the last one, finished)."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self.balances = [config.chips] * config.players
        self.pool = 0
        #: How the first dealer was chosen (:attr:`first_dealer_text`: in words).
        if config.first_dealer is None:
            self.dealer, self.first_dealer_message = choose_first_dealer(
                config.rules, config.players, config.seed
            )
        else:
            self.dealer = config.first_dealer
            self.first_dealer_message = msg("dealer.as-before", p=config.first_dealer)
        self.hand_number = 0
        self.hand: Hand | None = None
        self.prev_no_loo = config.start == "after-no-loo"
        self.prev_flush = False
        if config.start == "after-loo":
            # The last seat was looed in the hand before: his loo is the pool.
            loo = config.rules.stake(config.game)
            self.balances[-1] -= loo
            self.pool = loo
        # Finished hands, if the config keeps them: their setups and action logs (enough to
        # replay each).
        self._finished: list[tuple[HandSetup, list[Action]]] = []
        #: How the players chose to finish the game (:data:`FINISHES`), or None.
        self.finish_way: str | None = None
        #: The seat that dealt first (A54: a game is best finished before his deal comes again).
        self.first_dealer = self.dealer

    @property
    def history(self) -> list[dict[str, Any]]:
        """The finished hands, each as its setup and action log (enough to replay it); empty
        unless the config keeps them."""
        return [
            {"setup": setup_to_dict(setup), "log": [a.to_dict() for a in log]}
            for setup, log in self._finished
        ]

    def finished_hand(self, index: int) -> Hand:
        """A finished hand, replayed from its seed and actions (``keep_history`` only)."""
        if not self.config.keep_history:
            raise LooError("this table does not keep its finished hands (keep_history is off)")
        setup, log = self._finished[index]
        return Hand.replay(setup, log)

    @property
    def first_dealer_text(self) -> str:
        return render(self.first_dealer_message, None)

    @property
    def first_dealer_brief(self) -> Message:
        """How the first dealer was chosen, without the card that chose him (it came from
        another shuffle: a page showing this deal's cards leaves it out)."""
        key, args = self.first_dealer_message
        return msg(key + "-brief", p=args["p"])

    @property
    def rules(self) -> RuleSet:
        return self.config.rules

    def chips(self) -> int:
        """Counters at the table, pool included: the same after every settlement."""
        if self.hand is not None and not self.hand.over:
            return self.hand.chips()
        return sum(self.balances) + self.pool

    @property
    def session_over(self) -> bool:
        """RULES.md round-continues-until-no-loo: every player deals equally; under
        britannica a loo in the last deal of a round carries the game on. Under peel, once the
        players chose to finish (A54): at once when the pool is shared, else after a hand in
        which nobody was looed."""
        if self.finish_way in ("divide", WITHDRAW):
            return True
        if self.finish_way == "until-single":
            return self.hand is not None and self.hand.over and self.prev_no_loo
        if self.finish_way == "last-round":
            hand = self.hand
            return hand is not None and hand.over and hand.setup.last_round
        rounds = self.config.rounds
        if rounds is None or self.hand_number < rounds * self.config.players:
            return False
        if self.rules.session_end == "equal-deals-then-until-no-loo":
            return self.prev_no_loo
        return True

    # -- finishing the game (peel p. 17, A54) ----------------------------------------------------

    def finishes(self) -> tuple[str, ...]:
        """The ways to finish the game the players may choose now (:data:`FINISHES`): under
        Peel's rule set, which states them, once the hand is over and no way is chosen yet."""
        if (
            self.rules.source != "peel"
            or self.finish_way is not None
            or self.session_over
            or (self.hand is not None and not self.hand.over)
        ):
            return ()
        return FINISHES

    def may_withdraw(self, seat: int) -> bool:
        """Whether ``seat`` may withdraw from the game now: under Peel's rule set, between
        hands, when it is his turn to deal ("A player may withdraw from the game at any time
        when it is his turn to deal", p. 17)."""
        return bool(self.finishes()) and self.hand is not None and self.next_dealer == seat

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand."""
        if self.hand is None:
            return self.dealer
        return (self.dealer + 1) % self.config.players

    def withdraw(self, seat: int) -> Message:
        """``seat`` withdraws at his turn to deal (peel p. 17, A54): "he pays for his deal …,
        and also for his loo, if he was looed the previous hand" (his loo is already in the
        pool: a loo is paid when the hand is settled). At a table of one person and computer
        players, his game ends there."""
        if not self.may_withdraw(seat):
            raise refuse("error.no-withdraw", p=seat)
        stake = self.rules.stake(self.config.game)
        self.balances[seat] -= stake
        self.pool += stake
        self.finish_way = WITHDRAW
        return msg("finish.withdraw", p=seat, n=stake)

    def deals_to_even(self) -> int:
        """How many more deals bring the deal back to the first dealer, so that every player
        has paid for as many deals (peel p. 17: a finish "is best" arranged so); 0: now."""
        if self.hand is None:
            return 0
        return (self.first_dealer - self.next_dealer) % self.config.players

    def finish(self, way: str) -> Message:
        """Finish the game ``way`` (one of :meth:`finishes`), and say what it did: ``divide``
        shares the pool equally among the players now (the odd counters, fewer than the
        players, go one each to the players from the dealer's left: a reading, for the text
        says only "an equal division"); ``until-single`` ends the game after the next hand in
        which nobody is looed (at once if the last hand had none)."""
        if way not in self.finishes():
            raise refuse("error.no-finish", way=way)
        self.finish_way = way
        if way == "until-single":
            if self.session_over:
                return msg("finish.single-now")
            return msg("finish.until-single")
        if way == "last-round":
            return msg("finish.last-round")
        pool, players = self.pool, self.config.players
        share, odd = divmod(pool, players)
        order = [(self.dealer + 1 + k) % players for k in range(players)]
        for i, seat in enumerate(order):
            self.balances[seat] += share + (1 if i < odd else 0)
        self.pool = 0
        extra = msg("finish.odd", n=odd) if odd else msg("part.none")
        return msg("finish.divide", pool=pool, n=share, extra=extra)

    def deal(self) -> Hand:
        """Start the next hand (the previous one must be over)."""
        if self.hand is not None and not self.hand.over:
            raise refuse("error.hand-not-over")
        if self.session_over:
            raise refuse("error.session-over")
        if self.hand is not None:
            self._close(self.hand)
            self.dealer = (self.dealer + 1) % self.config.players
        self.hand_number += 1
        config = self.config
        setup = HandSetup(
            game=config.game,
            rules=config.rules,
            players=config.players,
            dealer=self.dealer,
            hand_number=self.hand_number,
            seed=config.seed_of(self.hand_number),
            balances=tuple(self.balances),
            pool=self.pool,
            first=self.hand_number == 1 and config.start == "fresh",
            prev_no_loo=self.prev_no_loo,
            prev_flush=self.prev_flush,
            laws=config.laws,
            trace=config.trace,
            pack=config.first_pack if self.hand_number == 1 else None,
            last_round=self.finish_way == "last-round",
        )
        self.hand = Hand.deal(setup)
        # A hand over as soon as it is dealt (peel's single deal, A39) is settled at once.
        self._sync()
        return self.hand

    def _close(self, hand: Hand) -> None:
        self.balances = list(hand.balances)
        self.pool = hand.pool
        self.prev_no_loo = hand.no_loo
        self.prev_flush = hand.outcome == "flush"
        if self.config.keep_history:
            self._finished.append((hand.setup, list(hand.log)))

    def apply(self, action: Action) -> None:
        hand = self.hand
        if hand is None:
            raise refuse("error.no-hand")
        hand.apply(action)
        if hand.phase == "over":
            self._sync()

    def step(self, choice: Card | str, discards: Sequence[Card] = ()) -> None:
        """:meth:`Hand.step` in the hand in progress: one of its :meth:`Hand.choices` for the
        player to act, carried out as :meth:`apply` of the same decision would."""
        hand = self.hand
        if hand is None:
            raise refuse("error.no-hand")
        hand.step(choice, discards)
        if hand.phase == "over":
            self._sync()

    def _sync(self) -> None:
        """After a hand ends, its counters and pool are the table's."""
        if self.hand is not None and self.hand.over:
            self.balances = list(self.hand.balances)
            self.pool = self.hand.pool
            self.prev_no_loo = self.hand.no_loo
            self.prev_flush = self.hand.outcome == "flush"

    def takeback_refusal(self, seat: int) -> Message | None:
        """Why ``seat``'s last decision in this deal may not be taken back now, or None if it
        may (:meth:`take_back_decision`).

        The rule: no decision is taken back once something hidden has been shown to the player
        because of it; else one learns a hidden card, takes the decision back and decides again
        knowing it. So not once the hand is over (its end shows the settlement and the others'
        reasons), nor once another seat has acted after it (its answer was seen), nor when the
        decision itself showed him a card he had not seen (the miss taken, cards drawn, a look
        where the laws forbid one), nor once the game is finished (peel p. 17)."""
        hand = self.hand
        if hand is None:
            return msg("error.no-hand")
        if self.finish_way is not None:
            return msg("error.finished")
        mine = [i for i, action in enumerate(hand.log) if action.seat == seat]
        if not mine:
            return msg("takeback.nothing", p=seat)
        # The first thing shown because of it is the reason given: what the decision itself
        # showed, then the others' answers, then the end of the hand.
        last = mine[-1]
        before = Hand.replay(hand.setup, hand.log[:last])
        after = hand if last == len(hand.log) - 1 else Hand.replay(hand.setup, hand.log[: last + 1])
        if view_for(after, seat).visible_cards() - view_for(before, seat).visible_cards():
            action = hand.log[last]
            if action.kind == "declare" and action.choice in MISS_CHOICES:
                return msg("takeback.seen-miss", p=seat)
            if action.kind == "declare" and before.phase == "exchange":
                return msg("takeback.seen-drawn", p=seat)
            return msg("takeback.seen-hidden", p=seat)
        if last != len(hand.log) - 1:
            return msg("takeback.others-since", p=seat)
        if hand.over:
            return msg("takeback.hand-over", p=seat)
        return None

    def take_back_decision(self, seat: int) -> Hand:
        """Take back ``seat``'s last decision in this deal, or raise :class:`IllegalAction`
        with :meth:`takeback_refusal`'s reason, changing nothing."""
        refusal = self.takeback_refusal(seat)
        if refusal is not None:
            raise IllegalAction(refusal)
        return self.takeback(1)

    def takeback(self, count: int = 1) -> Hand:
        """Take back the last ``count`` actions of the current hand, whatever they showed (for
        tests and tools; a player's take-back is :meth:`take_back_decision`). If the hand had
        ended, the counters and the pool return to where they were before."""
        hand = self.hand
        if hand is None:
            raise refuse("error.no-hand")
        if self.finish_way is not None:
            # The pool shared, a player withdrawn, the last round agreed: not undone.
            raise refuse("error.finished")
        self.hand = hand.takeback(count)
        self.balances = list(hand.setup.balances)
        self.pool = hand.setup.pool
        self.prev_no_loo = hand.setup.prev_no_loo
        self.prev_flush = hand.setup.prev_flush
        self._sync()
        return self.hand

    # -- serialisation --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "config": self.config.to_dict(),
            "balances": self.balances,
            "pool": self.pool,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "prev_no_loo": self.prev_no_loo,
            "prev_flush": self.prev_flush,
            "history": self.history,
            "hand": self.hand.to_dict() if self.hand is not None else None,
            # Only when set: a table's dict reads as it did before (A54).
            **({"finish": self.finish_way} if self.finish_way else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, strict: bool = True) -> Table:
        """Restore a table; its hand in progress as :meth:`Hand.from_dict` does (``strict``:
        refuse one whose replay differs from what was stored)."""
        if data.get("version") not in (1, FORMAT_VERSION):
            raise LooError(f"unknown table format version {data.get('version')!r}")
        table = cls(TableConfig.from_dict(data["config"]))
        table.balances = [int(b) for b in data["balances"]]
        table.pool = int(data["pool"])
        table.dealer = int(data["dealer"])
        table.hand_number = int(data["hand_number"])
        table.prev_no_loo = bool(data["prev_no_loo"])
        table.prev_flush = bool(data["prev_flush"])
        table._finished = [
            (setup_from_dict(h["setup"]), [Action.from_dict(a) for a in h["log"]])
            for h in data["history"]
        ]
        table.hand = Hand.from_dict(data["hand"], strict=strict) if data.get("hand") else None
        finish = data.get("finish")
        if finish is not None and finish not in (*FINISHES, WITHDRAW):
            raise LooError(f"unknown way to finish {finish!r}")
        table.finish_way = finish
        return table


__all__ = [
    "FINISHES",
    "MISS_CHOICES",
    "STARTS",
    "WITHDRAW",
    "Table",
    "TableConfig",
    "choose_first_dealer",
    "first_deal_of",
]
