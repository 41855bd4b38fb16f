"""content/lessons.txt: what the loader keeps, and what it refuses (with file:line and what is
wrong, the database left as it was)."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from games.guided import guided_deal_seed, prove
from games.loo import RuleSet
from games.loo.catalogue import rules as catalogue_rules
from games.loo.hand import Action, Hand, HandSetup, IllegalAction
from games.loo.questions import KINDS, coverage, question, question_at
from games.loo.rulesets import PRESET_IDS
from games.loo.table import Table, TableConfig
from lessons.course.models import Lesson, Step, StepKind, Unit

CONTENT = Path(settings.BASE_DIR) / "content"
LESSONS = CONTENT / "lessons.txt"

pytestmark = pytest.mark.django_db


def _snapshot() -> dict[str, object]:
    return {
        "units": sorted(Unit.objects.values_list("pk", "title", "position")),
        "lessons": sorted(Lesson.objects.values_list("pk", "title", "body", "presets")),
        "steps": sorted(Step.objects.values_list("pk", "lesson_id", "kind", "data")),
    }


# -- what is loaded -------------------------------------------------------------------------------


def test_every_unit_lesson_and_step_of_the_file_is_loaded_in_order() -> None:
    text = LESSONS.read_text(encoding="utf-8")
    headers = [line for line in text.splitlines() if line.startswith("[")]
    assert Unit.objects.count() == sum(h.startswith("[unit ") for h in headers)
    assert Lesson.objects.count() == sum(h.startswith("[lesson ") for h in headers)
    assert Step.objects.count() == sum(
        h.startswith(("[exercise ", "[guided-hand ", "[check ")) for h in headers
    )
    keys = [h.split()[1].rstrip("]") for h in headers if h.startswith("[lesson ")]
    assert list(Lesson.objects.values_list("slug", flat=True)) == keys


def test_every_lesson_has_exercises_a_guided_hand_and_ends_with_a_check() -> None:
    for lesson in Lesson.objects.prefetch_related("steps"):
        kinds = [s.kind for s in lesson.steps.all()]
        assert kinds[-1] == StepKind.CHECK and kinds.count(StepKind.CHECK) == 1, lesson.slug
        assert StepKind.EXERCISE in kinds and kinds.count(StepKind.GUIDED_HAND) == 1, lesson.slug


def test_every_exercise_is_answered_by_the_engine_under_every_rule_set_offered() -> None:
    """An exercise's rule binds under each rule set of its lesson: in its own position, or in
    the positions its kind deals (the engine makes the question and knows the answer)."""
    for step in Step.objects.filter(kind=StepKind.EXERCISE).select_related("lesson"):
        data, lesson = step.data, step.lesson
        for preset in lesson.presets:
            if data["position"] is not None:
                q = question_at(
                    data["kind"],
                    preset,
                    game=lesson.game,
                    position=data["position"],
                    rule=data["rule"],
                    card=data["card"],
                    seed=1,
                )
            else:
                q = question(data["kind"], preset, game=lesson.game, rule=data["rule"], seed=1)
            assert data["rule"] in q.bound and q.answer, (step.key, preset)


def test_a_guided_hand_has_a_stored_deal_under_every_rule_set_offered() -> None:
    """Each proved on every line of the learner: tests/course/test_guided_proof.py proves
    them again."""
    for step in Step.objects.filter(kind=StepKind.GUIDED_HAND).select_related("lesson"):
        assert set(step.data["seeds"]) == set(step.lesson.presets), step.key


#: The lessons whose rule never comes up in a fresh table's first hand dealt from a seed, and
#: what their guided hand sets to bring it up: a stacked deal, a start as after a hand, agreed
#: variations, a laws-mode table of careless players.
SET_GUIDED_HANDS = {
    "the-miss-hand": ("miss-holder-must-play", {"start"}),
    "the-dealer-hand": ("dealer-must-play-against-one", {"start", "packs"}),
    "unlimited-loo-hand": ("unlimited-loo", {"options"}),
    "singles-and-musts-hand": ("must", {"start"}),
    "club-law-hand": ("club-law", {"options"}),
    "rival-flushes-hand": ("flush-precedence", {"packs"}),
    "laws-before-play-hand": ("penalty-declare-out-of-turn", {"laws"}),
    "laws-in-play-hand": ("penalty-revoke", {"laws"}),
}


@pytest.mark.parametrize("key", SET_GUIDED_HANDS)
def test_a_guided_hand_set_for_its_rule_brings_it_up_where_a_plain_deal_would_not(
    key: str,
) -> None:
    step = Step.objects.select_related("lesson").get(key=key, kind=StepKind.GUIDED_HAND)
    rule, sets = SET_GUIDED_HANDS[key]
    assert step.data["rule"] == rule
    assert sets <= set(step.data)
    for preset, seed in step.data["seeds"].items():
        guided = step.guided(preset)
        args = (step.lesson.game, preset, step.data["players"], seed, rule)
        assert prove(*args, guided=guided).holds, (key, preset)
        if guided.pack:
            # The stacked deal is dealt: each seat holds its cards, whatever the seed.
            table = Table(
                TableConfig(
                    step.lesson.game,
                    guided.rules(preset),
                    step.data["players"],
                    guided_deal_seed(seed),
                    first_pack=guided.pack,
                    start=guided.start,
                )
            )
            hand = table.deal()
            assert [c.code for c in hand.hands[0]] == _stacked(step.key, "you")


def _stacked(key: str, seat: str) -> list[str]:
    """The cards the guided hand ``key``'s deal: line gives ``seat``."""
    block = _block(CONTENT, f"[guided-hand {key}]")
    deal = block.split("deal:", 1)[1].split("\nbanner:", 1)[0]
    part = next(p.split() for p in deal.split(";") if p.split()[0] == seat)
    return [w for w in part[1:] if w != "(dealer)"]


