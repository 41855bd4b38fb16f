"""prunequestions: the questions of expired sessions go, the rest stay."""

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from lessons.trainer.models import AskedQuestion

from .conftest import make

pytestmark = pytest.mark.django_db


def test_the_questions_of_expired_sessions_are_deleted(learner: Any) -> None:
    old = learner.store(make("trick-winner", "hoffmann", "three-card", seed=1))
    recent = learner.store(make("trick-winner", "hoffmann", "three-card", seed=2))
    owned = AskedQuestion.store(
        make("trick-winner", "hoffmann", "three-card", seed=3),
        owner=User.objects.create_user("ada"),
    )
    long_ago = timezone.now() - timedelta(days=15)
    AskedQuestion.objects.filter(pk__in=[old.pk, owned.pk]).update(asked=long_ago)
    out = StringIO()

    call_command("prunequestions", stdout=out)

    assert set(AskedQuestion.objects.values_list("pk", flat=True)) == {recent.pk, owned.pk}
    assert out.getvalue() == "Deleted 1 abandoned question.\nDeleted 0 questions made ahead.\n"
