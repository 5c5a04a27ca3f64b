"""Two devices apart in time (issue 27's e2e list): both offline for a simulated week, and one
device whose clock is a day off. Through the real server on loopback; each device's clock is
Playwright's page clock, installed before the page opens so Pyodide, the app's timers and the
Yjs provider all run on it.

A week apart: each day both devices study the same folder and edit it (renames, words added,
meanings and notes), with the server down; when it is back both converge, and every review of
both devices is kept: the Stats page counts all of them on each, and the JSON backups of the
two devices hold the same folders, words, notes, reviews and card schedules.

A clock a day off: device two's clock runs 24 hours ahead; both edit and grade, synced, and it
makes no difference: the same content and schedules, no "to check", nothing lost.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from e2e.conftest import Guard, guarded_context, open_app, reload, screenshot
from e2e.lexical_ui import (
    add_note,
    add_word,
    bulk_add,
    create_folder,
    downloaded,
    focus_outside_fields,
    tree_link,
    wait_saved,
    word_item,
)
from e2e.sync_devices import SYNC_TIMEOUT_MS, SyncServer, pair, sync_status

WORDS = "perro - dog\ngato - cat\ncasa - house\nlibro - book"
TERMS = ("perro", "gato", "casa", "libro")
WEEKDAYS = [("lunes", "Monday"), ("martes", "Tuesday"), ("miércoles", "Wednesday")]
WEEKDAYS += [("jueves", "Thursday"), ("viernes", "Friday"), ("sábado", "Saturday")]
WEEKDAYS += [("domingo", "Sunday")]
MONTHS = [("enero", "January"), ("febrero", "February"), ("marzo", "March"), ("abril", "April")]
MONTHS += [("mayo", "May"), ("junio", "June"), ("julio", "July")]
# Monday 9 a.m. UTC: well past the study day's start (4 a.m.) whatever happens that day.
MONDAY = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
OFFLINE = "Offline: changes will sync"
CONVERGE_MS = 60_000


@pytest.fixture
def second_context(browser: Browser, guard: Guard) -> Iterator[BrowserContext]:
    """The second device: its own browser profile, under the same guard as the first."""
    ctx = guarded_context(browser, guard)
    yield ctx
    ctx.close()


@pytest.fixture
def devices(
    context: BrowserContext, second_context: BrowserContext
) -> tuple[BrowserContext, BrowserContext]:
    return context, second_context


def _device(context: BrowserContext, base_url: str, at: datetime) -> Page:
    # Installed before the page opens: Date, timers and performance are the clock's from the
    # first script on, and Yjs's lib0 keeps its own reference to Date.now.
    context.clock.install(time=at)
    return open_app(context, base_url)


def _study(page: Page, folder: str, rating: Any, stop_after: int = 0) -> int:
    """Study `folder` until the session ends (or `stop_after` grades), grading each card
    `rating(term, seen)` (1-4); the number of grades given."""
    tree_link(page, folder).click()
    focus_outside_fields(page)
    page.keyboard.press("s")
    expect(page.get_by_role("heading", name=f"Studying {folder}")).to_be_visible()
    summary = page.get_by_role("heading", name=re.compile("^(Session complete|Nothing to study)"))
    prompt = page.locator("#study-prompt")
    seen: dict[str, int] = {}
    grades = 0
    while True:
        expect(prompt.or_(summary)).to_be_visible()
        if summary.is_visible():
            break
        term = prompt.inner_text()
        seen[term] = seen.get(term, 0) + 1
        focus_outside_fields(page)
        page.keyboard.press(" ")
        expect(page.get_by_role("group", name="How well did you know it?")).to_be_visible()
        page.keyboard.press(str(rating(term, seen[term])))
        grades += 1
        wait_saved(page)
        assert grades < 60, "the session never ended"
        if grades == stop_after:
            page.get_by_role("button", name="End session").click()
            expect(summary).to_be_visible()
    page.get_by_role("button", name="Done").click()
    return grades


def _edit_word(page: Page, term: str, *, new_term: str = "", meanings: str = "") -> None:
    word_item(page, term).get_by_role("button", name="Edit").click()
    if new_term:
        page.get_by_label("Term").last.fill(new_term)
    if meanings:
        page.get_by_label("Meanings (one per line)").last.fill(meanings)
    page.get_by_role("button", name="Save").last.click()
    expect(word_item(page, new_term or term)).to_be_visible()
    wait_saved(page)


def _stats(page: Page) -> dict[str, str]:
    """The Stats page's summary for the whole collection, figure by figure."""
    page.get_by_role("link", name="Stats", exact=True).click()
    expect(page.get_by_role("heading", level=1, name=re.compile("^Stats"))).to_be_visible()
    scope = page.get_by_role("navigation", name="Stats scope").get_by_role("link").first
    scope.click()
    expect(page.get_by_role("heading", name="Stats: Whole collection")).to_be_visible()
    summary = page.get_by_role("region", name="Summary")
    terms = summary.locator("dt").all_inner_texts()
    values = summary.locator("dd").all_inner_texts()
    return dict(zip(terms, values, strict=True))


