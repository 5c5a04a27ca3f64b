"""The QR code's drawing, read back by a real decoder (ZXing, as phones' scanners use).

The node tree is written out as SVG markup, rasterised by resvg, and decoded by zxing-cpp: what
it reads must be the exact pairing link.
"""

from __future__ import annotations

import io
from html import escape

import pytest
import resvg_py
import zxingcpp
from PIL import Image

from app.sync.pairing import Pairing, new_code
from app.sync.pairing_link import pairing_link
from app.text.nodes import SVG_NAMESPACE, El, Node
from app.ui.qr_view import QUIET_ZONE, qr_code, qr_svg

LABEL = "QR code of the server address and sync code"
QR = zxingcpp.BarcodeFormat.QRCode


def _markup(node: Node, root: bool = True) -> str:
    if isinstance(node, str):
        return escape(node)
    attrs = {"xmlns": SVG_NAMESPACE, **node.attrs} if root else dict(node.attrs)
    written = "".join(f' {name}="{escape(value)}"' for name, value in attrs.items())
    inner = "".join(_markup(child, root=False) for child in node.children)
    return f"<{node.tag}{written}>{inner}</{node.tag}>"


def decoded(drawing: El, size: int = 400) -> list[str]:
    png = bytes(resvg_py.svg_to_bytes(svg_string=_markup(drawing), width=size, height=size))
    image = Image.open(io.BytesIO(png)).convert("L")
    # QR codes only: read as every format, about one random link in 300 also gave a spurious
    # one-dimensional code ("1646") found inside the drawing's modules (CI, 2026-12-08).
    return [result.text for result in zxingcpp.read_barcodes(image, formats=QR)]


@pytest.mark.parametrize(
    "page",
    [
        "http://127.0.0.1:8000/",
        "https://learner.github.io/lexical/",
        "https://a-rather-long-host-name.example.org/some/deeper/sub/path/of/the/app/index.html",
    ],
)
def test_the_drawing_decodes_to_the_exact_pairing_link(page: str) -> None:
    link = pairing_link(page, Pairing.made("wss://sync.example.org:8443", new_code()))
    assert decoded(qr_code(link, LABEL)) == [link]


def test_it_is_an_image_named_for_assistive_technology() -> None:
    drawing = qr_code("https://host.example/#pair=x", LABEL)
    assert drawing.tag == "svg"
    assert drawing.attrs["role"] == "img"
    assert drawing.attrs["aria-label"] == LABEL


def test_dark_modules_are_drawn_as_runs_inside_the_quiet_zone() -> None:
    drawing = qr_svg([[1, 1, 0], [0, 0, 0], [1, 0, 1]], LABEL)
    background, dark = drawing.children
    assert isinstance(background, El)
    assert isinstance(dark, El)
    side = 3 + 2 * QUIET_ZONE
    assert drawing.attrs["viewBox"] == f"0 0 {side} {side}"
    assert background.attrs == {"fill": "#fff", "d": f"M0 0h{side}v{side}H0z"}
    assert dark.attrs["d"] == "M4 4h2v1h-2zM4 6h1v1h-1zM6 6h1v1h-1z"
