"""The reschedule figure (issue 26): every card of the big workload (200,000 cards at 100,000
words) replayed from its log with another retention and written back, as saving the study
options does. Timed under CPython here and in the vendored Pyodide under Node, not in
Chromium: the page has no control that reschedules without a dialog round trip, and Pyodide
runs the same WebAssembly under Node's V8. The Node run takes the calibration workload too
(bench/calibration.py), so its figures are judged in calibration units like the page's."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from bench import calibration
from bench.browser import ROOT
from bench.report import Figure, calibrated
from bench.reschedule_run import measured
from bench.workload import Workload

TARGET = 5000.0  # issue 26: rescheduling 200,000 cards in at most 5 s in the page
PYODIDE = ROOT / "static" / "vendor" / "pyodide"
HARNESS = """
const [indexURL, root, data] = process.argv.slice(1);
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
const pyodide = await loadPyodide({ indexURL });
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/repo");
pyodide.FS.mkdirTree("/data");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: data }, "/data");
await pyodide.loadPackage(["fsrs", "pydantic", "mistune"], { messageCallback() {} });
try {
  console.log(pyodide.runPython(`
import json, sys, time
sys.path.insert(0, "/repo")
from bench.reschedule_run import measured
found = measured(open("/data/collection.sqlite", "rb").read())
namespace = {"__name__": "bench_calibration"}
exec(open("/repo/bench/calibration_workload.py").read(), namespace)
for _ in range($WARM_UP):
    namespace["$CALLED"]()
found["calibration"] = []
for _ in range($RUNS):
    start = time.perf_counter()
    found["check"] = namespace["$CALLED"]()
    found["calibration"].append((time.perf_counter() - start) * 1000)
json.dumps(found)
`));
} catch (error) {
  console.error(String(error.message ?? error).slice(-3000));
  process.exit(1);
}
"""


def _in_pyodide(image: bytes) -> dict[str, object]:
    """`measured` in Pyodide, then the calibration workload as a page runs it (not timed
    while it warms up)."""
    node = shutil.which("node") or "node"
    harness = (
        HARNESS.replace("$WARM_UP", str(calibration.WARM_UP_RUNS))
        .replace("$RUNS", str(calibration.RUNS_PER_POINT))
        .replace("$CALLED", calibration.CALLED)
    )
    with tempfile.TemporaryDirectory(prefix="lexical-bench-reschedule-") as data:
        (Path(data) / "collection.sqlite").write_bytes(image)
        done = subprocess.run(
            [node, "--input-type=module", "-e", harness, f"{PYODIDE}/", str(ROOT), data],
            capture_output=True,
            text=True,
            timeout=1200,
            check=False,
        )
    if done.returncode != 0:
        raise SystemExit(f"bench: the reschedule run in Pyodide failed: {done.stderr[-2000:]}")
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def measure(workload: Workload) -> list[Figure]:
    """Replay alone and the whole reschedule, in Pyodide under Node and under CPython."""
    image = workload.store.snapshot()
    cpython, pyodide = measured(image), _in_pyodide(image)
    if pyodide["check"] != calibration.expected_check():
        raise SystemExit("bench: the calibration workload did other work under Node")
    cards = f"{int(pyodide['cards']):,}"  # type: ignore[call-overload]
    note = (
        f"{pyodide['changed']:,} changed, {pyodide['entries']:,} log entries of "
        f"{pyodide['entry_mb']:.0f} MB in all; Pyodide 314 under Node, not Chromium"
    )

    def figure(key: str, label: str, ms: object, target: float | None = None) -> Figure:
        value = float(ms)  # type: ignore[arg-type]
        return Figure(key, label, "ms", value, [value], target, note)

    # Judged: what the page does before the result is saved, the log entries included.
    total = float(pyodide["reschedule_ms"]) + float(pyodide["entry_ms"])  # type: ignore[arg-type]
    in_node = [
        figure(
            "reschedule.pyodide",
            f"Reschedule {cards} cards, log entries encoded (Pyodide)",
            total,
            TARGET,
        ),
        figure(
            "reschedule.pyodide.write",
            f"Reschedule {cards} cards, without the log entries (Pyodide)",
            pyodide["reschedule_ms"],
        ),
        figure(
            "reschedule.pyodide.entry",
            f"Encode the log entries of {cards} rescheduled cards (Pyodide)",
            pyodide["entry_ms"],
        ),
        figure(
            "reschedule.pyodide.read",
            "Read those log entries back, as the other tab does (Pyodide)",
            pyodide["read_ms"],
        ),
        figure(
            "reschedule.pyodide.replay",
            f"Replay {cards} cards' logs (Pyodide)",
            pyodide["replay_ms"],
        ),
    ]
    samples = [float(ms) for ms in pyodide["calibration"]]  # type: ignore[attr-defined]
    return [
        *calibrated(in_node, samples, "reschedule", "Pyodide under Node", calibration.REFERENCE_MS),
        figure(
            "reschedule.cpython", f"Reschedule {cards} cards (CPython)", cpython["reschedule_ms"]
        ),
        figure(
            "reschedule.cpython.replay",
            f"Replay {cards} cards' logs (CPython)",
            cpython["replay_ms"],
        ),
    ]
