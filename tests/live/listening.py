"""A connection's listening, run in a thread of its own (an event loop, as under an ASGI
server), while a test stores and publishes versions from its own thread."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from games.live import fanout


class Stored:
    """A table's stored version, as ``current`` reads it (thread-safe: an int), and how many
    times it was read."""

    def __init__(self, version: int = 0) -> None:
        self.version: int | None = version
        self.reads = 0

    def __call__(self) -> int | None:
        version = self.version
        self.reads += 1
        return version


class Listening:
    """``fanout.updates(channel, after, current)`` iterated in another thread: what it yielded,
    and when."""

    def __init__(self, channel: str, after: int, current: Callable[[], int | None]) -> None:
        self.heard: list[tuple[int, float]] = []
        self.ended = threading.Event()
        self.error: BaseException | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._task: asyncio.Task[Any] = asyncio.run_coroutine_threadsafe(
            self._start(channel, after, current), self._loop
        ).result(5)

    async def _start(
        self, channel: str, after: int, current: Callable[[], int | None]
    ) -> asyncio.Task[Any]:
        return asyncio.create_task(self._run(channel, after, current))

    async def _run(self, channel: str, after: int, current: Callable[[], int | None]) -> None:
        try:
            async for version in fanout.updates(channel, after, current):
                self.heard.append((version, time.monotonic()))
        except Exception as error:  # kept for the test to see (the task is never awaited)
            self.error = error
        finally:
            self.ended.set()

    @property
    def versions(self) -> list[int]:
        return [v for v, _ in self.heard]

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        """Seconds until a version at least ``version`` was heard (from now); fails after
        ``timeout``."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            for heard, at in list(self.heard):
                if heard >= version:
                    return max(0.0, at - start)
            time.sleep(0.005)
        raise AssertionError(f"version {version} not heard in {timeout} s: {self.versions}")

    def close(self) -> None:
        """Stop listening as a client that went away does: the task is cancelled."""

        async def stop() -> None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

        if not self._task.done():
            asyncio.run_coroutine_threadsafe(stop(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()
