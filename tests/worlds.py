"""A world of rows built once for a module's tests (a permission matrix's actors and their
objects), as Django's ``TestCase.setUpTestData`` builds one for a class.

The rows are made in a transaction left open while the module's tests run; each test's own
transaction (pytest-django's, a savepoint inside it) is rolled back after it, so every test
starts from the world as built, whatever the tests before it changed. The world's transaction
is rolled back when the module ends: nothing of it is committed, on SQLite or PostgreSQL.

A test must not keep the objects the builder made (another test may have changed them in
memory): the builder returns primary keys, and a function-scoped fixture fetches the objects
again for each test.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TypeVar

from django.db import transaction
from pytest_django import DjangoDbBlocker

T = TypeVar("T")


def built_once(django_db_blocker: DjangoDbBlocker, build: Callable[[], T]) -> Iterator[T]:
    """What ``build`` returns, its rows kept for the tests of a module-scoped fixture that
    does ``yield from built_once(django_db_blocker, build)`` (it must ask for
    ``django_db_setup``), then rolled back."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            built = build()
        except BaseException:
            atomic.__exit__(*sys.exc_info())
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
