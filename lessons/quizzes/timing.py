"""How long an attempt has left, as its pages say it: the server's deadline, the seconds left
(for the page's countdown, static/js/countdown.js, which counts them down from the moment the
page arrives, whatever the device's clock says), and in words for a page without JavaScript
("12 minutes left: answers are accepted until 06:32 GMT"), with a warning near the end.

The server is the judge: an answer after the deadline is refused whatever the page shows
(lessons.quizzes.models.Answer.record). The countdown hands the attempt in at zero: an
attempt handed in so within :data:`GRACE` seconds of its deadline counts as submitted at its
deadline (the request takes a moment to arrive); no answer is taken after the deadline."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

#: Seconds after its deadline in which the countdown's hand-in still submits the attempt.
GRACE = 30
#: Left this many seconds or fewer, the page warns (and the countdown says so once).
WARN = 5 * 60


def left_in_words(seconds: int) -> str:
    """ "under a minute", "1 minute", "12 minutes", "1 hour 5 minutes", "2 days 3 hours"."""
    if seconds < 60:
        return "under a minute"
    minutes = seconds // 60
    days, hours, minutes = minutes // (24 * 60), minutes // 60 % 24, minutes % 60

    def n(count: int, unit: str) -> str:
        return f"{count} {unit}{'' if count == 1 else 's'}"

    if days:
        return n(days, "day") + (f" {n(hours, 'hour')}" if hours else "")
    if hours:
        return n(hours, "hour") + (f" {n(minutes, 'minute')}" if minutes else "")
    return n(minutes, "minute")


@dataclass(frozen=True)
class Countdown:
    """An attempt's time left when its page is made."""

    deadline: datetime
    seconds: int
    #: The deadline in the class's time zone, with the zone's abbreviation ("06:32 GMT"; the
    #: date too when it is not today there).
    until: str
    zone: str

    @property
    def words(self) -> str:
        return left_in_words(self.seconds)

    @property
    def warn(self) -> bool:
        return self.seconds <= WARN


def countdown(deadline: datetime, now: datetime, zone: ZoneInfo) -> Countdown:
    local, today = timezone.localtime(deadline, zone), timezone.localtime(now, zone)
    until = f"{local:%H:%M %Z}"
    if local.date() != today.date():
        until = f"{local:%A} {local.day} {local:%B}, {until}"
    # Rounded up: the page's zero falls at the deadline or just after (the page takes a
    # moment to arrive), never before it, so the student has every second of his time.
    seconds = max(0, math.ceil((deadline - now).total_seconds()))
    return Countdown(deadline, seconds, until, str(zone))
