"""Settings for Lanterloo: one module, every deploy-time value read from the environment.

The helpers below fail loudly on a value they cannot read, so a typo in a deployment shows up
as an ImproperlyConfigured error at start-up rather than as a silently wrong setting. The
variables are listed in docs/deploying.md ("Configuration").
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def envbool(name: str, default: bool) -> bool:
    """Read a boolean: 1/0, true/false, yes/no, on/off; unset or empty means default."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, yes/no, on/off: {value!r}")


def envint(name: str, default: int) -> int:
    """Read an integer; unset or empty means default."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer: {value!r}") from None


def envints(prefix: str) -> dict[str, int]:
    """Read every variable named ``prefix`` + NAME (not empty) as an integer, keyed by its
    NAME in lower case with "-" for "_"."""
    return {
        name.removeprefix(prefix).lower().replace("_", "-"): envint(name, 0)
        for name, value in os.environ.items()
        if name.startswith(prefix) and value.strip()
    }


def envlist(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; unset means default, empty means an empty list."""
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def envchoice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """Read one of a fixed set of words; unset or empty means default."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}: {value!r}")
    return value


# DEBUG is off unless DJANGO_DEBUG turns it on, so a server started without its environment
# does not show tracebacks to the world: it refuses to start instead, for want of
# DJANGO_SECRET_KEY. Development turns it on: `DJANGO_DEBUG=1 manage.py runserver`, and the
# test suite through pytest-env (pyproject.toml).
DEBUG = envbool("DJANGO_DEBUG", False)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "django-insecure-lanterloo-development-only"

ALLOWED_HOSTS = envlist("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = envlist("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "csp",
    "django_htmx",
    "template_partials",
    "games",
    "lessons",
    "lessons.trainer",
    "lessons.course",
    "lessons.classes",
    "lessons.quizzes",
    "lessons.lti",
    "axes",
]

MIDDLEWARE = [
    # First, so that every response carries these headers: WhiteNoise's static files and
    # SecurityMiddleware's redirects too.
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "loo_site.middleware.CrossOriginResourcePolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After an LTI launch, that session's pages may be framed by its platform, and its
    # cookies are SameSite=None (lessons/lti/middleware.py): before the session's cookies.
    "lessons.lti.middleware.LtiFrameMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A teacher's and a student's own pages are never kept by a browser's or proxy's cache.
    "loo_site.middleware.PrivatePageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A student account a teacher made: its one-time password is changed before all else.
    "lessons.classes.middleware.OneTimePasswordMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Password guesses, sign-ups and join codes, limited per address and per target.
    "loo_site.attempts.AttemptLimitMiddleware",
    # Everything that creates or stores rows, limited per account and per address.
    "loo_site.limits.CreationLimitMiddleware",
    # Last, as django-axes asks: answers a locked-out login with its lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "loo_site.urls"
WSGI_APPLICATION = "loo_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # template_partials replaces APP_DIRS with its own (cached) loader chain.
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite by default so a fresh checkout just runs; PostgreSQL (or any database dj-database-url
# understands) when DATABASE_URL is set.
DATABASES: dict[str, Any]
CACHES: dict[str, dict[str, Any]]
if DATABASE_URL := os.environ.get("DATABASE_URL", ""):
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=envint("DJANGO_CONN_MAX_AGE", 60),
            conn_health_checks=True,
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
            "OPTIONS": {
                # Two gunicorn workers write to one file: take the write lock up front and
                # use the write-ahead log so readers do not block the writer.
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Opening a connection (and its PRAGMAs) costs about as much as a practice
            # request's queries: each worker keeps its own.
            "CONN_MAX_AGE": envint("DJANGO_CONN_MAX_AGE", 60),
            "CONN_HEALTH_CHECKS": True,
        }
    }

# -- The shared cache ------------------------------------------------------------------------
# django.core.cache.cache is shared by every worker on every machine: Redis when REDIS_URL is
# set (e.g. redis://127.0.0.1:6379/0), otherwise a table in the database above, made by
# `manage.py createcachetable` (`make run` does; test databases get it from Django). It holds
# the content version that tells each worker when to reload the rule links (games/links.py)
# and the rate limits' counts; sessions (SESSION_ENGINE: Django's default, the database) and
# login failures are in the database itself, so an outage of Redis logs nobody out. Both
# backends are Django's with what the limits need (games.caches): a count that two workers
# cannot both miss, and Redis errors answered as misses, logged once, never a 500.
if REDIS_URL := os.environ.get("REDIS_URL", ""):
    CACHES = {
        "default": {
            "BACKEND": "games.caches.RedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that does not answer costs a request half a second, not a worker.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "games.caches.DatabaseCache",
            "LOCATION": "lanterloo_cache",
            # The rate limits keep a row per address and window: the default 300 rows would
            # be culled at random under an attack, and counts with them.
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }
# -- end of the shared cache -------------------------------------------------------------------

# -- The live bus (games.live) ------------------------------------------------------------------
# How a table's open pages hear that it moved on: Redis pub/sub when REDIS_URL is set (every
# server hears every other's at once), otherwise each open connection polls the table's
# version in the database every LIVE_POLL_SECONDS (one machine's workers, or several sharing
# the database, with no other service). With Redis down the connections poll until it is back.
LIVE_REDIS_URL = REDIS_URL
LIVE_POLL_SECONDS = envint("DJANGO_LIVE_POLL_MS", 250) / 1000
# With Redis, a quiet connection reads the version anyway this often (a publish lost).
LIVE_RECHECK_SECONDS = 5.0
# A comment sent on a quiet stream this often keeps proxies from closing it (and calls the
# stream's hook: games.live.sse).
LIVE_HEARTBEAT_SECONDS = envint("DJANGO_LIVE_HEARTBEAT_SECONDS", 15)
# The threads of each worker that read the versions for all its open connections (each holds
# a database connection).
LIVE_DATABASE_THREADS = 4
# -- end of the live bus ------------------------------------------------------------------------

# How the trainer's pools of questions made ahead are topped up (lessons.trainer.prepared):
# "thread" (a background thread per worker, after the response), "inline" or "off" (the tests).
TRAINER_PREPARE = os.environ.get("DJANGO_TRAINER_PREPARE", "thread")

# How grades go back to learning platforms after an attempt (lessons.lti.outbox): "thread" (a
# background thread per worker, after the commit), "inline" or "off" (the tests; cron's
# `manage.py send_lti_scores` sends what is due in every case).
LTI_SEND = os.environ.get("DJANGO_LTI_SEND", "thread")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
# A new account's first stop: its tables, and the way to its history of hands.
LOGIN_REDIRECT_URL = "games:choose"
LOGOUT_REDIRECT_URL = "home"

# Failed logins are counted by django-axes (in the database): after AXES_FAILURE_LIMIT
# failures for one name from one address, that name is locked out there for a quarter of an
# hour (but not for a browser that logged in to it before: loo_site.limits). Behind a
# proxy, REMOTE_ADDR is the proxy's address.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("DJANGO_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Count failures only: no log of every successful login is kept.
AXES_DISABLE_ACCESS_LOG = True
# A browser that has logged in to the name before is counted per browser instead (its own
# wrong passwords lock it), so that no one at the same address locks its owner out.
AXES_WHITELIST_CALLABLE = "loo_site.attempts.known_device"

# The client's address: REMOTE_ADDR, or behind this many reverse proxies (each of which adds
# the address it saw to X-Forwarded-For) the address the nearest one saw. 0: no proxy is
# trusted and X-Forwarded-For is never read. django-axes counts the same client as the rate
# limits (loo_site.limits.client_address: an IPv6 /64 is one client).
TRUSTED_PROXIES = envint("DJANGO_TRUSTED_PROXIES", 0)
AXES_CLIENT_IP_CALLABLE = "loo_site.limits.client_address"

# Rate limits: loo_site.limits declares each (its count, its window, what it counts per).
# DJANGO_LIMIT_<NAME> sets the count of the limit <name> ("-" written "_"):
# DJANGO_LIMIT_TABLES_PER_ADDRESS=1000 for "tables-per-address"; a name that is no limit's
# stops the site. RATE_LIMITS replaces counts and windows (name -> (count, seconds)), as
# tests do.
LIMIT_COUNTS = envints("DJANGO_LIMIT_")
RATE_LIMITS: dict[str, tuple[int, int]] = {}

# Without an account a browser session keeps this many practice tables: dealing another
# removes its oldest finished one (never a hand in progress).
SESSION_TABLES = 20

# Chosen passwords: Argon2id at OWASP's parameters (about 40 ms, where PBKDF2 at 1,000,000
# rounds costs 0.6 s). The one-time passwords of accounts a teacher made are random, so a few
# thousand PBKDF2 rounds keep them out of reach (lessons/classes/hashers.py). Django's PBKDF2
# hashers stay so that older hashes verify; each is made again with the first at its login.
PASSWORD_HASHERS = [
    "lessons.classes.hashers.OwaspArgon2PasswordHasher",
    "lessons.classes.hashers.OneTimePasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "Europe/London"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic writes (a benchmark collects into its own folder, beside its database).
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# In DEBUG, WhiteNoise serves straight from the finders, so no collectstatic is needed.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Security. Every switch defaults to the safe value when DEBUG is off, so that
# `manage.py check --deploy` is clean; each can be turned off for a plain-HTTP local run
# (`make run` does) or when TLS is handled differently.
SECURE_SSL_REDIRECT = envbool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
# Load balancers probe over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz/(ready/)?$"]
SESSION_COOKIE_SECURE = envbool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = envint("DJANGO_HSTS_SECONDS", 0 if DEBUG else 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
# Preloading is asked for on purpose, never by default: browsers that ship the preload list
# keep to HTTPS for the domain whatever the header later says, and the list only takes a
# max-age of a year or more.
SECURE_HSTS_PRELOAD = envbool("DJANGO_HSTS_PRELOAD", False)
HSTS_PRELOAD_MIN_SECONDS = 31536000
if SECURE_HSTS_PRELOAD and SECURE_HSTS_SECONDS < HSTS_PRELOAD_MIN_SECONDS:
    raise ImproperlyConfigured(
        "DJANGO_HSTS_PRELOAD needs DJANGO_HSTS_SECONDS of at least "
        f"{HSTS_PRELOAD_MIN_SECONDS} (a year): it is {SECURE_HSTS_SECONDS}."
    )
# So `check --deploy` does not warn that preload is off: that is the choice made above.
SILENCED_SYSTEM_CHECKS = ["security.W021"]

# Every page's scripts and styles are files of this site: no inline <script>, style="…" or
# on…= attribute, no eval (htmx's is turned off in templates/base.html), no other host.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Powerful browser features the site never uses, denied to it and to anything it could embed
# (only names Chromium knows: it warns in the console about any other).
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
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
    )
}
# Another site may link here but not load our pages, scripts or images into its own.
CROSS_ORIGIN_RESOURCE_POLICY = "same-origin"

if envbool("DJANGO_TRUST_X_FORWARDED_PROTO", False):
    # Only behind a proxy that sets this header itself and strips it from clients.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        "django": {
            "handlers": ["console"],
            "level": envchoice(
                "DJANGO_LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
            ),
            "propagate": False,
        },
    },
}
