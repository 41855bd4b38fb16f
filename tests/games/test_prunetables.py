"""prunetables: the tables of expired sessions go, the rest stay."""

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from games.models import PracticeHand, PracticeTable

pytestmark = pytest.mark.django_db


def test_abandoned_anonymous_tables_are_deleted_with_their_hands(player: Any) -> None:
    old = player.new_table(seed=11)
    player.play_out(old.pk)
    recent = player.new_table(seed=12)
    owned = player.new_table(seed=13)
    PracticeTable.objects.filter(pk=owned.pk).update(
        owner=User.objects.create_user("student"), session_key=""
    )
    long_ago = timezone.now() - timedelta(days=15)
    PracticeTable.objects.filter(pk__in=[old.pk, owned.pk]).update(updated=long_ago)
    out = StringIO()

    call_command("prunetables", stdout=out)

    assert set(PracticeTable.objects.values_list("pk", flat=True)) == {recent.pk, owned.pk}
    assert not PracticeHand.objects.filter(table_id=old.pk).exists()
    assert out.getvalue() == "Deleted 1 abandoned practice table.\n"
