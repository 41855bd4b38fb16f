"""Moments as the quizzes' pages say them: in the teacher's time zone (his account's, or the
site's), in words ("Friday 4 December at 17:00")."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone


def teacher_zone(user: Any) -> ZoneInfo:
    name = getattr(getattr(user, "teacher", None), "time_zone", "") or settings.TIME_ZONE
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError, OSError):
        return ZoneInfo("UTC")


def spoken(when: datetime, zone: ZoneInfo) -> str:
    """A moment as a page says it, in ``zone``: "Friday 4 December at 17:00"."""
    local = timezone.localtime(when, zone)
    return f"{local:%A} {local.day} {local:%B} at {local:%H:%M}"
