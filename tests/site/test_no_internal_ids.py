"""No internal identifier in the text a reader sees (issue 16): a rule is called by its name
(or linked to its page), never by its catalogue id in brackets ("the only choice
(follow-suit)"); no page speaks of "RULES.md", of a reading by its number ("A17") or of an
engine choice by its number ("E9"). The ids stay where a reader does not read them: in URLs,
attributes, the JSON forms and the command line.

Each kind of page is rendered as a reader gets it, its tags stripped (attribute values and so
URLs with them), and its words searched.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.loo.bots import BeginnerBot
from games.loo.catalogue import rule_ids, rules
from games.loo.hand import Hand
from games.loo.messages import msg
from games.loo.questions import question_for
from games.loo.rulesets import OPTION_BY_NAME, PRESETS, READINGS, in_words
from games.loo.view import view_for
from games.models import PracticeTable
from games.naming import HUMAN, say
from lessons.course.models import Lesson
from lessons.models import Rule, Source
from lessons.trainer import bank
from lessons.trainer.models import AskedQuestion
from tests.crawl import Crawl


class _Words(HTMLParser):
    """The text of a page as a reader sees it: no tags, no attributes, no script or style."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    words = _Words()
    words.feed(html)
    return " ".join(unescape(" ".join(words.parts)).split())


_BRACKETED = re.compile(r"\(([a-z0-9]+(?:-[a-z0-9]+)*)\)")
_READING = re.compile(r"\bA\d{1,2}\b")
_ENGINE = re.compile(r"\bE\d{1,2}\b")
_HYPHENATED = re.compile(r"(?<![\w/-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w/-])")
_RULES_MD = re.compile(r"RULES\.md")
_URL = re.compile(r"\b(?:https?://|/)\S*")


def internal_ids(html: str) -> list[str]:
    """Every internal identifier in the visible text of ``html``, with some words around it: a
    rule id in brackets, a rule id or an option's name written with its hyphens, "RULES.md", a
    reading's number, an engine choice's (or a worked example's) number."""
    text = _URL.sub(" ", visible_text(html))
    ids = rule_ids() | set(OPTION_BY_NAME)
    spans = [m.span(1) for m in _BRACKETED.finditer(text) if m.group(1) in ids]
    spans += [m.span() for m in _HYPHENATED.finditer(text) if m.group() in ids]
    for pattern in (_READING, _ENGINE, _RULES_MD):
        spans += [m.span() for m in pattern.finditer(text)]
    return [text[max(0, start - 60) : end + 20] for start, end in sorted(set(spans))]


def get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


class Pages:
    """The pages a test reads, and every internal identifier found on them by address: read
    from the session's crawl of the site (tests/crawl.py) if given one, else fetched by
    ``client`` (the pages of a table being played, of a question being answered)."""

    def __init__(self, client: Client, crawl: Crawl | None = None) -> None:
        self.client = client
        self.crawl = crawl
        self.found: dict[str, list[str]] = {}

    def html(self, url: str) -> str:
        if self.crawl is None:
            return get(self.client, url)
        page = self.crawl.page(url)
        assert page.status == 200, url
        return page.html

    def read(self, url: str) -> None:
        ids = internal_ids(self.html(url))
        if ids:
            self.found[url] = ids


@pytest.fixture
def pages(client: Client) -> Pages:
    return Pages(client)


@pytest.fixture
def crawled(client: Client, site_pages: Crawl) -> Pages:
    """The pages as the session's crawl fetched them, each once for every test."""
    return Pages(client, site_pages)


def test_the_check_finds_what_it_looks_for() -> None:
    page = (
        '<p title="(follow-suit) A17">You played the 3♥: the only choice (follow-suit); '
        "see RULES.md, E9 and reading A17; a deal that is a must (must), and two-trumps = "
        "highest. <a href='/rules/follow-suit/'>Follow suit</a></p><script>A1</script>"
    )
    found = internal_ids(page)
    assert len(found) == 6, found
    for fine in (
        '<a href="/rules/follow-suit/" title="E9 (must)">Follow suit</a>',
        "<p>You must follow suit; a must; a three-card game; see /rules/follow-suit/.</p>",
    ):
        assert internal_ids(fine) == [], fine


