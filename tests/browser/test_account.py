"""A person signs up, finds the account page and deletes the account; axe checks the account
pages. With JavaScript on only: the account pages are plain forms and links (no htmx, no script
of their own), the same without it."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tests.browser import axe

PASSWORD = "a long pass phrase 7"

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_then_delete_the_account(js_page: Page) -> None:
    page = js_page  # plain forms and links: the same without JavaScript
    page.goto("/accounts/sign-up/")
    page.get_by_label("Username").fill("ada")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("Logged in as")).to_be_attached()

    page.get_by_role("link", name="Account").click()
    expect(page.get_by_role("heading", name="Your account", exact=True)).to_be_visible()
    page.get_by_role("link", name="delete your account").click()
    expect(page.get_by_role("heading", name="Delete your account", level=1)).to_be_visible()

    page.get_by_label("Your password").fill("not it")
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_text("That is not your password. Nothing has been deleted.")).to_be_visible()
    assert User.objects.filter(username="ada").exists()

    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_role("heading", name="Account deleted")).to_be_visible()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert not User.objects.filter(username="ada").exists()


@pytest.mark.parametrize("path", ["/accounts/password/", "/accounts/delete/"])
def test_axe_finds_no_violations_on_the_account_pages(js_page: Page, path: str) -> None:
    User.objects.create_user("ada", password=PASSWORD)
    js_page.goto(f"/accounts/log-in/?next={path}")
    js_page.get_by_label("Username").fill("ada")
    js_page.get_by_label("Password").fill(PASSWORD)
    js_page.get_by_role("button", name="Log in").click()
    expect(js_page).to_have_url(path)

    found = axe.violations(js_page)

    assert found == [], axe.report(found)
