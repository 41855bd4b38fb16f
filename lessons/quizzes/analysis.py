"""Item analysis: an assignment's answers grouped by **what was asked**, never by a question's
number in an attempt (each attempt, and with variants each student, is asked questions of its
own: question 5 of one attempt and question 5 of the next are different questions).

A question is identified as the question bank makes it: its kind, the rule it exercises and
the position it shows. Each stored answer holds the identity the bank makes the question
again from (kind, rule set, game, target rule, seed, the generator's version); the engine
makes it again once per process, and its **fingerprint** (:attr:`Made.key`: a digest of the
kind, rule set, game, rule exercised, prompt, position, choices and answer) names it: two
seeds that happen to make the same question are one item, two different questions never
are. Only the :data:`MAX_REMADE` most asked stored questions are made again (each a few
milliseconds of the engine); an answer to any other still counts in the tables by kind and
rule and by rule (kind and rule are stored), as an item of its own (by its stored identity),
without its options.

For each item: how often it was asked (an answer given, or a question left blank in an
attempt that has ended), answered right, **partly right** (a "tick every choice" question
answered wrong with at least one right option ticked), left blank; each option with how
often it was ticked, and for a right option how often it was **left unticked**; the most
common wrong answers, named by what was ticked (a card, a seat, an amount). Then the same
figures by kind and rule, and by rule.

Three queries, whatever the number of answers: the answers are counted by the database,
grouped by stored question, response and grade.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Min, Q

from games.links import rule_name, rule_url
from lessons.quizzes.grades import whole_percent
from lessons.quizzes.models import Answer, Assignment, StaleAnswer
from lessons.trainer import bank
from lessons.trainer.presenting import Shown, shown

#: A stored question's identity; ``own``: the version of a teacher's own question it asks (its
#: seed only shuffles the choices), which is an item of its own whatever the seed.
IDENTITY = ("kind", "rules", "game", "rule", "seed", "version", "own")
#: The same, in the order the database groups answers by: the seed first, which tells nearly
#: every two questions apart at once (a third less time to count 58,000 answers on SQLite);
#: the topic (the rule exercised) is the same for every answer to one question, so it is not
#: grouped by.
GROUPED = ("seed", "version", "kind", "rules", "game", "rule", "own")

#: Distinct stored questions made again for their options (the most asked first). A quiz the
#: same for all asks one per question and attempt number; a quiz of a variant each, one per
#: student, question and attempt (20 students of a 50-question quiz: 1,000).
MAX_REMADE = 1000
#: Items shown with their options on the results page (the most asked first); the CSV has all.
ITEMS_SHOWN = 30
#: Wrong answers named for an item.
WRONG_NAMED = 3


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@functools.cache
def rule_title(rule: str) -> str:
    return capital(rule_name(rule)) if rule else "No rule"


@dataclass(frozen=True)
class Made:
    """A stored question made again: its fingerprint, the page's view of it (prompt, position,
    choices: nothing of the answer) and its answer."""

    key: str
    shown: Shown
    answer: frozenset[str]


def identify(kind: str, rules: str, game: str, topic: str, page: Shown, q: Any) -> str:
    """The fingerprint of a question: the same for the same question, whatever its seed."""
    content = [
        kind,
        rules,
        game,
        topic,
        page.prompt,
        q.position,
        [[c.id, c.label] for c in q.choices],
        sorted(q.answer),
    ]
    text = json.dumps(content, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


@functools.lru_cache(maxsize=4096)
def made_again(
    kind: str, rules: str, game: str, rule: str, seed: int, version: int, own: int | None = None
) -> Made | None:
    """The stored question of this identity, made again (once per process: the same question
    is asked of many students); None if the bank can no longer make it."""
    try:
        q = Answer(kind=kind, rules=rules, game=game, rule=rule, seed=seed, version=version)
        q.own_id = own
        made = q.to_engine()
    except StaleAnswer:
        return None
    page = shown(made)
    key = f"own-{own}" if own else identify(kind, rules, game, bank.topic(made), page, made)
    return Made(key, page, frozenset(made.answer))


def stored_key(identity: Sequence[Any]) -> str:
    """An item's name when its question cannot be made again: its stored identity's digest
    (prefixed "s-": never equal to a fingerprint)."""
    text = json.dumps(list(identity), default=str)
    return "s-" + hashlib.sha256(text.encode()).hexdigest()[:8]


# -- the figures -----------------------------------------------------------------------------------


@dataclass
class Tally:
    """Asked, answered, right and partly right; the share right of those asked."""

    asked: int = 0
    answered: int = 0
    right: int = 0
    partly: int = 0

    @property
    def blank(self) -> int:
        return self.asked - self.answered

    @property
    def wrong(self) -> int:
        return self.answered - self.right

    @property
    def percent(self) -> int:
        return whole_percent(self.right, self.asked)

    def add(self, other: Tally) -> None:
        self.asked += other.asked
        self.answered += other.answered
        self.right += other.right
        self.partly += other.partly


@dataclass
class About(Tally):
    """Figures about questions of a kind (empty: of any kind) exercising a rule."""

    kind: str = ""
    topic: str = ""

    @property
    def kind_name(self) -> str:
        return bank.kind_name(self.kind)

    @property
    def rule_name(self) -> str:
        return rule_title(self.topic)

    @property
    def rule_url(self) -> str:
        return rule_url(self.topic) if self.topic else ""


@dataclass
class OptionCount:
    """One option of an item as the page words it: whether it is (part of) the answer, how
    often it was ticked, and for a right option how often an answer left it unticked."""

    id: str
    text: str
    right: bool
    ticked: int = 0
    unticked: int = 0


@dataclass(frozen=True)
class WrongAnswer:
    """A wrong answer as it was given: what was ticked, in words, and for a "tick every
    choice" question the right options it left out."""

    ticked: str
    missed: str
    n: int