# -- what the course teaches ----------------------------------------------------------------------


def test_every_rule_of_the_catalogue_is_taught_by_a_lesson() -> None:
    taught = {r for teaches in Lesson.objects.values_list("teaches", flat=True) for r in teaches}
    assert {r.id for r in catalogue_rules()} - taught == set()


def _rules_the_table_applies(hands: int = 300) -> set[str]:
    """Every rule id written in the events of hands played at the practice table's engine:
    seeded hands under every rule set at each of its games, first deals and later ones, half
    of them at a laws table where now and then a player commits an irregularity the laws let
    stand (the careless player's lapses and slips). What the table applies, found by playing,
    not by asking the question bank."""
    found: set[str] = set()
    for preset in PRESET_IDS:
        rules = RuleSet.preset(preset)
        for game in rules.games:
            low, high = rules.players(game)
            for i in range(hands):
                rng = random.Random(f"{preset}:{game}:{i}")
                players = rng.randint(max(low, 3), min(high, 6))
                first = i % 3 == 0
                hand = Hand.deal(
                    HandSetup(
                        game=game,
                        rules=rules,
                        players=players,
                        dealer=i % players,
                        hand_number=1 if first else 2,
                        seed=f"enforced:{i}",
                        balances=(0,) * players,
                        pool=0 if first else 2 * rules.stake(game),
                        first=first,
                        prev_no_loo=i % 3 == 1,
                        trace=True,
                        laws=i % 2 == 0,
                    )
                )
                while not hand.over:
                    if not _slip(hand, rng):
                        offered = hand.choices()
                        hand.step(offered[rng.randrange(len(offered))])
                found |= {r for e in hand.events for r in e.rules}
    return found


def _slip(hand: Hand, rng: random.Random) -> bool:
    """Now and then an irregularity, or a card the rules forbid, where the laws let it
    stand: whether one was committed."""
    if rng.random() < 0.1:
        seat = rng.randrange(hand.players)
        for what in hand.irregularities(seat):
            cards: tuple[str, ...] = ()
            if what == "look-hand":
                others = [s for s in range(hand.players) if s != seat and hand.hands[s]]
                what = f"look-hand:{others[0]}" if others else what
            elif what in ("expose", "play-early") and hand.irregular_cards(seat):
                cards = (hand.irregular_cards(seat)[0].code,)
            try:
                hand.apply(Action("irregular", seat, what, cards))
            except IllegalAction:
                continue
            return True
    if hand.phase == "play" and hand.laws_apply() and rng.random() < 0.2:
        seat = hand.to_act
        assert seat is not None
        forbidden = [c for c in hand.hands[seat] if c not in hand.legal_moves(seat).legal]
        if forbidden:
            hand.apply(Action.play(seat, forbidden[0]))
            return True
    return False


