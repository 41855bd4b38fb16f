"""``content/lessons.txt``: the course's units, lessons and steps, checked against the engine
before anything is written.

The file is in the format of the other content files (:mod:`lessons.content`); its header
comment documents the blocks. Each ``[exercise]``, ``[guided-hand]`` and ``[check]`` belongs
to the ``[lesson]`` above it. The loader refuses, with ``content/lessons.txt:<line>`` and what
is wrong:

- an unknown unit, rule, glossary term, passage, rule set, game or question kind;
- an exercise whose rule does not bind under a rule set the lesson is offered for (in its
  authored position; or, generated, a rule its kind cannot ask about there);
- a guided hand in which the rule never comes up when the hand is played sensibly
  (:func:`games.guided.rule_comes_up`, under each rule set: the seeds found are stored);
- a check about rules no question can ask about there.

The engine answers every exercise; the file never holds an answer.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db.models import ProtectedError

from games.guided import rule_comes_up
from games.loo import catalogue
from games.loo.catalogue import UnknownRule
from games.loo.questions import AUTHORED_KINDS, KINDS, QuestionError, coverage, question_at
from games.loo.rulesets import GAMES, PRESETS, RuleSet
from lessons import markup
from lessons.content import Block, ContentError, check_markup, parse, sync
from lessons.course.models import Lesson, Step, StepKind, Unit

#: How many seeds a guided hand may try under each rule set before the loader gives up.
GUIDED_TRIES = 200

#: The kinds a check asks when it names none: all but ``source`` (as the trainer does).
PLAY_KINDS = tuple(k for k in KINDS if k != "source")


@dataclass
class LessonContent:
    block: Block
    unit: str
    presets: list[str]
    quotes: list[tuple[str, str]]
    steps: list[tuple[Block, dict[str, Any]]]


@dataclass
class Course:
    units: list[Block]
    lessons: list[LessonContent]
    #: The file, as messages name it.
    where: str = "content/lessons.txt"

    def counts(self) -> dict[str, int]:
        return {
            "units": Unit.objects.count(),
            "lessons": Lesson.objects.count(),
            "lesson steps": Step.objects.count(),
        }

    def save(self, resolver: markup.Resolver) -> None:
        """Write the course (inside the caller's transaction): rows updated in place by
        their keys, the rest removed."""
        units = []
        for position, b in enumerate(self.units, 1):
            unit = Unit(slug=b.id, position=position, title=b.get("title"), intro=b.body)
            unit.render(resolver)
            units.append(unit)
        sync(Unit, units, lambda u: u.slug)
        lessons, steps = [], []
        for position, lc in enumerate(self.lessons, 1):
            b = lc.block
            lesson = Lesson(
                slug=b.id,
                unit_id=lc.unit,
                position=position,
                title=b.get("title"),
                game=b.get("game"),
                teaches=b.listed("teaches"),
                quotes=[list(q) for q in lc.quotes],
                presets=lc.presets,
                differ=b.get("differ"),
                body=b.body,
            )
            lesson.render(resolver)
            lessons.append(lesson)
            for n, (sb, data) in enumerate(lc.steps, 1):
                steps.append(Step(key=sb.id, lesson_id=b.id, position=n, kind=sb.kind, data=data))
        try:
            sync(Lesson, lessons, lambda lesson: lesson.slug)
        except ProtectedError as error:
            # A lesson given to a class as an assignment (lessons.quizzes) is kept until the
            # assignment goes: say so rather than lose the class's work.
            gone = sorted({str(getattr(o, "lesson_id", o)) for o in error.protected_objects})
            raise ContentError(
                self.where,
                0,
                f"the lesson {', '.join(repr(g) for g in gone)} is no longer in the file, but a "
                "class has it as an assignment: keep the lesson, or delete the assignment first",
            ) from None
        sync(Step, steps, lambda s: s.key)


def read_course(
    text: str, where: str, resolver: markup.Resolver, passages: set[tuple[str, str]]
) -> Course:
    """Parse and check ``lessons.txt``; raises ContentError at the first problem."""
    blocks = parse(text, where, "lessons")
    units: dict[str, Block] = {}
    lessons: list[LessonContent] = []
    seen: dict[str, int] = {}
    for b in blocks:
        if b.id in seen:
            raise b.error(f"duplicate id {b.id!r} (first used on line {seen[b.id]})")
        seen[b.id] = b.line
        if b.kind == "unit":
            b.require("title")
            check_markup(b, resolver)
            units[b.id] = b
        elif b.kind == "lesson":
            lessons.append(_lesson(b, units, resolver, passages))
        else:
            if not lessons:
                raise b.error(f"[{b.kind} {b.id}] must follow the [lesson] it belongs to")
            lesson = lessons[-1]
            lesson.steps.append((b, _step(b, lesson)))
    for lesson in lessons:
        _check_steps(lesson)
    empty = [u for u in units if not any(lc.unit == u for lc in lessons)]
    if empty:
        raise units[empty[0]].error(f"the unit {empty[0]!r} has no lesson")
    return Course(list(units.values()), lessons, where)


def _lesson(
    b: Block, units: dict[str, Block], resolver: markup.Resolver, passages: set[tuple[str, str]]
) -> LessonContent:
    for name in ("unit", "title", "game", "teaches", "quotes"):
        b.require(name)
    unit = b.get("unit")
    if unit not in units:
        raise b.error(
            f"unknown unit {unit!r} (define it with [unit {unit}] above)", b.line_of("unit")
        )
    game = b.get("game")
    if game not in GAMES:
        raise b.error(f"unknown game {game!r} (games: {', '.join(GAMES)})", b.line_of("game"))
    presets = b.listed("presets") or [p for p in PRESETS if RuleSet.preset(p).supports(game)]
    for preset in presets:
        if preset not in PRESETS:
            raise b.error(
                f"unknown rule set {preset!r} (rule sets: {', '.join(PRESETS)})",
                b.line_of("presets"),
            )
        if not RuleSet.preset(preset).supports(game):
            raise b.error(f"the {preset} rules describe no {game} Loo", b.line_of("presets"))
    teaches = b.listed("teaches")
    _check_rules(b, teaches, "teaches")
    rendered = check_markup(b, resolver)
    linked = {
        target.removeprefix("rule:")
        for text, _ in b.body_lines
        for target, _words in markup.references(text)
        if target.startswith("rule:")
    }
    unlinked = [r for r in teaches if r not in linked]
    if unlinked:
        raise b.error(
            f"the lesson teaches {unlinked[0]!r} but does not link it: write [[rule:{unlinked[0]}]]"
            " in its explanation"
        )
    if not rendered.plain.strip():
        raise b.error(f"the lesson {b.id!r} needs an explanation (its body)")
    if b.get("differ"):
        differ = Block(b.file, b.line_of("differ"), b.kind, b.id)
        differ.body_lines = [(b.get("differ"), b.line_of("differ"))]
        check_markup(differ, resolver)
    quotes = []
    for ref in b.listed("quotes"):
        source, hash_, key = ref.partition("#")
        if source not in catalogue.SOURCE_IDS:
            raise b.error(f"unknown source id {source!r} in 'quotes:'", b.line_of("quotes"))
        if not hash_ or (source, key) not in passages:
            raise b.error(
                f"unknown passage id {key!r} of {source} in 'quotes:'", b.line_of("quotes")
            )
        quotes.append((source, key))
    if not 1 <= len(quotes) <= 3:
        raise b.error("a lesson quotes one to three passages", b.line_of("quotes"))
    return LessonContent(b, unit, presets, quotes, [])


def _check_rules(b: Block, ids: list[str], name: str) -> None:
    if not ids:
        raise b.error(f"'{name}:' names no rule", b.line_of(name))
    for rule_id in ids:
        if rule_id not in catalogue.rule_ids():
            raise b.error(
                f"unknown rule id {rule_id!r}: it is not in the engine's rule catalogue",
                b.line_of(name),
            )


def _step(b: Block, lesson: LessonContent) -> dict[str, Any]:
    game = lesson.block.get("game")
    if b.kind == StepKind.EXERCISE:
        return _exercise(b, game, lesson.presets)
    if b.kind == StepKind.GUIDED_HAND:
        return _guided_hand(b, game, lesson.presets)
    return _check(b, game, lesson.presets)


def _exercise(b: Block, game: str, presets: list[str]) -> dict[str, Any]:
    kind = b.require("kind")
    if kind not in KINDS:
        raise b.error(
            f"unknown question kind {kind!r} (kinds: {', '.join(KINDS)})", b.line_of("kind")
        )
    rule = b.require("rule")
    _check_rules(b, [rule], "rule")
    card = b.get("card") or None
    position = None
    if b.get("position"):
        line = b.line_of("position")
        if kind not in AUTHORED_KINDS:
            raise b.error(
                f"a {kind} exercise cannot have a position of its own (only "
                f"{', '.join(AUTHORED_KINDS)}): leave it out and the engine deals one",
                line,
            )
        try:
            position = json.loads(b.get("position"))
        except json.JSONDecodeError as error:
            raise b.error(
                f"the position is not valid JSON: {error.msg}", line + error.lineno - 1
            ) from None
        if not isinstance(position, dict):
            raise b.error("the position must be a JSON object", line)
    elif card:
        raise b.error("'card:' goes with a 'position:' of the exercise's own", b.line_of("card"))
    for preset in presets:
        if position is not None:
            try:
                question_at(
                    kind, preset, game=game, position=position, rule=rule, card=card, seed=0
                )
            except (QuestionError, UnknownRule) as error:
                raise b.error(f"under {preset}: {error}", b.line_of("position")) from None
        elif rule not in _coverage(preset, game, kind):
            raise b.error(
                f"a {kind} question cannot ask about {rule!r} under {preset} ({game} Loo): "
                "the rule does not bind in the positions it deals (give a position, another "
                "kind, or leave this rule set out of the lesson's 'presets:')",
                b.line_of("rule"),
            )
    return {"kind": kind, "rule": rule, "position": position, "card": card, "intro": b.body}


def _coverage(preset: str, game: str, kind: str) -> tuple[str, ...]:
    try:
        return coverage(preset, game)[kind]
    except QuestionError:
        return ()


def _guided_hand(b: Block, game: str, presets: list[str]) -> dict[str, Any]:
    rule = b.require("rule")
    _check_rules(b, [rule], "rule")
    b.require("banner")
    text = b.require("players")
    if not text.isdigit():
        raise b.error("'players:' must be a number", b.line_of("players"))
    players = int(text)
    seeds = {}
    for preset in presets:
        low, high = RuleSet.preset(preset).players(game)
        if not low <= players <= high:
            raise b.error(
                f"{game} Loo under {preset} is for {low} to {high} players, not {players}",
                b.line_of("players"),
            )
        seed = _find_seed(game, preset, players, rule, b.id)
        if seed is None:
            raise b.error(
                f"under {preset}, {rule!r} never comes up when the hand is played sensibly (in "
                f"{GUIDED_TRIES} deals): choose another rule, or leave {preset} out of the "
                "lesson's 'presets:'",
                b.line_of("rule"),
            )
        seeds[preset] = seed
    return {"rule": rule, "players": players, "banner": b.get("banner"), "seeds": seeds}


@cache
def _find_seed(game: str, preset: str, players: int, rule: str, prefix: str) -> int | None:
    """The public seed of a practice table (``PracticeTable.seed``) whose first hand brings
    ``rule`` up, searched from a number made of ``prefix``. The practice table deals from
    ``deal_seed(seed)``, keyed by the site's secret: the deal cannot be worked out from the
    content files, and a site with another key finds its own seeds when it loads them.
    Remembered for the process: the engine's answer does not change while it runs.

    A deal where the rule comes up during the hand, on a line the learner sees (his own
    card, a trick, a declaration), is searched first; failing one, a deal where it binds
    another player, which the marked trick log shows when the hand is over."""
    base = int(hashlib.sha256(prefix.encode()).hexdigest()[:8], 16) * 1000
    for during in (True, False):
        for seed in range(base + 1, base + GUIDED_TRIES + 1):
            if rule_comes_up(game, preset, players, seed, rule, during=during):
                return seed
    return None


def _check(b: Block, game: str, presets: list[str]) -> dict[str, Any]:
    rules = b.listed("rules")
    _check_rules(b, rules, "rules")
    kinds = b.listed("kinds") or list(PLAY_KINDS)
    for kind in kinds:
        if kind not in KINDS:
            raise b.error(
                f"unknown question kind {kind!r} (kinds: {', '.join(KINDS)})", b.line_of("kinds")
            )
    text = b.require("count")
    if not text.isdigit() or not 3 <= int(text) <= 5:
        raise b.error("'count:' must be 3, 4 or 5", b.line_of("count"))
    for preset in presets:
        for rule in rules:
            if not any(rule in _coverage(preset, game, kind) for kind in kinds):
                raise b.error(
                    f"no question of the kinds {', '.join(kinds)} can ask about {rule!r} under "
                    f"{preset} ({game} Loo)",
                    b.line_of("rules"),
                )
    return {"rules": rules, "kinds": kinds, "count": int(text)}


def _check_steps(lesson: LessonContent) -> None:
    b = lesson.block
    kinds = [sb.kind for sb, _ in lesson.steps]
    if StepKind.EXERCISE not in kinds:
        raise b.error(f"the lesson {b.id!r} has no [exercise]")
    if kinds.count(StepKind.GUIDED_HAND) > 1:
        raise b.error(f"the lesson {b.id!r} has more than one [guided-hand]")
    if kinds.count(StepKind.CHECK) != 1 or kinds[-1] != StepKind.CHECK:
        raise b.error(f"the lesson {b.id!r} must end with one [check]")
