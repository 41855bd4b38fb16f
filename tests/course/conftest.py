"""The course's tests share one load of content/ (lessons included), made once per session."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from pytest_django import DjangoDbBlocker


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> None:
    with django_db_blocker.unblock():
        call_command("loadcontent", verbosity=0)
