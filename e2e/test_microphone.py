"""The microphone in real Chromium: a WAV of speech (espeak-ng, sox) is the fake microphone, a real
click opens it, the visualiser draws while the voice plays and clears when stopped, and a
recording decodes to 16 kHz samples of the right length.

This checks app/browser/microphone.py and static/visualiser.js below the assistant panel (whose
buttons the lead wires): a same-origin test page shows the voice meter of app/ui/voice_meter.py
and a Start and a Stop button, and Python run there through `runPythonAsync` handles their clicks
as the assistant will: `unlock()` in the click, then `open()` and `show()`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import Guard, guarded_context, screenshot
from e2e.meter import DRAWING, SPEAKING

PAGE = "/microphone-test"  # answered by the test itself, on the app's origin
HARNESS = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Microphone</title>
<link rel="stylesheet" href="./static/app.css"></head>
<body><main id="main"></main></body></html>"""

LOAD = """async (base) => {
  const { loadPyodide } = await import(base + "/static/vendor/pyodide/pyodide.mjs");
  const py = await loadPyodide({ indexURL: base + "/static/vendor/pyodide/" });
  const zip = await (await fetch(base + "/static/build/app.zip")).arrayBuffer();
  py.unpackArchive(zip, "zip");
  window.lexicalTestPython = py;
}"""

# The page's part of the assistant: what its microphone button and Escape will do.
GLUE = """
import asyncio, json
import js
from pyodide.ffi import create_proxy
from app.browser.dom import replace_children
from app.browser.microphone import Microphone, MicrophoneError, decode
from app.text.nodes import h
from app.ui.voice_meter import METER, voice_meter

mic = Microphone(processing=False)  # the WAV as it is, not reshaped by voice processing
tasks = set()

def say(text):
    js.document.getElementById("mic-status").textContent = text

async def start():
    try:
        await mic.open()
        await mic.show(js.document.querySelector(METER))
        say("Listening")
    except MicrophoneError as error:
        say(error.kind)

def clicked(event):
    action = event.target.getAttribute("data-test")
    if action == "start":
        mic.unlock()  # in the click itself, as browsers require
        task = asyncio.ensure_future(start())
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    elif action == "stop":
        mic.close()
        say("Stopped")

async def record(seconds):
    mic.start_recording()
    await asyncio.sleep(seconds)
    recording = await mic.stop_recording()
    samples = await decode(recording)
    return json.dumps({"mime": recording.mime, "size": len(recording.data),
                       "rate": samples.rate, "seconds": samples.seconds,
                       "peak": max(abs(x) for x in samples.samples)})

replace_children(js.document.getElementById("main"), h("section", {"class": "panel"},
    voice_meter(),
    h("button", {"type": "button", "data-test": "start"}, "Start microphone"),
    h("button", {"type": "button", "data-test": "stop"}, "Stop"),
    h("p", {"id": "mic-status", "role": "status"})))
listener = create_proxy(clicked)  # lives as long as the page
js.document.addEventListener("click", listener)
"""

# Reduced motion: a level meter, one row across the whole width (its track), equally tall.
LEVEL = f"""() => {{
  const drawing = ({DRAWING})();
  return drawing !== null && drawing.bars.every((bar) => bar > 0 && bar === drawing.bars[0]);
}}"""


@pytest.fixture
def page(microphone_browser: Browser, guard: Guard, base_url: str) -> Iterator[Page]:
    context = guarded_context(microphone_browser, guard)
    # Registered last, so it answers before the guard passes the request to the server.
    context.route(
        base_url + PAGE, lambda route: route.fulfill(body=HARNESS, content_type="text/html")
    )
    page = context.new_page()
    page.goto(base_url + PAGE)
    page.evaluate(LOAD, base_url)
    python(page, GLUE)
    yield page
    context.close()
    assert not guard.outside, f"requests left the machine: {guard.outside}"
    assert not guard.errors, f"uncaught errors on the page: {guard.errors}"


def python(page: Page, code: str) -> Any:
    return page.evaluate("(code) => window.lexicalTestPython.runPythonAsync(code)", code)


def drawing(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(DRAWING))


def test_the_visualiser_moves_with_the_voice_and_clears_when_stopped(page: Page) -> None:
    page.get_by_role("button", name="Start microphone").click()
    expect(page.get_by_role("status")).to_have_text("Listening")
    meter = page.get_by_role("img", name="Live voice level")
    expect(meter).to_be_visible()
    first = page.wait_for_function(SPEAKING, arg=None)
    assert first.json_value()
    shown = json.dumps(drawing(page)["bars"])
    page.wait_for_function(SPEAKING, arg=shown)  # the bars moved on with the voice
    screenshot(page, "microphone-speaking")
    assert page.evaluate("window.__lexicalVisualiser.frames") > 1

    page.get_by_role("button", name="Stop").click()
    expect(page.get_by_role("status")).to_have_text("Stopped")
    assert drawing(page)["blank"]
    assert page.evaluate("window.__lexicalVisualiser.running") == 0


def test_a_recording_decodes_to_speech_at_16_khz(page: Page) -> None:
    page.get_by_role("button", name="Start microphone").click()
    expect(page.get_by_role("status")).to_have_text("Listening")
    result = json.loads(python(page, "await record(3)"))
    assert result["mime"].startswith("audio/webm")
    assert result["size"] > 1_000
    assert result["rate"] == 16_000
    # Three seconds asked for; a busy machine may stop a little late, never early by much.
    assert 2.5 <= result["seconds"] <= 10
    assert result["peak"] > 0.05  # the speech is there, not silence
    page.get_by_role("button", name="Stop").click()


def test_with_reduced_motion_a_calm_level_is_drawn(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.get_by_role("button", name="Start microphone").click()
    expect(page.get_by_role("status")).to_have_text("Listening")
    page.wait_for_function(LEVEL)
    screenshot(page, "microphone-reduced-motion")
    page.get_by_role("button", name="Stop").click()
    expect(page.get_by_role("status")).to_have_text("Stopped")
    assert drawing(page)["blank"]
