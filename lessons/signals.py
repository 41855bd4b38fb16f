"""Signals of the reading side."""

from django.dispatch import Signal

#: Sent after ``loadcontent`` (``Content.save``) has written the sources, rules and citations.
content_loaded = Signal()
