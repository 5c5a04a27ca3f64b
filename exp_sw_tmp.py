import sys, tempfile
from pathlib import Path
from playwright.sync_api import sync_playwright
import bench.browser as B
from bench import startup
from bench.browser import serve
block = sys.argv[1] == "block"
orig = B.profile.__wrapped__ if hasattr(B.profile, "__wrapped__") else None
real_launch = None
def patched(pw):
    chromium = pw.chromium
    launch = chromium.launch_persistent_context
    def lp(*a, **k):
        if block: k["service_workers"] = "block"
        return launch(*a, **k)
    chromium.launch_persistent_context = lp
with tempfile.TemporaryDirectory() as data, serve(Path(data)) as url, sync_playwright() as pw:
    patched(pw)
    figs = startup.measure(pw, url, 3, print)
    for f in figs:
        print(f.key, round(f.value, 3))
