"""The command line: ``python -m games.loo legal|winner|flush|presets|advise ...``.

Other tools call it, so its input and output are stable (docs/engine.md, "The rules engine and its
command line"). Bad input exits with status 2 and one line on stderr naming the problem.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import IO, NoReturn

from .authored import authored_position, cards_field, hands_field, trump_field
from .coach import SAMPLES, advise
from .errors import LooError
from .flushes import compare_flushes
from .play import legal, trick_winner
from .possible import check_play
from .questions import KINDS, VERSIONS, grade, question
from .rulesets import GAMES, OPTIONS, PRESETS, RuleSet, preset
from .simulate import simulate
from .view_json import view_from_dict


class InputError(Exception):
    """Bad input on the command line or in the position file."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise InputError(message)


def _read_json(path: str, stdin: IO[str]) -> dict[str, object]:
    try:
        if path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(
            f"invalid JSON in {path}: {e.msg} at line {e.lineno} column {e.colno}"
        ) from None
    if not isinstance(data, dict):
        raise InputError(f"{path} must hold a JSON object, not {type(data).__name__}")
    return data


def _fields(data: Mapping[str, object], required: Sequence[str], optional: Sequence[str]) -> None:
    unknown = sorted(set(data) - set(required) - set(optional))
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r} (expected: {', '.join(required)})")
    for name in required:
        if name not in data:
            raise InputError(f"missing field {name!r}")


