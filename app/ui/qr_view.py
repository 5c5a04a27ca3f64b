"""A QR code as an inline SVG in the app's safe node tree (the pairing link, for a camera).

segno (pure Python, no dependencies; decision 042) works out the modules; this draws them as
one path, dark on a white square with the quiet zone of four modules scanners need, whatever
the theme. segno is imported here only, when a paired device's Sync dialog draws its code:
app/browser/sync.py loads it then (app/browser/packages.py, `QR`), never at startup.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from app.text.nodes import El, h

QUIET_ZONE = 4  # modules of light margin on every side (ISO/IEC 18004)


def qr_code(text: str, label: str) -> El:
    """`text` as a QR code an image reader names `label`. Error correction M (15 % of the
    symbol may be lost), raised by segno when the same size allows: a phone held at an angle
    to a screen's glare still reads it."""
    import segno  # noqa: PLC0415 (loaded with the dialog that shows it, see above)

    return qr_svg(segno.make_qr(text, error="m").matrix, label)


def qr_svg(matrix: Sequence[Sequence[int]], label: str) -> El:
    """The drawing of a module matrix (rows of 0 and 1, 1 dark), one unit per module."""
    side = len(matrix) + 2 * QUIET_ZONE
    dark = []
    for y, row in enumerate(matrix, start=QUIET_ZONE):
        x = QUIET_ZONE
        for is_dark, run in groupby(row):
            width = len(list(run))
            if is_dark:
                dark.append(f"M{x} {y}h{width}v1h-{width}z")
            x += width
    return h(
        "svg",
        {
            "class": "qr-code",
            "viewBox": f"0 0 {side} {side}",
            "role": "img",
            "aria-label": label,
            # Whole modules, no anti-aliased seams between the runs.
            "shape-rendering": "crispEdges",
        },
        h("path", {"fill": "#fff", "d": f"M0 0h{side}v{side}H0z"}),
        h("path", {"fill": "#000", "d": "".join(dark)}),
    )