def test_every_rule_the_engine_enforces_at_the_table_is_exercised() -> None:
    """Every rule the table applies (written in its hands' events, found by playing them), and
    every rule a question about the play can ask about, is the rule of an exercise that asks
    about the play (a ``source`` question asks about the texts: it does not count)."""
    applied = _rules_the_table_applies()
    assert {"penalty-revoke", "penalty-misdeal", "deal-order", "ante"} <= applied
    asked = {
        r
        for preset in PRESET_IDS
        for game in RuleSet.preset(preset).games
        for kind, ids in coverage(preset, game).items()
        if kind != "source"
        for r in ids
    }
    exercised = {
        s.data["rule"]
        for s in Step.objects.filter(kind=StepKind.EXERCISE)
        if s.data["kind"] in KINDS and s.data["kind"] != "source"
    }
    assert sorted((applied | asked) - exercised) == []


def test_reloading_keeps_every_row_and_its_key() -> None:
    before = _snapshot()
    call_command("loadcontent", verbosity=0)
    assert _snapshot() == before


# -- what is refused ------------------------------------------------------------------------------


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "content"
    shutil.copytree(CONTENT, folder)
    return folder


def _edit(folder: Path, old: str, new: str) -> Path:
    path = folder / "lessons.txt"
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in lessons.txt"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line_of(path: Path, needle: str, after: str = "") -> int:
    """The number of the first line holding ``needle`` (after the first holding ``after``)."""
    seen = not after
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        seen = seen or after in line
        if seen and needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def _block(folder: Path, header: str) -> str:
    """The text of the block that starts with ``header``, up to the next block."""
    text = (folder / "lessons.txt").read_text(encoding="utf-8")
    start = text.index(header)
    end = text.find("\n[", start + 1)
    return text[start : end if end != -1 else len(text)]


Breakage = Callable[[Path], tuple[int, str]]


def _unknown_unit(folder: Path) -> tuple[int, str]:
    path = _edit(
        folder, "[lesson follow-suit]\nunit: following", "[lesson follow-suit]\nunit: folowing"
    )
    return _line_of(path, "unit: folowing"), "unknown unit 'folowing'"


def _unknown_rule_taught(folder: Path) -> tuple[int, str]:
    path = _in_block(folder, "[lesson follow-suit]", "teaches", "follow-suits")
    return _line_of(path, "teaches: follow-suits"), "unknown rule id 'follow-suits'"


def _unknown_term(folder: Path) -> tuple[int, str]:
    block = _block(folder, "[lesson follow-suit]")
    body = block.split("\n\n", 1)[1]
    first = body.splitlines()[0]
    path = _edit(folder, first, first + " A [[misdial]] here.")
    return _line_of(path, "[[misdial]]"), "unknown glossary term 'misdial'"


def _unknown_lesson_link(folder: Path) -> tuple[int, str]:
    block = _block(folder, "[lesson overtrump]")
    path = _edit(folder, block, block.replace("[[lesson:must-trump|", "[[lesson:must-trumps|"))
    return _line_of(path, "[[lesson:must-trumps|"), "unknown lesson 'must-trumps'"


def _unknown_passage(folder: Path) -> tuple[int, str]:
    path = _in_block(folder, "[lesson follow-suit]", "quotes", "hoffmann#law-99")
    return _line_of(path, "hoffmann#law-99"), "unknown passage id 'law-99' of hoffmann"


def _rule_taught_but_not_linked(folder: Path) -> tuple[int, str]:
    block = _block(folder, "[lesson follow-suit]")
    path = _edit(folder, block, block.replace("[[rule:follow-suit|", "[[rule:head-the-trick|"))
    return _line_of(path, "[lesson follow-suit]"), "does not link it: write [[rule:follow-suit]]"


