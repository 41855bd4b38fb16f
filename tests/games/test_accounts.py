"""Accounts: signing up, logging in and out; the tables of the browser session come along,
and a logged-in player's finished hands are kept in the history."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import PracticeHand, PracticeTable

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase 7"


def _text(response: Any) -> str:
    return str(response.content.decode())


def _sign_up(client: Client, name: str = "ada", **extra: str) -> Any:
    data = {"username": name, "password1": PASSWORD, "password2": PASSWORD, **extra}
    return client.post(reverse("sign-up"), data)


def test_anyone_sees_how_to_log_in_or_sign_up(client: Client) -> None:
    text = _text(client.get(reverse("games:choose")))

    assert 'href="/accounts/log-in/?next=/play/"' in text
    assert 'href="/accounts/sign-up/?next=/play/"' in text
    assert "Log out" not in text


def test_signing_up_logs_in_and_brings_the_sessions_tables(client: Client, player: Any) -> None:
    table = player.new_table(seed=5)
    player.play_out(table.pk)

    response = _sign_up(client, next="/play/history/")

    assert response.status_code == 302 and response["Location"] == "/play/history/"
    user = User.objects.get(username="ada")
    table.refresh_from_db()
    assert (table.owner, table.session_key) == (user, "")
    history = _text(client.get(reverse("games:hand-list")))
    assert f"Table {table.pk}, deal 1" in history
    assert client.get(table.get_absolute_url()).status_code == 200
    page = _text(client.get(reverse("games:choose")))
    assert "ada" in page and "Log out" in page and "Your finished hands" in page


def test_a_refused_sign_up_says_why_and_changes_nothing(client: Client, player: Any) -> None:
    table = player.new_table(seed=5)

    response = client.post(
        reverse("sign-up"), {"username": "ada", "password1": PASSWORD, "password2": "other"}
    )

    assert response.status_code == 200
    assert "The two password fields didn’t match." in _text(response)
    assert not User.objects.exists()
    table.refresh_from_db()
    assert table.owner is None and table.session_key
    assert client.get(table.get_absolute_url()).status_code == 200


def test_a_taken_name_is_refused(client: Client) -> None:
    User.objects.create_user("ada", password=PASSWORD)

    response = _sign_up(client, "ada")

    assert response.status_code == 200
    assert "A user with that username already exists." in _text(response)
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "name",
    [
        "ADA",  # case
        "\u0410da",  # a Cyrillic capital А
        "Ad\u0430",  # a Cyrillic small а
        "\uff21\uff44\uff41",  # full width
    ],
)
def test_a_name_that_looks_like_a_taken_one_is_refused(client: Client, name: str) -> None:
    User.objects.create_user("Ada", password="a-long-enough-password-9")
    response = client.post(
        reverse("sign-up"),
        {"username": name, "password1": "x-long-enough-9", "password2": "x-long-enough-9"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    # Django's form refuses the same name in other capitals (or full width) first.
    assert "A name that looks the same is taken" in page or "with that username already" in page
    assert User.objects.count() == 1


def test_a_renamed_account_is_looked_up_by_its_new_name(client: Client) -> None:
    user = User.objects.create_user("Ada", password="a-long-enough-password-9")
    user.username = "Bea"
    user.save()
    data = {"password1": "x-long-enough-9", "password2": "x-long-enough-9"}
    assert client.post(reverse("sign-up"), {"username": "\u0412ea", **data}).status_code == 200
    assert client.post(reverse("sign-up"), {"username": "ada", **data}).status_code == 302


def test_logging_in_brings_this_sessions_tables_and_no_others(client: Client, player: Any) -> None:
    user = User.objects.create_user("ada", password=PASSWORD)
    mine = player.new_table(seed=5)
    stranger = Client()
    other = player.__class__(stranger).new_table(seed=6)

    response = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})

    assert response.status_code == 302 and response["Location"] == reverse("games:choose")
    mine.refresh_from_db()
    other.refresh_from_db()
    assert mine.owner == user
    assert other.owner is None and stranger.get(other.get_absolute_url()).status_code == 200
    assert client.get(mine.get_absolute_url()).status_code == 200
    assert client.get(other.get_absolute_url()).status_code == 404


def test_a_wrong_password_says_so_and_the_tables_stay(client: Client, player: Any) -> None:
    User.objects.create_user("ada", password=PASSWORD)
    table = player.new_table(seed=5)

    response = client.post(reverse("login"), {"username": "ada", "password": "wrong"})

    assert response.status_code == 200
    assert "Please enter a correct username and password." in _text(response)
    table.refresh_from_db()
    assert table.owner is None
    assert client.get(table.get_absolute_url()).status_code == 200


def test_next_must_be_a_page_of_this_site(client: Client) -> None:
    response = _sign_up(client, next="https://evil.example/")

    assert response["Location"] == reverse("games:choose")

    client.post(reverse("logout"))
    response = client.post(
        reverse("login") + "?next=https://evil.example/",
        {"username": "ada", "password": PASSWORD},
    )
    assert response["Location"] == reverse("games:choose")


def test_logging_out_is_a_post_and_leaves_the_tables_with_the_account(
    client: Client, player: Any
) -> None:
    user = User.objects.create_user("ada", password=PASSWORD)
    client.force_login(user)
    table = player.new_table(seed=5)
    assert table.owner == user

    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))

    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert client.get(table.get_absolute_url()).status_code == 404
    client.force_login(user)
    assert client.get(table.get_absolute_url()).status_code == 200


def test_a_logged_in_player_is_not_asked_to_sign_up_again(client: Client) -> None:
    client.force_login(User.objects.create_user("ada", password=PASSWORD))

    response = client.get(reverse("sign-up"))

    assert response.status_code == 302 and response["Location"] == reverse("games:choose")


def test_a_player_changes_his_password_and_stays_logged_in(client: Client) -> None:
    user = User.objects.create_user("ada", password=PASSWORD)
    client.force_login(user)
    assert 'href="/accounts/password/"' in _text(client.get(reverse("account")))
    new = "another long phrase 9"

    refused = client.post(
        reverse("password-change"),
        {"old_password": "wrong", "new_password1": new, "new_password2": new},
    )
    assert refused.status_code == 200
    assert "Your old password was entered incorrectly." in _text(refused)

    response = client.post(
        reverse("password-change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )

    assert response.status_code == 302 and response["Location"] == reverse("password-changed")
    assert "Password changed" in _text(client.get(reverse("password-changed")))
    assert client.get(reverse("games:hand-list")).context["user"] == user  # still logged in
    user.refresh_from_db()
    assert user.check_password(new) and not user.check_password(PASSWORD)


def test_changing_a_password_needs_a_login(client: Client) -> None:
    response = client.get(reverse("password-change"))

    assert response.status_code == 302
    assert response["Location"] == "/accounts/log-in/?next=/accounts/password/"


def test_repeated_failed_logins_lock_that_name_for_a_while(client: Client, player: Any) -> None:
    User.objects.create_user("ada", password=PASSWORD)
    User.objects.create_user("bob", password=PASSWORD)
    table = player.new_table(seed=5)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(reverse("login"), {"username": "ada", "password": "wrong"})
        assert response.status_code == 200

    locked = client.post(reverse("login"), {"username": "ada", "password": "wrong"})
    right = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})

    assert locked.status_code == right.status_code == 429
    assert "Too many failed logins" in _text(right)
    assert "_auth_user_id" not in client.session
    table.refresh_from_db()
    assert table.owner is None and client.get(table.get_absolute_url()).status_code == 200
    # Another name is not locked.
    other = client.post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert other.status_code == 302


# -- deleting an account ---------------------------------------------------------------------


def test_deleting_an_account_needs_a_login(client: Client) -> None:
    response = client.get(reverse("delete-account"))

    assert response.status_code == 302
    assert response["Location"] == "/accounts/log-in/?next=/accounts/delete/"


def test_the_account_page_leads_to_deleting_it(client: Client) -> None:
    client.force_login(User.objects.create_user("ada", password=PASSWORD))

    header = _text(client.get(reverse("games:choose")))
    account = _text(client.get(reverse("account")))

    assert 'href="/accounts/">Account</a>' in header
    assert 'href="/accounts/delete/"' in account and 'href="/accounts/password/"' in account


def test_a_wrong_password_deletes_nothing(client: Client, player: Any) -> None:
    _sign_up(client)
    table = player.new_table(seed=5)
    player.play_out(table.pk)
    page = _text(client.get(reverse("delete-account")))
    assert "1 practice table and 1 finished hand" in page

    response = client.post(reverse("delete-account"), {"password": "wrong"})

    assert response.status_code == 200
    assert "That is not your password. Nothing has been deleted." in _text(response)
    assert User.objects.filter(username="ada").exists()
    assert PracticeTable.objects.filter(pk=table.pk).exists()
    assert PracticeHand.objects.filter(table=table).count() == 1
    assert client.get(reverse("games:hand-list")).context["user"].is_authenticated


def test_deleting_an_account_deletes_its_tables_and_hands_and_logs_out(
    client: Client, player: Any
) -> None:
    # Someone else's table is not touched.
    other = User.objects.create_user("bob", password=PASSWORD)
    bob = type(player)(Client())
    bob.client.force_login(other)
    theirs = bob.new_table(seed=6)
    bob.play_out(theirs.pk)
    _sign_up(client)
    table = player.new_table(seed=5)
    player.play_out(table.pk)

    response = client.post(reverse("delete-account"), {"password": PASSWORD})

    assert response.status_code == 302 and response["Location"] == reverse("account-deleted")
    assert not User.objects.filter(username="ada").exists()
    assert not PracticeTable.objects.filter(pk=table.pk).exists()
    assert not PracticeHand.objects.filter(table_id=table.pk).exists()
    assert PracticeTable.objects.filter(pk=theirs.pk, owner=other).exists()
    assert PracticeHand.objects.filter(table=theirs).count() == 1
    page = client.get(reverse("account-deleted"))
    assert "Your account, its practice tables and its finished hands have been deleted" in _text(
        page
    )
    assert not page.context["user"].is_authenticated
    # The table's page is gone for good.
    assert client.get(f"/play/{table.pk}/").status_code == 404
