"""Delete what browser sessions that have ended left behind: every row kept for a learner
without an account by his session's key (the course's progress, the trainer's questions and a
lesson's, practice tables with their finished hands). Once its session has expired or gone,
nobody can reach such a row again.

A row belongs to a session while the session store still holds that session, unexpired: with
the database's store (the default, and ``cached_db``) one statement per kind of row compares
the keys with the live sessions; with another server-side store (the cache, files) each
distinct key is looked up. A session is made before anything is stored for it, so a row made
while this runs belongs to a live session and stays.

Run it after Django's ``clearsessions`` (which deletes the expired sessions themselves), from
cron, say hourly: ``manage.py clearsessions && manage.py prunesessions``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.contrib.sessions.backends.signed_cookies import SessionStore as CookieStore
from django.core.management.base import BaseCommand, CommandError
from django.db import models
from django.utils import timezone


def kept_by_session() -> list[type[models.Model]]:
    """The models whose rows belong to an account (``owner``) or, without one, to a browser
    session (``session_key``): games.owners' way of keeping things."""
    return [
        model
        for model in apps.get_models()
        if {"owner", "session_key"} <= {f.name for f in model._meta.get_fields()}
    ]


def ended(model: type[models.Model], store: type[SessionBase]) -> models.QuerySet[Any]:
    """``model``'s rows of a session without an account whose session has ended."""
    rows = model._default_manager.filter(owner=None)
    if issubclass(store, DatabaseStore):
        live = store.get_model_class().objects.filter(expire_date__gt=timezone.now())
        return rows.exclude(session_key__in=live.values("session_key"))
    keys = rows.order_by().values_list("session_key", flat=True).distinct()
    gone = [key for key in keys.iterator() if not (key and store().exists(key))]
    return rows.filter(session_key__in=gone)


class Command(BaseCommand):
    help = (
        "Delete what browser sessions that have ended left behind: course progress, questions "
        "and practice tables kept for a session without an account whose session has expired "
        "or gone. Run it after clearsessions."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        store: type[SessionBase] = import_module(settings.SESSION_ENGINE).SessionStore
        if issubclass(store, CookieStore):
            raise CommandError(
                "Sessions kept in signed cookies cannot be looked up: nothing was deleted."
            )
        said = []
        for model in kept_by_session():
            count, by_model = ended(model, store).delete()
            mine = by_model.get(model._meta.label, 0)
            name = model._meta.verbose_name if mine == 1 else model._meta.verbose_name_plural
            said.append(f"{mine} {name}")
        self.stdout.write(f"Deleted what ended browser sessions left: {', '.join(said)}.")