def _exercise_whose_rule_does_not_bind(folder: Path) -> tuple[int, str]:
    path = _edit(
        folder,
        "[exercise follow-suit-1]\n",
        "[exercise follow-suit-0]\nkind: legal-cards\nrule: follow-suit\n"
        'position: {"trump": "S", "hand": ["QH", "3H", "7H"], "trick": ["TH"]}\n\n'
        "[exercise follow-suit-1]\n",
    )
    return _line_of(path, '"hand": ["QH", "3H", "7H"]'), "the rule does not bind there"


def _exercise_its_kind_cannot_ask(folder: Path) -> tuple[int, str]:
    path = _edit(
        folder,
        "[exercise follow-suit-1]\n",
        "[exercise follow-suit-0]\nkind: trick-winner\nrule: follow-suit\n\n"
        "[exercise follow-suit-1]\n",
    )
    line = _line_of(path, "[exercise follow-suit-0]") + 2
    return line, "a trick-winner question cannot ask about 'follow-suit' under hoffmann"


def _in_block(folder: Path, header: str, field: str, value: str) -> Path:
    """Set ``field:`` of the block that starts with ``header`` to ``value``."""
    block = _block(folder, header)
    old = next(line for line in block.splitlines() if line.startswith(f"{field}:"))
    return _edit(folder, block, block.replace(old, f"{field}: {value}", 1))


def _guided_hand_changed_since_its_deal_was_found(folder: Path) -> tuple[int, str]:
    path = _in_block(folder, "[guided-hand follow-suit-hand]", "rule", "club-law")
    return _line_of(path, "rule: club-law"), (
        "the guided hand changed since its deal under hoffmann was found: run `manage.py "
        "findguided follow-suit-hand`"
    )


def _guided_hand_whose_stored_deal_no_longer_brings_the_rule_up(folder: Path) -> tuple[int, str]:
    """The stored seed replaced by one whose hand does not bring the rule up on every line,
    its proof said to be made under another engine, as when the engine or the computer
    players change beneath a stored deal: the loader proves it again."""
    deals = json.loads((folder / "guided.json").read_text(encoding="utf-8"))
    stored = deals["deals"]["follow-suit-hand"]["hoffmann"]
    step = Step.objects.get(key="follow-suit-hand")
    guided = step.guided("hoffmann")
    stored["seed"] = next(
        seed
        for seed in range(1, 1000)
        if not prove(
            "three-card", "hoffmann", step.data["players"], seed, step.data["rule"], guided=guided
        ).holds
    )
    stored["engine"] = "an older engine"
    (folder / "guided.json").write_text(json.dumps(deals), encoding="utf-8")
    path = folder / "lessons.txt"
    return _line_of(path, f"rule: {step.data['rule']}", after="[guided-hand follow-suit-hand]"), (
        f"the stored deal (seed {stored['seed']}) no longer brings 'follow-suit' up under hoffmann"
        " on every line of the learner"
    )


def _guided_hand_with_no_stored_deal(folder: Path) -> tuple[int, str]:
    deals = json.loads((folder / "guided.json").read_text(encoding="utf-8"))
    del deals["deals"]["follow-suit-hand"]["peel"]
    (folder / "guided.json").write_text(json.dumps(deals), encoding="utf-8")
    path = folder / "lessons.txt"
    return _line_of(path, "rule: follow-suit", after="[guided-hand follow-suit-hand]"), (
        "under peel: guided.json has no deal for it under peel: run `manage.py findguided "
        "follow-suit-hand`"
    )


def _stacked_deal(folder: Path, deal: str) -> Path:
    """The-dealer's guided hand with ``deal:`` set to ``deal``."""
    return _in_block(folder, "[guided-hand the-dealer-hand]", "deal", deal)


def _stacked_deal_with_a_card_twice(folder: Path) -> tuple[int, str]:
    path = _stacked_deal(
        folder, "you (dealer) 4D 6C 7S; west AH KH AS; north 2C 3D AH; miss 8C 9D TS; turn-up 2H"
    )
    return _line_of(path, "north 2C 3D AH"), "AH is dealt twice (to west and to north)"