@dataclass
class Item(About):
    """One question as asked (see the module's docstring), and what the class answered: each
    response given, counted; its options' figures are worked out from them when read (the
    results page shows the most asked items' only)."""

    key: str = ""
    made: Made | None = None
    #: Stored questions counted here (more than one: seeds that made the same question).
    stored: int = 0
    #: Each response given (what was ticked) and whether it was right: how many times.
    given: Counter[tuple[frozenset[str], bool]] = field(default_factory=Counter)

    @property
    def prompt(self) -> str:
        return self.made.shown.prompt if self.made else ""

    @property
    def multiple(self) -> bool:
        return bool(self.made and self.made.shown.multiple)

    @functools.cached_property
    def options(self) -> dict[str, OptionCount]:
        """Each option of the question made again (none if it was not), in the page's order:
        how often it was ticked, and a right option how often left unticked."""
        if self.made is None:
            return {}
        answer = self.made.answer
        found = {c.id: OptionCount(c.id, c.text, c.id in answer) for c in self.made.shown.choices}
        for (ticked, _), n in self.given.items():
            for option in found.values():
                if option.id in ticked:
                    option.ticked += n
                elif option.right:
                    option.unticked += n
        return found

    @property
    def choices(self) -> list[OptionCount]:
        return list(self.options.values())

    @property
    def left_unticked(self) -> list[OptionCount]:
        """The right options some answers left unticked, the most often first."""
        found = [o for o in self.options.values() if o.right and o.unticked]
        return sorted(found, key=lambda o: -o.unticked)

    @property
    def common_wrong(self) -> list[WrongAnswer]:
        """The wrong answers given most often (at most :data:`WRONG_NAMED`), each named by
        what was ticked; ties in the order of the options."""
        if self.made is None:
            return []
        order = {option_id: i for i, option_id in enumerate(self.options)}

        def words(ids: Iterable[str]) -> str:
            texts = [self.options[i].text for i in sorted(ids, key=lambda i: order.get(i, 99))]
            return _and(texts)

        wrong: Counter[frozenset[str]] = Counter()
        for (ticked, correct), n in self.given.items():
            if not correct:
                wrong[ticked] += n
        given = sorted(
            wrong.items(),
            key=lambda kv: (-kv[1], sorted(order.get(i, 99) for i in kv[0])),
        )
        answer = self.made.answer
        return [
            WrongAnswer(
                words(ticked) or "nothing ticked",
                words(answer - ticked) if self.multiple and ticked & answer else "",
                n,
            )
            for ticked, n in given[:WRONG_NAMED]
        ]

    def count(self, response: list[str] | None, correct: bool | None, n: int) -> None:
        """``n`` answers of this response (None: left blank) and grade."""
        self.asked += n
        if response is None:
            return
        self.answered += n
        if correct:
            self.right += n
        if self.made is None:
            return
        ticked = frozenset(response)
        self.given[ticked, bool(correct)] += n
        if not correct and self.multiple and ticked & self.made.answer:
            self.partly += n


