"""The stats page: summary numbers, four charts with their tables, the streak, the hardest words.

A pure function from `StudyStats` to an element tree. Each chart is a `<figure>` holding a
placeholder whose `data-chart` attribute carries the chart as JSON (app/ui/stats_charts.py;
static/charts.js draws it once the browser layer calls `app.browser.charts.draw_charts`) and
the same numbers as a real table in a "Show as table" disclosure, so screen readers and a page
without the chart library lose nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain import Folder
from app.study.model import DIRECTION_LABELS
from app.studying.stats import FolderRetention, StudyStats
from app.text.counting import counted
from app.text.nodes import Child, El, Node, h
from app.ui.routes import Route
from app.ui.stats_charts import (
    RETENTION_FOLDERS,
    Chart,
    Series,
    forecast_chart,
    number,
    percent,
    retention_chart,
    reviews_chart,
    shown_retention,
    states_chart,
)
from app.ui.tree_view import folder_label

NO_REVIEWS = "No reviews yet — study a folder to see your progress here."


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
            extra=("Reviews", [str(r.reviews) for r in shown_retention(stats.retention)]),
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
        {"class": "breadcrumbs stats-scope", "aria-label": "Stats scope"},
        h("ol", None, crumbs),
        bool(narrower)
        and h(
            "div",
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
        ("Reviews today", f"{stats.reviews[-1].total:,}"),
        ("Reviews, last 30 days", f"{stats.total_reviews:,}"),
        ("Due today", f"{stats.forecast[0].due:,}"),
        ("Retention, last 30 days", "–" if retention is None else number(percent(retention), "%")),
        ("Study streak", counted(streak.current, "day")),
        ("Longest streak", counted(streak.longest, "day")),
        ("Cards studied", f"{studied:,}"),
        ("New words to study", f"{stats.states.new:,}"),
    )
    hint = streak.current > 0 and not streak.studied_today
    return h(
        "section",
        {"class": "stats-summary", "aria-label": "Summary"},
        h("dl", None, ((h("div", None, h("dt", None, k), h("dd", None, v))) for k, v in items)),
        hint and h("p", {"class": "meta-line"}, "Study today to keep your streak going."),
    )


def _retention_note(retention: Sequence[FolderRetention]) -> str:
    hidden = len(retention) - RETENTION_FOLDERS
    note = "Share of reviews of learnt cards not answered Again, against the folder's goal."
    if hidden > 0:
        note += f" Showing the {RETENTION_FOLDERS} folders with the most reviews; {hidden:,} more."
    return note


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
            len(chart.series) > 1 and _legend(chart.series),
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


def _legend(series: Sequence[Series]) -> El:
    """What each colour means; hidden from screen readers, which have the table's headings."""
    return h(
        "ul",
        {"class": "chart-legend", "aria-hidden": "true"},
        (
            h(
                "li",
                None,
                h(
                    "span",
                    {
                        "class": "legend-swatch",
                        "data-series": s.color.removeprefix("--chart-"),
                        "data-marker": s.marker,
                    },
                ),
                s.name,
            )
            for s in series
        ),
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