def _stacked_deal_with_an_unknown_card(folder: Path) -> tuple[int, str]:
    path = _stacked_deal(
        folder, "you (dealer) 4D 6C 7S; west AH KH AS; north 2C 3D 1S; miss 8C 9D TS; turn-up 2H"
    )
    return _line_of(path, "north 2C 3D 1S"), "'deal:': north: "


def _stacked_deal_with_a_hand_too_short(folder: Path) -> tuple[int, str]:
    path = _stacked_deal(
        folder, "you (dealer) 4D 6C 7S; west AH KH; north 2C 3D 5S; miss 8C 9D TS; turn-up 2H"
    )
    return _line_of(path, "west AH KH;"), "west is dealt 2 cards, not 3"


def _stacked_deal_without_a_seat(folder: Path) -> tuple[int, str]:
    path = _stacked_deal(folder, "you (dealer) 4D 6C 7S; west AH KH AS; miss 8C 9D TS; turn-up 2H")
    return _line_of(path, "west AH KH AS; miss"), "no cards for north"


def _stacked_deal_without_a_dealer(folder: Path) -> tuple[int, str]:
    path = _stacked_deal(
        folder, "you 4D 6C 7S; west AH KH AS; north 2C 3D 5S; miss 8C 9D TS; turn-up 2H"
    )
    return _line_of(path, "deal: you 4D"), "mark the dealer's seat with (dealer)"


def _stacked_deal_with_two_turn_ups(folder: Path) -> tuple[int, str]:
    path = _stacked_deal(
        folder,
        "you (dealer) 4D 6C 7S; west AH KH AS; north 2C 3D 5S; miss 8C 9D TS; turn-up 2H 3H",
    )
    return _line_of(path, "turn-up 2H 3H"), "the turn-up is one card"


def _stacked_deal_changed_since_its_deal_was_found(folder: Path) -> tuple[int, str]:
    path = _stacked_deal(
        folder, "you (dealer) AH KH QH; west JH TH 9H; north 8H 7H 6H; miss 5H 4H 3H; turn-up 2H"
    )
    return _line_of(path, "rule:", after="[guided-hand the-dealer-hand]"), (
        "the guided hand changed since its deal"
    )


def _unknown_start(folder: Path) -> tuple[int, str]:
    path = _in_block(folder, "[guided-hand the-miss-hand]", "start", "after-a-flush")
    return _line_of(path, "start: after-a-flush"), "unknown start 'after-a-flush'"


def _unknown_option(folder: Path) -> tuple[int, str]:
    path = _in_block(folder, "[guided-hand club-law-hand]", "options", "club-law=sometimes")
    return _line_of(path, "options: club-law=sometimes"), "'options:'"


def _guided_field(key: str, field: str, value: str, problem: str) -> Breakage:
    """A breakage that sets ``field:`` of the guided hand ``key`` to ``value``."""

    def breakage(folder: Path) -> tuple[int, str]:
        path = _in_block(folder, f"[guided-hand {key}]", field, value)
        return _line_of(path, f"{field}: {value}"), problem

    breakage.__name__ = f"_guided_hand_with_{field}_{value}"
    return breakage


def _check_about_rules_no_question_asks(folder: Path) -> tuple[int, str]:
    path = _in_block(folder, "[check follow-suit-check]", "rules", "shuffle-and-cut")
    return _line_of(path, "rules: shuffle-and-cut"), "can ask about 'shuffle-and-cut'"


def _a_step_before_any_lesson(folder: Path) -> tuple[int, str]:
    text = (folder / "lessons.txt").read_text(encoding="utf-8")
    first = text.index("\n[unit ")
    (folder / "lessons.txt").write_text(
        text[: first + 1] + "[check stray]\nrules: follow-suit\ncount: 3\n\n" + text[first + 1 :],
        encoding="utf-8",
    )
    return _line_of(folder / "lessons.txt", "[check stray]"), "must follow the [lesson]"


