"""The deals of the guided hands, found once and stored with the content (``content/guided.json``).

A guided hand is a practice table whose first hand brings the lesson's rule up on every legal
line of the learner (:func:`games.guided.prove`). Finding such a deal means walking the
learner's lines through many deals (up to 800 under one rule set), so it is done once, by
``manage.py findguided``, and the deal found is stored with its proof: its seed, what the
proof covered (the learner's lines, his decision points), whether the rule came up before
the hand was over on every line, and two fingerprints, of the guided hand as the lesson sets
it (game, rule set, players, rule, start, variations, laws, stacked deal, a declaration made
for the learner) and of the engine's code and of the proof (``games/loo``,
``games/guided.py``). The loader never searches: it trusts a stored proof made under both
fingerprints as they are now, proves the deal again when only the engine changed, and names
the guided hand to refresh when the lesson changed under it or the deal no longer holds.

The seed deals through :func:`games.guided.guided_deal_seed`, not the site's secret key: every
site deals a lesson's hand alike, so the seed can be stored with the content.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from itertools import count, islice
from pathlib import Path
from typing import Any

from games.guided import Guided, guided_deal_seed, prove
from games.loo.explore import Exploration
from games.loo.hand import Action
from games.loo.table import choose_first_dealer

#: The file, next to ``lessons.txt`` in the content folder.
FILE = "guided.json"

#: How many seeds the search tries under each rule set before it gives up.
GUIDED_TRIES = 200
#: With a stacked deal the cards are fixed and a seed only moves the computer players (and
#: must choose the stacked deal's dealer): a rule that needs them to choose one way (the
#: dealer's lone opponent, say) may come up in one seed in a hundred, so it tries more.
GUIDED_TRIES_STACKED = 800

#: The command that finds the deals, as messages name it.
REFRESH = "manage.py findguided"


@dataclass(frozen=True)
class Setup:
    """A guided hand's table under one rule set, as the lesson sets it: what its deal must be
    found for."""

    key: str
    game: str
    preset: str
    players: int
    rule: str
    guided: Guided
    #: The stacked deal's dealer (a seed must choose it), if the hand is stacked.
    dealer: int | None = None

    @property
    def fingerprint(self) -> str:
        data = [
            self.game,
            self.preset,
            self.players,
            self.rule,
            self.guided.pack,
            self.guided.start,
            self.guided.options,
            self.guided.laws,
        ]
        if self.guided.declares:
            # Only when set: the other hands' fingerprints read as before.
            data.append("declares")
        if self.guided.trumped:
            data.append("trumped")
        return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]

    def prove(self, seed: int) -> Exploration:
        return _prove(self, seed)

    def candidates(self) -> Iterable[int]:
        """The seeds the search tries, counted from a number made of the hand's key (so that
        two hands do not share their deals)."""
        base = int(hashlib.sha256(self.key.encode()).hexdigest()[:8], 16) * 1000
        if self.dealer is None:
            return range(base + 1, base + GUIDED_TRIES + 1)
        rules = self.guided.rules(self.preset)
        return list(
            islice(
                (
                    seed
                    for seed in count(base + 1)
                    if choose_first_dealer(rules, self.players, guided_deal_seed(seed))[0]
                    == self.dealer
                ),
                GUIDED_TRIES_STACKED,
            )
        )

    def search(self) -> Deal | None:
        """The first seed whose hand brings the rule up on every legal line of the learner,
        with its proof; None if no seed tried does."""
        for seed in self.candidates():
            proof = self.prove(seed)
            if proof.holds:
                return Deal.proved(seed, proof, self.fingerprint)
        return None

    @property
    def tries(self) -> int:
        return GUIDED_TRIES_STACKED if self.dealer is not None else GUIDED_TRIES


@dataclass(frozen=True)
class Deal:
    """A stored deal: the seed, whether the rule comes up before the hand is over on every
    line (else on some only in the trace told when it is over), the fingerprints it was
    proved under and what the proof covered (:meth:`Exploration.to_dict`: lines and
    decisions; empty for a deal stored before proofs were)."""

    seed: int
    during: bool
    hand: str
    engine: str
    proof: dict[str, int] = field(default_factory=dict)

    @classmethod
    def proved(cls, seed: int, proof: Exploration, hand: str) -> Deal:
        return cls(seed, proof.during, hand, engine_fingerprint(), proof.to_dict())

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "during": self.during,
            "hand": self.hand,
            "engine": self.engine,
            "proof": self.proof,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        proof = {str(k): int(v) for k, v in data.get("proof", {}).items()}
        return cls(
            int(data["seed"]), bool(data["during"]), str(data["hand"]), str(data["engine"]), proof
        )


class DealsError(Exception):
    """A stored deal is missing or no longer right: the message says which and what to run."""


@dataclass
class Deals:
    """``content/guided.json``: guided hand key → rule set → :class:`Deal`."""

    path: Path
    deals: dict[str, dict[str, Deal]] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> Deals:
        if not path.is_file():
            return cls(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            deals = {
                key: {preset: Deal.from_dict(d) for preset, d in presets.items()}
                for key, presets in data["deals"].items()
            }
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise DealsError(
                f"{path.name} is not a file of guided deals ({error}): run `{REFRESH} --all` to "
                "make it again"
            ) from None
        return cls(path, deals)

    def write(self) -> None:
        data = {
            "about": (
                "The deals of content/lessons.txt's guided hands, found by `manage.py "
                "findguided`: do not edit by hand."
            ),
            "deals": {
                key: {preset: self.deals[key][preset].to_dict() for preset in sorted(presets)}
                for key, presets in sorted(self.deals.items())
            },
        }
        self.path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    def checked(self, setup: Setup) -> int:
        """The stored seed of ``setup``: its stored proof if made under the engine as it is,
        else proved again; DealsError if there is none for the hand as the lesson now sets
        it or none proved (an old file's), or its hand no longer brings the rule up on every
        line."""
        where = f"{self.path.name} has no deal for it under {setup.preset}"
        deal = self.deals.get(setup.key, {}).get(setup.preset)
        if deal is not None and deal.hand != setup.fingerprint:
            where = f"the guided hand changed since its deal under {setup.preset} was found"
            deal = None
        if deal is not None and not deal.proof:
            where = f"its deal under {setup.preset} was found before every line was proved"
            deal = None
        if deal is None:
            raise DealsError(f"{where}: run `{REFRESH} {setup.key}`")
        if deal.engine == engine_fingerprint():
            return deal.seed
        proof = setup.prove(deal.seed)
        if not proof.holds:
            missed = ", ".join(_said(a) for a in proof.missed) or "whatever he does"
            raise DealsError(
                f"the stored deal (seed {deal.seed}) no longer brings {setup.rule!r} up under "
                f"{setup.preset} on every line of the learner (the engine changed since it was "
                f"found; it misses when he plays {missed}): run `{REFRESH} {setup.key}`"
            )
        return deal.seed

    def stale(self, setup: Setup) -> bool:
        """Whether ``setup``'s stored deal holds but was proved under another engine: its
        proof is made again and stored, so that the loader need not make it."""
        deal = self.deals.get(setup.key, {}).get(setup.preset)
        return deal is not None and deal.engine != engine_fingerprint()

    def store(self, setup: Setup, deal: Deal) -> None:
        self.deals.setdefault(setup.key, {})[setup.preset] = deal

    def keep_only(self, setups: Iterable[Setup]) -> None:
        """Forget the deals of guided hands and rule sets the course no longer has."""
        wanted = {(s.key, s.preset) for s in setups}
        self.deals = {
            key: kept
            for key, presets in self.deals.items()
            if (kept := {p: d for p, d in presets.items() if (key, p) in wanted})
        }


@cache
def _prove(setup: Setup, seed: int) -> Exploration:
    """Remembered for the process, as the engine's answer does not change while it runs: a
    test session loads the content many times, and pays for each deal's proof once."""
    return prove(setup.game, setup.preset, setup.players, seed, setup.rule, guided=setup.guided)


def _said(action: Action) -> str:
    """The learner's action on a line that misses the rule, in a few words: "play", "JC"."""
    if action.kind == "play":
        return action.cards[0] + (" calling Pam, be civil" if action.civil else "")
    thrown = f" throwing out {' '.join(action.cards)}" if action.cards else ""
    return f"{action.choice}{thrown}"


@cache
def engine_fingerprint() -> str:
    """A digest of the engine's code and of the guided-hand check (``games/loo``,
    ``games/guided.py``): a stored deal found under another engine is told as such when it
    fails. Computed once a process."""
    games = Path(__file__).resolve().parents[2] / "games"
    digest = hashlib.sha256()
    for path in sorted([*games.joinpath("loo").rglob("*.py"), games / "guided.py"]):
        digest.update(str(path.relative_to(games)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def search_all(
    deals: Deals,
    setups: list[Setup],
    keys: set[str] | None,
    report: Callable[[Setup, Deal], None] | None = None,
) -> list[Setup]:
    """Find and store the deals of ``setups`` (only those of the hands ``keys``, if given;
    else those with no stored deal or whose deal fails its check). Returns the setups for
    which no seed tried brings the rule up."""
    failed = []
    for setup in setups:
        if keys is not None:
            if setup.key not in keys:
                continue
        else:
            try:
                seed = deals.checked(setup)
            except DealsError:
                pass
            else:
                if deals.stale(setup):
                    deals.store(setup, Deal.proved(seed, setup.prove(seed), setup.fingerprint))
                continue
        deal = setup.search()
        if deal is None:
            failed.append(setup)
            continue
        deals.store(setup, deal)
        if report is not None:
            report(setup, deal)
    return failed
