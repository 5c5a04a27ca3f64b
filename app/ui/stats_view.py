"""The stats page: summary numbers, four charts with their tables, the streak, the hardest words.

A pure function from `StudyStats` to an element tree. Each chart is a `<figure>` holding a
placeholder whose `data-chart` attribute carries the chart as JSON (static/charts.js draws it
once the browser layer calls `app.browser.charts.draw_charts`) and the same numbers as a real
table in a "Show as table" disclosure, so screen readers and a page without the chart library
lose nothing. The JSON shape (`Chart.data`):

    {"kind": "bars" | "stacked", "labels": [str, ...], "unit": "" | "%",
     "series": [{"name": str, "values": [number, ...], "color": "--chart-…",
                 "colors": ["--chart-…", ...] (optional, one per bar),
                 "marker": true (optional: drawn as a point per label, not a bar)}, ...]}

Colours are names of CSS custom properties (static/app.css), so the chart follows the theme.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from app.domain import Folder
from app.study.model import DIRECTION_LABELS, CardState, Rating
from app.study.stats import FolderRetention, StudyStats
from app.ui.nodes import Child, El, Node, h
from app.ui.routes import Route
from app.ui.tree_view import folder_label

RATINGS = tuple(r.label for r in Rating)
STATES = tuple(s.name.title() for s in CardState)
RETENTION_FOLDERS = 20  # the chart stays readable; narrow the scope to see others
NO_REVIEWS = "No reviews yet — study a folder to see your progress here."


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
    """A figure as the tables show it: whole numbers without a decimal point."""
    return f"{int(value) if float(value).is_integer() else value}{unit}"


def scope_title(path: Sequence[Folder]) -> str:
    return folder_label(path[-1].emoji, path[-1].name) if path else "Whole collection"


def render_stats(stats: StudyStats, path: Sequence[Folder], narrower: Sequence[Folder]) -> El:
    """The page for a scope: `path` runs from the top folder down to the scope's folder (empty
    for the whole collection); `narrower` are the folders the picker offers one level down."""
    return h(
        "div",
        {"class": "stats"},
        h("h1", None, f"Stats: {scope_title(path)}"),
        _scope_picker(path, narrower),
        stats.streak.longest == 0 and h("p", {"class": "empty"}, NO_REVIEWS),
        _summary(stats),
        _figure("stats-reviews", "Reviews per day, last 30 days", reviews_chart(stats), "Day"),
        _figure("stats-due", "Due in the next 30 days", forecast_chart(stats), "Day"),
        _figure(
            "stats-retention",
            "True retention by folder, last 30 days",
            retention_chart(stats.retention),
            "Folder",
            note=_retention_note(stats.retention),
            extra=("Reviews", [str(r.reviews) for r in _shown(stats.retention)]),
        ),
        _figure("stats-states", "Cards by state", states_chart(stats), "State"),
        _hardest(stats),
    )


def stats_href(folder: Folder | None) -> str:
    """The stats page of a folder, or of the whole collection."""
    return "#/stats" if folder is None else f"#/stats/folder/{folder.id}"


def _scope_picker(path: Sequence[Folder], narrower: Sequence[Folder]) -> El:
    trail: list[Folder | None] = [None, *path]
    crumbs = []
    for i, folder in enumerate(trail):
        label = "Whole collection" if folder is None else folder_label(folder.emoji, folder.name)
        current = i == len(trail) - 1
        attrs = {"href": stats_href(folder), "aria-current": "page" if current else None}
        crumbs.append(h("li", None, h("a", attrs, label)))
    return h(
        "nav",
        {"class": "stats-scope", "aria-label": "Stats scope"},
        h("ol", {"class": "breadcrumbs"}, crumbs),
        bool(narrower)
        and h(
            "p",
            {"class": "stats-narrow"},
            "Narrow to: ",
            h(
                "ul",
                None,
                (
                    h("li", None, h("a", {"href": stats_href(f)}, folder_label(f.emoji, f.name)))
                    for f in narrower
                ),
            ),
        ),
    )


def _summary(stats: StudyStats) -> El:
    retention = stats.overall_retention
    streak = stats.streak
    studied = stats.states.total - stats.states.new
    items = (
        ("Reviews today", str(stats.reviews[-1].total)),
        ("Reviews, last 30 days", str(stats.total_reviews)),
        ("Due today", str(stats.forecast[0].due)),
        ("Retention, last 30 days", "–" if retention is None else number(percent(retention), "%")),
        ("Study streak", _days(streak.current)),
        ("Longest streak", _days(streak.longest)),
        ("Cards studied", str(studied)),
        ("New words to study", str(stats.states.new)),
    )
    hint = streak.current > 0 and not streak.studied_today
    return h(
        "section",
        {"class": "stats-summary", "aria-label": "Summary"},
        h("dl", None, ((h("div", None, h("dt", None, k), h("dd", None, v))) for k, v in items)),
        hint and h("p", {"class": "meta-line"}, "Study today to keep your streak going."),
    )


def _days(count: int) -> str:
    return f"{count} day" if count == 1 else f"{count} days"


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


def _shown(retention: Sequence[FolderRetention]) -> list[FolderRetention]:
    """The folders with the most measured reviews, kept in tree order."""
    kept = sorted(retention, key=lambda r: -r.reviews)[:RETENTION_FOLDERS]
    return [r for r in retention if r in kept]


def retention_chart(retention: Sequence[FolderRetention]) -> Chart | None:
    shown = _shown(retention)
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


def _retention_note(retention: Sequence[FolderRetention]) -> str:
    hidden = len(retention) - RETENTION_FOLDERS
    note = "Share of reviews of learnt cards not answered Again, against the folder's goal."
    if hidden > 0:
        note += f" Showing the {RETENTION_FOLDERS} folders with the most reviews; {hidden} more."
    return note


def states_chart(stats: StudyStats) -> Chart | None:
    counts = stats.states
    if counts.total == 0:
        return None
    values = (counts.new, counts.learning, counts.review, counts.relearning)
    colors = tuple(f"--chart-{s.lower()}" for s in STATES)
    series = Series("Cards", tuple(float(v) for v in values), "--chart-review", colors)
    return Chart(kind="bars", labels=STATES, series=(series,))


EMPTY = {
    "stats-reviews": "No reviews in the last 30 days.",
    "stats-due": "Nothing is due in the next 30 days.",
    "stats-retention": "No learnt card has come back for review in the last 30 days yet.",
    "stats-states": "No words with meanings to study here yet.",
}
Column = tuple[str, Sequence[Node]]  # a table column: its heading and one cell per row


def _figure(
    key: str,
    caption: str,
    chart: Chart | None,
    first: str,
    *,
    note: str = "",
    extra: Column | None = None,
) -> El:
    """A chart under its caption, with its table; or the empty state when there is no data."""
    body: list[Child] = [h("p", {"class": "empty"}, EMPTY[key])]
    if chart is not None:
        columns = [(s.name, [number(v, chart.unit) for v in s.values]) for s in chart.series]
        label = f"Chart: {caption}. The figures are in the table below."
        body = [
            bool(note) and h("p", {"class": "meta-line"}, note),
            h(
                "div",
                {"class": "chart", "data-chart": chart.data(), "role": "img", "aria-label": label},
            ),
            h(
                "details",
                {"class": "chart-table"},
                h("summary", None, "Show as table"),
                _table(
                    key, (first, chart.labels), [*columns, *([extra] if extra is not None else [])]
                ),
            ),
        ]
    return h(
        "figure",
        {"class": "stats-figure"},
        h("figcaption", None, h("h2", {"id": key}, caption)),
        *body,
    )


def _table(key: str, rows: Column, columns: Sequence[Column]) -> El:
    """A table whose first column heads each row (`rows`), labelled by the heading `key`."""
    heading, labels = rows
    return h(
        "table",
        {"class": "stats-table", "aria-labelledby": key},
        h(
            "thead",
            None,
            h(
                "tr",
                None,
                (h("th", {"scope": "col"}, name) for name in (heading, *(c[0] for c in columns))),
            ),
        ),
        h(
            "tbody",
            None,
            (
                h(
                    "tr",
                    None,
                    h("th", {"scope": "row"}, label),
                    (h("td", None, c[1][i]) for c in columns),
                )
                for i, label in enumerate(labels)
            ),
        ),
    )


def _hardest(stats: StudyStats) -> El:
    key = "stats-hardest"
    cards = stats.hardest
    both_ways = any(c.direction != "forward" for c in cards)
    columns: list[Column] = [
        ("Folder", [folder_label(c.folder_emoji, c.folder_name) for c in cards]),
        ("Lapses", [str(c.lapses) for c in cards]),
        ("Again", [str(c.again) for c in cards]),
    ]
    if both_ways:  # a word can be hard one way only; say which when some are asked backwards
        columns.insert(0, ("Direction", [DIRECTION_LABELS[c.direction] for c in cards]))
    links = [h("a", {"href": Route(c.folder_id, c.word_id).to_hash()}, c.term) for c in cards]
    return h(
        "section",
        {"class": "stats-hardest", "aria-labelledby": key},
        h("h2", {"id": key}, "Hardest words"),
        h(
            "p",
            {"class": "meta-line"},
            "Most lapses (forgotten once learnt), then most Again answers.",
        ),
        _table(key, ("Word", links), columns)
        if cards
        else h("p", {"class": "empty"}, "No word has been forgotten yet."),
    )