def _backup(page: Page, folder: Path) -> dict[str, Any]:
    path = downloaded(page, "Download JSON backup", folder / f"{id(page)}-backup.json")
    return dict(json.loads(path.read_text()))


def _content(backup: dict[str, Any]) -> dict[str, Any]:
    """What must be the same on every device, keyed by global id (local ids differ)."""
    folders = {f["id"]: f for f in backup["folders"]}
    words = {w["id"]: w for w in backup["words"]}
    cards = {c["id"]: c for c in backup["cards"]}
    schedule = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses")
    return {
        "folders": sorted((f["gid"], f["name"]) for f in folders.values()),
        "words": sorted(
            (w["gid"], w["term"], tuple(w["meanings"]), folders[w["folder_id"]]["gid"])
            for w in words.values()
        ),
        "notes": sorted((n["gid"], n["title"], n["body"]) for n in backup["notes"]),
        "cards": sorted(
            (words[c["word_id"]]["gid"], c["direction"], *(c.get(k) for k in schedule))
            for c in cards.values()
        ),
        "reviews": sorted(_review(r, cards, words) for r in backup["reviews"]),
    }


def _review(row: list[Any], cards: dict[int, Any], words: dict[int, Any]) -> tuple[Any, ...]:
    card = cards[row[0]]
    # card, rating, time, study day, gid: the review as made, whichever device made it.
    return (words[card["word_id"]]["gid"], card["direction"], row[1], row[2], row[11], row[12])


def _converged(pages: list[Page]) -> None:
    for page in pages:
        expect(sync_status(page)).to_have_text("Synced", timeout=CONVERGE_MS)
        expect(page.get_by_role("button", name=re.compile("to check$"))).to_be_hidden()


def _edit_on(day: int, one: Page, two: Page) -> None:
    """The day's edits while apart: renames, meanings, a note, a folder, a restart."""
    if day == 1:  # a rename on one, meanings on two
        tree_link(one, "Spanish").click()
        _edit_word(one, "libro", new_term="librito")
        tree_link(two, "Spanish").click()
        _edit_word(two, "casa", meanings="house\nhome")
    if day == 2:  # one restarts, still offline: it says so, and has kept everything
        reload(one)
        expect(sync_status(one)).to_have_text(OFFLINE, timeout=SYNC_TIMEOUT_MS)
    if day == 3:  # a note on one, a meaning on two
        tree_link(one, "Spanish").click()
        add_note(one, "Days of the week", "They take no capital letter.")
        tree_link(two, "Spanish").click()
        _edit_word(two, "perro", meanings="dog\nhound")
    if day == 5:  # a folder on two, the same word's meanings on both
        create_folder(two, "Made on Saturday")
        tree_link(two, "Spanish").click()
        _edit_word(two, "gato", meanings="cat\ntomcat")
        tree_link(one, "Spanish").click()
        _edit_word(one, "gato", meanings="cat\nkitty")


def test_a_week_apart_keeps_every_edit_and_every_review(
    devices: tuple[BrowserContext, BrowserContext],
    base_url: str,
    server: SyncServer,
    tmp_path: Path,
) -> None:
    address = f"ws://127.0.0.1:{server.port}"
    one = _device(devices[0], base_url, MONDAY)
    two = _device(devices[1], base_url, MONDAY)
    code = pair(one, address, None)
    pair(two, address, code)
    create_folder(one, "Spanish")
    bulk_add(one, WORDS, 4)
    expect(tree_link(two, "Spanish")).to_be_visible(timeout=SYNC_TIMEOUT_MS)

    server.kill()
    for page in (one, two):
        expect(sync_status(page)).to_have_text(OFFLINE, timeout=SYNC_TIMEOUT_MS)
    grades: dict[str, list[int]] = {"one": [], "two": []}
    for day in range(7):
        if day:
            for page in (one, two):
                page.clock.fast_forward("24:00:00")
        # Each device adds a word a day, so both always have a card to learn; one forgets a
        # different word each day and knows the rest, two finds them all hard at first.
        for page, added in ((one, WEEKDAYS[day]), (two, MONTHS[day])):
            tree_link(page, "Spanish").click()
            add_word(page, added[0], [added[1]])
        forgotten = TERMS[day % len(TERMS)]
        grades["one"].append(
            _study(one, "Spanish", lambda t, n, f=forgotten: 1 if (t, n) == (f, 1) else 3)
        )
        grades["two"].append(_study(two, "Spanish", lambda t, n: 2 if n == 1 else 3))
        for page in (one, two):
            expect(sync_status(page)).to_have_text(OFFLINE)
        _edit_on(day, one, two)
    screenshot(one, "sync-week-offline")

    server.start()
    _converged([one, two])
    for page in (one, two):
        tree_link(page, "Spanish").click()
        terms = [term for term, _ in (*WEEKDAYS, *MONTHS)]
        for term in ("perro", "gato", "casa", "librito", *terms):
            expect(word_item(page, term)).to_have_count(1, timeout=CONVERGE_MS)
        expect(word_item(page, "libro")).to_have_count(0)
        expect(word_item(page, "perro")).to_contain_text("hound")
        expect(word_item(page, "casa")).to_contain_text("home")
        for meaning in ("kitty", "tomcat"):  # a list merges: both devices' additions stay
            expect(word_item(page, "gato")).to_contain_text(meaning)
        expect(page.get_by_role("heading", level=3, name="Days of the week")).to_be_visible()
        expect(tree_link(page, "Made on Saturday")).to_be_visible()
    assert all(grades["one"]), grades  # both studied every day
    assert all(grades["two"]), grades
    total = sum(grades["one"]) + sum(grades["two"])
    shown = [_stats(page) for page in (one, two)]
    screenshot(two, "sync-week-stats")
    for figures in shown:
        assert figures["Reviews, last 30 days"] == str(total), (figures, grades)
    assert shown[0] == shown[1]
    backups = [_content(_backup(page, tmp_path)) for page in (one, two)]
    assert len(backups[0]["reviews"]) == total
    assert backups[0] == backups[1]


