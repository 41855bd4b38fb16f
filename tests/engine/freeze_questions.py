"""Write a digest of what each question of the bank's current versions says: run before a
change that raises the bank's version, so that a test can prove the older versions are made
again exactly (``tests/engine/data/questions-v<N>.json``).

    python -m tests.engine.freeze_questions 4 > tests/engine/data/questions-v4.json

A digest covers what a graded answer means: the kind, the position shown, the choices (ids
and labels) and the answer. The prompt and explanations may be reworded without changing
what was asked and graded, so they are not part of it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator

from games.loo.questions import REGISTRY, Question, QuestionError, question
from games.loo.rulesets import PRESETS, RuleSet


def meaning(q: Question) -> str:
    d = q.to_dict()
    fields = ("kind", "game", "rules", "rule", "seed", "version", "position", "choices", "answer")
    kept = {k: d[k] for k in fields}
    return hashlib.sha256(json.dumps(kept, sort_keys=True).encode()).hexdigest()[:16]


def keys(version: int) -> Iterator[tuple[str, str, str, str, int]]:
    for kind in REGISTRY:
        if kind.since > version:
            continue
        rules_ = (None, *(() if kind.any_rule else kind.family(version)))
        for preset in PRESETS:
            rules = RuleSet.preset(preset)
            for game in rules.games:
                for rule in rules_:
                    for seed in (1, 2, 3) if rule is None else (1,):
                        yield kind.name, preset, game, rule or "", seed


def main(version: int) -> dict[str, str]:
    out = {}
    for kind, preset, game, rule, seed in keys(version):
        try:
            q = question(kind, preset, game=game, rule=rule or None, seed=seed, version=version)
        except QuestionError:
            continue
        out[f"{kind}|{preset}|{game}|{rule}|{seed}"] = meaning(q)
    return out


if __name__ == "__main__":
    json.dump(main(int(sys.argv[1])), sys.stdout, indent=0, sort_keys=True)
    sys.stdout.write("\n")
