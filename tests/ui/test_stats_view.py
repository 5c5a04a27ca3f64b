"""The stats page's tree: each chart's table says what its data says, empty states, safe text."""

from __future__ import annotations

import json

from app.domain import Folder, FolderId, WordId
from app.store.stats_queries import HardCard
from app.studying.stats import (
    DAYS,
    DayReviews,
    DueDay,
    FolderRetention,
    StateCounts,
    Streak,
    StudyStats,
)
from app.text.nodes import El, find_all, text_content
from app.ui.stats_charts import day_label
from app.ui.stats_view import NO_REVIEWS, render_stats

TODAY = 20_780  # 2026-11-23
XSS = "<img src=x onerror=alert(1)>"


def _folder(folder_id: int, name: str, emoji: str = "") -> Folder:
    return Folder(
        **{"id": folder_id, "parent_id": None, "name": name, "emoji": emoji, "color": "none"}
        | {"created_at": 1, "updated_at": 1}
    )


def _stats(*, empty: bool = False) -> StudyStats:
    first = TODAY - DAYS + 1
    reviews = tuple(DayReviews(first + i, (0, 0, 0, 0)) for i in range(DAYS))
    forecast = tuple(DueDay(TODAY + i, 0) for i in range(DAYS))
    if empty:
        states = StateCounts(0, 0, 0, 0)
        return StudyStats(TODAY, reviews, forecast, (), states, Streak(0, 0, False), ())
    reviews = (*reviews[:-2], DayReviews(TODAY - 1, (1, 2, 30, 4)), DayReviews(TODAY, (2, 0, 7, 1)))
    forecast = (DueDay(TODAY, 12), *forecast[1:3], DueDay(TODAY + 3, 1_250_000), *forecast[4:])
    retention = (
        FolderRetention(FolderId(3), XSS, "🧬", reviews=8, passed=7, desired=0.9),
        FolderRetention(FolderId(4), "German", "", reviews=3, passed=3, desired=0.85),
    )
    hardest = (
        HardCard(WordId(9), "forward", XSS, FolderId(3), XSS, "🧬", lapses=4, again=6),
        HardCard(WordId(10), "reverse", "Hund", FolderId(4), "German", "", lapses=2, again=1),
    )
    states = StateCounts(new=5, learning=2, review=40, relearning=1)
    return StudyStats(TODAY, reviews, forecast, retention, states, Streak(3, 9, False), hardest)


def _charts(page: El) -> list[tuple[dict[str, object], El]]:
    """Each chart's data with the table in the same figure."""
    found = []
    for figure in find_all(page, lambda el: el.tag == "figure"):
        charts = find_all(figure, lambda el: "data-chart" in el.attrs)
        if charts:
            (table,) = find_all(figure, lambda el: el.tag == "table")
            found.append((json.loads(charts[0].attrs["data-chart"]), table))
    return found


def _rows(table: El) -> list[list[str]]:
    return [
        [text_content(cell) for cell in row.children if isinstance(cell, El)]
        for row in find_all(table, lambda el: el.tag == "tr")
    ]


def test_every_table_holds_the_numbers_its_chart_draws() -> None:
    charts = _charts(render_stats(_stats(), [], []))
    assert [c["kind"] for c, _ in charts] == ["stacked", "bars", "bars", "bars"]
    for chart, table in charts:
        series = chart["series"]
        assert isinstance(series, list)
        head, *rows = _rows(table)
        assert head[1 : 1 + len(series)] == [s["name"] for s in series]
        assert [row[0] for row in rows] == chart["labels"]
        for i, row in enumerate(rows):
            shown = [cell.removesuffix(str(chart["unit"])) for cell in row[1 : 1 + len(series)]]
            figures = [float(v.replace(",", "")) for v in shown]
            assert figures == [float(s["values"][i]) for s in series]


def test_the_charts_carry_the_figures_and_theme_colours() -> None:
    reviews, due, retention, states = (c for c, _ in _charts(render_stats(_stats(), [], [])))
    assert reviews["labels"][-1] == day_label(TODAY) == "Nov 23"
    assert [s["name"] for s in reviews["series"]] == ["Again", "Hard", "Good", "Easy"]
    assert [s["values"][-1] for s in reviews["series"]] == [2, 0, 7, 1]
    assert [s["color"] for s in reviews["series"]] == [
        "--chart-again",
        "--chart-hard",
        "--chart-good",
        "--chart-easy",
    ]
    assert due["labels"][0] == "Today"
    assert due["series"][0]["values"][3] == 1_250_000
    assert retention["unit"] == "%"
    assert [s["values"] for s in retention["series"]] == [[87.5, 100], [90, 85]]
    assert retention["series"][1]["marker"] is True
    assert states["series"][0]["values"] == [5, 2, 40, 1]
    assert states["series"][0]["colors"][0] == "--chart-new"


