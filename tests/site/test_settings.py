"""The settings module reads the environment and refuses values it cannot understand."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from loo_site.settings import envbool, envchoice, envint, envlist

PROJECT_DIR = Path(__file__).resolve().parents[2]

# Settings for a production deployment, as in the Makefile's deploy check.
PRODUCTION_ENV = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "a-production-secret-that-is-long-and-random-enough-0123456789",
    "DJANGO_ALLOWED_HOSTS": "lanterloo.example",
}


def _run_python(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run Python in a fresh process whose environment has no DJANGO_*, DATABASE_URL or
    REDIS_URL."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_")) and k != "REDIS_URL"
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=PROJECT_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        ("on", True),
        ("0", False),
        ("FALSE", False),
        ("no", False),
        ("off", False),
        ("", True),
    ],
)
def test_envbool_reads_the_usual_spellings(
    monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool
) -> None:
    monkeypatch.setenv("LOO_TEST_FLAG", raw)

    assert envbool("LOO_TEST_FLAG", True) is expected


def test_envbool_uses_the_default_when_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOO_TEST_FLAG", raising=False)

    assert envbool("LOO_TEST_FLAG", False) is False


@pytest.mark.parametrize("raw", ["maybe", "2", "tru", "y e s"])
def test_envbool_refuses_anything_else(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("LOO_TEST_FLAG", raw)

    with pytest.raises(ImproperlyConfigured, match="LOO_TEST_FLAG"):
        envbool("LOO_TEST_FLAG", False)


def test_envint_reads_an_integer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOO_TEST_NUMBER", " 3600 ")

    assert envint("LOO_TEST_NUMBER", 0) == 3600


@pytest.mark.parametrize("raw", ["one hour", "3.5", "0x10"])
def test_envint_refuses_what_is_not_an_integer(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("LOO_TEST_NUMBER", raw)

    with pytest.raises(ImproperlyConfigured, match="LOO_TEST_NUMBER"):
        envint("LOO_TEST_NUMBER", 0)


def test_envlist_splits_on_commas_and_drops_blanks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOO_TEST_HOSTS", "a.example, b.example,,")

    assert envlist("LOO_TEST_HOSTS", ["default"]) == ["a.example", "b.example"]


def test_envlist_uses_the_default_only_when_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOO_TEST_HOSTS", raising=False)

    assert envlist("LOO_TEST_HOSTS", ["default"]) == ["default"]


def test_envchoice_refuses_an_unknown_word(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOO_TEST_LEVEL", "LOUD")

    with pytest.raises(ImproperlyConfigured, match="LOO_TEST_LEVEL"):
        envchoice("LOO_TEST_LEVEL", "INFO", ("INFO", "DEBUG"))


def test_settings_refuse_to_start_without_a_secret_key_when_debug_is_off() -> None:
    result = _run_python("-c", "import loo_site.settings", env={"DJANGO_DEBUG": "0"})

    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY must be set" in result.stderr


def test_a_site_started_without_its_environment_refuses_to_start() -> None:
    # DEBUG is off unless DJANGO_DEBUG turns it on, so the missing key stops it.
    result = _run_python("-c", "import loo_site.settings", env={})

    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY must be set" in result.stderr


def test_debug_is_off_unless_django_debug_turns_it_on() -> None:
    show = "import loo_site.settings as s; print(s.DEBUG)"
    key = {"DJANGO_SECRET_KEY": PRODUCTION_ENV["DJANGO_SECRET_KEY"]}

    by_default = _run_python("-c", show, env=key)
    turned_on = _run_python("-c", show, env={"DJANGO_DEBUG": "1"})

    assert by_default.returncode == 0, by_default.stderr
    assert by_default.stdout.strip() == "False"
    assert turned_on.returncode == 0, turned_on.stderr
    assert turned_on.stdout.strip() == "True"


def test_settings_refuse_a_debug_value_they_cannot_read() -> None:
    result = _run_python("-c", "import loo_site.settings", env={"DJANGO_DEBUG": "perhaps"})

    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_DEBUG must be one of" in result.stderr


def test_settings_use_postgresql_when_database_url_is_set() -> None:
    result = _run_python(
        "-c",
        "import loo_site.settings as s; print(s.DATABASES['default']['ENGINE'])",
        env={"DJANGO_DEBUG": "1", "DATABASE_URL": "postgres://loo@db.example:5432/loo"},
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.db.backends.postgresql"


_PRINT_CACHE = (
    "import loo_site.settings as s; c = s.CACHES['default']; print(c['BACKEND'], c['LOCATION'])"
)


def test_the_shared_cache_is_a_database_table_by_default() -> None:
    result = _run_python("-c", _PRINT_CACHE, env={"DJANGO_DEBUG": "1"})

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "games.caches.DatabaseCache",
        "lanterloo_cache",
    ]


def test_the_shared_cache_is_redis_when_redis_url_is_set() -> None:
    env = {"DJANGO_DEBUG": "1", "REDIS_URL": "redis://cache.example:6379/2"}
    result = _run_python("-c", _PRINT_CACHE, env=env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "games.caches.RedisCache",
        "redis://cache.example:6379/2",
    ]


@pytest.mark.django_db
def test_the_test_database_has_the_cache_table() -> None:
    """Django makes the cache table with each test database (``createcachetable``), on SQLite
    and on PostgreSQL alike: the cache works in the tests as it does on the site."""
    cache.set("lanterloo:test", [1, 2], timeout=60)

    assert cache.get("lanterloo:test") == [1, 2]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COUNT(*) FROM lanterloo_cache WHERE cache_key = %s",
            [cache.make_key("lanterloo:test")],
        )
        assert cursor.fetchone() == (1,)


def test_the_deploy_check_passes_in_production_mode() -> None:
    result = _run_python(
        "manage.py", "check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV
    )

    assert result.returncode == 0, result.stdout + result.stderr


_SHOW_HSTS = (
    "import loo_site.settings as s; "
    "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)"
)


def test_hsts_preload_is_off_by_default_in_production() -> None:
    result = _run_python("-c", _SHOW_HSTS, env=PRODUCTION_ENV)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["3600", "True", "False"]


def test_hsts_preload_is_refused_with_a_max_age_under_a_year() -> None:
    env = {**PRODUCTION_ENV, "DJANGO_HSTS_PRELOAD": "1", "DJANGO_HSTS_SECONDS": "31535999"}

    result = _run_python("-c", _SHOW_HSTS, env=env)

    assert result.returncode != 0
    assert (
        "ImproperlyConfigured: DJANGO_HSTS_PRELOAD needs DJANGO_HSTS_SECONDS of at least "
        "31536000 (a year): it is 31535999." in result.stderr
    )


def test_hsts_preload_is_refused_with_the_default_max_age() -> None:
    result = _run_python("-c", _SHOW_HSTS, env={**PRODUCTION_ENV, "DJANGO_HSTS_PRELOAD": "1"})

    assert result.returncode != 0
    assert "DJANGO_HSTS_PRELOAD needs DJANGO_HSTS_SECONDS of at least" in result.stderr


def test_hsts_preload_is_sent_with_a_max_age_of_a_year() -> None:
    env = {**PRODUCTION_ENV, "DJANGO_HSTS_PRELOAD": "1", "DJANGO_HSTS_SECONDS": "31536000"}

    result = _run_python("-c", _SHOW_HSTS, env=env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["31536000", "True", "True"]
