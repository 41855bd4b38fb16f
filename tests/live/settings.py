"""The site's settings with the test-only URLs of tests/live/urls.py: for servers started by
tests (tests/deploy/test_live_two_servers.py), never for a deployment."""

from loo_site.settings import *  # noqa: F403

ROOT_URLCONF = "tests.live.urls"
