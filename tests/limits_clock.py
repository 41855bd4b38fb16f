"""The rate limiter's clock in tests (loo_site.limits.Registry.clock): stopped, and moved on
only by the test, so that no test waits for a window to end and none is split over two."""

from __future__ import annotations

#: A second into an hour: every window of the limits (a minute, ten, a quarter hour, an hour)
#: begins at the hour.
START = 500_000 * 3600 + 1


class LimitsClock:
    """A clock that stands still until :meth:`advance` moves it."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
