"""The actions that run before pydantic-core has loaded (app/ui/controller.py
`OPENS_WITHOUT_PACKAGES`) work without it: each runs in a fresh interpreter where pydantic
cannot be imported, as in the page's first seconds (decision 028)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from app.ui.controller import OPENS_WITHOUT_PACKAGES

SCRIPT = textwrap.dedent(
    """
    import sys

    class NoPydantic:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("pydantic", "pydantic_core"):
                raise ModuleNotFoundError(f"{name} is still loading")
            return None

    sys.meta_path.insert(0, NoPydantic())
    from app.store import Store
    from app.ui.controller import Controller

    ui = Controller(Store.open())
    update = ui.dispatch(sys.argv[1], sys.argv[2] or None)
    assert update.error is None, update.error
    assert update.dialog is not None, "no dialog opened"
    print("opened")
    """
)


@pytest.mark.parametrize("action", sorted(OPENS_WITHOUT_PACKAGES))
def test_each_opens_its_dialog_without_pydantic(action: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, action, ""], capture_output=True, text=True, check=False
    )
    assert run.stdout.strip() == "opened", run.stderr
