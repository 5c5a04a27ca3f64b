"""Render the app icon (static/icon.svg) to the PNG icons the web app manifest lists.

Installed apps need raster icons (192 and 512 px, plus a "maskable" one whose artwork stays
inside the safe zone that launchers crop to a circle or squircle). resvg draws them
(resvg-py, pinned in requirements-dev.txt; docs/decisions/021): it renders the whole of SVG,
so the icon can use any of it. What is ours is the maskable rule: the first element of the
icon is its background, whose fill covers the whole square, and the rest, the artwork, is
shrunk about the centre until it reaches at most 32 % of the width from it.
"""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import resvg_py
from PIL import Image

SVG_NS = "http://www.w3.org/2000/svg"
# Launchers keep a centred circle of radius 40 % of the icon; the artwork of the maskable icon
# is scaled to reach at most 32 % so it never touches even the smallest (circular) mask.
MASKABLE_GLYPH_RADIUS = 0.32
MEASURE_PX = 512  # the artwork's extent is measured on a rendering this size

# File name -> (size in pixels, maskable), as the web app manifest lists them.
ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
}


class IconError(ValueError):
    """The icon cannot be rendered, or the maskable rule cannot apply to it."""


def render(svg: str, size: int) -> bytes:
    """The SVG as a `size`-pixel square PNG."""
    return resvg_py.svg_to_bytes(svg_string=svg, width=size, height=size)


def _square_side(root: ET.Element) -> float:
    try:
        x0, y0, width, height = (float(v) for v in root.attrib["viewBox"].split())
    except (KeyError, ValueError):
        raise IconError("the icon needs a viewBox of four numbers (a square)") from None
    if (x0, y0) != (0, 0) or width != height or width <= 0:
        raise IconError("the icon's viewBox must be a square starting at 0 0")
    return width


def _reach(artwork: str, side: float) -> float:
    """How far the drawn artwork goes from the centre, in viewBox units: the farthest corner of
    any pixel it touches on a rendering, so at most one pixel of that rendering too far."""
    with Image.open(io.BytesIO(render(artwork, MEASURE_PX))) as png:
        alpha = png.getchannel("A")
    centre, farthest = MEASURE_PX / 2, 0.0
    for row in range(MEASURE_PX):
        # In one row, the pixels farthest from the centre are its leftmost and rightmost.
        span = alpha.crop((0, row, MEASURE_PX, row + 1)).getbbox()
        if span is not None:
            across = max(abs(span[0] - centre), abs(span[2] - centre))
            down = max(abs(row - centre), abs(row + 1 - centre))
            farthest = max(farthest, math.hypot(across, down))
    if farthest == 0:
        raise IconError("the icon has no artwork on its background to make maskable")
    return farthest * side / MEASURE_PX


def maskable_svg(svg: str) -> str:
    """The icon full-bleed, with its artwork shrunk into the safe zone."""
    ET.register_namespace("", SVG_NS)
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as error:
        raise IconError(f"the icon is not readable SVG ({error})") from None
    side = _square_side(root)
    elements = list(root)
    if len(elements) < 2:
        raise IconError("the icon needs its artwork on its background (its first element)")
    background, artwork = elements[0], elements[1:]
    fill = background.get("fill")
    if not fill:
        raise IconError("the icon's first element (its background) needs a fill colour")
    for element in elements:
        root.remove(element)
    root.extend(artwork)
    zoom = min(1.0, MASKABLE_GLYPH_RADIUS * side / _reach(ET.tostring(root, "unicode"), side))
    centre = side / 2
    for element in artwork:
        root.remove(element)
    ET.SubElement(root, "rect", width=str(side), height=str(side), fill=fill)
    group = ET.SubElement(
        root,
        "g",
        transform=f"translate({centre} {centre}) scale({zoom}) translate({-centre} {-centre})",
    )
    group.extend(artwork)
    return ET.tostring(root, "unicode")


def write_icons(svg: Path, target: Path) -> list[Path]:
    """Render every manifest icon of `svg` into `target`; returns the files written. Nothing
    is written unless every icon renders."""
    text = svg.read_text(encoding="utf-8")
    try:
        maskable = maskable_svg(text)
        pngs = {
            name: render(maskable if is_maskable else text, size)
            for name, (size, is_maskable) in ICONS.items()
        }
    except ValueError as error:  # resvg's own complaints are ValueErrors too
        raise IconError(f"{svg}: {error}") from None
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, png in pngs.items():
        path = target / name
        path.write_bytes(png)
        written.append(path)
    return written
