"""A table for people's forms carry ``state_version``: what puts them out of date (the hand, a
seat), not what only redraws the pages (a fixed phrase). A table already open starts it at its
``version``, so that the forms open on its pages now stay good."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models
from django.db.models import F


def from_version(apps: Any, schema_editor: Any) -> None:
    apps.get_model("games", "PeopleTable").objects.update(state_version=F("version"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_people_bot_steps"),
    ]

    operations = [
        migrations.AddField(
            model_name="peopletable",
            name="state_version",
            field=models.PositiveIntegerField(default=1),
        ),
        migrations.RunPython(from_version, migrations.RunPython.noop, elidable=True),
    ]