def _and(words: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


@dataclass
class KindRule(About):
    """The items of one kind about one rule (of any kind: one rule across the class, "Follow
    suit: 78% right over 45 questions"), counted together."""

    items: int = 0

    @property
    def label(self) -> str:
        return self.rule_name

    @property
    def url(self) -> str:
        return self.rule_url


@dataclass
class Analysis:
    items: list[Item]
    by_kind_rule: list[KindRule]
    by_rule: list[KindRule]
    #: Items whose question could not be made again (beyond MAX_REMADE, or stale).
    unmade: int = 0

    @property
    def shown_items(self) -> list[Item]:
        return self.items[:ITEMS_SHOWN]

    @property
    def more_items(self) -> int:
        return max(0, len(self.items) - ITEMS_SHOWN)


def asked(assignment: Assignment, students: Iterable[int], now: datetime) -> Any:
    """The assignment's questions asked of ``students``: answered, or left blank in an attempt
    that has ended (a blank in an attempt in progress may still be answered)."""
    return Answer.objects.filter(
        Q(answered__isnull=False)
        | Q(attempt__submitted__isnull=False)
        | Q(attempt__deadline__lte=now),
        attempt__assignment=assignment,
        attempt__student__in=students,
    )


def analyse(assignment: Assignment, students: Iterable[int], now: datetime) -> Analysis:
    """The item analysis of the assignment's answers by ``students`` (one query, after the
    questions are made again)."""
    counted = (
        asked(assignment, students, now)
        .values(*GROUPED, "response", "correct")
        .annotate(n=Count("pk"), stored_topic=Min("topic"))
        .order_by()
    )
    by_identity: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    asked_of: Counter[tuple[Any, ...]] = Counter()
    for r in counted:
        identity = tuple(r[f] for f in IDENTITY)
        by_identity[identity].append(r)
        asked_of[identity] += r["n"]
    # The most asked stored questions first (ties by identity, the same order every time; of
    # its fields only ``own`` may be null: an engine's question, counted as 0).
    ordered = sorted(
        by_identity.items(), key=lambda kv: (-asked_of[kv[0]], kv[0][:-1], kv[0][-1] or 0)
    )
    items: dict[str, Item] = {}
    unmade = 0
    for i, (identity, rows) in enumerate(ordered):
        made = made_again(*identity) if i < MAX_REMADE else None
        key = made.key if made else stored_key(identity)
        item = items.get(key)
        if item is None:
            topic = rows[0]["stored_topic"]
            item = items[key] = Item(key=key, kind=identity[0], topic=topic, made=made)
            unmade += made is None
        item.stored += 1
        for r in rows:
            item.count(r["response"], r["correct"], r["n"])
    listed = sorted(items.values(), key=lambda it: (-it.asked, it.percent, it.key))
    return Analysis(listed, _by_kind_rule(listed), _by_rule(listed), unmade)


def _by_kind_rule(items: Iterable[Item]) -> list[KindRule]:
    found: dict[tuple[str, str], KindRule] = {}
    for it in items:
        group = found.setdefault((it.kind, it.topic), KindRule(kind=it.kind, topic=it.topic))
        group.add(it)
        group.items += 1
    return sorted(found.values(), key=lambda g: (g.percent, g.kind_name, g.rule_name))


def _by_rule(items: Iterable[Item]) -> list[KindRule]:
    found: dict[str, KindRule] = {}
    for it in items:
        share = found.setdefault(it.topic, KindRule(topic=it.topic))
        share.add(it)
        share.items += 1
    return sorted(found.values(), key=lambda s: (s.percent, s.label))


# -- the CSV -------------------------------------------------------------------------------------

ITEM_HEADER = (
    "question id",
    "kind",
    "rule",
    "rule title",
    "question",
    "asked",
    "answered",
    "right",
    "partly right",
    "wrong",
    "blank",
    "percent right",
    "line",
    "option or answer",
    "is the answer",
    "count",
    "right option left unticked",
)


def item_rows(analysis: Analysis) -> Iterator[list[Any]]:
    """For each item: a "question" line of its figures, an "option" line per option (ticked,
    and for a right option left unticked), a "wrong answer" line per common wrong answer.
    Numbers are numbers; a cell that does not apply is blank."""
    for it in analysis.items:
        figures = [
            it.key,
            it.kind,
            it.topic,
            it.rule_name,
            it.prompt,
            it.asked,
            it.answered,
            it.right,
            it.partly if it.made else "",
            it.wrong,
            it.blank,
            it.percent,
        ]
        yield [*figures, "question", "" if it.made else "not made again", "", "", ""]
        for o in it.choices:
            unticked = o.unticked if o.right else ""
            yield [*figures, "option", o.text, "yes" if o.right else "no", o.ticked, unticked]
        for w in it.common_wrong:
            words = f"{w.ticked} (left unticked: {w.missed})" if w.missed else w.ticked
            yield [*figures, "wrong answer", words, "no", w.n, ""]
