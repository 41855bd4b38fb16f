"""The trainer's door to the engine's question bank (``games.loo.questions``).

Everything the site asks of the bank goes through here: which kinds there are, which rules
each kind can ask about under a rule set and game (:func:`coverage`), a question for a
:class:`Drill` (what the learner chose to practise, through ``question_for``), the question a
stored row stands for (:func:`remake`), and the rule a question exercises (:func:`topic`).

A question is reproducible from its identity (kind, rule set, game, target rule, seed and the
generator's version): that identity is all the site stores, and the question, answer
included, is made again from it on the server whenever it is needed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from games.loo import catalogue, questions
from games.loo.catalogue import UnknownRule
from games.loo.questions import Question
from games.loo.rulesets import GAME_NAMES, PRESETS

#: A drill's scope: any rule, a group of the catalogue, or one rule.
ANY = "any"
GROUP = "group:"
RULE = "rule:"


def kind_name(kind: str) -> str:
    """The kind in a few words (its title in the engine's registry); a kind the engine no
    longer makes, from its name."""
    found = questions.KIND_BY_NAME.get(kind)
    return found.title if found is not None else kind.replace("-", " ").capitalize()


def kinds() -> tuple[str, ...]:
    """The kinds of question the engine makes."""
    return tuple(questions.KINDS)


def play_kinds() -> tuple[str, ...]:
    """The kinds asked when the learner names none: all but ``source``, which asks about the
    texts rather than the play (as ``question_for`` does)."""
    return tuple(k.name for k in questions.REGISTRY if k.about_play)


def topic(q: Question) -> str:
    """The rule the question exercises, which the learner's record counts it under."""
    return q.topic or q.rule or (q.explanations[0].rule if q.explanations else "")


def coverage(preset: str, game: str) -> dict[str, tuple[str, ...]]:
    """For each kind, the rule ids it can ask about under ``preset`` at ``game``."""
    return questions.coverage(preset, game)


def remake(
    kind: str,
    preset: str,
    game: str,
    rule: str | None,
    seed: int,
    *,
    position: dict[str, Any] | None = None,
    card: str | None = None,
    version: int = questions.VERSION,
) -> Question:
    """The question of this identity, made again (the engine's own function) by the
    generator of ``version``: dealt from the seed, or asked about a lesson's own
    ``position``."""
    if position is not None:
        return questions.question_at(
            kind,
            preset,
            game=game,
            position=position,
            rule=rule,
            card=card,
            seed=seed,
            version=version,
        )
    return questions.question(kind, preset, game=game, rule=rule, seed=seed, version=version)


def games_of(preset: str) -> tuple[str, ...]:
    return tuple(PRESETS[preset].rules.games)


def places() -> tuple[tuple[str, str], ...]:
    """Every (rule set, game) a drill may be set to."""
    return tuple((preset, game) for preset in PRESETS for game in games_of(preset))


def kind_places(kind: str) -> tuple[tuple[str, str], ...]:
    """The (rule set, game) pairs where ``kind`` asks about some rule."""
    return tuple((p, g) for p, g in places() if coverage(p, g).get(kind))


def only_where(wanted: tuple[tuple[str, str], ...]) -> str:
    """Where something is found, when not everywhere a drill may be set, in a few words
    ("under Hoffmann (1909) and Peel (1891) only", "at five-card Loo only"); "" when it is
    found everywhere. (A kind of question, or a game: what the trainer's chooser marks.)"""
    everywhere = places()
    if set(wanted) >= set(everywhere):
        return ""
    if not wanted:
        return "nowhere yet"
    presets = [p for p in PRESETS if all((p, g) in wanted for g in games_of(p))]
    if presets and {(p, g) for p, g in everywhere if p in presets} == set(wanted):
        return f"under {_and([PRESETS[p].title for p in presets])} only"
    games = [g for g in dict.fromkeys(g for _, g in everywhere) if _at_all(wanted, g)]
    if {(p, g) for p, g in everywhere if g in games} == set(wanted):
        return f"at {_and([GAME_NAMES[g] for g in games])} only"
    by_preset = [
        f"{PRESETS[p].title} at {_and([GAME_NAMES[g] for g in games_of(p) if (p, g) in wanted])}"
        for p in PRESETS
        if any(q == p for q, _ in wanted)
    ]
    return f"under {'; '.join(by_preset)} only"


def _at_all(wanted: tuple[tuple[str, str], ...], game: str) -> bool:
    """Whether ``game`` is in ``wanted`` under every rule set that has it."""
    return all((p, game) in wanted for p in PRESETS if game in games_of(p))


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def scope_rules(scope: str) -> tuple[str, ...] | None:
    """The rule ids a scope stands for (None: any rule). Raises ``UnknownRule`` for a rule
    outside the catalogue and ``KeyError`` for an unknown group or scope."""
    if scope == ANY:
        return None
    if scope.startswith(GROUP):
        group = scope[len(GROUP) :]
        if group not in dict(catalogue.GROUPS):
            raise KeyError(group)
        return tuple(r.id for r in catalogue.rules() if r.group == group)
    if scope.startswith(RULE):
        return (catalogue.rule(scope[len(RULE) :]).id,)
    raise KeyError(scope)


def scope_name(scope: str) -> str:
    """A scope in words, to follow "practising" or "a question about": "any rule", "the rules
    of following", "“follow suit if you can”"."""
    if scope.startswith(GROUP):
        label = dict(catalogue.GROUPS).get(scope[len(GROUP) :], scope)
        return f"the rules of {label[:1].lower()}{label[1:]}"
    if scope.startswith(RULE):
        try:
            return f"“{catalogue.rule(scope[len(RULE) :]).name}”"
        except UnknownRule:
            return scope
    return "any rule"


@dataclass(frozen=True)
class Drill:
    """What the learner chose to practise: a scope (any rule, a group, a rule), perhaps one
    kind of question, under a rule set at a game. Build it through the trainer's form, which
    checks every part."""

    scope: str
    preset: str
    game: str
    #: One kind of question, or "" for any kind about the play.
    kind: str = ""

    @property
    def rules(self) -> tuple[str, ...] | None:
        return scope_rules(self.scope)

    @property
    def name(self) -> str:
        return scope_name(self.scope)

    @property
    def kinds(self) -> tuple[str, ...]:
        return (self.kind,) if self.kind else play_kinds()

    def askable(self) -> tuple[str, ...]:
        """The rules of the scope that the drill's kinds can ask about here."""
        wanted = self.rules
        table = coverage(self.preset, self.game)
        covered = {r for k in self.kinds for r in table.get(k, ())}
        return tuple(r for r in sorted(covered) if wanted is None or r in wanted)

    def ask(self, seed: int) -> Question:
        """A question for this drill; raises ``QuestionError`` if none can be made."""
        return questions.question_for(
            self.preset, self.game, rules=self.rules, kinds=self.kinds, seed=seed
        )

    def pick(self, seed: int) -> tuple[str, str | None]:
        """The kind and the target rule (None: any) of :meth:`ask`'s question for ``seed``,
        without making it; raises ``QuestionError`` if no kind asks about the drill's rules."""
        return questions.pick(self.preset, self.game, rules=self.rules, kinds=self.kinds, seed=seed)


@cache
def fingerprint() -> str:
    """A digest of the engine that makes the questions (``games/loo``: its code and its data
    files, the catalogue and the coverage among them): a question kept as one engine made it
    is read back only by the same engine. Computed once a process."""
    engine = Path(questions.__file__).resolve().parents[1]
    files = sorted(p for p in engine.rglob("*") if p.suffix in (".py", ".json"))
    digest = hashlib.blake2b(digest_size=8)
    for path in files:
        digest.update(path.relative_to(engine).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