def test_every_reading_a_note_rests_on_is_said_in_words() -> None:
    """A rule set's note, or the catalogue's prose, that cites a reading by its number shows
    what was read: every number cited has its words (else a reader sees only "our reading")."""
    texts = [s.note for p in PRESETS.values() for s in p.settings.values()]
    texts += [t for r in rules() for t in (r.statement, r.variants, *(s.text for s in r.sources))]
    cited = {m for t in texts for m in _READING.findall(t)}
    assert cited - set(READINGS) == set()
    assert in_words("end of ¶11; A47") == (
        "end of ¶11; our reading of what the dealer may do against a lone player where there "
        "is no miss"
    )


def test_a_message_names_the_rule_it_cites() -> None:
    assert say(msg("bot.only-card-rule", p=1, card="QH", rule="follow-suit")) == (
        "The player on your left played the Q♥: the only choice, under the rule “follow suit "
        "if you can”"
    )


# -- the reading side ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_rule_pages_name_rules_and_readings_in_words(crawled: Pages) -> None:
    for rule in Rule.objects.all():
        crawled.read(reverse("lessons:rule-detail", args=[rule.pk]))
    assert crawled.found == {}


@pytest.mark.django_db
def test_the_lists_and_comparisons_name_no_ids(crawled: Pages) -> None:
    for url in (
        reverse("lessons:rule-list"),
        reverse("lessons:source-list"),
        reverse("lessons:source-compare"),
        reverse("lessons:disagreement-list"),
        reverse("lessons:timeline"),
        reverse("lessons:source-compare") + "?a=peel&b=enquire-within",
        reverse("lessons:term-list"),
        reverse("games:choose"),
        reverse("trainer:choose"),
        reverse("course:home"),
    ):
        crawled.read(url)
    for preset in PRESETS:
        crawled.read(reverse("trainer:coverage") + f"?rules={preset}")
    # The search's snippets come from the rules' statements, options and all.
    for words in ("lead", "scope", "trump", "pam", "flush", "miss"):
        crawled.read(reverse("lessons:search") + f"?q={words}")
    assert crawled.found == {}
    # An option named in a rule's statement ("within `lead-scope`") is its rule's name there.
    found = visible_text(crawled.html(reverse("lessons:search") + "?q=ace+of+trumps"))
    assert "within which leads carry obligations" in found and "lead-scope" not in found


@pytest.mark.django_db
def test_source_pages_name_no_ids(crawled: Pages) -> None:
    for source in Source.objects.all():
        crawled.read(reverse("lessons:source-detail", args=[source.slug]))
        crawled.read(reverse("lessons:source-detail", args=[source.slug]) + "?mode=all")
    assert crawled.found == {}


@pytest.mark.django_db
def test_lesson_pages_name_no_ids(crawled: Pages) -> None:
    for lesson in Lesson.objects.all():
        for preset in PRESETS:
            crawled.read(reverse("course:lesson", args=[lesson.slug]) + f"?rules={preset}")
    assert crawled.found == {}


# -- the practice table and its replay ----------------------------------------------------------


def _decide(pk: int, seed: object) -> dict[str, object]:
    table = PracticeTable.objects.get(pk=pk)
    hand = table.to_engine().hand
    assert hand is not None
    if not hand.over and hand.to_act != HUMAN:
        return {"version": table.version, "kind": "wait"}
    action = BeginnerBot(f"ids:{seed}:{len(hand.log)}").decide(view_for(hand, HUMAN)).action
    data: dict[str, object] = {"version": table.version, "kind": action.kind}
    if action.kind == "play":
        data["card"] = action.cards[0]
    else:
        data["choice"] = action.choice
        if action.cards:
            data["discards"] = list(action.cards)
    return data


