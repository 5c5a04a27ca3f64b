"""Dataclasses run the code the build shipped for the source they write, and compile it
themselves when none was shipped or the source is not the same."""

from __future__ import annotations

import dataclasses
import marshal
import sys
from collections.abc import Callable, Iterator
from types import CodeType, ModuleType
from typing import Any

import pytest

from app import compiled_dataclasses
from app.compiled_dataclasses import METHODS, install, source_key

CLASS = """
from dataclasses import dataclass

@dataclass(frozen=True, slots=True, kw_only=True)
class Card:
    term: str
    due: int = 0
"""


def make(module_name: str) -> Any:
    """CLASS run as the module `module_name`: its Card class."""
    module = ModuleType(module_name)
    sys.modules[module_name] = module  # dataclasses reads its class's module's namespace
    try:
        exec(CLASS, module.__dict__)
    finally:
        del sys.modules[module_name]
    return module.Card


@pytest.fixture(autouse=True)
def builtin_exec_again() -> Iterator[None]:
    yield
    vars(dataclasses).pop("exec", None)


def written_sources(module_name: str) -> list[str]:
    """The source `dataclasses` writes for Card's methods (at once, or one method at a time
    in Pythons before 3.13)."""
    seen: list[str] = []

    def record(source: str, namespace: dict[str, Any], local: dict[str, Any], /) -> None:
        seen.append(source)
        exec(source, namespace, local)

    dataclasses.exec = record  # type: ignore[attr-defined]
    make(module_name)
    del dataclasses.exec  # type: ignore[attr-defined]
    return seen


def shipping(monkeypatch: pytest.MonkeyPatch, files: dict[str, dict[bytes, CodeType]]) -> list[str]:
    """The build's files, by path; returns the paths asked for."""
    asked: list[str] = []

    def beside(_spec: object, name: str) -> bytes | None:
        asked.append(name)
        return marshal.dumps(files[name]) if name in files else None

    monkeypatch.setattr(compiled_dataclasses, "beside", beside)
    return asked


def test_a_class_runs_the_code_shipped_for_the_source_it_writes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shipped = {
        source_key(s): compile(s, "<shipped>", "exec") for s in written_sources("lexical_cards")
    }
    asked = shipping(monkeypatch, {f"{METHODS}/lexical_cards.marshal": shipped})
    methods = install()
    card = make("lexical_cards")
    assert card.__init__.__code__.co_filename == "<shipped>"
    assert methods.compiled_here == []
    assert card(term="coeur") == card(term="coeur", due=0)
    assert repr(card(term="coeur")) == "Card(term='coeur', due=0)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        card(term="coeur").term = "cœur"  # type: ignore[misc]
    make("lexical_cards")
    assert asked == [f"{METHODS}/lexical_cards.marshal"]  # read once per module


@pytest.mark.parametrize(
    "files",
    [
        pytest.param(lambda _sources: {}, id="nothing shipped"),
        pytest.param(
            lambda sources: {
                f"{METHODS}/lexical_cards.marshal": {
                    source_key(s + "\n"): compile(s, "<x>", "exec") for s in sources
                }
            },
            id="other source",
        ),
    ],
)
def test_without_code_for_that_source_the_class_compiles_its_own(
    monkeypatch: pytest.MonkeyPatch,
    files: Callable[[list[str]], dict[str, dict[bytes, CodeType]]],
) -> None:
    shipping(monkeypatch, files(written_sources("lexical_cards")))
    methods = install()
    card = make("lexical_cards")
    assert card.__init__.__code__.co_filename == "<string>"
    assert set(methods.compiled_here) == {"lexical_cards"}
    assert card(term="a") != card(term="b")


def test_a_file_this_python_cannot_read_is_passed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled_dataclasses, "beside", lambda _spec, _name: b"\xff not marshal")
    methods = install()
    card = make("lexical_cards")
    assert card(term="a").term == "a"
    assert set(methods.compiled_here) == {"lexical_cards"}
