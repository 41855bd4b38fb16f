"""A table for people's stream carries the table (games/people/live.py), through a real ASGI
server (tests/live/test_sse.py's): each event is the viewer's own ``#people-table``, from his
seat or as the spectator, with his stream's CSRF token; it is rendered once per version and
viewer however many of his pages listen; a viewer who no longer holds his seat is told to
reload and the stream ends; and open streams are capped at once, per account and per
address, with a 429 that says why, a place freed when a stream closes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings

from games.models import PeopleTable
from games.people import live
from games.people import service as people
from tests.live.conftest import written
from tests.live.test_sse import Stream, server  # noqa: F401 (the fixture)

from .conftest import decision, make_user, open_table, started, to_act

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


@pytest.fixture
def live_poll_seconds() -> float:
    """The site's own poll (tests/live/test_sse.py's ``server`` says why)."""
    return 0.25


def _cookie(user: Any) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {"Cookie": f"sessionid={client.cookies['sessionid'].value}; csrftoken=abc" + "x" * 29}


def _open(port: int, table: PeopleTable, user: Any, query: str = "") -> Stream:
    stream = Stream(
        port,
        f"/play/people/{table.pk}/stream/?after={table.version}{query}",
        _cookie(user),
        timeout=30,
    )
    return stream


def _table_event(stream: Stream) -> tuple[int, str]:
    """The next table the stream sends: its version and HTML."""
    event = stream.next_update()
    lines = event.split("\n")
    assert lines[1] == "event: table", event[:300]
    html = "\n".join(line.removeprefix("data: ") for line in lines[2:])
    return int(lines[0].removeprefix("id: ")), html


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    opened: list[Stream] = []
    yield opened
    for stream in opened:
        stream.close()


def test_each_event_is_the_viewer_s_own_table_from_his_seat_or_as_spectator(
    server: int,  # noqa: F811
    streams: list[Stream],
) -> None:
    table, users = started(("host", "ann", "bob"), host_sits=False)
    seated = {s.user_id: s.number for s in table.seats.exclude(user=None)}
    ann, bob, host = users[1], users[2], users[0]
    with override_settings(LIVE_REDIS_URL=""):
        streams += [
            _open(server, table, ann),
            _open(server, table, bob),
            _open(server, table, host, "&watch=1"),
        ]
        for stream in streams:
            assert stream.response.status == 200
            assert stream.event()[0] == "retry: 2000"
        seat = to_act(table)
        assert seat is not None
        mover = next(u for u in (ann, bob) if seated[u.pk] == seat)
        played = written(lambda: people.act(table, mover, decision(table, seat))).table
        tables = [_table_event(stream) for stream in streams]
    for version, html in tables:
        assert version >= played.version
        assert html.startswith('<div id="people-table"') and 'id="people-bar"' in html
        # The stream's own token, never the shared rendering's stand-in.
        assert live.TOKEN not in html
    (_, ann_html), (_, bob_html), (_, host_html) = tables
    hand = PeopleTable.objects.get(pk=table.pk).to_engine().hand
    assert hand is not None
    for user, html in ((ann, ann_html), (bob, bob_html)):
        assert 'id="hand-table"' in html and "Your cards" in html
        me = seated[user.pk]
        theirs = {c.code for n, cards in enumerate(hand.hands) if n != me for c in cards}
        assert all(f'value="{code}"' not in html for code in theirs)
    assert "You are watching" in host_html and "Your cards" not in host_html


def test_a_viewer_s_table_is_rendered_once_for_all_his_streams(
    server: int,  # noqa: F811
    streams: list[Stream],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, users = started(("host", "ann", "bob"))
    rendered: list[tuple[int, int]] = []
    render = live.render_table

    def counted(viewer: live.Viewer) -> live.Rendered:
        done = render(viewer)
        rendered.append((viewer.user.pk, done.version))
        return done

    monkeypatch.setattr(live, "render_table", counted)
    ann, bob = users[1], users[2]
    with override_settings(LIVE_REDIS_URL=""):
        streams += [_open(server, table, ann) for _ in range(3)] + [_open(server, table, bob)]
        for stream in streams:
            assert stream.event()[0] == "retry: 2000"
        row = PeopleTable.objects.filter(pk=table.pk)
        written(lambda: row.update(version=table.version + 1))
        versions = {_table_event(stream)[0] for stream in streams}
    assert versions == {table.version + 1}
    # Ann's three streams took one rendering; Bob's his own.
    assert sorted(rendered) == sorted([(ann.pk, table.version + 1), (bob.pk, table.version + 1)])


def test_a_viewer_who_no_longer_holds_his_seat_is_told_to_reload(
    server: int,  # noqa: F811
    streams: list[Stream],
) -> None:
    host, ann = make_user("host"), make_user("ann")
    table = open_table(host)
    people.sit(table, ann)
    table.refresh_from_db()
    with override_settings(LIVE_REDIS_URL=""):
        stream = _open(server, table, ann)
        streams.append(stream)
        assert stream.event()[0] == "retry: 2000"
        written(lambda: people.leave(table, ann))  # before the start: his seat is free again
        assert stream.next_update() == "event: reload\ndata: "
        with pytest.raises(AssertionError, match="the stream ended"):
            stream.event()


def _limits(account: int, address: int) -> Any:
    return override_settings(
        LIVE_REDIS_URL="",
        RATE_LIMITS={
            **settings.RATE_LIMITS,
            "people-streams-per-account": (account, 60),
            "people-streams-per-address": (address, 60),
        },
    )


def _until_open(port: int, table: PeopleTable, user: Any) -> None:
    """Until ``user`` may open a stream again (a closed one's place is given back once the
    server has seen it close)."""
    give_up = time.monotonic() + 30
    while True:
        probe = _open(port, table, user, "&check=1")
        status = probe.response.status
        probe.close()
        if status == 204:
            return
        assert status == 429 and time.monotonic() < give_up, status


def test_open_streams_are_capped_at_once_per_account_and_freed_when_one_closes(
    server: int,  # noqa: F811
    streams: list[Stream],
) -> None:
    table, users = started(("host", "ann", "bob"))
    ann = users[1]
    with _limits(account=2, address=100):
        streams += [_open(server, table, ann) for _ in range(2)]
        for stream in streams:
            assert stream.response.status == 200
            stream.event()
        third = _open(server, table, ann)
        assert third.response.status == 429
        assert third.response.getheader("Retry-After") == "60"
        assert "Too many live pages of tables are open." in third.response.read().decode()
        third.close()
        streams.pop().close()
        _until_open(server, table, ann)
        again = _open(server, table, ann)
        streams.append(again)
        assert again.response.status == 200
        again.event()  # read, as the others are: closed unread, uvicorn waits for it (test_sse)


def test_open_streams_are_capped_at_once_per_address(
    server: int,  # noqa: F811
    streams: list[Stream],
) -> None:
    table, users = started(("host", "ann", "bob"))
    with _limits(account=10, address=2):
        streams += [_open(server, table, user) for user in users[:2]]
        for stream in streams:
            assert stream.response.status == 200
            stream.event()
        other = _open(server, table, users[2])  # another account, the same address
        assert other.response.status == 429
        other.close()
