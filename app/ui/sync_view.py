"""The "Sync…" dialog: pair this device with a sync server and a sync code, or unpair it.

A paired device shows its server and code as text and as a QR code of the pairing link
(app/sync/pairing_link.py); the QR code is drawn into its place once segno has loaded.
"""

from __future__ import annotations

from app.sync.pairing import Pairing
from app.text.nodes import El, Node, h
from app.ui.qr_view import qr_code
from app.ui.widgets import action

QR_LABEL = "QR code of the server address and sync code"
QR_ID = "sync-qr"


def sync_dialog(
    pairing: Pairing | None, fresh_code: str, error: str = "", offered: Pairing | None = None
) -> El:
    """Paired: the server and code (to type or scan on the other device) and Unpair. Not
    paired: a form with a new code filled in (or the code another device shows), or the server
    and code of a pairing link (`offered`), which pair only when the user presses Pair."""
    error_line = h("p", {"class": "form-error", "role": "alert", "id": "sync-error"}, error)
    if pairing is not None:
        return h(
            "div",
            None,
            h("h2", {"id": "dialog-title"}, "Sync"),
            h(
                "div",
                {"class": "sync-paired"},
                h(
                    "div",
                    None,
                    h(
                        "p",
                        None,
                        "This device syncs through ",
                        h("code", None, pairing.server),
                        ".",
                    ),
                    h("p", None, "Sync code (type it on your other device): "),
                    h("p", None, h("code", {"id": "sync-code-shown"}, pairing.code)),
                    h(
                        "p",
                        {"class": "hint"},
                        "Or scan the QR code with your phone's camera: Lexical opens there "
                        "with this server and code filled in.",
                    ),
                ),
                h(
                    "figure",
                    {"id": QR_ID, "class": "sync-qr"},
                    h("p", None, "Drawing the QR code…"),
                ),
            ),
            error_line,
            h(
                "div",
                {"class": "form-actions"},
                action("Close", "close-dialog"),
                action("Unpair", "sync-unpair", None, **{"class": "danger"}),
            ),
        )
    hint = (
        "Filled in from a pairing link: press Pair only if it came from your own device."
        if offered is not None
        else "A new code is filled in; to join another device, type the code it shows."
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
                        "value": offered.server if offered is not None else None,
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
                        "value": offered.code if offered is not None else fresh_code,
                    },
                ),
            ),
            h("p", {"class": "hint"}, hint),
            error_line,
            h(
                "div",
                {"class": "form-actions"},
                action("Cancel", "close-dialog"),
                h("button", {"type": "submit", "class": "primary"}, "Pair"),
            ),
        ),
    )


def pairing_qr(link: str) -> tuple[Node, ...]:
    """What the QR code's place shows once segno has loaded: the code of the pairing link."""
    return (qr_code(link, QR_LABEL), h("figcaption", None, "Scan to pair"))


def qr_unavailable() -> tuple[Node, ...]:
    return (h("p", None, "The QR code could not be drawn: type the code instead."),)
