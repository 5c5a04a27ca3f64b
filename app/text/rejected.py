"""Rejected text shown back to the user: a term or name that failed its checks is quoted in the
reason, so it is clipped and cleaned first (a pasted line or an imported field can be anything).
"""

from __future__ import annotations

import re

from app.domain import NAME_MAX

_UNSHOWABLE = "[\x00-\x1f\x7f-\x9f\ud800-\udfff]"  # controls, lone surrogates


def shown(text: str) -> str:
    """A safe rendering of a rejected term: bounded, without controls or lone surrogates."""
    clipped = text[:NAME_MAX] + ("…" if len(text) > NAME_MAX else "")
    return re.sub(_UNSHOWABLE, "\ufffd", clipped)
