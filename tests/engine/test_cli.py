"""The command line: ``python -m games.loo legal|winner|flush``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.loo.cli import main
from games.loo.messages import message_from_dict, render

ROOT = Path(__file__).resolve().parents[2]

ISSUE_POSITION = {
    "game": "three-card",
    "rules": "hoffmann",
    "trump": "H",
    "turn_up": "7H",
    "declared": 4,
    "trick_number": 1,
    "hand": ["QH", "3H", "KS"],
    "trick": ["TH"],
    "pam_be_civil": False,
}


def run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(args, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_legal_reads_a_position_from_stdin() -> None:
    code, out, err = run(["legal", "-"], json.dumps(ISSUE_POSITION))
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["legal"] == ["QH"]
    # Each sentence is carried as data too, and the data says the same as the text.
    messages = [e.pop("message") for e in result["explanations"]]
    assert [m["key"] for m in messages] == ["follow.suit", "follow.head"]
    assert [render(message_from_dict(m)) for m in messages] == [
        e["text"] for e in result["explanations"]
    ]
    assert result["explanations"] == [
        {
            "rule": "follow-suit",
            "text": "You must follow suit: trumps were led (10♥), and you hold Q♥ and 3♥, "
            "so the K♠ may not be played.",
            "excluded": ["KS"],
        },
        {
            "rule": "head-the-trick",
            "text": "You must head the trick: your Q♥ beats the 10♥ led, so the 3♥ may not "
            "be played.",
            "excluded": ["3H"],
        },
    ]


def test_legal_reads_a_file_and_the_rules_flag_wins(tmp_path: Path) -> None:
    path = tmp_path / "e8.json"
    position = {
        "game": "three-card",
        "rules": "hoffmann",
        "trump": "C",
        "turn_up": "4C",
        "declared": 4,
        "trick_number": 1,
        "hand": ["5C", "8S", "2H"],
        "trick": ["KD", "9C"],
        "pam_be_civil": False,
    }
    path.write_text(json.dumps(position))
    assert json.loads(run(["legal", str(path)])[1])["legal"] == ["5C", "8S", "2H"]
    assert json.loads(run(["legal", "--rules", "parlett", str(path)])[1])["legal"] == ["5C"]


def test_rules_may_be_left_out_when_the_flag_gives_them() -> None:
    position = {k: v for k, v in ISSUE_POSITION.items() if k != "rules"}
    code, out, _ = run(["legal", "--rules", "peel", "-"], json.dumps(position))
    assert code == 0 and json.loads(out)["legal"] == ["QH"]


def test_options_make_a_custom_table() -> None:
    position = {
        "game": "three-card",
        "rules": "peel",
        "trump": "H",
        "turn_up": "7H",
        "declared": 4,
        "hand": ["KH", "4H", "9S"],
        "trick": [],
        "options": {"two-trumps": "any-trump"},
    }
    assert json.loads(run(["legal", "-"], json.dumps(position))[1])["legal"] == ["KH", "4H"]


def test_winner() -> None:
    data = {
        "game": "five-card",
        "rules": "hoffmann",
        "trump": "D",
        "trick": ["9C", "KC", "JC", "AC"],
    }
    code, out, _ = run(["winner", "-"], json.dumps(data))
    result = json.loads(out)
    assert code == 0
    assert (result["winner"], result["card"]) == (2, "JC")
    assert result["explanations"][0]["rule"] == "pam-highest-trump"


def test_flush() -> None:
    data = {
        "game": "five-card",
        "rules": "britannica",
        "trump": "H",
        "hands": [
            ["KS", "QS", "9S", "5S", "3S"],
            ["AD", "7D", "6D", "4D", "2D"],
            ["JC", "2C", "3C", "4H", "5H"],
            ["8C", "9C", "TC", "6H", "3H"],
        ],
    }
    result = json.loads(run(["flush", "-"], json.dumps(data))[1])
    assert (result["winner"], result["flushes"]) == (0, [0, 1])
    assert (result["exempt"], result["pay"]) == ([1, 2], [3])
    rules = [e["rule"] for e in result["explanations"]]
    assert rules == ["flush-loos-the-board", "flush-tie-break", "flush-payment-exemption"]
    data["hands"] = [["KS", "QS", "9S", "5S", "3D"], ["AD", "7D", "6D", "4D", "2S"]]
    result = json.loads(run(["flush", "-"], json.dumps(data))[1])
    assert (result["winner"], result["flushes"]) == (None, [])


def test_presets_lists_every_option_with_its_basis() -> None:
    code, out, _ = run(["presets"])
    presets = json.loads(out)
    assert code == 0
    assert list(presets) == ["hoffmann", "britannica", "whiteknuckle", "parlett", "peel"]
    assert presets["peel"]["options"]["two-trumps"] == {
        "value": "highest",
        "basis": "source",
        "note": "p. 20 ('lead one' by agreement)",
    }


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["legal", "-"], "{not json", "invalid JSON in -"),
        (["legal", "-"], "[1, 2]", "must hold a JSON object"),
        (
            ["legal", "-"],
            json.dumps({**ISSUE_POSITION, "hand": ["QH", "3H", "ZZ"]}),
            "unknown card 'ZZ'",
        ),
        (
            ["legal", "-"],
            json.dumps({**ISSUE_POSITION, "rules": "hoyle"}),
            "unknown rule set 'hoyle'",
        ),
        (["legal", "-"], json.dumps({**ISSUE_POSITION, "game": "whist"}), "unknown game 'whist'"),
        (
            ["legal", "-"],
            json.dumps({**ISSUE_POSITION, "hand": ["QH", "QH", "KS"]}),
            "the queen of hearts is twice in your hand",
        ),
        (
            ["legal", "-"],
            json.dumps({**ISSUE_POSITION, "trick": ["QH"]}),
            "the queen of hearts is in your hand and in the trick",
        ),
        (
            ["legal", "-"],
            json.dumps({**ISSUE_POSITION, "hand": ["QH", "3H"]}),
            "a hand of two cards at the first trick",
        ),
        (["legal", "-"], json.dumps({**ISSUE_POSITION, "declared": 1}), "one player in the play"),
        (
            ["legal", "-"],
            json.dumps({**ISSUE_POSITION, "declared": "4"}),
            "'declared' must be a whole number",
        ),
        (["legal", "-"], json.dumps({**ISSUE_POSITION, "colour": "red"}), "unknown field 'colour'"),
        (
            ["legal", "-"],
            json.dumps({k: v for k, v in ISSUE_POSITION.items() if k != "rules"}),
            "no rule set",
        ),
        (
            ["legal", "-"],
            json.dumps({k: v for k, v in ISSUE_POSITION.items() if k != "hand"}),
            "missing field 'hand'",
        ),
        (["legal", "/no/such/file.json"], "", "cannot read /no/such/file.json"),
        (["legal"], "", "required: FILE"),
        (["deal", "-"], "", "invalid choice: 'deal'"),
        (
            ["winner", "-"],
            json.dumps({"game": "five-card", "rules": "peel", "trump": "H", "trick": ["AH"]}),
            "at least two cards",
        ),
        (
            ["flush", "-"],
            json.dumps({"game": "three-card", "rules": "peel", "trump": "H", "hands": [["AH"]]}),
            "only in five-card Loo",
        ),
        (
            ["flush", "-"],
            json.dumps(
                {
                    "game": "five-card",
                    "rules": "peel",
                    "trump": "H",
                    "hands": [["AH", "2H", "3H", "4H", "5H"], ["AH", "2S", "3S", "4S", "5S"]],
                }
            ),
            "AH appears in hands 1 and 2",
        ),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(args: list[str], stdin: str, message: str) -> None:
    code, out, err = run(args, stdin)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert message in err


def test_the_module_runs_as_a_program_without_a_traceback() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "games.loo", "legal", "-"],
        input=json.dumps(ISSUE_POSITION),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["legal"] == ["QH"]
    bad = subprocess.run(
        [sys.executable, "-m", "games.loo", "legal", "-"],
        input="{",
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: invalid JSON") and "Traceback" not in bad.stderr


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.sampled_from(["QH", "H", "JC", "x", ""]),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=3), children)
    ),
    max_leaves=12,
)


@given(
    st.sampled_from(["legal", "winner", "flush"]),
    st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from(["three-card", "five-card", "irish", "x"]) | JSON_VALUES,
            "rules": st.sampled_from(["hoffmann", "peel", "britannica", "x"]) | JSON_VALUES,
            "trump": st.sampled_from("SHDC") | JSON_VALUES,
            "turn_up": st.sampled_from(["7H", "AS", "JC"]) | JSON_VALUES,
            "hand": st.lists(st.sampled_from(["QH", "3H", "KS", "JC", "AH", "2D"]), max_size=6)
            | JSON_VALUES,
            "trick": st.lists(st.sampled_from(["TH", "9C", "AS", "AH"]), max_size=3) | JSON_VALUES,
            "hands": JSON_VALUES,
            "declared": JSON_VALUES,
            "trick_number": JSON_VALUES,
            "pam_be_civil": JSON_VALUES,
            "options": JSON_VALUES,
        },
    ),
)
def test_no_input_makes_the_cli_crash(command: str, data: dict[str, object]) -> None:
    code, out, err = run([command, "-"], json.dumps(data))
    if code == 0:
        assert json.loads(out) and err == ""
    else:
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_simulate_plays_a_table_and_counts_what_happened() -> None:
    args = ["simulate", "--game", "five-card", "--players", "4", "--rules", "hoffmann"]
    code, out, err = run(
        [*args, "--hands", "12", "--seed", "5", "--bots", "sensible,beginner,beginner,beginner"]
    )
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert [r["bot"] for r in result["results"]] == ["sensible", "beginner", "beginner", "beginner"]
    assert sum(r["net"] for r in result["results"]) + result["pool"]["final"] == 0
    counts = result["counts"]
    ended = ("played", "all_pass", "lone_miss", "flushes", "lone_player", "nobody_plays")
    ended += ("single_deals", "retired", "offender_alone")
    assert sum(counts[k] for k in ended) == 12
    # The same seed gives the same table.
    again = run(
        [*args, "--hands", "12", "--seed", "5", "--bots", "sensible,beginner,beginner,beginner"]
    )[1]
    assert json.loads(again) == result


def test_simulate_in_laws_mode_counts_the_careless_players_offences() -> None:
    args = ["simulate", "--game", "five-card", "--players", "5", "--rules", "hoffmann"]
    args += ["--hands", "20", "--seed", "3", "--bots", "careless"]
    code, out, err = run([*args, "--laws"])
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["laws"] is True and result["counts"]["offences"] > 0
    assert sum(r["net"] for r in result["results"]) + result["pool"]["final"] == 0
    # Without laws mode a careless player keeps every rule.
    plain = json.loads(run(args)[1])
    assert plain["laws"] is False and plain["counts"]["offences"] == 0


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--players", "2"], "for 3 to 16 players, not 2"),
        (["--bots", "beginner,sensible"], "names 2 players but the table has 4"),
        (["--bots", "genius"], "unknown bot 'genius'"),
        (["--hands", "0"], "--hands must be at least 1"),
        (["--rules", "hoyle"], "unknown rule set 'hoyle'"),
        (["--game", "whist"], "invalid choice: 'whist'"),
        (["--seed", "x"], "invalid int value: 'x'"),
    ],
)
def test_simulate_refuses_bad_arguments(extra: list[str], message: str) -> None:
    args = {
        "--game": "three-card",
        "--players": "4",
        "--rules": "hoffmann",
        "--hands": "3",
        "--seed": "1",
    }
    for flag, value in zip(extra[::2], extra[1::2], strict=True):
        args[flag] = value
    argv = ["simulate", *[x for kv in args.items() for x in kv]]
    if extra[0] == "--bots":
        argv += extra
    code, out, err = run(argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_the_engine_docs_show_what_legal_prints() -> None:
    """docs/engine.md's example of ``legal`` is the command's output, message data included."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text()
    shown = docs.split("prints (on one line)", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    code, out, _ = run(["legal", "-"], json.dumps(ISSUE_POSITION))
    assert code == 0
    assert json.loads(out) == json.loads(shown)


def test_question_about_an_unknown_rule_exits_2_with_one_clear_line() -> None:
    code, out, err = run(
        ["question", "--kind", "legal-cards", "--rules", "hoffmann", "--seed", "1"]
        + ["--rule", "nope"]
    )
    assert code == 2 and out == ""
    assert err == "error: unknown rule 'nope': it is not in the rule catalogue\n"


def test_grading_a_question_about_an_unknown_rule_exits_2_with_one_clear_line() -> None:
    code, out, _ = run(["question", "--kind", "legal-cards", "--rules", "hoffmann", "--seed", "1"])
    assert code == 0
    asked = {**json.loads(out), "rule": "nope"}
    code, out, err = run(["grade", "-"], json.dumps({"question": asked, "response": []}))
    assert code == 2 and out == ""
    assert err == "error: unknown rule 'nope': it is not in the rule catalogue\n"


def test_grading_a_question_without_its_seed_names_the_missing_field() -> None:
    code, out, _ = run(["question", "--kind", "legal-cards", "--rules", "hoffmann", "--seed", "1"])
    asked = {k: v for k, v in json.loads(out).items() if k != "seed"}
    code, out, err = run(["grade", "-"], json.dumps({"question": asked, "response": []}))
    assert code == 2 and out == ""
    assert err == "error: the question lacks its field 'seed'\n"
