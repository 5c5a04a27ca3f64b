"""The stats page's charts as data: what each chart draws, and the JSON static/charts.js reads.

`Chart.data()` is the placeholder's `data-chart` attribute:

    {"kind": "bars" | "stacked", "labels": [str, ...], "unit": "" | "%",
     "series": [{"name": str, "values": [number, ...], "color": "--chart-…",
                 "colors": ["--chart-…", ...] (optional: one per bar),
                 "marker": true (optional: a ring per label, not a bar)}, ...]}

Colours are names of CSS custom properties (static/app.css), so a chart follows the theme.
Labels and numbers are formatted here once, for the chart and its table alike.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from app.study.model import CardState, Rating
from app.studying.stats import FolderRetention, StudyStats
from app.ui.tree_view import folder_label

RATINGS = tuple(r.label for r in Rating)
STATES = tuple(s.name.title() for s in CardState)
RETENTION_FOLDERS = 20  # the chart stays readable; narrow the scope to see others


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    values: tuple[float, ...]
    color: str  # a CSS custom property, e.g. "--chart-good"
    colors: tuple[str, ...] = ()  # one per bar, when the bars of one series differ
    marker: bool = False


@dataclass(frozen=True, slots=True)
class Chart:
    kind: str  # "bars" (side by side) or "stacked"
    labels: tuple[str, ...]
    series: tuple[Series, ...]
    unit: str = ""

    def data(self) -> str:
        """The `data-chart` JSON that static/charts.js draws."""
        series = []
        for s in self.series:
            item: dict[str, object] = {"name": s.name, "values": s.values, "color": s.color}
            if s.colors:
                item["colors"] = s.colors
            if s.marker:
                item["marker"] = True
            series.append(item)
        shape = {"kind": self.kind, "labels": self.labels, "unit": self.unit, "series": series}
        return json.dumps(shape, ensure_ascii=False, separators=(",", ":"))


def day_label(number: int) -> str:
    """A study day's local date, e.g. "Nov 23" (`StudyDay.number` counts days from 1970)."""
    day = date(1970, 1, 1) + timedelta(days=number)
    return f"{day:%b} {day.day}"


def percent(share: float) -> float:
    return round(share * 100, 1)


def number(value: float, unit: str = "") -> str:
    """A figure as the tables show it: whole numbers without a decimal point, with thousands
    separated."""
    return f"{int(value):,}{unit}" if float(value).is_integer() else f"{value}{unit}"


def reviews_chart(stats: StudyStats) -> Chart | None:
    if stats.total_reviews == 0:
        return None
    return Chart(
        kind="stacked",
        labels=tuple(day_label(d.number) for d in stats.reviews),
        series=tuple(
            Series(name, tuple(d.by_rating[i] for d in stats.reviews), f"--chart-{name.lower()}")
            for i, name in enumerate(RATINGS)
        ),
    )


def forecast_chart(stats: StudyStats) -> Chart | None:
    if not any(d.due for d in stats.forecast):
        return None
    labels = ("Today", *(day_label(d.number) for d in stats.forecast[1:]))
    values = tuple(float(d.due) for d in stats.forecast)
    return Chart(kind="bars", labels=labels, series=(Series("Due", values, "--chart-due"),))


def shown_retention(retention: Sequence[FolderRetention]) -> list[FolderRetention]:
    """The folders with the most measured reviews, kept in tree order."""
    kept = sorted(retention, key=lambda r: -r.reviews)[:RETENTION_FOLDERS]
    return [r for r in retention if r in kept]


def retention_chart(retention: Sequence[FolderRetention]) -> Chart | None:
    shown = shown_retention(retention)
    if not shown:
        return None
    return Chart(
        kind="bars",
        labels=tuple(folder_label(r.emoji, r.name) for r in shown),
        series=(
            Series("Retention", tuple(percent(r.retention) for r in shown), "--chart-retention"),
            Series("Desired", tuple(percent(r.desired) for r in shown), "--chart-target", (), True),
        ),
        unit="%",
    )


def states_chart(stats: StudyStats) -> Chart | None:
    counts = stats.states
    if counts.total == 0:
        return None
    values = (counts.new, counts.learning, counts.review, counts.relearning)
    colors = tuple(f"--chart-{s.lower()}" for s in STATES)
    series = Series("Cards", tuple(float(v) for v in values), "--chart-review", colors)
    return Chart(kind="bars", labels=STATES, series=(series,))
