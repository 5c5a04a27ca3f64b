"""Draw the stats page's charts: import static/charts.js on first use and hand it the page.

The chart library (uPlot, vendored and pinned like the runtime, docs/decisions/012) is loaded
by that module on its first draw, so neither startup nor any other page pays for it. Charts are
an addition to the tables the view always renders, so a failure to load them is logged, not
raised: the page is complete without them.
"""

from __future__ import annotations

from typing import Any

import js
from pyodide.ffi import JsException

from app.browser.scripts import import_script

MODULE = "./static/charts.js"  # relative to the page; scripts/precache.py keeps it offline


async def draw_charts(root: Any) -> None:
    """Draw every chart placeholder (`[data-chart]`) under the DOM element `root`. Safe to
    call after every render: charts whose data and width are unchanged are left alone."""
    try:
        module = await import_script(MODULE)
        await module.drawCharts(root)
    except JsException as error:
        js.console.warn(f"Charts could not be drawn; the tables show the figures. {error}")
