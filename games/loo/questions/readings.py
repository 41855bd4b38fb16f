"""Questions whose answer rests on a reading (issue 25, finding 11).

Where a text is unclear, a preset's option has the basis ``reading`` (RULES.md part 3, an
A-number in its note). A question rests on that reading when the same question, asked under
the rule set with the option's other value, has another answer, or cannot be asked there at
all: a second reading of the text that is as defensible would grade the learner otherwise.
Such a question says so (an explanation naming the reading, under the rule the option
configures, which a page links to that rule's readings) and is ``disputed``: the trainer may
show it, marked, but a graded quiz never uses it.

A value the source is silent on (basis ``default``) is a reading too where RULES.md part 3
recommends it against another that is as defensible (:data:`SILENT`): a five-card lead where
the five-card section states no lead rule (A13), Pam or the ace (A6), when the britannica's
flush is shown (A29).

Decided mechanically, by each kind's :attr:`~.base.Kind.answer_under` (the answer the same
position has under other rules); from version 5 only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import cache
from typing import Final

from ..errors import LooError
from ..messages import msg
from ..play import RuleApplication
from ..rulesets import OPTION_BY_NAME, PRESETS, RuleSet, in_words
from .base import Kind, Question

#: Values of an option that no reading of the text defends, left out of the comparison: a
#: heads-up rule that never binds (hoffmann states one; A8 is about when), lead rules that bind
#: no lead (the britannica states them; A11 is about which leads).
NOT_A_READING: Final[Mapping[str, frozenset[str]]] = {
    "heads-up-threshold": frozenset({"n/a"}),
    "lead-scope-3c": frozenset({"none"}),
    "lead-scope-5c": frozenset({"none"}),
}


#: Options a preset sets by default, the source being silent, where RULES.md part 3 reads the
#: silence one way and another reading is as defensible: the reading's number, and each other
#: value with the options it changes as well. A13: whiteknuckle's and peel's five-card sections
#: state no lead rule at all, neither the first lead's nor trump after trick (the engine lends
#: them their three-card rules); A6: Pam, the highest trump, may be led instead of the ace
#: (E13); A29: the britannica says nothing of when a flush is shown.
SILENT: Final[Mapping[str, tuple[str, Mapping[str, Mapping[str, str]]]]] = {
    "lead-scope-5c": ("A13", {"none": {"trump-after-trick": "off"}}),
    "pam-ace-lead": ("A6", {"either": {}}),
    "flush-timing": ("A29", {"after-declaring": {}}),
}


def _bears_on(option: str, game: str) -> bool:
    """Whether ``option`` can change anything at ``game``: three-card options (``-3c``) bind
    three-card and Irish Loo, five-card ones (``-5c``) five-card and Irish Loo (the dealer
    facing one player), and flushes are five-card Loo's alone."""
    if option.endswith("-3c"):
        return game != "five-card"
    if option.endswith("-5c"):
        return game != "three-card"
    if option.startswith("flush-"):
        return game == "five-card"
    return True


@cache
def other_readings(
    preset: str, game: str, rules: RuleSet
) -> tuple[tuple[str, tuple[RuleSet, ...]], ...]:
    """Each option the preset sets by a reading that bears on ``game``, with the rule sets
    that read it otherwise (``rules`` with the option's other defensible values)."""
    if preset not in PRESETS:
        return ()
    found = []
    for name, setting in PRESETS[preset].settings.items():
        silent = setting.basis == "default" and name in SILENT
        if (setting.basis != "reading" and not silent) or not _bears_on(name, game):
            continue
        ours = str(rules.value(name))
        also: Mapping[str, Mapping[str, str]]
        if silent:
            also = SILENT[name][1]
        else:
            barred = NOT_A_READING.get(name, frozenset())
            also = {v: {} for v in OPTION_BY_NAME[name].values if v not in barred}
        changed = []
        for value, more in also.items():
            if value == ours:
                continue
            try:
                changed.append(rules.with_options({name: value, **more}))
            except LooError:
                continue  # a value these rules cannot combine with
        if changed:
            found.append((name, tuple(changed)))
    return tuple(found)


def rests_on(q: Question, kind: Kind, rules: RuleSet) -> tuple[str, ...]:
    """The options whose reading ``q``'s answer rests on: under another reading of one of
    them the same question has another answer, or cannot be asked."""
    answer_under = kind.answer_under
    if answer_under is None:
        return ()
    mine = set(q.answer)
    resting = []
    for name, others in other_readings(q.rules, q.game, rules):
        for other in others:
            try:
                theirs = answer_under(q, other)
            except LooError:
                theirs = None  # the position cannot be reached under that reading
            if theirs is None or set(theirs) != mine:
                resting.append(name)
                break
    if kind.reads is not None and q.rules in PRESETS:
        resting += [name for name in kind.reads(q) if name not in resting]
    return tuple(resting)


def with_readings(q: Question, kind: Kind, rules: RuleSet) -> Question:
    """``q`` with the readings its answer rests on, each said in an explanation."""
    resting = rests_on(q, kind, rules)
    if not resting:
        return q
    said = tuple(
        RuleApplication(
            OPTION_BY_NAME[name].rule,
            msg(
                "question.rests-on-reading",
                rule=OPTION_BY_NAME[name].rule,
                reading=in_words(_note(q.rules, name)),
            ),
        )
        for name in resting
    )
    return dataclasses.replace(q, explanations=q.explanations + said, readings=resting)


def _note(preset: str, option: str) -> str:
    """What the preset's note says of the option's basis, or where it says nothing of the
    reading (a silent source's default), the reading's number in RULES.md part 3."""
    note = PRESETS[preset].basis(option).note
    if option in SILENT and SILENT[option][0] not in note:
        return f"{note}; {SILENT[option][0]}" if note else SILENT[option][0]
    return note
