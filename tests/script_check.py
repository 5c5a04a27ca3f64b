"""Every reply a test scripts for a `ScriptedModel` must be asked for.

A reply left in a script means the code under test stopped earlier than the test believes, so
`tests/conftest.py` applies `replies_all_asked_for` to every test. A test that leaves replies
on purpose says so with `@pytest.mark.unused_replies`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.llm.scripted import ScriptedModel


@contextmanager
def replies_all_asked_for() -> Iterator[None]:
    """Fail when a `ScriptedModel` made inside the block still holds replies at its end."""
    made: list[ScriptedModel] = []
    build = ScriptedModel.__init__

    def recorded(self: ScriptedModel, *turns: Any, **options: Any) -> None:
        build(self, *turns, **options)
        made.append(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ScriptedModel, "__init__", recorded)
        yield
    for model in made:
        model.assert_done()
