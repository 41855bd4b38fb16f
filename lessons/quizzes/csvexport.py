"""Every CSV download of the site goes through :func:`csv_response`: one format (UTF-8 with a
byte-order mark, which spreadsheets need), and no cell a spreadsheet would run as a formula.
The rows are written as they are read (a streamed response), so that a large download holds
neither a worker's memory nor the whole file at once."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.http import StreamingHttpResponse


def safe_cell(value: Any) -> str:
    """A cell as text, one that a spreadsheet will not read as a formula."""
    text = "" if value is None else str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


class _Line:
    """A file-like object whose ``write`` returns what it is given: the csv module's writer
    then gives each row as a line of text."""

    def write(self, value: str) -> str:
        return value


def csv_lines(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Iterator[str]:
    """The byte-order mark, then each row as a line of CSV, every cell made safe."""
    writer = csv.writer(_Line())
    yield "\ufeff" + writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        yield writer.writerow([safe_cell(c) for c in row])


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> StreamingHttpResponse:
    """UTF-8 with a byte-order mark, which spreadsheets need to read it as UTF-8; streamed."""
    response = StreamingHttpResponse(
        csv_lines(header, rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
