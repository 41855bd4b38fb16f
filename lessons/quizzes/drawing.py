"""Drawing a quiz's questions: each from a seed derived from the quiz version's seed, the
student's variant, the question's place and the attempt, so that the same question is always
made again from what an answer stores (to show it, grade it and regrade it)."""

from __future__ import annotations

import hashlib
from typing import Any

from games.loo.catalogue import UnknownRule
from games.loo.questions import Question, QuestionError, question_for

#: Fresh seeds tried for one question before the attempt gives up (a seed's bounded search
#: finds no question about 1 time in 200 for some drills).
SEEDS_TO_TRY = 5
#: Disputed questions (their answer rests on a reading) passed over for one question before
#: the attempt gives up: a quiz about a rule the texts leave unclear may find many.
DISPUTED_TO_SKIP = 40


def derive_seed(*parts: Any) -> int:
    """A seed from the parts that identify a question of a quiz: always the same."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") % 10**12


def draw_question(
    ruleset: str,
    game: str,
    topics: list[str],
    kinds: list[str],
    seed: int,
    index: int,
    variant: Any = "all",
    draw: int = 1,
) -> Question:
    """The ``index``-th question (from 0) of a quiz version of rule set ``ruleset``, game
    ``game``, ``topics`` and ``kinds`` (none: any) and ``seed``, for ``variant`` (a student's
    pk, or "all" when every student gets the same questions) in attempt number ``draw``:
    each attempt draws its own questions (as Moodle does), so that the review of a blank
    first attempt does not hand the second its answers. The first attempt's seeds are
    those every earlier attempt was made with. Raises QuestionError.

    A question whose answer rests on a reading that another defensible reading would
    answer otherwise (``Question.disputed``, issue 25) is never asked in a graded quiz: the
    next seed is tried instead (up to :data:`DISPUTED_TO_SKIP` of them)."""
    error: Exception | None = None
    failed = skipped = 0
    attempt = 0
    while failed < SEEDS_TO_TRY and skipped <= DISPUTED_TO_SKIP:
        parts: tuple[Any, ...] = (seed, variant, index, attempt)
        made_from = derive_seed(*parts) if draw == 1 else derive_seed(*parts, f"attempt {draw}")
        attempt += 1
        try:
            made = question_for(
                ruleset,
                game,
                rules=topics or None,
                kinds=kinds or None,
                seed=made_from,
            )
        except (QuestionError, UnknownRule) as e:
            error = e
            failed += 1
            continue
        if not made.disputed:
            return made
        skipped += 1
        error = QuestionError(
            "every question found rests on a reading of the texts that another reading "
            "would answer otherwise, and a graded quiz asks none of those"
        )
    raise QuestionError(str(error))
