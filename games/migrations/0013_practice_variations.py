"""A practice table keeps the options agreed on its rule set (the variations a player chose:
club law, unlimited loo; a lesson's guided hand's) beside its preset, as a table for people
does: its heading, its list and its link name them without reading its state. A table
already dealt takes them from its stored state, where the engine keeps them."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def from_state(apps: Any, schema_editor: Any) -> None:
    PracticeTable = apps.get_model("games", "PracticeTable")
    changed = []
    for table in PracticeTable.objects.only("pk", "state").iterator(chunk_size=500):
        options = ((table.state or {}).get("config") or {}).get("options")
        if options:
            table.options = options
            changed.append(table)
    PracticeTable.objects.bulk_update(changed, ["options"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_people_state_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="practicetable",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(from_state, migrations.RunPython.noop, elidable=True),
    ]
