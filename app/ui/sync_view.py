"""The "Sync…" dialog: pair this device with a sync server and a sync code, or unpair it."""

from __future__ import annotations

from app.sync.pairing import Pairing
from app.text.nodes import El, h
from app.ui.widgets import action


def sync_dialog(pairing: Pairing | None, fresh_code: str, error: str = "") -> El:
    """Paired: the server and code (to type on the other device) and Unpair. Not paired: a form
    with a new code filled in (or the code another device shows)."""
    error_line = h("p", {"class": "form-error", "role": "alert", "id": "sync-error"}, error)
    if pairing is not None:
        return h(
            "div",
            None,
            h("h2", {"id": "dialog-title"}, "Sync"),
            h("p", None, "This device syncs through ", h("code", None, pairing.server), "."),
            h("p", None, "Sync code (type it on your other device): "),
            h("p", None, h("code", {"id": "sync-code-shown"}, pairing.code)),
            h(
                "div",
                {"class": "form-actions"},
                action("Close", "close-dialog"),
                action("Unpair", "sync-unpair", None, **{"class": "danger"}),
            ),
        )
    return h(
        "div",
        None,
        h("h2", {"id": "dialog-title"}, "Sync"),
        h(
            "form",
            {"data-action": "sync-pair", "aria-label": "Pair this device"},
            h(
                "div",
                {"class": "form-grid"},
                h("label", {"for": "sync-server"}, "Server"),
                h(
                    "input",
                    {
                        "id": "sync-server",
                        "name": "server",
                        "required": True,
                        "autocomplete": "off",
                        "placeholder": "wss://sync.example.org",
                    },
                ),
                h("label", {"for": "sync-code"}, "Sync code"),
                h(
                    "input",
                    {
                        "id": "sync-code",
                        "name": "code",
                        "required": True,
                        "autocomplete": "off",
                        "value": fresh_code,
                    },
                ),
            ),
            h(
                "p",
                {"class": "hint"},
                "A new code is filled in; to join another device, type the code it shows.",
            ),
            error_line,
            h(
                "div",
                {"class": "form-actions"},
                action("Cancel", "close-dialog"),
                h("button", {"type": "submit", "class": "primary"}, "Pair"),
            ),
        ),
    )