def _a_lesson_without_its_check(folder: Path) -> tuple[int, str]:
    block = _block(folder, "[check follow-suit-check]")
    path = _edit(folder, block, "")
    return _line_of(path, "[lesson follow-suit]"), "must end with one [check]"


def _duplicate_id(folder: Path) -> tuple[int, str]:
    path = _edit(folder, "[exercise follow-suit-2]", "[exercise follow-suit-1]")
    lines = [
        n
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if line == "[exercise follow-suit-1]"
    ]
    return lines[1], "duplicate id 'follow-suit-1'"


def _bad_json(folder: Path) -> tuple[int, str]:
    path = _edit(
        folder,
        "[exercise follow-suit-1]\n",
        "[exercise follow-suit-0]\nkind: legal-cards\nrule: follow-suit\n"
        'position: {"trump": "S", "hand": ["QH" "3S"]}\n\n'
        "[exercise follow-suit-1]\n",
    )
    return _line_of(path, '"hand": ["QH" "3S"]'), "the position is not valid JSON"


def _unknown_kind(folder: Path) -> tuple[int, str]:
    path = _edit(
        folder,
        "[exercise follow-suit-1]\n",
        "[exercise follow-suit-0]\nkind: essay\nrule: follow-suit\n\n[exercise follow-suit-1]\n",
    )
    return _line_of(path, "kind: essay"), "unknown question kind 'essay'"


def _unknown_rule_set(folder: Path) -> tuple[int, str]:
    path = _edit(folder, "[lesson follow-suit]\n", "[lesson follow-suit]\npresets: hoyle\n")
    return _line_of(path, "presets: hoyle"), "unknown rule set 'hoyle'"


BREAKAGES = [
    _unknown_unit,
    _unknown_rule_taught,
    _unknown_term,
    _unknown_lesson_link,
    _unknown_passage,
    _rule_taught_but_not_linked,
    _exercise_whose_rule_does_not_bind,
    _exercise_its_kind_cannot_ask,
    _guided_hand_changed_since_its_deal_was_found,
    _guided_hand_whose_stored_deal_no_longer_brings_the_rule_up,
    _guided_hand_with_no_stored_deal,
    _stacked_deal_with_a_card_twice,
    _stacked_deal_with_an_unknown_card,
    _stacked_deal_with_a_hand_too_short,
    _stacked_deal_without_a_seat,
    _stacked_deal_without_a_dealer,
    _stacked_deal_with_two_turn_ups,
    _stacked_deal_changed_since_its_deal_was_found,
    _unknown_start,
    _unknown_option,
    _guided_field("cards-and-tricks-hand", "declares", "bidding", "names no lesson 'bidding'"),
    _guided_field("the-deal-hand", "declares", "cards-and-tricks", "does not come after"),
    _guided_field("cards-and-tricks-hand", "asks", "trump-suit", "must be trick-winner"),
    _check_about_rules_no_question_asks,
    _a_step_before_any_lesson,
    _a_lesson_without_its_check,
    _duplicate_id,
    _bad_json,
    _unknown_kind,
    _unknown_rule_set,
]


@pytest.mark.parametrize("breakage", BREAKAGES, ids=lambda b: b.__name__.strip("_"))
def test_a_broken_lessons_file_is_refused_with_its_line_and_changes_nothing(
    tmp_path: Path, breakage: Breakage
) -> None:
    folder = _copy(tmp_path)
    line, problem = breakage(folder)
    before = _snapshot()

    with pytest.raises(CommandError) as refused:
        call_command("loadcontent", path=folder, verbosity=0)

    message = str(refused.value)
    assert message.startswith(f"content/lessons.txt:{line}: "), message
    assert problem in message, message
    assert "\n" not in message
    assert _snapshot() == before


