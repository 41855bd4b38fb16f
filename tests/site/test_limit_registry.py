"""The rate limits' registry (loo_site.limits): the client an address counts as (an IPv6 /64
is one), the windows moved through by the limiter's clock (never by waiting), and the counts a
deployment sets."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from loo_site import limits
from loo_site.settings import envints
from tests.limits_clock import LimitsClock

pytestmark = pytest.mark.django_db

LIMITS = settings.RATE_LIMITS
PASSWORD = "a-long-enough-password-9"
TWO_TABLES = override_settings(RATE_LIMITS={**LIMITS, "tables-per-address": (2, 600)})
DEAL = {
    "game": "three-card",
    "rules": "hoffmann",
    "players": 4,
    "opponents": "beginner",
    "mode": "learning",
}


def _client(address: str, **meta: Any) -> str:
    return limits.client_address(RequestFactory().get("/", REMOTE_ADDR=address, **meta))


def _deal(address: str) -> int:
    """A new practice table from a fresh browser at ``address``: its status (302 dealt, 429
    refused)."""
    return Client(REMOTE_ADDR=address).post(reverse("games:table-create"), DEAL).status_code


# -- the client ----------------------------------------------------------------------------------


def test_an_ipv6_address_counts_as_its_64() -> None:
    assert _client("2001:db8:1:2::1") == _client("2001:db8:1:2:ffff:ffff:ffff:fffe")
    assert _client("2001:db8:1:2::1") == "2001:db8:1:2::"
    assert _client("2001:db8:1:3::1") != _client("2001:db8:1:2::1")


def test_an_ipv4_address_counts_alone_and_a_mapped_one_as_its_ipv4() -> None:
    assert _client("192.0.2.1") == "192.0.2.1"
    assert _client("192.0.2.2") != _client("192.0.2.1")
    assert _client("::ffff:192.0.2.1") == "192.0.2.1"


@override_settings(TRUSTED_PROXIES=1)
def test_behind_a_proxy_the_forwarded_address_is_grouped_the_same_way() -> None:
    forwarded = {"HTTP_X_FORWARDED_FOR": "2001:db8:5:6::abcd"}
    assert _client("10.0.0.1", **forwarded) == "2001:db8:5:6::"
    assert _client("10.0.0.1", HTTP_X_FORWARDED_FOR="::ffff:198.51.100.7") == "198.51.100.7"


@TWO_TABLES
def test_two_addresses_of_one_64_share_a_count() -> None:
    assert _deal("2001:db8:1:2::1") == 302
    assert _deal("2001:db8:1:2:aaaa::2") == 302
    assert _deal("2001:db8:1:2:ffff:ffff:ffff:fffe") == 429
    # Another /64 is another client.
    assert _deal("2001:db8:1:3::1") == 302


@TWO_TABLES
def test_addresses_of_different_64s_do_not_share_a_count() -> None:
    for n in range(1, 5):
        assert _deal(f"2001:db8:0:{n}::1") == 302
        assert _deal(f"2001:db8:0:{n}::2") == 302


@TWO_TABLES
def test_an_ipv4_mapped_address_counts_as_its_ipv4() -> None:
    assert _deal("192.0.2.60") == 302
    assert _deal("::ffff:192.0.2.60") == 302
    assert _deal("192.0.2.60") == 429
    assert _deal("192.0.2.61") == 302


def test_axes_locks_a_name_at_the_whole_64() -> None:
    """Five wrong passwords for one name from a /64: the name is locked for all of it."""
    User.objects.create_user("ada", password=PASSWORD)
    for n in range(5):  # each from its own address: axes locks the name at the fifth
        Client(REMOTE_ADDR=f"2001:db8:9:9::{n + 1}").post(
            reverse("login"), {"username": "ada", "password": "wrong"}
        )
    right = {"username": "ada", "password": PASSWORD}
    response = Client(REMOTE_ADDR="2001:db8:9:9:ffff::1").post(reverse("login"), right)
    assert response.status_code == 429 and "Too many failed logins" in response.content.decode()
    assert Client(REMOTE_ADDR="2001:db8:9:a::1").post(reverse("login"), right).status_code == 302


# -- windows -------------------------------------------------------------------------------------


@TWO_TABLES
def test_a_limit_holds_to_the_end_of_its_window_and_not_after(limits_clock: LimitsClock) -> None:
    """The clock stands a second into the window: ten minutes less a second are left."""
    assert [_deal("192.0.2.70") for _ in range(3)] == [302, 302, 429]
    response = Client(REMOTE_ADDR="192.0.2.70").post(reverse("games:table-create"), DEAL)
    assert response["Retry-After"] == "600"
    limits_clock.advance(598)
    response = Client(REMOTE_ADDR="192.0.2.70").post(reverse("games:table-create"), DEAL)
    assert response.status_code == 429 and response["Retry-After"] == "2"
    limits_clock.advance(1)  # the next window
    assert [_deal("192.0.2.70") for _ in range(3)] == [302, 302, 429]


@override_settings(RATE_LIMITS={**LIMITS, "guesses-per-address-minute": (2, 60)})
def test_failures_counted_in_one_minute_are_forgotten_in_the_next(
    limits_clock: LimitsClock,
) -> None:
    def wrong(name: str) -> int:
        response = Client(REMOTE_ADDR="192.0.2.71").post(
            reverse("login"), {"username": name, "password": "123456"}
        )
        return response.status_code

    assert [wrong("a"), wrong("b"), wrong("c")] == [200, 200, 429]
    limits_clock.advance(59)
    assert [wrong("d"), wrong("e"), wrong("f")] == [200, 200, 429]


def test_the_teachers_hour_of_accounts_ends_with_the_hour(limits_clock: LimitsClock) -> None:
    teacher = User.objects.create_user("teach")
    rule = limits.limit("accounts-per-teacher")
    who = limits.account(teacher)
    assert limits.LIMITS.take(rule, who, rule.count).wait == 0
    refused = limits.LIMITS.take(rule, who, 1)
    assert refused.wait == 3600 and refused.before == rule.count
    limits_clock.advance(3599)
    assert limits.LIMITS.take(rule, who, rule.count).wait == 0


# -- the counts a deployment sets ----------------------------------------------------------------


def test_a_deployment_sets_a_count_by_the_limits_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_LIMIT_TABLES_PER_ADDRESS", "1000")
    monkeypatch.setenv("DJANGO_LIMIT_GUESSES_PER_ADDRESS_MINUTE", " 7 ")
    monkeypatch.setenv("DJANGO_LIMIT_COACH_PER_SESSION", "")
    counts = envints("DJANGO_LIMIT_")
    assert counts["tables-per-address"] == 1000
    assert counts["guesses-per-address-minute"] == 7
    assert "coach-per-session" not in counts
    with override_settings(LIMIT_COUNTS=counts):
        assert limits.limit("tables-per-address").count == 1000
        assert limits.limit("tables-per-address").seconds == 600
        # A test's RATE_LIMITS replaces both.
        with override_settings(RATE_LIMITS={"tables-per-address": (3, 60)}):
            rule = limits.limit("tables-per-address")
            assert (rule.count, rule.seconds) == (3, 60)


def test_a_count_for_no_limit_stops_the_site() -> None:
    with pytest.raises(ImproperlyConfigured, match="DJANGO_LIMIT_TABLES_PER_ADRESS"):
        limits.LIMITS.check_counts({"tables-per-adress": 5})


def test_every_limit_is_declared_once_and_every_kind_of_post_counts_declared_ones() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        limits.declare("tables-per-address", 1, 60, limits.Per.ADDRESS, "Again.")
    for creating in limits.CREATING.values():
        for name in creating.limits:
            assert name in limits.LIMITS.limits, name
