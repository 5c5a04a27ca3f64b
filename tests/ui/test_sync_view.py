"""The Sync dialog: the paired device's text and QR code's place, and a pairing link's offer."""

from __future__ import annotations

from app.sync.pairing import Pairing, new_code
from app.text.nodes import El, find_all, text_content
from app.ui.sync_view import QR_ID, QR_LABEL, pairing_qr, qr_unavailable, sync_dialog

PAIRING = Pairing.made("wss://sync.example.org", new_code())


def _by_id(tree: El, element_id: str) -> El:
    (found,) = find_all(tree, lambda el: el.attrs.get("id") == element_id)
    return found


def test_a_paired_device_shows_its_server_code_and_the_qr_code_s_place() -> None:
    dialog = sync_dialog(PAIRING, new_code())
    assert PAIRING.server in text_content(dialog)
    assert text_content(_by_id(dialog, "sync-code-shown")) == PAIRING.code
    assert "scan the QR code" in text_content(dialog)
    assert _by_id(dialog, QR_ID).tag == "figure"


def test_the_qr_code_s_place_gets_the_drawing_of_the_link_or_a_sentence() -> None:
    drawing, caption = pairing_qr("https://host.example/#pair=x")
    assert isinstance(drawing, El)
    assert drawing.attrs["aria-label"] == QR_LABEL
    assert "Scan" in text_content(caption)
    assert "type the code" in text_content(qr_unavailable()[0])


def test_a_link_s_offer_fills_in_the_form_and_says_where_it_came_from() -> None:
    dialog = sync_dialog(None, new_code(), offered=PAIRING)
    assert _by_id(dialog, "sync-server").attrs["value"] == PAIRING.server
    assert _by_id(dialog, "sync-code").attrs["value"] == PAIRING.code
    assert "pairing link" in text_content(dialog)


def test_without_an_offer_the_form_has_a_fresh_code_and_an_empty_server() -> None:
    code = new_code()
    dialog = sync_dialog(None, code, error="This pairing link is damaged.")
    assert "value" not in _by_id(dialog, "sync-server").attrs
    assert _by_id(dialog, "sync-code").attrs["value"] == code
    assert text_content(_by_id(dialog, "sync-error")) == "This pairing link is damaged."