def test_findguided_refuses_a_guided_hand_whose_rule_never_comes_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("lessons.course.deals.GUIDED_TRIES", 10)  # a search that fails, quickly
    folder = _copy(tmp_path)
    path = _in_block(folder, "[guided-hand follow-suit-hand]", "rule", "club-law")
    stored = (folder / "guided.json").read_text(encoding="utf-8")

    with pytest.raises(CommandError) as refused:
        call_command("findguided", "follow-suit-hand", path=folder, verbosity=0)

    message = str(refused.value)
    line = _line_of(path, "rule: club-law")
    assert message.startswith(
        f"content/lessons.txt:{line}: under hoffmann, 'club-law' does not come up on every "
        "legal line of the learner in any of 10 deals"
    ), message
    # What was found for the other hands stays; the refused hand's old deals are kept too.
    kept = json.loads((folder / "guided.json").read_text(encoding="utf-8"))
    assert kept["deals"].keys() == json.loads(stored)["deals"].keys()


def test_findguided_finds_a_changed_guided_hand_and_the_loader_then_takes_it(
    tmp_path: Path,
) -> None:
    folder = _copy(tmp_path)
    _in_block(folder, "[guided-hand follow-suit-hand]", "players", "5")
    with pytest.raises(CommandError, match="changed since its deal"):
        call_command("loadcontent", path=folder, verbosity=0)
    before = json.loads((folder / "guided.json").read_text(encoding="utf-8"))

    call_command("findguided", path=folder, verbosity=0)  # the stale ones only

    after = json.loads((folder / "guided.json").read_text(encoding="utf-8"))
    changed = {
        (key, preset)
        for key, presets in after["deals"].items()
        for preset, deal in presets.items()
        if before["deals"][key][preset] != deal
    }
    assert {key for key, _ in changed} == {"follow-suit-hand"}
    call_command("loadcontent", path=folder, verbosity=0)
    step = Step.objects.get(key="follow-suit-hand")
    assert step.data["players"] == 5
    assert step.data["seeds"] == {
        preset: deal["seed"] for preset, deal in after["deals"]["follow-suit-hand"].items()
    }


def test_the_stored_deals_are_the_course_s_own() -> None:
    """Every guided hand of the course has a deal under each of its rule sets, and the file
    holds nothing else (``findguided`` forgets what the course no longer has)."""
    stored = json.loads((CONTENT / "guided.json").read_text(encoding="utf-8"))["deals"]
    hands = {
        step.key: set(step.lesson.presets)
        for step in Step.objects.filter(kind=StepKind.GUIDED_HAND).select_related("lesson")
    }
    assert {key: set(presets) for key, presets in stored.items()} == hands


def test_a_lesson_a_class_has_as_an_assignment_is_not_removed(tmp_path: Path) -> None:
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from lessons.classes.models import SchoolClass
    from lessons.quizzes.models import Assignment

    teacher = get_user_model().objects.create_user("teacher", password="a long pass phrase 7")
    school_class = SchoolClass.objects.create(teacher=teacher, name="Form 4")
    now = timezone.now()
    Assignment.objects.create(
        school_class=school_class,
        lesson_id="follow-suit",
        opens=now,
        closes=now + timedelta(days=7),
    )
    folder = _copy(tmp_path)
    text = (folder / "lessons.txt").read_text(encoding="utf-8")
    start = text.index("[lesson follow-suit]")
    end = text.index("[lesson head-the-trick]")
    (folder / "lessons.txt").write_text(text[:start] + text[end:], encoding="utf-8")
    before = _snapshot()

    with pytest.raises(CommandError) as refused:
        call_command("loadcontent", path=folder, verbosity=0)

    assert str(refused.value) == (
        "content/lessons.txt:0: the lesson 'follow-suit' is no longer in the file, but a class "
        "has it as an assignment: keep the lesson, or delete the assignment first"
    )
    assert _snapshot() == before


def test_findguided_refuses_a_folder_without_lessons_and_an_unknown_hand(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"content/lessons.txt: no such file"):
        call_command("findguided", path=tmp_path / "content", verbosity=0)
    folder = _copy(tmp_path)
    stored = (folder / "guided.json").read_bytes()
    with pytest.raises(CommandError, match=r"no guided hand 'no-such-hand' in content/lessons.txt"):
        call_command("findguided", "no-such-hand", path=folder, verbosity=0)
    assert (folder / "guided.json").read_bytes() == stored
