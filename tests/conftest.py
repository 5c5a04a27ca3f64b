"""Checks that apply to every unit test."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.script_check import replies_all_asked_for

# Hypothesis fails an example that runs past 200 ms by default: a timed assertion that trips
# when the machine is busy, not when the code is wrong. `make test` (and CI) runs the thorough
# profile, Hypothesis's 100 examples a property; `make test-unit` the quick one, 20, so the run
# while working stays a matter of seconds (a busy machine took 404 s for the thorough run).
settings.register_profile("thorough", deadline=None)
settings.register_profile("quick", deadline=None, max_examples=20)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "thorough"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "unused_replies: the test leaves scripted model replies unasked on purpose"
    )


@pytest.fixture(autouse=True)
def _every_scripted_reply_is_asked_for(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.node.get_closest_marker("unused_replies"):
        yield
        return
    with replies_all_asked_for():
        yield