def _hand(pk: int) -> Hand:
    hand = PracticeTable.objects.get(pk=pk).to_engine().hand
    assert hand is not None
    return hand


TABLES = [
    ("three-card", "hoffmann", "sensible", "learning"),
    ("three-card", "hoffmann", "careless", "laws"),
    ("five-card", "peel", "sensible", "learning"),
    ("five-card", "peel", "careless", "laws"),
    ("irish", "britannica", "beginner", "learning"),
    ("five-card", "parlett", "beginner", "learning"),
    ("three-card", "whiteknuckle", "beginner", "learning"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "rules", "opponents", "mode"), TABLES)
def test_the_table_its_log_and_the_replay_name_no_ids(
    client: Client, pages: Pages, game: str, rules: str, opponents: str, mode: str
) -> None:
    for seed in range(1, 4):
        response = client.post(
            reverse("games:table-create"),
            {
                "game": game,
                "rules": rules,
                "players": 5,
                "opponents": opponents,
                "mode": mode,
                "seed": seed,
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        pk = int(response["Location"].strip("/").split("/")[-1])
        url = reverse("games:table", args=[pk])
        for _ in range(100):
            pages.read(url)
            if _hand(pk).over:
                break
            response = client.post(reverse("games:table-act", args=[pk]), _decide(pk, seed))
            assert response.status_code == 302
        assert _hand(pk).over
        replay = reverse("games:hand-replay", args=[pk, 1])
        steps = len(_hand(pk).log)
        for step in range(steps + 1):
            pages.read(f"{replay}?step={step}")
    assert pages.found == {}


# -- the trainer --------------------------------------------------------------------------------


#: Kinds that take a second to make (the coach searches sampled deals): asked under one rule
#: set per game here. What their pages say comes from the coach's sentences, which every rule
#: set shares; the rule set only names itself on the page, as it does for every other kind.
_SLOW_KINDS = {"declare"}


def _kinds() -> Iterator[tuple[str, str, str]]:
    for kind in bank.kinds():
        games_seen: set[str] = set()
        for preset in PRESETS:
            for game in bank.games_of(preset):
                if not bank.coverage(preset, game).get(kind):
                    continue
                if kind in _SLOW_KINDS and game in games_seen:
                    continue
                games_seen.add(game)
                yield kind, preset, game


@pytest.fixture
def remade_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each question made again once: a question's page and its answer remake it from its
    identity at each request (``bank.remake``), the engine's work, and the same identity gives
    the same question (tests/trainer/test_views.py); the pages are rendered as ever."""
    made: dict[str, object] = {}
    remake = bank.remake

    def remake_once(*args: Any, **kwargs: Any) -> object:
        key = repr((args, sorted(kwargs.items())))
        if key not in made:
            made[key] = remake(*args, **kwargs)
        return made[key]

    monkeypatch.setattr(bank, "remake", remake_once)


@pytest.mark.django_db
@pytest.mark.usefixtures("remade_once")
def test_the_trainer_names_no_ids_asking_or_grading(client: Client, pages: Pages) -> None:
    session = client.session
    session.save()
    client.cookies["sessionid"] = session.session_key or ""
    for kind, preset, game in _kinds():
        q = question_for(preset, game, kinds=(kind,), seed=7)
        asked = AskedQuestion.store(
            q, session_key=client.session.session_key or "", drill=bank.Drill("any", preset, game)
        )
        pages.read(asked.get_absolute_url())
        wrong = [c.id for c in q.choices if c.id not in q.answer][:1] or list(q.answer[:-1])
        for response in (wrong, list(q.answer)):
            asked = AskedQuestion.store(
                q,
                session_key=client.session.session_key or "",
                drill=bank.Drill("any", preset, game),
            )
            answered = client.post(
                reverse("trainer:question-answer", args=[asked.pk]), {"response": response}
            )
            assert answered.status_code in (200, 302)
            pages.read(asked.get_absolute_url())
    pages.read(reverse("trainer:choose"))
    assert pages.found == {}
