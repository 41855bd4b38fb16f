"""``content/lessons.txt``: the course's units, lessons and steps, checked against the engine
before anything is written.

The file is in the format of the other content files (:mod:`lessons.content`); its header
comment documents the blocks. Each ``[exercise]``, ``[guided-hand]`` and ``[check]`` belongs
to the ``[lesson]`` above it. The loader refuses, with ``content/lessons.txt:<line>`` and what
is wrong:

- an unknown unit, rule, glossary term, passage, rule set, game or question kind;
- an exercise whose rule does not bind under a rule set the lesson is offered for (in its
  authored position; or, generated, a rule its kind cannot ask about there);
- a guided hand with no stored deal (``content/guided.json``, :mod:`lessons.course.deals`)
  under a rule set, or whose stored deal's proof that the rule comes up on every legal line
  of the learner (:func:`games.guided.prove`) was made for the hand as it was, or no longer
  holds under a changed engine (``manage.py findguided`` searches, the loader never does), or
  whose stacked deal (``deal:``) is not a deal: an unknown or repeated card, a hand of the
  wrong size, a seat missing or named twice; or whose ``declares:`` names no later lesson;
- a check about rules no question can ask about there.

The engine answers every exercise; the file never holds an answer.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db.models import ProtectedError

from games.guided import Guided
from games.loo import catalogue
from games.loo.cards import PACK, CardError, card
from games.loo.catalogue import UnknownRule
from games.loo.errors import LooError
from games.loo.hand import stack_pack
from games.loo.questions import (
    AUTHORED_KINDS,
    KINDS,
    REGISTRY,
    QuestionError,
    coverage,
    question_at,
)
from games.loo.rng import rng_for
from games.loo.rulesets import DEFAULT_PRESET, GAMES, HAND_SIZE, PRESETS, RuleSet
from games.loo.table import STARTS, Table, TableConfig
from games.naming import SEAT_NAMES
from games.practice.guidance import ASKS
from lessons import markup
from lessons.content import Block, ContentError, check_markup, parse, sync
from lessons.course.deals import FILE, Deals, DealsError, Setup
from lessons.course.models import Lesson, Step, StepKind, Unit

#: The kinds a check asks when it names none: all but ``source`` (as the trainer does).
PLAY_KINDS = tuple(k.name for k in REGISTRY if k.about_play)


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
    text: str,
    where: str,
    resolver: markup.Resolver,
    passages: set[tuple[str, str]],
    deals_path: Path,
) -> Course:
    """Parse and check ``lessons.txt``, its guided hands' deals read from ``deals_path``
    (``guided.json`` in the content folder); raises ContentError at the first problem."""
    try:
        deals = Deals.read(deals_path)
    except DealsError as error:
        raise ContentError(str(Path(where).parent / FILE), 0, str(error)) from None
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
            lesson.steps.append((b, _step(b, lesson, deals)))
    for lesson in lessons:
        _check_steps(lesson)
        _check_declares(lesson, [lc.block.id for lc in lessons])
    empty = [u for u in units if not any(lc.unit == u for lc in lessons)]
    if empty:
        raise units[empty[0]].error(f"the unit {empty[0]!r} has no lesson")
    return Course(list(units.values()), lessons, where)


def _check_declares(lesson: LessonContent, order: list[str]) -> None:
    """A guided hand that declares for the learner names the lesson that teaches declaring,
    a later one (the table's line sends him there)."""
    for b, data in lesson.steps:
        taught = data.get("declares") if b.kind == StepKind.GUIDED_HAND else None
        if not taught:
            continue
        if taught not in order:
            raise b.error(f"'declares:' names no lesson {taught!r}", b.line_of("declares"))
        if order.index(taught) <= order.index(lesson.block.id):
            raise b.error(
                f"'declares:' names {taught!r}, which does not come after this lesson: a hand "
                "declares for the learner only before the lesson that teaches declaring",
                b.line_of("declares"),
            )


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
    presets = _presets(b, game)
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


def _presets(b: Block, game: str) -> list[str]:
    """The rule sets a lesson is offered for: its ``presets:``, else every one with the game."""
    presets = b.listed("presets") or [p for p in PRESETS if RuleSet.preset(p).supports(game)]
    for preset in presets:
        if preset not in PRESETS:
            raise b.error(
                f"unknown rule set {preset!r} (rule sets: {', '.join(PRESETS)})",
                b.line_of("presets"),
            )
        if not RuleSet.preset(preset).supports(game):
            raise b.error(f"the {preset} rules describe no {game} Loo", b.line_of("presets"))
    return presets


def _check_rules(b: Block, ids: list[str], name: str) -> None:
    if not ids:
        raise b.error(f"'{name}:' names no rule", b.line_of(name))
    for rule_id in ids:
        if rule_id not in catalogue.rule_ids():
            raise b.error(
                f"unknown rule id {rule_id!r}: it is not in the engine's rule catalogue",
                b.line_of(name),
            )


def _step(b: Block, lesson: LessonContent, deals: Deals) -> dict[str, Any]:
    game = lesson.block.get("game")
    if b.kind == StepKind.EXERCISE:
        return _exercise(b, game, lesson.presets)
    if b.kind == StepKind.GUIDED_HAND:
        return _guided_hand(b, game, lesson.presets, deals)
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


def _guided_hand(b: Block, game: str, presets: list[str], deals: Deals) -> dict[str, Any]:
    setups, data = _guided_setups(b, game, presets)
    seeds = {}
    for setup in setups:
        try:
            seeds[setup.preset] = deals.checked(setup)
        except DealsError as error:
            raise b.error(f"under {setup.preset}: {error}", b.line_of("rule")) from None
    return {**data, "seeds": seeds}


def _guided_setups(b: Block, game: str, presets: list[str]) -> tuple[list[Setup], dict[str, Any]]:
    """A guided hand's table under each rule set offered (what its deal is found for), and
    the step's data but its seeds."""
    rule = b.require("rule")
    _check_rules(b, [rule], "rule")
    b.require("banner")
    text = b.require("players")
    if not text.isdigit():
        raise b.error("'players:' must be a number", b.line_of("players"))
    players = int(text)
    start = b.get("start") or "fresh"
    if start not in STARTS:
        raise b.error(f"unknown start {start!r} (starts: {', '.join(STARTS)})", b.line_of("start"))
    laws = b.get("laws")
    if laws not in ("", "yes", "no"):
        raise b.error("'laws:' must be yes or no", b.line_of("laws"))
    options = _options(b)
    declares = b.get("declares")
    trumped = b.get("trumped")
    if trumped not in ("", "yes", "no"):
        raise b.error("'trumped:' must be yes or no", b.line_of("trumped"))
    asks = b.get("asks")
    if asks not in ("", *ASKS):
        raise b.error(f"'asks:' must be {' or '.join(ASKS)}, not {asks!r}", b.line_of("asks"))
    deal = _deal(b, game, players) if b.get("deal") else None
    setups, packs, starts = [], {}, {}
    for preset in presets:
        low, high = RuleSet.preset(preset).players(game)
        if not low <= players <= high:
            raise b.error(
                f"{game} Loo under {preset} is for {low} to {high} players, not {players}",
                b.line_of("players"),
            )
        guided = Guided.of(
            start=start,
            options=options,
            laws=laws == "yes",
            declares=bool(declares),
            trumped=trumped == "yes",
        )
        try:
            rules = guided.rules(preset)
        except LooError as error:
            raise b.error(f"under {preset}: {error}", b.line_of("options")) from None
        own_start = _start_for(game, rules, players, start, rule)
        if own_start != start:
            starts[preset] = own_start
            guided = dataclasses.replace(guided, start=own_start)
        dealer = None
        if deal is not None:
            dealer = deal[0]
            pack = _stack(b, game, rules, players, guided, deal, b.id)
            guided = dataclasses.replace(guided, pack=pack, start=own_start)
            packs[preset] = list(pack)
        setups.append(Setup(b.id, game, preset, players, rule, guided, dealer))
    data: dict[str, Any] = {
        "rule": rule,
        "players": players,
        "banner": b.get("banner"),
    }
    # Only what the block sets: a plain guided hand's data reads as before.
    if packs:
        data["packs"] = packs
    if start != "fresh":
        data["start"] = start
    if starts:
        data["starts"] = starts
    if options:
        data["options"] = options
    if laws == "yes":
        data["laws"] = True
    if declares:
        data["declares"] = declares
    if trumped == "yes":
        data["trumped"] = True
    if asks:
        data["asks"] = asks
    return setups, data


def guided_setups(text: str, where: str) -> list[tuple[Block, Setup]]:
    """Every guided hand of ``lessons.txt`` under each rule set its lesson offers, for the
    search of their deals (``manage.py findguided``). Checks only what the setups need: the
    full check is the loader's (:func:`read_course`), which runs after a search."""
    found: list[tuple[Block, Setup]] = []
    game, presets = "", []
    for b in parse(text, where, "lessons"):
        if b.kind == "lesson":
            game = b.get("game")
            if game not in GAMES:
                raise b.error(f"unknown game {game!r}", b.line_of("game"))
            presets = _presets(b, game)
        elif b.kind == StepKind.GUIDED_HAND:
            setups, _ = _guided_setups(b, game, presets)
            found.extend((b, setup) for setup in setups)
    return found


def _start_for(game: str, rules: RuleSet, players: int, start: str, rule: str) -> str:
    """How a guided hand's table begins under ``rules``: as the lesson says, but where that
    first deal would be peel's single deal (one card each, no declaring and no tricks: A39)
    and the lesson is not about the single, as after a hand with a loo, so that the first hand
    is an ordinary deal in which the rule can come up."""
    if rule == "single":
        return start
    probe = Table(TableConfig(game, rules, players, "probe", start=start)).deal()
    return "after-loo" if probe.outcome == "single-deal" else start


def _options(b: Block) -> dict[str, str]:
    """``options:``: agreed variations on every rule set offered, ``name=value`` (RULES.md's
    option names), comma separated."""
    options = {}
    for item in b.listed("options"):
        name, eq, value = item.partition("=")
        if not eq or not name.strip() or not value.strip():
            raise b.error(
                f"an option is written name=value (such as club-law=on), not {item!r}",
                b.line_of("options"),
            )
        options[name.strip()] = value.strip()
    if options:
        try:
            RuleSet.preset(DEFAULT_PRESET).with_options(options)
        except LooError as error:
            raise b.error(f"'options:': {error}", b.line_of("options")) from None
    return options


#: A stacked deal: the dealer's seat, each seat's cards (seat 0 is the learner), the miss
#: (three-card Loo) and the turn-up.
Deal = tuple[int, tuple[tuple[str, ...], ...], tuple[str, ...], str]


def _deal(b: Block, game: str, players: int) -> Deal:
    """Read ``deal:``: a part for each seat from the learner's round to the left (``you``,
    ``west``, ``north``, ...: the practice table's names), the dealer's marked
    ``(dealer)``, then ``miss`` (three-card Loo) and ``turn-up``, separated by ``;``:
    ``you 9H 4C 2D; west (dealer) KS QS 3H; ...; miss AH KH QH; turn-up 4H``."""
    line = b.line_of("deal")
    names = [n.lower() for n in SEAT_NAMES[:players]]
    size = HAND_SIZE[game]
    hands: dict[int, tuple[str, ...]] = {}
    miss: tuple[str, ...] = ()
    turn_up = ""
    dealer = None
    seen: dict[str, str] = {}

    def cards(words: list[str], who: str) -> tuple[str, ...]:
        codes = []
        for word in words:
            try:
                code = card(word).code
            except CardError as error:
                raise b.error(f"'deal:': {who}: {error}", line) from None
            if code in seen:
                raise b.error(
                    f"'deal:': {code} is dealt twice (to {seen[code]} and to {who})", line
                )
            seen[code] = who
            codes.append(code)
        return tuple(codes)

    for part in b.get("deal").split(";"):
        words = part.split()
        if not words:
            continue
        who = words[0].lower()
        rest = words[1:]
        if who == "turn-up":
            got = cards(rest, "the turn-up")
            if len(got) != 1:
                raise b.error("'deal:': the turn-up is one card", line)
            turn_up = got[0]
        elif who == "miss":
            if game != "three-card":
                raise b.error(f"'deal:': {game} Loo deals no miss", line)
            miss = cards(rest, "the miss")
            if len(miss) != size:
                raise b.error(f"'deal:': the miss is {size} cards, not {len(miss)}", line)
        elif who in names:
            seat = names.index(who)
            if seat in hands:
                raise b.error(f"'deal:': {who} is dealt twice", line)
            if rest[:1] == ["(dealer)"]:
                if dealer is not None:
                    raise b.error("'deal:': only one seat is the (dealer)", line)
                dealer = seat
                rest = rest[1:]
            hands[seat] = cards(rest, who)
            if len(hands[seat]) != size:
                raise b.error(f"'deal:': {who} is dealt {len(hands[seat])} cards, not {size}", line)
        else:
            raise b.error(
                f"'deal:': unknown part {who!r} (at {players} players: {', '.join(names)}, "
                "miss, turn-up)",
                line,
            )
    missing = [n for seat, n in enumerate(names) if seat not in hands]
    if missing:
        raise b.error(f"'deal:': no cards for {', '.join(missing)}", line)
    if dealer is None:
        raise b.error("'deal:': mark the dealer's seat with (dealer) after its name", line)
    if game == "three-card" and not miss:
        raise b.error("'deal:': a three-card deal names the miss", line)
    if not turn_up:
        raise b.error("'deal:': name the turn-up", line)
    return dealer, tuple(hands[seat] for seat in range(players)), miss, turn_up


def _stack(
    b: Block, game: str, rules: RuleSet, players: int, guided: Guided, deal: Deal, key: str
) -> tuple[str, ...]:
    """The pack that deals ``deal`` under ``rules``; the cards it does not name follow in an
    order shuffled from ``key``. Where the first hand deals no miss (a must without one), the
    miss's cards are the top of the stock."""
    dealer, hands, miss, turn_up = deal
    config = TableConfig(game, rules, players, "stack", start=guided.start)
    probe = Table(config).deal()
    with_miss = game == "three-card" and not (probe.must and rules.must_miss == "none")
    named = {c for h in hands for c in h} | set(miss) | {turn_up}
    rest = [c.code for c in PACK if c.code not in named]
    rng_for(key, "guided-stock").shuffle(rest)
    stock = list(miss) + rest if miss and not with_miss else rest
    try:
        return stack_pack(
            game, rules, players, dealer, hands, turn_up, miss if with_miss else None, stock
        )
    except LooError as error:  # pragma: no cover: _deal has refused what it could refuse
        raise b.error(f"'deal:': {error}", b.line_of("deal")) from None


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
