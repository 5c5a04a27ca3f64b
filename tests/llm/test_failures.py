"""Every HTTP failure gets its kind and a sentence with a next step, whatever the body says."""

from __future__ import annotations

import json

import pytest

from app.llm.errors import ProviderError
from app.llm.failures import from_http, retry_after_seconds


def fail(status: int, body: object = b"", headers: dict[str, str] | None = None) -> ProviderError:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return from_http(status, headers or {}, raw, label="OpenAI", model="gpt-x", secrets=("s3cret",))


@pytest.mark.parametrize(
    ("status", "kind", "says"),
    [
        (401, "bad_key", "Paste the key again"),
        (403, "permission", "not allowed to use gpt-x"),
        (404, "bad_request", "no model called gpt-x"),
        (408, "timeout", "took too long"),
        (504, "timeout", "took too long"),
        (500, "server", "error 500"),
        (502, "server", "Try again in a minute"),
        (529, "server", "error 529"),
        (429, "rate_limited", "too many requests"),
        (400, "bad_request", "rejected the request (error 400)"),
        (413, "bad_request", "Try a shorter request"),
    ],
)
def test_each_status_has_its_kind_and_a_next_step(status: int, kind: str, says: str) -> None:
    for body in (b"", b"<html>Bad Gateway</html>", {"error": "plain string"}, [1, 2]):
        error = fail(status, body)
        assert (error.kind, error.status) == (kind, status)
        assert says in error.message
        assert error.message.endswith(".")


def test_the_provider_reason_is_quoted_for_a_rejected_request_but_never_the_secret() -> None:
    error = fail(400, {"error": {"message": "Bad header s3cret " + "x" * 500}})
    assert "Bad header [hidden]" in error.message
    assert "s3cret" not in error.message
    assert len(error.message) < 420


def test_retry_after_in_seconds_or_as_a_date() -> None:
    assert retry_after_seconds("12") == 12.0
    assert retry_after_seconds("1.5") == 1.5
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0
    assert retry_after_seconds("soon") is None
    assert retry_after_seconds(None) is None
    assert fail(429, b"", {"Retry-After": "3"}).retry_after_s == 3.0


def test_a_sentence_naming_a_local_server_starts_with_a_capital() -> None:
    label = "the server at localhost:11434"
    error = from_http(500, {}, b"", label=label, model="llama3.2")
    assert error.message.startswith("The server at localhost:11434 had a problem")
    assert str(error) == error.message


# What servers answer when the prompt does not fit the model's context window.
LLAMA_CPP = {
    "error": {
        "code": 400,
        "message": "request (4476 tokens) exceeds the available context size (4096 tokens)",
        "type": "exceed_context_size_error",
        "n_prompt_tokens": 4476,
        "n_ctx": 4096,
    }
}
LLAMA_CPP_OLDER = {
    "error": {
        "code": 400,
        "message": "the request exceeds the available context size, try increasing the "
        "context size or enable context shift",
        "type": "invalid_request_error",
    }
}
OPENAI = {
    "error": {
        "message": "This model's maximum context length is 4097 tokens. However, your messages "
        "resulted in 5120 tokens. Please reduce the length of the messages.",
        "type": "invalid_request_error",
        "param": "messages",
        "code": "context_length_exceeded",
    }
}
VLLM = {
    "error": {
        "message": "This model's maximum context length is 4096 tokens. However, you requested "
        "4500 tokens (2452 in the messages, 2048 in the completion). Please reduce the length "
        "of the messages or completion.",
        "type": "BadRequestError",
        "code": 400,
    }
}
GEMINI = {
    "error": {
        "code": 400,
        "message": "The input token count (1200000) exceeds the maximum number of tokens "
        "allowed (1048576).",
        "status": "INVALID_ARGUMENT",
    }
}


@pytest.mark.parametrize("body", [LLAMA_CPP, LLAMA_CPP_OLDER, OPENAI, VLLM, GEMINI])
def test_a_context_overflow_says_the_conversation_and_tools_do_not_fit(body: object) -> None:
    error = fail(400, body)
    assert error.kind == "bad_request"
    assert "too long for this model's context window" in error.message
    assert "start a new conversation" in error.message
    assert "bigger window" in error.message
    assert "shorter request" not in error.message
    assert ".." not in error.message


def test_the_window_size_is_named_when_the_server_says_it() -> None:
    assert "(4,096 tokens)" in fail(400, LLAMA_CPP).message
    assert "tokens)" not in fail(400, OPENAI).message


def test_a_quoted_reason_ending_in_a_full_stop_gets_no_second_one() -> None:
    error = fail(400, {"error": {"message": "Unsupported parameter: 'foo'."}})
    assert "'foo'. Try" in error.message
    assert ".." not in error.message
