"""The results page's bar charts: their geometry, drawn as SVG by the template."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lessons.quizzes.reports import Share


def chart(shares: Sequence[Share], title: str) -> dict[str, Any]:
    """A horizontal bar chart of the shares, drawn as SVG by the template."""
    bar, gap, label_width, width = 22, 8, 170, 300
    bars = [
        {
            "label": s.label,
            "y": i * (bar + gap),
            "text_y": i * (bar + gap) + bar * 0.7,
            "width": round(width * s.percent / 100, 1),
            "percent": s.percent,
            "value_x": label_width + round(width * s.percent / 100, 1) + 6,
        }
        for i, s in enumerate(shares)
    ]
    return {
        "title": title,
        "bars": bars,
        "bar": bar,
        "label_width": label_width,
        "height": max(1, len(bars)) * (bar + gap),
        "total_width": label_width + width + 50,
    }
