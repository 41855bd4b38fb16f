"""Who a stored thing belongs to: an account, or, for someone not logged in, a browser session.

Practice tables and the trainer's questions are kept this way. Logging in (or signing up)
gives the session a new key, so the login views pass the old one to ``give_to``, and what the
session had comes along to the account.
"""

from __future__ import annotations

from typing import Any, Self, TypeVar

from django.db import models
from django.http import HttpRequest

_M = TypeVar("_M", bound=models.Model)


class OwnedQuerySet(models.QuerySet[_M]):
    """For a model with ``owner`` (a user, or null) and ``session_key`` (blank once owned)."""

    def for_request(self, request: HttpRequest) -> Self:
        """The rows of whoever made ``request``: a user's own, or those of this browser
        session for someone not logged in."""
        if request.user.is_authenticated:
            return self.filter(owner=request.user)
        key = request.session.session_key
        if not key:
            return self.none()
        return self.filter(owner=None, session_key=key)

    def give_to(self, user: Any, session_key: str | None) -> int:
        """Give the rows of a browser session to ``user``, who has just logged in or signed
        up there (logging in gives the session a new key: the view passes the old one).
        Returns how many rows changed hands."""
        if not session_key:
            return 0
        return self.filter(owner=None, session_key=session_key).update(owner=user, session_key="")


def owner_for(request: HttpRequest) -> tuple[Any, str]:
    """Who a new row made by ``request`` belongs to: ``(user, "")``, or for someone not logged
    in ``(None, session key)``, the browser session made if it has none yet."""
    if request.user.is_authenticated:
        return request.user, ""
    if request.session.session_key is None:
        request.session.create()
    return None, request.session.session_key or ""
