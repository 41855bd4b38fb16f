"""Send the grades due to learning platforms (lessons.lti.outbox): once, for cron every
minute, or ``--loop`` as a worker of its own. It first queues the grades of attempts that
their close or time limit ended (no request did), and forgets logins older than a day."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils import timezone

from lessons.lti.models import LoginState
from lessons.lti.outbox import queue_ended, send_due


class Command(BaseCommand):
    help = "Send the grades waiting for learning platforms (LTI Assignment and Grade Services)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--loop", action="store_true", help="keep sending, every --every s")
        parser.add_argument("--every", type=int, default=30)

    def handle(self, *args: Any, loop: bool = False, every: int = 30, **options: Any) -> None:
        while True:
            if loop:  # a long-lived process: a connection as a request would have it
                close_old_connections()
            LoginState.objects.filter(created__lt=timezone.now() - timedelta(days=1)).delete()
            queue_ended()
            sent, failed = send_due()
            if sent or failed or not loop:
                self.stdout.write(f"{sent} grades sent, {failed} not sent (tried again later).")
            if not loop:
                return
            time.sleep(every)
