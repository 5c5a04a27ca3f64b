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
