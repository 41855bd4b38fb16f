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


#: Rows sent at a time: a server writes each piece a streamed response yields to the socket
#: on its own, and 58,000 writes of a line each took a worker longer than the rows did.
ROWS_PER_PIECE = 500


def csv_lines(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Iterator[str]:
    """The byte-order mark and the header, then the rows as CSV, every cell made safe, a few
    hundred rows at a time."""
    writer = csv.writer(_Line())
    yield "\ufeff" + writer.writerow([safe_cell(h) for h in header])
    piece: list[str] = []
    for row in rows:
        piece.append(writer.writerow([safe_cell(c) for c in row]))
        if len(piece) >= ROWS_PER_PIECE:
            yield "".join(piece)
            piece = []
    if piece:
        yield "".join(piece)


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> StreamingHttpResponse:
    """UTF-8 with a byte-order mark, which spreadsheets need to read it as UTF-8; streamed."""
    response = StreamingHttpResponse(
        csv_lines(header, rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
