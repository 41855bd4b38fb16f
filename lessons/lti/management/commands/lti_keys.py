"""The tool's signing keys (lessons.lti.models.ToolKey): list them, make a new one (it signs
from now on; the others stay in the JWKS until retired), or retire the older ones."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from lessons.lti.models import ToolKey


class Command(BaseCommand):
    help = "List, make or retire the LTI tool's signing keys (published at /lti/jwks.json)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--new", action="store_true", help="make a new key, which signs")
        parser.add_argument(
            "--retire-old", action="store_true", help="take every key but the newest out"
        )

    def handle(self, *args: Any, new: bool = False, retire_old: bool = False, **_: Any) -> None:
        if new:
            ToolKey.generate()
        if retire_old:
            newest = ToolKey.signing()
            ToolKey.objects.exclude(pk=newest.pk).update(active=False)
        for key in ToolKey.objects.all():
            self.stdout.write(f"{key.kid}  {'active' if key.active else 'retired'}  {key.created}")
