"""Composition root: import the app, open the workspace and hand it to the page.

Runs as PyScript's main script. Progress and any startup error are shown in the static shell
(static/boot.js), and `data-ready="true"` marks the app interactive for people and tests; the
AI assistant attaches right after (Session.attach_assistant).
"""

# PyScript runs this file with top-level await (a plain script cannot): so can the checker.
# mypy: disable-error-code="top-level-await"

import gc
import os
import sys

import js

# pydantic looks for plugins among the installed packages' entry points when the first model
# class is made (about 10 ms in the browser); none is installed here, so it need not look.
os.environ["PYDANTIC_DISABLE_PLUGINS"] = "__all__"

# Nothing made while starting is garbage for long (about 15 unreachable objects in all), so
# the cycle collector would only walk the growing heap again and again; CollectBetweenTasks
# freezes what startup made and takes over collecting once the page is ready.
gc.disable()
boot = js.window.lexicalBoot
try:
    boot.showStage(2)
    # pyscript.toml copies both zips into the home directory; they are imported from as they
    # are. The packages go last, so looking up a standard module never reads their index.
    # Those with compiled code load after the first screen (app/browser/packages.py).
    sys.path.insert(0, "/home/pyodide/app.zip")
    sys.path.append("/home/pyodide/packages.zip")
    from app.compiled_dataclasses import install

    install()  # before any of the app's dataclasses is made (decision 029)
    from app.browser.collector import CollectBetweenTasks
    from app.browser.session import start

    boot.showStage(3)
    session = await start(boot.showStage)  # noqa: F704, PLE1142
    js.document.documentElement.dataset.ready = "true"
    await session.attach_assistant()  # noqa: F704, PLE1142
    CollectBetweenTasks().start()
except Exception as exc:
    message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
    boot.showError(str(message))
    raise
