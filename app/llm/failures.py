"""Turn what went wrong on the wire into a `ProviderError` with a plain sentence and a next step.

Both wire formats send `{"error": {...}}` bodies: OpenAI with `type`/`code`, Gemini with a
`status` and typed `details` (ErrorInfo reasons, QuotaFailure violations, RetryInfo delays).
The kind is decided from status and those fields, never from the provider's wording. Only a
context overflow is recognised from words too, as most servers give it no code of its own. The
provider's own message is quoted only for requests it rejected, after any secret in it is
masked: an OpenAI 401 echoes part of the key, so a bad-key sentence never quotes it.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Mapping
from email.utils import parsedate_to_datetime
from typing import Any

from app.llm.errors import ProviderError

# Key-shaped tokens (OpenAI sk-..., Google AIza..., bearer tokens) masked wherever they appear.
_KEY_LIKE = re.compile(r"\b(sk-[\w*.-]{6,}|AIza[\w-]{10,}|gsk_[\w-]{10,}|[A-Za-z0-9_-]{32,})")
_QUOTED_LIMIT = 300
_SECONDS = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")
_OVERFLOW_CODES = {"context_length_exceeded", "exceed_context_size_error"}  # OpenAI, llama.cpp
# vLLM, LM Studio, older llama.cpp and Gemini say it only in words.
_OVERFLOW_WORDS = re.compile(
    r"context (?:size|length|window)|input token count \(?\d+\)? exceeds|too many tokens",
    re.IGNORECASE,
)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[hidden]")
    return _KEY_LIKE.sub("[hidden]", text)


def header(headers: Mapping[str, str], name: str) -> str | None:
    wanted = name.lower()
    return next((v for k, v in headers.items() if k.lower() == wanted), None)


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Retry-After is either delay-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.replace(".", "", 1).isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def _error_object(body: bytes) -> dict[str, Any]:
    try:
        parsed = json.loads(body)
    except ValueError:
        return {"message": body.decode("utf-8", "replace").strip()}
    if isinstance(parsed, list) and parsed and isinstance(parsed[0], dict):
        parsed = parsed[0]  # Gemini's streaming endpoint wraps its error in a list
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if isinstance(error, dict):
        return error
    return {"message": error if isinstance(error, str) else ""}


def _details(error: Mapping[str, Any]) -> list[dict[str, Any]]:
    details = error.get("details")
    return [d for d in details if isinstance(d, dict)] if isinstance(details, list) else []


def _reasons(error: Mapping[str, Any]) -> set[str]:
    codes = {str(error.get(k) or "") for k in ("status", "type", "code")}
    codes.update(str(d.get("reason") or "") for d in _details(error))
    return codes - {""}


def _per_day_quota(error: Mapping[str, Any]) -> bool:
    for detail in _details(error):
        for violation in detail.get("violations") or []:
            if (
                isinstance(violation, dict)
                and "perday" in str(violation.get("quotaId", "")).lower()
            ):
                return True
    return False


def _retry_delay(error: Mapping[str, Any]) -> float | None:
    for detail in _details(error):
        match = _SECONDS.match(str(detail.get("retryDelay", "")))
        if match:
            return float(match.group(1))
    return None


def from_http(
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    *,
    label: str,
    model: str,
    secrets: Iterable[str] = (),
) -> ProviderError:
    """The error for a non-2xx answer from `label` (e.g. "Gemini", "OpenAI")."""
    error = _error_object(body)
    reasons = _reasons(error)
    quoted = redact(str(error.get("message") or ""), secrets)[:_QUOTED_LIMIT].strip()
    if status == 401 or "API_KEY_INVALID" in reasons or "invalid_api_key" in reasons:
        return ProviderError(
            "bad_key",
            f"{label} did not accept the API key. Paste the key again in Settings "
            "(without spaces) and press Test key.",
            status=status,
        )
    if status == 403:
        return ProviderError(
            "permission",
            f"{label} refused: this key is not allowed to use {model}. Check the key's "
            "permissions in your account, or choose another model in Settings.",
            status=status,
        )
    if status == 429:
        return _too_many(status, headers, error, reasons, label)
    if status == 404:
        return ProviderError(
            "bad_request",
            f"{label} has no model called {model}. Choose another model in Settings.",
            status=status,
        )
    if status in {408, 504}:
        return timeout(label, status=status)
    if status >= 500:
        return ProviderError(
            "server",
            f"{label} had a problem on its side (error {status}). Try again in a minute.",
            status=status,
        )
    if status in {400, 413} and (_OVERFLOW_CODES & reasons or _OVERFLOW_WORDS.search(quoted)):
        return _overflow(status, error)
    detail = f": {quoted.rstrip('.')}" if quoted else ""
    return ProviderError(
        "bad_request",
        f"{label} rejected the request (error {status}){detail}. Try a shorter request or "
        "another model.",
        status=status,
    )


def _overflow(status: int, error: Mapping[str, Any]) -> ProviderError:
    window = error.get("n_ctx")  # llama.cpp names the window's size
    size = f" ({window:,} tokens)" if type(window) is int and window > 0 else ""
    return ProviderError(
        "bad_request",
        f"This conversation plus the assistant's tools are too long for this model's context "
        f"window{size}: start a new conversation, or choose a model with a bigger window in "
        "Settings.",
        status=status,
    )


def _too_many(
    status: int,
    headers: Mapping[str, str],
    error: Mapping[str, Any],
    reasons: set[str],
    label: str,
) -> ProviderError:
    if "insufficient_quota" in reasons or _per_day_quota(error):
        return ProviderError(
            "quota",
            f"Your {label} quota is used up (a daily limit or your plan's credit). "
            "It will not clear by retrying now: wait for it to reset, or check your plan and "
            "billing.",
            status=status,
        )
    delay = _retry_delay(error)
    if delay is None:
        delay = retry_after_seconds(header(headers, "retry-after"))
    when = f" in {round(delay)} s" if delay is not None else " shortly"
    return ProviderError(
        "rate_limited",
        f"{label} is getting too many requests from this key. Lexical tries again{when}; "
        "if it keeps happening, wait a minute.",
        status=status,
        retry_after_s=delay,
    )


def offline(label: str, host: str) -> ProviderError:
    where = label if host in label else f"{label} at {host}"
    return ProviderError(
        "offline",
        f"Could not reach {where}. Check your internet connection (for a local server: that "
        "it is running and allows this page) and try again.",
    )


def timeout(
    label: str, *, status: int | None = None, seconds: float | None = None
) -> ProviderError:
    """The server said it timed out (`status`, 408 or 504), or nothing came within the
    `seconds` the page waits (AI settings, "Seconds to wait for an answer")."""
    if seconds is None:
        said = f"{label} took too long to answer. Try again; a shorter request may help."
    else:
        said = (
            f"{label} did not answer within {seconds:g} seconds. Try again, or allow more "
            "under \u201cSeconds to wait for an answer\u201d in AI settings (a local server "
            "on a small computer may need minutes)."
        )
    return ProviderError("timeout", said, status=status)


def stream_cut(label: str, partial: str) -> ProviderError:
    return ProviderError(
        "stream_cut",
        f"The answer from {label} stopped mid-way. What arrived is kept; press Retry to ask again.",
        partial=partial,
    )


def bad_response(label: str, partial: str = "") -> ProviderError:
    return ProviderError(
        "bad_response",
        f"{label} sent an answer Lexical could not read. Try again; if it keeps happening, "
        "choose another model.",
        partial=partial,
    )
