"""Leaving a class: off its roster and away from its tables.

Above both :mod:`lessons.classes.models` (the roster) and :mod:`lessons.classes.tables` (the
class's tables, which build on the models), so that neither imports the other both ways.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.utils import timezone

from lessons.classes.lockouts import disable_password
from lessons.classes.models import Membership
from lessons.classes.tables import forget


def leave(memberships: models.QuerySet[Membership]) -> int:
    """Take these students off their classes' rosters, keeping their rows (and so their
    results), and away from their classes' tables (``tables.forget``). A teacher-made account
    left in no class gets an unusable password: the one its teacher knows must not let it in
    any more (a teacher of a class it was in can reset it, which brings it back); it is kept
    disabled, so that the student who gives it is told why (lessons.classes.lockouts). Returns how
    many left."""
    with transaction.atomic():
        leaving = memberships.filter(left__isnull=True)
        pairs = list(leaving.values_list("school_class_id", "student_id"))
        students = [student for _class, student in pairs]
        n = leaving.update(left=timezone.now())
        forget(pairs)
        classless = (
            get_user_model()
            .objects.filter(pk__in=students, managed__isnull=False)
            .exclude(pk__in=Membership.objects.present().values("student"))
        )
        for user in classless:
            disable_password(user)  # no hash is computed: nothing slow under the lock
            user.save(update_fields=["password"])
    return n