def _rules(data: Mapping[str, object], flag: str | None) -> RuleSet:
    name = flag if flag is not None else data.get("rules")
    if name is None:
        raise InputError('no rule set: give --rules PRESET or a "rules" field')
    if not isinstance(name, str):
        raise InputError(f"field 'rules' must be a preset name, not {name!r}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise InputError("field 'options' must be an object of option names and values")
    return RuleSet.from_dict({"rules": name, "options": options})


def _game(data: Mapping[str, object]) -> str:
    game = data.get("game")
    if game not in GAMES:
        raise InputError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
    assert isinstance(game, str)
    return game


def cmd_legal(data: Mapping[str, object], rules_flag: str | None) -> dict[str, object]:
    _fields(
        data,
        ["game", "trump", "hand"],
        [
            "rules",
            "options",
            "turn_up",
            "declared",
            "trick_number",
            "trick",
            "pam_be_civil",
            "played",
        ],
    )
    game, rules = _game(data), _rules(data, rules_flag)
    check_play(data, game=game, rules=rules)  # a position that can happen (as question_at's)
    return legal(authored_position(data, game=game, rules=rules)).to_dict()


def cmd_winner(data: Mapping[str, object], rules_flag: str | None) -> dict[str, object]:
    _fields(data, ["game", "trump", "trick"], ["rules", "options"])
    return trick_winner(
        _game(data), _rules(data, rules_flag), trump_field(data), cards_field(data, "trick")
    ).to_dict()


def cmd_flush(data: Mapping[str, object], rules_flag: str | None) -> dict[str, object]:
    _fields(data, ["game", "trump", "hands"], ["rules", "options"])
    hands = hands_field(data)
    rules = _rules(data, rules_flag)
    return compare_flushes(_game(data), rules, trump_field(data), hands).to_dict()


def _seed(text: str) -> int | str:
    """A question's seed: a whole number, or any text."""
    return int(text) if text.lstrip("-").isdigit() else text


def cmd_grade(data: Mapping[str, object]) -> dict[str, object]:
    """``{"question": {...}, "response": [choice ids]}``: the question is made again from what
    identifies it, and must be the one given (the answer is the engine's, never the file's)."""
    _fields(data, ["question", "response"], [])
    given = data["question"]
    response = data["response"]
    if not isinstance(given, dict):
        raise InputError("field 'question' must be a question of the 'question' command")
    if not isinstance(response, list) or not all(isinstance(r, str) for r in response):
        raise InputError("field 'response' must be a list of choice ids")
    missing = [name for name in ("kind", "rules", "game", "seed") if name not in given]
    if missing:
        raise InputError(f"the question lacks its field {missing[0]!r}")
    version = given.get("version")
    if version not in VERSIONS or not isinstance(version, int):
        made = ", ".join(map(str, VERSIONS))
        raise InputError(f"this question bank grades question versions {made}, not {version!r}")
    seed = given["seed"]
    if not isinstance(seed, int | str):
        raise InputError("the question's seed must be a number or text")
    q = question(
        str(given["kind"]),
        str(given["rules"]),
        game=str(given["game"]),
        rule=None if given.get("rule") is None else str(given["rule"]),
        seed=seed,
        version=version,
    )
    if q.to_dict() != given:
        raise InputError("the question is not the one its kind, rules, game, rule and seed make")
    return grade(q, response).to_dict()


def cmd_advise(
    data: Mapping[str, object], rules: str, samples: int, seed: str
) -> dict[str, object]:
    """A player's view (``PlayerView.to_dict``, the player to act) and the coach's estimate of
    each of his options (``games.loo.coach``)."""
    if samples < 2:
        raise InputError("--samples must be 2 or more: a margin of error needs two deals")
    view = view_from_dict(data, preset(rules).rules)
    if view.options is None:
        raise InputError(f"seat {view.seat} is not to act, or has not looked at his cards")
    return advise(view, samples=samples, seed=_seed(seed)).to_dict()


def cmd_presets() -> dict[str, object]:
    return {
        pid: {
            "title": p.title,
            "source": p.source_title,
            "summary": p.summary,
            "modern": p.modern,
            "games": list(p.rules.games),
            "options": {
                spec.name: {"value": s.value, "basis": s.basis, "note": s.note}
                for spec in OPTIONS
                for s in [p.settings[spec.name]]
            },
        }
        for pid, p in PRESETS.items()
    }


COMMANDS: dict[str, Callable[[Mapping[str, object], str | None], dict[str, object]]] = {
    "legal": cmd_legal,
    "winner": cmd_winner,
    "flush": cmd_flush,
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m games.loo", description="The Loo rules engine.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    helps = {
        "legal": "the legal cards for a position, and why",
        "winner": "who takes a trick, and why",
        "flush": "which five-card flush loos the board, and who pays",
    }
    for name, text in helps.items():
        p = sub.add_parser(name, help=text, description=text)
        p.add_argument("--rules", metavar="PRESET", help="rule set (wins over the file's 'rules')")
        p.add_argument("file", metavar="FILE", help="a JSON file, or - for standard input")
    sub.add_parser("presets", help="the rule-set presets and their options")
    ask = sub.add_parser("question", help="a rule question made by the engine, with its answer")
    ask.add_argument("--kind", required=True, choices=KINDS)
    ask.add_argument("--rules", required=True, metavar="PRESET")
    ask.add_argument("--game", choices=GAMES)
    ask.add_argument("--rule", metavar="RULE_ID", help="the rule to ask about (any, if left out)")
    ask.add_argument("--seed", required=True)
    mark = sub.add_parser("grade", help="grade a response to a question of the 'question' command")
    mark.add_argument("file", metavar="FILE", help="a JSON file, or - for standard input")
    coach = sub.add_parser("advise", help="the coach's odds of each option, from a player's view")
    coach.add_argument("--rules", required=True, metavar="PRESET")
    coach.add_argument("--samples", type=int, default=SAMPLES, help="deals sampled")
    coach.add_argument("--seed", default="0", help="the sampling seed: same seed, same answer")
    coach.add_argument("file", metavar="POSITION", help="a player's view as JSON, or -")
    sim = sub.add_parser("simulate", help="play many hands with computer players")
    sim.add_argument("--game", required=True, choices=GAMES)
    sim.add_argument("--players", required=True, type=int)
    sim.add_argument("--rules", required=True, metavar="PRESET")
    sim.add_argument("--hands", required=True, type=int)
    sim.add_argument("--seed", required=True, type=int)
    sim.add_argument(
        "--bots",
        default="beginner",
        help="one bot kind for every seat, or one per seat, comma-separated (beginner, sensible, "
        "careless: a beginner who slips where the laws let a slip stand)",
    )
    sim.add_argument(
        "--laws",
        action="store_true",
        help="laws mode: an irregular play stands and the source's penalty is applied",
    )
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        args = build_parser().parse_args(argv)
        if args.command == "presets":
            result = cmd_presets()
        elif args.command == "question":
            result = question(
                args.kind, args.rules, game=args.game, rule=args.rule, seed=_seed(args.seed)
            ).to_dict()
        elif args.command == "grade":
            result = cmd_grade(_read_json(args.file, stdin))
        elif args.command == "advise":
            data = _read_json(args.file, stdin)
            result = cmd_advise(data, args.rules, args.samples, args.seed)
        elif args.command == "simulate":
            result = simulate(
                args.game,
                args.players,
                preset(args.rules).rules,
                args.hands,
                args.seed,
                [b.strip() for b in args.bots.split(",")],
                laws=args.laws,
            )
        else:
            data = _read_json(args.file, stdin)
            result = COMMANDS[args.command](data, args.rules)
    except (InputError, LooError) as e:
        message = " ".join(str(e).split())
        print(f"error: {message}", file=stderr)
        return 2
    json.dump(result, stdout, ensure_ascii=False)
    stdout.write("\n")
    return 0
