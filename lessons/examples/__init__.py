"""Worked examples: a rule's example, written in ``content/rules.txt``, worked out by the engine.

An example is a JSON object. Its ``kind`` says what the engine is asked (RULES.md Part 4):

- ``legal`` (the default, for a position as in RULES.md 4.1): which cards may be played, and
  why — :func:`games.loo.play.legal`;
- ``trick``: who takes a trick (4.2) — :func:`games.loo.play.trick_winner`;
- ``flush``: which of several five-card flushes loos the board, and who is excused from paying
  (4.3) — :func:`games.loo.flushes.compare_flushes`;
- ``hand``: a whole hand dealt from a stacked pack and moved step by step — the options and the
  rules that shaped them, the public trace and the settlement (:class:`games.loo.hand.Hand`).

Each is worked out under every rule set that plays its game (or those named in ``presets``,
with the agreed ``options``). Nothing here decides a rule: the results, and the sentences that
explain them, are the engine's. A step of a hand that one rule set does not allow is part of the
example (that is where the sources disagree); an example the engine cannot work out under any
rule set is refused with :class:`ExampleError`, whose message names the problem in one line.

The modules: :mod:`~lessons.examples.worked` (:func:`worked_example`), one per kind
(:mod:`~lessons.examples.legal`, :mod:`~lessons.examples.trick`, :mod:`~lessons.examples.flush`,
:mod:`~lessons.examples.hand` with its :mod:`~lessons.examples.steps`), and what they share
(:mod:`~lessons.examples.base`).
"""

from lessons.examples.base import ExampleError, WorkedExample, seat_label
from lessons.examples.flush import FlushExample
from lessons.examples.hand import HandExample, HandRow
from lessons.examples.legal import LegalExample
from lessons.examples.steps import IRREGULAR_WORDS, Step
from lessons.examples.trick import TrickExample
from lessons.examples.worked import KINDS, worked_example

__all__ = [
    "IRREGULAR_WORDS",
    "KINDS",
    "ExampleError",
    "FlushExample",
    "HandExample",
    "HandRow",
    "LegalExample",
    "Step",
    "TrickExample",
    "WorkedExample",
    "seat_label",
    "worked_example",
]
