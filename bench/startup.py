"""Time to ready, cold and warm, for Lexical and for two baselines loading the same files: bare
Pyodide, and bare PyScript (PyScript starting that Pyodide, as Lexical does; decision 025).

Each run opens a fresh Chromium profile per page kind: the first visit is cold (empty HTTP cache
and IndexedDB), a second visit in the same profile is warm. The two kinds alternate which goes
first, so drift on a shared machine hits both alike; ratios are taken within the run.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Playwright

from bench.browser import app_packages, profile
from bench.report import Figure, median, summarise

PHASES = ("cold", "warm")
RATIO_TARGET = 1.15
LAST_SCREEN_TARGET_MS = 300.0  # issue 14: the user's own screen within 300 ms of a warm start
KEPT = "localStorage.getItem('lexical-last-screen') !== null"  # app/browser/last_screen.py
PACKAGES = "load:pydantic-core"  # the span app/browser/packages.py measures loading it in

# The shell's boot stages (index.html), from the marks static/boot.js sets as it shows each.
STAGES = {
    "2": "PyScript and the Python runtime ready: app/main.py starts importing the app",
    "3": "the app imported: the collection is opened",
    "4": "collection open: first render",
}
Samples = dict[str, list[float]]


def _visit(
    playwright: Playwright, base_url: str, path: str, samples: Samples, *, keeps_screen: bool
) -> None:
    with profile(playwright, base_url) as session:
        for phase in PHASES:
            page = session.open(path)
            info = page.evaluate("__bench.startup()")
            if keeps_screen:
                # Its packages with compiled code load after the first screen (decision 028).
                page.wait_for_function(f"__bench.measureEnd('{PACKAGES}') !== null")
                samples[f"{phase}:packages"].append(
                    page.evaluate(f"__bench.measureEnd('{PACKAGES}')")
                )
            if keeps_screen and phase == "cold":
                # The app keeps its screen a moment after drawing it; the warm visit paints it.
                page.wait_for_function(KEPT)
            page.close()
            samples[f"{phase}:ready"].append(info["ready"])
            samples[f"{phase}:fcp"].append(info["fcp"])
            for stage, at in info["stages"].items():
                samples.setdefault(f"{phase}:stage{stage}", []).append(at)
            if info["runtime"] is not None:
                samples.setdefault(f"{phase}:runtime", []).append(info["runtime"])
            if info["lastScreen"] is not None:
                samples.setdefault(f"{phase}:last-screen", []).append(info["lastScreen"])


def measure(
    playwright: Playwright, base_url: str, runs: int, log: Callable[[str], None]
) -> list[Figure]:
    packages = ",".join(app_packages())
    paths = {
        "app": "/",
        "bare": f"/bench/bare.html?packages={packages}",
        "pyscript": f"/bench/pyscript_bare.html?packages={packages}",
    }
    samples: dict[str, Samples] = {
        kind: {f"{p}:{m}": [] for p in PHASES for m in ("ready", "fcp", "packages")}
        for kind in paths
    }
    for run in range(runs):
        for kind in list(paths) if run % 2 == 0 else reversed(paths):
            _visit(playwright, base_url, paths[kind], samples[kind], keeps_screen=kind == "app")
        last = {kind: samples[kind] for kind in paths}
        log(
            f"startup run {run + 1}/{runs} (cold/warm ms): "
            + ", ".join(
                f"{k} {v['cold:ready'][-1]:.0f}/{v['warm:ready'][-1]:.0f}" for k, v in last.items()
            )
        )
    return _figures(samples["app"], samples["bare"], samples["pyscript"])


def _figures(app: Samples, bare: Samples, pyscript: Samples) -> list[Figure]:
    figures = []
    for phase in PHASES:
        app_ready, bare_ready = app[f"{phase}:ready"], bare[f"{phase}:ready"]
        per_run = [a / b for a, b in zip(app_ready, bare_ready, strict=True)]
        figures.append(
            Figure(
                f"startup.{phase}.ratio",
                f"Time to ready, {phase}: app / bare Pyodide",
                "x",
                median(app_ready) / median(bare_ready),
                per_run,
                RATIO_TARGET,
                note="ratio of the medians; samples are the per-run ratios",
            )
        )
        figures += [
            summarise(f"startup.{phase}.app", f"Time to ready, {phase}: app", app_ready),
            summarise(f"startup.{phase}.bare", f"Time to ready, {phase}: bare Pyodide", bare_ready),
            summarise(
                f"startup.{phase}.pyscript",
                f"Time to ready, {phase}: bare PyScript",
                pyscript[f"{phase}:ready"],
                note="PyScript starting the same Pyodide and packages (bench/pyscript_bare.html)",
            ),
            summarise(
                f"startup.{phase}.packages",
                f"App: packages with compiled code loaded, {phase}",
                app[f"{phase}:packages"],
                note="after ready (app/browser/packages.py, decision 028); what needs them waits",
            ),
            summarise(
                f"startup.{phase}.fcp",
                f"First contentful paint of the shell, {phase}",
                app[f"{phase}:fcp"],
            ),
        ]
        figures.append(
            summarise(
                f"startup.{phase}.bare.runtime",
                f"Bare Pyodide: runtime ready (before packages), {phase}",
                bare.get(f"{phase}:runtime", []),
            )
        )
        figures += [
            summarise(
                f"startup.{phase}.stage{stage}",
                f"App: {STAGES[stage].split(':')[0]}, {phase}",
                app.get(f"{phase}:stage{stage}", []),
                note=STAGES[stage],
            )
            for stage in STAGES
        ]
    figures.append(
        summarise(
            "startup.warm.last-screen",
            "warm: last screen painted",
            app.get("warm:last-screen", []),
            target=LAST_SCREEN_TARGET_MS,
            note="navigation start to the copy of the last screen painted (static/warm.js)",
        )
    )
    return figures
