"""Calls made at the same moment, on threads with their own database connections: two tabs,
a double click, two people acting at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import OperationalError, connection


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls on threads that start together; their results (or the exceptions they
    raised), in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as error:  # noqa: BLE001 - reported by the test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # SQLite's in-memory test database shares one cache between threads, which locks whole
    # tables instead of waiting as the site's SQLite file does: a call refused so is made
    # again once the others are done (PostgreSQL runs them truly at once).
    for i, result in enumerate(results):
        if isinstance(result, OperationalError) and connection.vendor == "sqlite":
            assert "locked" in str(result)
            try:
                results[i] = calls[i]()
            except Exception as error:  # noqa: BLE001 - reported by the test
                results[i] = error
    return results
