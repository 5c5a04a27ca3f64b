"""Packages with compiled code load once, when first needed; who asks while they load waits for
that same load, and a load that failed is tried again by the next one who asks."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from app.browser.packages import BASE, QR, STUDY, LazyPackages, PackageError
from tests.browser import fakes


class Loader:
    """Pyodide's loadPackage: each call waits until `finish` settles it."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], dict[str, Any]]] = []
        self.pending: list[asyncio.Future[None]] = []

    async def __call__(self, names: list[str], **options: Any) -> None:
        report = options.pop("errorCallback")
        self.calls.append((list(names), options))
        self.pending.append(asyncio.get_running_loop().create_future())
        message = await self.pending[-1]
        if message is not None:
            report(message)  # as Pyodide does: told, and the promise still resolves

    def finish(self, error: Exception | None = None, *, reported: str | None = None) -> None:
        done = self.pending.pop(0)
        if error is None:
            done.set_result(reported)
        else:
            done.set_exception(error)


async def settle() -> None:
    """Let every task that can run, run."""
    for _ in range(5):
        await asyncio.sleep(0)


@pytest.fixture
def loader(monkeypatch: pytest.MonkeyPatch) -> Loader:
    fake = Loader()
    monkeypatch.setattr(sys.modules["pyodide_js"], "loadPackage", fake, raising=False)
    return fake


def test_the_lists_name_the_packages_with_compiled_code_the_scheduler_and_the_qr_code() -> None:
    assert BASE == ["pydantic-core"]
    assert STUDY == ["fsrs"]
    assert QR == ["segno"]


def test_callers_during_a_load_share_it_and_later_ones_find_them_loaded(loader: Loader) -> None:
    async def scenario() -> None:
        packages = LazyPackages(BASE, "Part of Lexical could not load")
        first = asyncio.ensure_future(packages.load())
        second = asyncio.ensure_future(packages.load())
        await settle()
        assert not packages.ready
        loader.finish()
        await asyncio.gather(first, second)
        assert packages.ready
        await packages.load()

    asyncio.run(scenario())
    assert loader.calls == [(["pydantic-core"], {"checkIntegrity": True})]


def test_a_failed_load_fails_its_callers_and_the_next_caller_tries_again(loader: Loader) -> None:
    async def scenario() -> None:
        packages = LazyPackages(STUDY, "Studying could not start")
        first = asyncio.ensure_future(packages.load())
        await settle()
        loader.finish(OSError("offline"))
        with pytest.raises(OSError, match="offline"):
            await first
        assert not packages.ready
        again = asyncio.ensure_future(packages.load())
        await settle()
        loader.finish()
        await again
        assert packages.ready

    asyncio.run(scenario())
    assert len(loader.calls) == 2


def test_a_failure_pyodide_only_reports_fails_the_load_and_leaks_no_proxy(loader: Loader) -> None:
    async def scenario() -> None:
        packages = LazyPackages(BASE, "Part of Lexical could not load")
        first = asyncio.ensure_future(packages.load())
        await settle()
        loader.finish(reported="The following error occurred while loading pydantic-core: nope")
        with pytest.raises(PackageError, match="while loading pydantic-core: nope"):
            await first
        assert not packages.ready

    asyncio.run(scenario())
    assert fakes.live_proxies == []
