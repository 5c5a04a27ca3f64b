"""What a request costs in prompt tokens: a small local model's 4,096-token window must hold the
Architect's system prompt, the tools offered, the user's words and room for the answer.

Tokens are estimated as characters / 4 of the OpenAI-compatible request body (the form local
servers take), so the figures are a guide, not a tokenizer's count.
"""

from __future__ import annotations

import json

import pytest

from app.agents.loop import Limits
from app.llm.messages import ModelRequest
from app.llm.openai import request_body
from app.store import Store
from tests.agents.helpers import turn
from tests.llm.scripted import ScriptedModel
from tests.store.helpers import make_store

WINDOW = 4_096
CHARS_PER_TOKEN = 4


def tokens(request: ModelRequest) -> int:
    body = request_body(request, model="local", stream=True, token_param="max_tokens")
    return len(json.dumps(body, ensure_ascii=False)) // CHARS_PER_TOKEN


def first_request(store: Store, text: str, override: str = "auto") -> ModelRequest:
    model = ScriptedModel("Done.")
    turn(store, model, text, override=override)
    return model.requests[0]


@pytest.fixture
def store() -> Store:
    return make_store()


def test_the_architects_smallest_request_fits_a_4096_token_window_with_room(store: Store) -> None:
    request = first_request(store, "Create a folder called Biology")
    assert request.system.startswith("You are the Architect")
    assert tokens(request) + Limits().max_output_tokens <= WINDOW
    # Comfortably: a real tokenizer counts JSON at fewer characters a token than 4.
    assert tokens(request) <= WINDOW // 3


@pytest.mark.parametrize(
    ("text", "override"),
    [("Yes, do that", "architect"), ("Explain the etymology of aorta", "auto")],
)
def test_every_tool_of_either_agent_still_leaves_a_quarter_of_the_window(
    store: Store, text: str, override: str
) -> None:
    assert tokens(first_request(store, text, override)) <= WINDOW * 3 // 4
