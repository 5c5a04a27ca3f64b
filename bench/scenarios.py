"""The workload figures: a generated collection is seeded into IndexedDB and the app boots
from it; then search as you type, opening a big folder, the folder tree, edits until Saved and a
bulk paste are driven through the page and timed inside it (bench/probe.js)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Playwright

from app.store.durability import SNAPSHOT_EVERY
from app.text.counting import counted
from bench.browser import Heap, Profile, profile
from bench.calibration import Calibration
from bench.report import Figure, summarise
from bench.workload import Workload

Log = Callable[[str], None]
SEARCH_TARGET, EDIT_TARGET, BULK_TARGET, FOLDER_TARGET = 30.0, 20.0, 2000.0, 100.0
GRADE_PAINTED_TARGET, GRADE_DURABLE_TARGET, COUNTS_TARGET, STATS_TARGET = 16.0, 20.0, 30.0, 500.0
LONG_TASK_TARGET = 50.0
# Pyodide's memory at 100,000 words: phones close tabs much bigger than that (issue 25).
WASM_TARGET_MB = 400.0


def boot(session: Profile, workload: Workload, data_dir: Path, name: str) -> Page:
    """Seed the workload, open the app on it and check it really loaded every word."""
    session.seed(workload.store, data_dir, name)
    page = session.open("/")
    size = workload.size
    expected = f"{size.folders:,} folders · {size.words:,} words".replace(",", "")
    shown = page.locator("#main .meta-line").first.inner_text()
    if expected not in shown.replace(",", ""):
        raise SystemExit(f"bench: the app did not load the workload: {shown!r}")
    return page


def _measures(page: Page, name: str) -> list[float]:
    return list(page.evaluate("__bench.measures()").get(name, []))


def _word_ids(page: Page, limit: int) -> list[str]:
    return list(
        page.evaluate(
            "n => [...document.querySelectorAll('#main li.word[data-word-id]')]"
            ".slice(0, n).map(li => li.dataset.wordId)",
            limit,
        )
    )


WARM_UP_EDITS = 3  # not timed: the first edits of a session build what later ones reuse


def _edits(page: Page, workload: Workload, count: int, heap: Heap | None) -> list[dict[str, float]]:
    page.evaluate("id => __bench.openFolder(id)", workload.edit_folder)
    ids = _word_ids(page, 20)
    results = []
    for i in range(WARM_UP_EDITS + count):
        word = ids[i % len(ids)]
        result = page.evaluate("([id, m]) => __bench.editWord(id, m)", [word, f"edit {i}"])
        if i >= WARM_UP_EDITS:
            results.append(result)
        if heap is not None:
            heap.sample()
    return results


def _study(page: Page, grades: int, heap: Heap) -> dict[str, Any]:
    """Study everything from the top bar and grade cards as fast as the page allows."""
    page.evaluate("__bench.goHome()")
    start = page.evaluate("__bench.startStudy()")
    results = []
    for i in range(WARM_UP_EDITS + grades):
        result = page.evaluate("r => __bench.grade(r)", 1 if i % 5 == 0 else 3)
        if i >= WARM_UP_EDITS:
            results.append(result)
        heap.sample()
    # The sidebar's counts are redrawn a moment after each grade: wait for the last one.
    page.wait_for_timeout(500)
    return {
        "study_start": [start],
        "grades": results,
        "counts": _measures(page, "lexical:due-counts"),
    }


def small(
    playwright: Playwright, base_url: str, data_dir: Path, workload: Workload, edits: int
) -> list[Figure]:
    """Edits until Saved in a small collection, the baseline for the big one."""
    words = f"{workload.size.words:,}"
    calibration = Calibration("small", f"the {words}-word page")
    with profile(playwright, base_url) as session:
        page = boot(session, workload, data_dir, "small.sqlite")
        calibration.take(page)  # only before and after: the edits are one short stretch
        durable = [r["durable"] for r in _edits(page, workload, edits, None)]
        calibration.take(page)
    figures = [
        summarise("edit.small.p50", f"Edit durable (until Saved) p50, {words} words", durable),
        summarise(
            "edit.small.p95", f"Edit durable (until Saved) p95, {words} words", durable, q=95
        ),
    ]
    return calibration.figures(figures)


def pauses(
    playwright: Playwright,
    base_url: str,
    data_dir: Path,
    workload: Workload,
    *,
    edits: int,
    log: Log,
) -> list[Figure]:
    """The longest main-thread task while editing: `edits` edits one after another, with a
    pause after every SNAPSHOT_EVERY of them until the snapshot that falls due is written, as
    a person pausing would let it be. The Long Tasks API sees only tasks over 50 ms: with
    none, the figure is 0."""
    words = f"{workload.size.words:,}"
    calibration = Calibration("pauses", f"the {words}-word page of the long tasks")
    # At the middle pause; the probe leaves the calibration's own long tasks out.
    middle = max(1, (WARM_UP_EDITS + edits) // SNAPSHOT_EVERY // 2)
    with profile(playwright, base_url) as session:
        page = boot(session, workload, data_dir, "pauses.sqlite")
        page.evaluate("id => __bench.openFolder(id)", workload.edit_folder)
        ids = _word_ids(page, 20)
        calibration.take(page)
        since = 0.0
        for i in range(WARM_UP_EDITS + edits):
            if i == WARM_UP_EDITS:
                since = float(page.evaluate("performance.now()"))
            page.evaluate("([id, m]) => __bench.editWord(id, m)", [ids[i % len(ids)], f"pause {i}"])
            if (i + 1) % SNAPSHOT_EVERY == 0:
                page.wait_for_function(
                    "n => performance.getEntriesByName('lexical:snapshot').length >= n",
                    arg=(i + 1) // SNAPSHOT_EVERY,
                    timeout=120_000,
                )
                if (i + 1) // SNAPSHOT_EVERY == middle:
                    calibration.take(page)
        tasks = list(page.evaluate("t => __bench.longTasksSince(t)", since))
        snapshots = _measures(page, "lexical:snapshot")
        calibration.take(page)
    done = f"{counted(edits, 'edit')} and {counted(len(snapshots), 'snapshot')}"
    log(f"pauses: {done} at {words} words")
    longest = summarise(
        "edit.longest_task",
        f"Longest main-thread task during {edits:,} edits and their snapshots, {words} words",
        tasks or [0.0],
        q=100,
        target=LONG_TASK_TARGET,
        note=f"Long Tasks API (tasks over 50 ms only): {counted(len(tasks), 'long task')}",
    )
    return calibration.figures([longest])


def large(
    playwright: Playwright,
    base_url: str,
    data_dir: Path,
    workload: Workload,
    *,
    runs: int,
    edits: int,
    log: Log,
) -> list[Figure]:
    size = workload.size
    words = f"{size.words:,}"
    out: dict[str, Any] = {}
    calibration = Calibration("large", f"the {words}-word page")
    with profile(playwright, base_url) as session:
        page = boot(session, workload, data_dir, "large.sqlite")
        heap = Heap(page)
        heap.sample()
        started = page.evaluate("__bench.startup()")
        out["ready"] = [started["ready"]]
        out["load"] = _measures(page, "lexical:load-db")
        out["first_render"] = _measures(page, "lexical:first-render")
        log(f"booted {words} words in {started['ready']:.0f} ms")
        out["search"] = []
        for query in workload.queries:
            out["search"] += page.evaluate("q => __bench.type(q)", query)
            heap.sample()
        log(f"search: {len(out['search'])} keystrokes over {len(workload.queries)} queries")
        # Not before the search: it would warm the SQLite code the first keystrokes run.
        calibration.take(page)
        out["folder"] = []
        for _ in range(runs):
            page.evaluate("__bench.goHome()")
            out["folder"].append(page.evaluate("id => __bench.openFolder(id)", workload.big_folder))
            heap.sample()
        page.evaluate("id => __bench.openFolder(id)", workload.widest_folder)
        out["expand"], out["collapse"] = [], []
        for _ in range(runs):
            out["expand"].append(page.evaluate("id => __bench.toggle(id)", workload.widest_folder))
            out["collapse"].append(
                page.evaluate("id => __bench.toggle(id)", workload.widest_folder)
            )
        out["edits"] = _edits(page, workload, edits, heap)
        log(f"edits: {edits} at {words} words")
        calibration.take(page)
        out.update(_study(page, edits, heap))
        log(f"study: {edits} grades at {words} words")
        out["stats"] = []
        for _ in range(runs):
            page.evaluate("__bench.goHome()")
            out["stats"].append(page.evaluate("__bench.openStats()"))
            heap.sample()
        log(f"stats: {size.reviews:,} reviews")
        page.evaluate("id => __bench.openFolder(id)", workload.inbox)
        out["bulk"] = page.evaluate("t => __bench.bulkAdd(t)", workload.bulk_text)
        heap.sample()
        # The bulk add logs over a megabyte, so a snapshot follows once editing pauses.
        page.wait_for_function(
            "() => performance.getEntriesByName('lexical:snapshot').length", timeout=60_000
        )
        heap.sample()
        out["snapshot"] = _measures(page, "lexical:snapshot")
        out["heap"], out["buffers"], out["wasm"] = heap.js, heap.buffers, heap.wasm
        calibration.take(page)
    return calibration.figures(_figures(out, workload))


def _figures(out: dict[str, Any], workload: Workload) -> list[Figure]:
    size = workload.size
    words, big, bulk = f"{size.words:,}", f"{size.big_folder:,}", f"{size.bulk:,}"
    search = [s["dom"] for s in out["search"]]
    durable = [e["durable"] for e in out["edits"]]
    bulk_run = out["bulk"]
    return [
        summarise("boot.large.ready", f"Time to ready with {words} words", out["ready"]),
        summarise(
            "boot.large.load",
            f"Database load at boot, {words} words",
            out["load"],
            note="snapshot read from IndexedDB, checked, opened; log replayed",
        ),
        summarise(
            "boot.large.render",
            f"First render at boot (tree + home), {words} words",
            out["first_render"],
        ),
        summarise("search.p50", f"Search as you type p50, {words} words", search),
        summarise(
            "search.p95",
            f"Search as you type p95, {words} words",
            search,
            q=95,
            target=SEARCH_TARGET,
        ),
        summarise(
            "search.painted.p95",
            "Search as you type p95, until painted",
            [s["painted"] for s in out["search"]],
            q=95,
        ),
        summarise(
            "folder.open",
            f"Open a folder of {big} words: first screen",
            [f["dom"] for f in out["folder"]],
            target=FOLDER_TARGET,
        ),
        summarise(
            "folder.open.painted",
            f"Open a folder of {big} words: first screen painted",
            [f["painted"] for f in out["folder"]],
            target=FOLDER_TARGET,
        ),
        summarise(
            "tree.expand",
            f"Expand a folder in the tree ({size.folders:,} folders)",
            [t["painted"] for t in out["expand"]],
        ),
        summarise("tree.collapse", "Collapse it again", [t["painted"] for t in out["collapse"]]),
        summarise("edit.large.p50", f"Edit durable (until Saved) p50, {words} words", durable),
        summarise(
            "edit.large.p95",
            f"Edit durable (until Saved) p95, {words} words",
            durable,
            q=95,
            target=EDIT_TARGET,
        ),
        summarise(
            "edit.large.shown.p95",
            f"Edit shown (page redrawn) p95, {words} words",
            [e["shown"] for e in out["edits"]],
            q=95,
        ),
        summarise(
            "study.start",
            f"Start studying everything: first card ({size.due:,} due; loads py-fsrs)",
            [r["painted"] for r in out["study_start"]],
        ),
        summarise(
            "grade.painted.p95",
            f"Grade -> next card painted p95, {size.words * 2:,} cards",
            [g["painted"] for g in out["grades"]],
            q=95,
            target=GRADE_PAINTED_TARGET,
        ),
        summarise(
            "grade.durable.p95",
            "Grade durable (until Saved) p95",
            [g["durable"] for g in out["grades"]],
            q=95,
            target=GRADE_DURABLE_TARGET,
        ),
        summarise(
            "counts.sidebar.p95",
            "Due counts for the whole sidebar after a grade (counted and drawn) p95",
            out["counts"][1:],
            q=95,
            target=COUNTS_TARGET,
        ),
        summarise(
            "counts.first",
            "Due counts read from scratch after the first screen (counted and drawn)",
            out["counts"][:1],
        ),
        summarise(
            "stats.first",
            f"Stats page drawn the first time ({size.reviews:,} reviews; loads uPlot)",
            [s["painted"] for s in out["stats"][:1]],
        ),
        summarise(
            "stats.drawn",
            f"Stats page drawn, {size.reviews:,} reviews (median)",
            [s["painted"] for s in out["stats"]],
            target=STATS_TARGET,
        ),
        summarise(
            "snapshot",
            f"Snapshot of the whole database, {words} words (after Saved, in a pause)",
            out["snapshot"],
            q=100,
        ),
        summarise(
            "bulk.preview",
            f"Bulk paste preview of {bulk} lines (after 150 ms debounce)",
            [bulk_run["preview"]["painted"]],
        ),
        summarise(
            "bulk.shown",
            f"Bulk add of {bulk} words: shown",
            [bulk_run["painted"]],
            target=BULK_TARGET,
        ),
        summarise(
            "bulk.durable",
            f"Bulk add of {bulk} words: Saved",
            [bulk_run["durable"]],
            target=BULK_TARGET,
        ),
        *_memory_figures(out, words, "", wasm_target=WASM_TARGET_MB),
    ]


def _memory_figures(
    out: dict[str, Any], words: str, key: str, *, wasm_target: float | None = None
) -> list[Figure]:
    """The peaks of the three memories a page holds, sampled after every step."""
    return [
        summarise(
            f"heap.peak{key}",
            f"Peak JS heap, {words} words",
            out["heap"],
            q=100,
            unit="MB",
            note="CDP Runtime.getHeapUsage usedSize, sampled after every step",
        ),
        summarise(
            f"buffers.peak{key}",
            f"Peak ArrayBuffer memory V8 counts (the database's working copy, and IndexedDB's "
            f"data on its way), {words} words",
            out["buffers"],
            q=100,
            unit="MB",
            note="CDP Runtime.getHeapUsage backingStorageSize, sampled after every step",
        ),
        summarise(
            f"wasm.peak{key}",
            f"Pyodide's WebAssembly memory (Python, SQLite's cache), {words} words",
            out["wasm"],
            q=100,
            unit="MB",
            target=wasm_target,
            note="its size after every step; it never shrinks",
        ),
    ]


def memory(
    playwright: Playwright, base_url: str, data_dir: Path, workload: Workload, edits: int
) -> list[Figure]:
    """The memory of a middle-sized collection after the 100,000-word page's steps that hold
    the most: searches, edits, grades, a bulk add and the snapshot it brings."""
    words = f"{workload.size.words:,}"
    with profile(playwright, base_url) as session:
        page = boot(session, workload, data_dir, "memory.sqlite")
        heap = Heap(page)
        heap.sample()
        for query in workload.queries:
            page.evaluate("q => __bench.type(q)", query)
            heap.sample()
        _edits(page, workload, edits, heap)
        _study(page, edits, heap)
        page.evaluate("id => __bench.openFolder(id)", workload.inbox)
        page.evaluate("t => __bench.bulkAdd(t)", workload.bulk_text)
        page.wait_for_function(
            "() => performance.getEntriesByName('lexical:snapshot').length", timeout=60_000
        )
        heap.sample()
    out = {"heap": heap.js, "buffers": heap.buffers, "wasm": heap.wasm}
    return _memory_figures(out, words, ".medium")
