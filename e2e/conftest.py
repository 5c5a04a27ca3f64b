"""End-to-end fixtures: serve the real static folder on loopback and drive it in Debian Chromium.

Every test gets a fresh browser context (empty IndexedDB). Any request that would leave the
machine is blocked and fails the test, as does any uncaught error on the page.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Route, expect

from e2e.lexical_ui import focus_outside_fields, set_folder_language, spanish_folder
from e2e.sync_devices import SyncServer
from scripts import chromium

E2E = Path(__file__).parent

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "e2e" / "artifacts"
READY = "document.documentElement.dataset.ready === 'true'"
BOOT_TIMEOUT_MS = 60_000
# Two cores shared with a compiler or another suite can stall a step for seconds; a real
# failure still shows, just a little later.
expect.set_options(timeout=10_000)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "serve.py"), "--port", str(port), "--quiet"],
        stdout=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield url
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": chromium.executable(),
        "args": chromium.FLAGS,
    }


class Guard:
    """Collects requests to anything but the app's own origin, and uncaught page errors."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.outside: list[str] = []
        self.errors: list[str] = []

    def route(self, route: Route) -> None:
        url = route.request.url
        if url.startswith(self.origin + "/") or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort("blockedbyclient")

    def watch(self, page: Page) -> None:
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))


class ProviderGuard(Guard):
    """The usual guard, plus the emulator: the one outside origin these tests may reach."""

    def __init__(self, origin: str, provider: str) -> None:
        super().__init__(origin)
        self.provider = provider

    def route(self, route: Route) -> None:
        if route.request.url.startswith(self.provider + "/"):
            route.continue_()
        else:
            super().route(route)


@pytest.fixture
def guard(base_url: str) -> Guard:
    return Guard(base_url)


def guarded_context(browser: Browser, guard: Guard, **options: Any) -> BrowserContext:
    """A fresh browser profile (empty storage) whose requests and errors `guard` watches;
    `options` are more of Playwright's context options."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, **options)
    ctx.route("**/*", guard.route)
    ctx.on("page", guard.watch)
    return ctx


@pytest.fixture
def context_options() -> dict[str, Any]:
    """More of Playwright's context options for `context` (a module serving https overrides
    it to accept its self-signed certificate)."""
    return {}


@pytest.fixture
def context(
    browser: Browser, guard: Guard, context_options: dict[str, Any]
) -> Iterator[BrowserContext]:
    ctx = guarded_context(browser, guard, **context_options)
    yield ctx
    ctx.close()
    assert not guard.outside, f"requests left the machine: {guard.outside}"
    assert not guard.errors, f"uncaught errors on the page: {guard.errors}"


def open_app(context: BrowserContext, base_url: str, path: str = "/") -> Page:
    def load(page: Page) -> None:
        page.goto(base_url + path)
        page.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)

    return chromium.loaded(context.new_page, load, path)


def reload(page: Page) -> None:
    """Reload and wait until the app is interactive again (boot is slow on a busy machine)."""
    page.reload()
    page.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)


@pytest.fixture
def app(context: BrowserContext, base_url: str) -> Page:
    return open_app(context, base_url)


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


# A Chromium whose microphone is a WAV of speech made at test time (espeak-ng, then sox to
# 48 kHz mono as Chromium's fake capture device wants), played in a loop, permission granted.
SPEECH = "Make a folder called Cardiology and add ten heart terms, please."


def spoken_wav(folder: Path, text: str, voice: str = "en") -> Path:
    """`text` said by espeak-ng, as the WAV Chromium's fake microphone plays."""
    spoken, wav = folder / "spoken.wav", folder / "speech.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(spoken), text], check=True)
    subprocess.run(["sox", str(spoken), "-r", "48000", "-c", "1", str(wav)], check=True)
    return wav


def launch_hearing(playwright: Playwright, wav: Path) -> Browser:
    """A Chromium of its own whose microphone plays `wav` (in a loop), permission granted."""
    return playwright.chromium.launch(
        executable_path=chromium.executable(),
        args=[
            *chromium.FLAGS,
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-audio-capture={wav}",
        ],
    )


@pytest.fixture(scope="session")
def speech_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return spoken_wav(tmp_path_factory.mktemp("microphone"), SPEECH)


@pytest.fixture(scope="session")
def microphone_browser(playwright: Playwright, speech_wav: Path) -> Iterator[Browser]:
    browser = launch_hearing(playwright, speech_wav)
    yield browser
    browser.close()


SPEECH_DOUBLES = (E2E / "recognition_double.js", E2E / "synthesis_double.js")


def with_speech_doubles(context: BrowserContext) -> None:
    """Replace the browser's recogniser and speech synthesis with the scripted doubles."""
    for double in SPEECH_DOUBLES:
        context.add_init_script(path=double)


@pytest.fixture
def voiced(context: BrowserContext, base_url: str) -> Page:
    """The app with the speech doubles and a Spanish folder of six words (language "es")."""
    with_speech_doubles(context)
    page = open_app(context, base_url)
    spanish_folder(page)
    set_folder_language(page, "es")
    focus_outside_fields(page)
    return page


@pytest.fixture
def server(tmp_path: Path) -> Iterator[SyncServer]:
    """The sync server on a fresh data folder, stopped after the test."""
    running = SyncServer(tmp_path / "sync-data")
    running.start()
    yield running
    if running.process is not None and running.process.poll() is None:
        running.process.terminate()
        running.process.wait()
