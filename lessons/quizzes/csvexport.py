"""Every CSV download of the site goes through :func:`csv_response`: one format (UTF-8 with a
byte-order mark, which spreadsheets need), and no cell a spreadsheet would run as a formula."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from django.http import HttpResponse


def safe_cell(value: Any) -> str:
    """A cell as text, one that a spreadsheet will not read as a formula."""
    text = "" if value is None else str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """UTF-8 with a byte-order mark, which spreadsheets need to read it as UTF-8."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(c) for c in row])
    response = HttpResponse("\ufeff" + out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
