"""Every response carries a strict Content-Security-Policy, a Permissions-Policy that denies
the browser features the site never uses, and Cross-Origin-Resource-Policy: same-origin; and
nothing in the templates needs the inline script or style that policy forbids."""

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.http import HttpResponseBase
from django.test import Client

from lessons import markup

ROOT = Path(__file__).resolve().parents[2]

CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
DENIED = [
    "accelerometer",
    "autoplay",
    "browsing-topics",
    "camera",
    "display-capture",
    "encrypted-media",
    "geolocation",
    "gyroscope",
    "hid",
    "magnetometer",
    "microphone",
    "midi",
    "payment",
    "publickey-credentials-get",
    "screen-wake-lock",
    "serial",
    "usb",
    "xr-spatial-tracking",
]
HTMX = {"HX-Request": "true"}


def _directives(header: str) -> dict[str, list[str]]:
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *values = part.split()
        assert name not in directives, f"{name} twice in {header!r}"
        directives[name] = values
    return directives


def _features(header: str) -> dict[str, str]:
    features: dict[str, str] = {}
    for part in header.split(","):
        name, _, allowlist = part.strip().partition("=")
        features[name] = allowlist
    return features


def _assert_the_headers(response: HttpResponseBase) -> None:
    assert _directives(response["Content-Security-Policy"]) == CSP
    assert "unsafe" not in response["Content-Security-Policy"]
    assert "Content-Security-Policy-Report-Only" not in response
    assert _features(response["Permissions-Policy"]) == {name: "()" for name in DENIED}
    assert response["Cross-Origin-Resource-Policy"] == "same-origin"


@pytest.mark.django_db
def test_a_page(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    _assert_the_headers(response)


@pytest.mark.django_db
def test_an_htmx_fragment(client: Client) -> None:
    response = client.get("/search/?q=pam", headers=HTMX)

    assert response.status_code == 200
    assert b"<html" not in response.content
    _assert_the_headers(response)


@pytest.mark.django_db
def test_the_not_found_page(client: Client) -> None:
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert b"Page not found" in response.content
    _assert_the_headers(response)


@pytest.mark.django_db
def test_a_form_that_redirects(client: Client) -> None:
    user = get_user_model().objects.create_user("ada", password="a long pass phrase 7")
    client.force_login(user)

    response = client.post("/accounts/log-out/")

    assert response.status_code == 302
    _assert_the_headers(response)


@pytest.mark.django_db  # closing the response sends request_finished, which looks at it
def test_a_static_file_served_by_whitenoise(client: Client) -> None:
    response = client.get("/static/css/site.css")
    response.close()  # WhiteNoise streams the file: close it

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    _assert_the_headers(response)


def test_the_health_check(client: Client) -> None:
    response = client.get("/healthz/")

    assert response.status_code == 200
    _assert_the_headers(response)


# What the policy forbids, as it would be written in a template or in rendered markup.
_INLINE = {
    "an inline <script>": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE),
    "a <style> element": re.compile(r"<style\b", re.IGNORECASE),
    "a style attribute": re.compile(r"\sstyle\s*=", re.IGNORECASE),
    "an on… handler attribute": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "an hx-on attribute (htmx evals it)": re.compile(r"\shx-on", re.IGNORECASE),
    "a js: or javascript: value": re.compile(r"(javascript|js):", re.IGNORECASE),
}


_COMMENT = re.compile(r"\{#.*?#\}")


def _templates() -> list[Path]:
    found = sorted((ROOT / "templates").rglob("*.html"))
    for app in ("games", "lessons"):
        found += sorted((ROOT / app).rglob("templates/**/*.html"))
    return found


def test_the_audit_reads_the_templates() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in _templates()}

    assert {"templates/base.html", "templates/lessons/rule.html"} <= names
    assert len(names) > 50


@pytest.mark.parametrize("what", list(_INLINE))
def test_no_template_has_what_the_policy_forbids(what: str) -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _templates()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _INLINE[what].search(_COMMENT.sub("", line))
    ]

    assert found == [], "\n".join(found)


def test_the_audit_would_see_each_thing_it_looks_for() -> None:
    samples = {
        "an inline <script>": '<script defer>go()</script><script src="/static/a.js"></script>',
        "a <style> element": "<style>p{}</style>",
        "a style attribute": '<p style="color: red">',
        "an on… handler attribute": '<button onclick="go()">',
        "an hx-on attribute (htmx evals it)": '<a hx-on::after-request="go()">',
        "a js: or javascript: value": '<a href="javascript:go()">',
    }

    for what, pattern in _INLINE.items():
        assert pattern.search(samples[what]), what
    assert not _INLINE["an inline <script>"].search('<script src="/static/a.js" defer></script>')


def test_a_link_that_opens_in_place_needs_no_inline_script() -> None:
    resolver = markup.Resolver(
        term=lambda words: ("miss", markup.Link("/glossary/miss/", "/glossary/miss/")),
        rule=lambda r: markup.Link(f"/rules/{r}/", f"/rules/{r}/", "rule"),
        passage=lambda s, k: None,
        source="hoffmann",
        note_exists=lambda n: False,
    )

    html = markup.render("The [[miss]]; [[rule:must|must]].", resolver, slot_prefix="x").html

    assert 'hx-get="/glossary/miss/"' in html and 'hx-get="/rules/must/"' in html
    for what, pattern in _INLINE.items():
        assert not pattern.search(html), what