def test_large_counts_and_shares_read_plainly_in_the_tables() -> None:
    page = render_stats(_stats(), [], [])
    text = text_content(page)
    assert "1,250,000" in text
    assert "e+06" not in text
    _, _, (_, retention), _ = _charts(page)
    assert _rows(retention)[1] == ["🧬 " + XSS, "87.5%", "90%", "8"]


def test_the_summary_and_the_streak() -> None:
    page = render_stats(_stats(), [], [])
    (summary,) = find_all(page, lambda el: el.tag == "dl")
    pairs = {
        text_content(d.children[0]): text_content(d.children[1])
        for d in summary.children
        if isinstance(d, El)
    }
    assert pairs["Reviews today"] == "10"
    assert pairs["Reviews, last 30 days"] == "47"
    assert pairs["Due today"] == "12"
    assert pairs["Retention, last 30 days"] == "90.9%"
    assert pairs["Study streak"] == "3 days"
    assert pairs["Longest streak"] == "9 days"
    assert pairs["Cards studied"] == "43"
    assert pairs["New words to study"] == "5"
    assert "Study today to keep your streak going." in text_content(page)


def test_an_empty_scope_says_how_to_get_figures() -> None:
    page = render_stats(_stats(empty=True), [], [])
    text = text_content(page)
    assert NO_REVIEWS in text
    assert not find_all(page, lambda el: "data-chart" in el.attrs)
    assert len(find_all(page, lambda el: el.tag == "figure")) == 4
    assert "Nothing is due in the next 30 days." in text
    assert "No word has been forgotten yet." in text
    assert "Retention, last 30 days–" in text


def test_the_scope_picker_links_up_and_down() -> None:
    spanish, verbs, nouns = _folder(3, "Spanish", "🇪🇸"), _folder(7, "Verbs"), _folder(8, "Nouns")
    page = render_stats(_stats(), [spanish], [verbs, nouns])
    assert text_content(find_all(page, lambda el: el.tag == "h1")[0]) == "Stats: 🇪🇸 Spanish"
    (nav,) = find_all(page, lambda el: el.tag == "nav")
    links = [(a.attrs["href"], text_content(a)) for a in find_all(nav, lambda el: el.tag == "a")]
    assert links == [
        ("#/stats", "Whole collection"),
        ("#/stats/folder/3", "🇪🇸 Spanish"),
        ("#/stats/folder/7", "Verbs"),
        ("#/stats/folder/8", "Nouns"),
    ]
    current = find_all(nav, lambda el: el.attrs.get("aria-current") == "page")
    assert [text_content(a) for a in current] == ["🇪🇸 Spanish"]
    collection = render_stats(_stats(), [], [])
    assert (
        text_content(find_all(collection, lambda el: el.tag == "h1")[0])
        == "Stats: Whole collection"
    )


def test_the_hardest_words_link_to_the_word_and_say_the_direction() -> None:
    (table,) = find_all(
        render_stats(_stats(), [], []),
        lambda el: el.attrs.get("aria-labelledby") == "stats-hardest" and el.tag == "table",
    )
    assert _rows(table) == [
        ["Word", "Direction", "Folder", "Lapses", "Again"],
        [XSS, "term → meaning", "🧬 " + XSS, "4", "6"],
        ["Hund", "meaning → term", "German", "2", "1"],
    ]
    assert [a.attrs["href"] for a in find_all(table, lambda el: el.tag == "a")] == [
        "#/folder/3/word/9",
        "#/folder/4/word/10",
    ]


def test_user_text_stays_text() -> None:
    page = render_stats(_stats(), [_folder(3, XSS)], [_folder(4, XSS)])
    assert not find_all(page, lambda el: el.tag in ("img", "script"))
    assert XSS in text_content(page)
    (retention,) = [c for c, _ in _charts(page) if c["unit"] == "%"]
    assert retention["labels"][0] == "🧬 " + XSS