@pytest.mark.parametrize("offset", [1, -1], ids=["ahead", "behind"])
def test_a_clock_a_day_off_makes_no_difference(
    devices: tuple[BrowserContext, BrowserContext],
    base_url: str,
    server: SyncServer,
    tmp_path: Path,
    offset: int,
) -> None:
    address = f"ws://127.0.0.1:{server.port}"
    one = _device(devices[0], base_url, MONDAY)
    two = _device(devices[1], base_url, MONDAY + timedelta(days=offset))
    ahead, behind = (two, one) if offset > 0 else (one, two)
    code = pair(one, address, None)
    pair(two, address, code)
    create_folder(one, "Spanish")
    bulk_add(one, WORDS, 4)
    expect(tree_link(two, "Spanish")).to_be_visible(timeout=SYNC_TIMEOUT_MS)
    tree_link(two, "Spanish").click()
    expect(two.get_by_text("0 due · 4 new today")).to_be_visible()

    # The device ahead sees each word once and stops: all four are learning, due again
    # within minutes by its clock. It renames one and adds one.
    grades = _study(ahead, "Spanish", lambda t, n: 1 if t == "perro" else 3, stop_after=4)
    tree_link(ahead, "Spanish").click()
    _edit_word(ahead, "casa", new_term="casita")
    add_word(ahead, "mesa", ["table"])
    tree_link(behind, "Spanish").click()
    expect(word_item(behind, "casita")).to_be_visible(timeout=SYNC_TIMEOUT_MS)
    # By the clock behind, those cards were studied tomorrow: not due, and not new.
    expect(behind.get_by_text("0 due · 1 new today")).to_be_visible(timeout=SYNC_TIMEOUT_MS)
    # A day later the clock behind says 8:55 of the day the other studied at 9:00, so it
    # studies those cards before their grades by the clocks' times (a session takes learning
    # cards 20 minutes ahead), though after them in fact.
    for page in (one, two):
        page.clock.fast_forward("23:55:00")
    grades += _study(behind, "Spanish", lambda t, n: 1 if (t, n) == ("gato", 1) else 3)
    tree_link(behind, "Spanish").click()
    expect(behind.get_by_text("Nothing due today")).to_be_visible()
    _edit_word(behind, "libro", meanings="book\nvolume")
    add_note(behind, "From behind", "Written a day earlier by this clock.")
    grades += _study(ahead, "Spanish", lambda t, n: 3)
    tree_link(ahead, "Spanish").click()
    expect(ahead.get_by_text("Nothing due today")).to_be_visible()

    _converged([one, two])
    for page in (one, two):
        tree_link(page, "Spanish").click()
        for term in ("perro", "gato", "casita", "libro", "mesa"):
            expect(word_item(page, term)).to_have_count(1, timeout=CONVERGE_MS)
        expect(word_item(page, "casa")).to_have_count(0)
        expect(word_item(page, "libro")).to_contain_text("volume", timeout=CONVERGE_MS)
        expect(page.get_by_role("heading", level=3, name="From behind")).to_be_visible()
        # Due counts by each device's own clock: what both studied is not due on either.
        expect(page.get_by_text("Nothing due today")).to_be_visible()
    shown = [_stats(page) for page in (one, two)]
    screenshot(behind, "sync-clock-stats")
    for figures in shown:
        assert figures["Reviews, last 30 days"] == str(grades), (figures, grades)
        assert (figures["Cards studied"], figures["New words to study"]) == ("5", "0")
    backups = [_content(_backup(page, tmp_path)) for page in (one, two)]
    assert len(backups[0]["reviews"]) == grades
    assert backups[0] == backups[1]
