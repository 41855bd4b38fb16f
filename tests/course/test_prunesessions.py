"""prunesessions: what an ended browser session left (progress, questions, practice tables)
goes; what a live session or an account keeps stays."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.backends.cache import SessionStore as CacheStore
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games.models import PracticeHand, PracticeTable
from lessons.course.models import Progress
from lessons.trainer.models import AskedQuestion

from .test_progress import Learner

pytestmark = pytest.mark.django_db

DEAL = {"game": "three-card", "rules": "hoffmann", "players": 4, "opponents": "beginner"}


def learn(client: Client) -> str:
    """A lesson's step, a trainer's drill and a practice table: what a learner leaves."""
    learner = Learner(client)
    learner.do(learner.steps[0])
    drill = {"scope": "any", "rules": "hoffmann", "game": "three-card"}
    assert client.post(reverse("trainer:ask"), drill).status_code == 302
    dealt = client.post(reverse("games:table-create"), {**DEAL, "mode": "learning"})
    assert dealt.status_code == 302
    return str(client.session.session_key)


def table(session_key: str) -> PracticeTable:
    return PracticeTable.deal_new(**DEAL, seed=1, laws=False, session_key=session_key)


def kept() -> dict[str, set[str]]:
    """Whose rows there are, by kind: a session key, or an account's name."""
    whose: dict[str, set[str]] = {}
    for model in (Progress, AskedQuestion, PracticeTable):
        rows = model.objects.select_related("owner")
        whose[model.__name__] = {r.owner.username if r.owner else r.session_key for r in rows}
    return whose


def test_what_ended_sessions_left_is_deleted() -> None:
    expired, gone, live = (learn(Client()) for _ in range(3))
    account = Client()
    account.force_login(User.objects.create_user("ada"))
    learn(account)
    # A hand the gone session finished; its table may hold one already (a dealer everyone
    # passed to takes the pool before the human's first turn, seeds being random: number 1
    # was then taken, one run in a few dozen).
    gone_table = PracticeTable.objects.get(session_key=gone)
    left = PracticeHand.objects.create(
        table=gone_table,
        number=gone_table.hands.count() + 1,
        setup={},
        log=[],
        outcome="-",
        finished=timezone.now(),
    )
    Session.objects.filter(session_key=expired).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    Session.objects.filter(session_key=gone).delete()
    out = StringIO()

    call_command("prunesessions", stdout=out)

    kinds = ("Progress", "AskedQuestion", "PracticeTable")
    assert kept() == {name: {live, "ada"} for name in kinds}
    # (A table kept may hold a finished hand of its own: a dealer everyone passed to takes
    # the pool before the human's first turn, seeds being random.)
    assert not PracticeHand.objects.filter(pk=left.pk).exists()
    assert not PracticeHand.objects.exclude(table__in=PracticeTable.objects.all()).exists()
    said = out.getvalue()
    assert said.startswith("Deleted what ended browser sessions left: ")
    for words in ("2 practice tables", "4 asked questions", "2 progress rows"):
        assert words in said


@override_settings(SESSION_ENGINE="django.contrib.sessions.backends.cache")
def test_a_session_kept_in_the_cache_is_looked_up() -> None:
    live = CacheStore()
    live.create()
    for key in (str(live.session_key), "gone" * 8):
        table(key)

    call_command("prunesessions", stdout=StringIO())

    assert set(PracticeTable.objects.values_list("session_key", flat=True)) == {live.session_key}


@override_settings(SESSION_ENGINE="django.contrib.sessions.backends.signed_cookies")
def test_sessions_in_signed_cookies_cannot_be_pruned() -> None:
    table("x")
    with pytest.raises(CommandError, match="cannot be looked up"):
        call_command("prunesessions", stdout=StringIO())
    assert PracticeTable.objects.count() == 1
