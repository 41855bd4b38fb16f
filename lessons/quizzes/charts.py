"""The results page's bar charts: their geometry, drawn as SVG by the template.

Each bar has its label on a line of its own above it, and the whole chart is 320 units wide:
on a 375 px phone it is drawn at its own size, never scaled down, so that its text keeps the
size the style sheet gives it (a chart laid out side by side, 520 wide, shrank its text to
about 7 px there)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lessons.quizzes.reports import Share

#: The chart's width, the bars' and the value's room beside them, in SVG units (= CSS px).
WIDTH, BAR_WIDTH = 320, 270
#: A label's line, a bar's height and the gap after it.
LINE, BAR, GAP = 18, 16, 12


def chart(shares: Sequence[Share], title: str) -> dict[str, Any]:
    """A horizontal bar chart of the shares, drawn as SVG by the template."""
    step = LINE + BAR + GAP
    bars = []
    for i, s in enumerate(shares):
        top = i * step
        width = round(BAR_WIDTH * s.percent / 100, 1)
        bars.append(
            {
                "label": s.label,
                "text_y": top + LINE - 4,
                "y": top + LINE,
                "width": width,
                "percent": s.percent,
                "value_x": width + 6,
                "value_y": top + LINE + BAR - 3,
            }
        )
    return {
        "title": title,
        "bars": bars,
        "bar": BAR,
        "height": max(1, len(bars)) * step,
        "total_width": WIDTH,
    }
