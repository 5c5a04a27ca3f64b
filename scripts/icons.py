"""Render the app icon (static/icon.svg) to the PNG icons the web app manifest lists.

Installed apps need raster icons (192 and 512 px, plus a "maskable" one whose artwork stays
inside the safe zone that launchers crop to a circle or squircle). This is a small
rasteriser for the SVG subset the icon uses (<rect> with rx, <path> with M/L/H/V/A/Z, flat
fills), written with the standard library only, so the build needs nothing but Python and the
PNGs are always a faithful, reproducible rendering of the current SVG. Edges are
anti-aliased: exact horizontal coverage per sub-scanline, several sub-scanlines per row.
"""

from __future__ import annotations

import math
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

Point = tuple[float, float]
Colour = tuple[int, int, int]
SUBSCANLINES = 5
ARC_STEP_RADIANS = math.pi / 32
# Launchers keep a centred circle of radius 40 % of the icon; the glyph of the maskable icon
# is scaled to reach at most 32 % so it never touches even the smallest (circular) mask.
MASKABLE_GLYPH_RADIUS = 0.32
SVG_NS = "{http://www.w3.org/2000/svg}"
TOKEN = re.compile(r"[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


class IconError(ValueError):
    """The SVG uses something this renderer does not draw."""


@dataclass(frozen=True)
class Shape:
    contours: list[list[Point]]
    colour: Colour


@dataclass(frozen=True)
class Icon:
    size: float  # the square viewBox edge
    shapes: list[Shape]


# --- reading the SVG ------------------------------------------------------------------------


def parse_colour(value: str) -> Colour:
    if not re.fullmatch(r"#(?:[0-9a-fA-F]{3}){1,2}", value.strip()):
        raise IconError(f"unsupported fill {value!r}: use #rgb or #rrggbb")
    digits = value.strip()[1:]
    pairs = [c * 2 for c in digits] if len(digits) == 3 else [digits[i : i + 2] for i in (0, 2, 4)]
    red, green, blue = (int(pair, 16) for pair in pairs)
    return red, green, blue


def arc_points(start: Point, end: Point, radii: Point, large: bool, sweep: bool) -> list[Point]:
    """Points along an SVG elliptical arc without rotation (spec F.6.5), excluding `start`."""
    (x1, y1), (x2, y2) = start, end
    rx, ry = abs(radii[0]), abs(radii[1])
    if rx == 0 or ry == 0 or start == end:
        return [end]
    mx, my = (x1 - x2) / 2, (y1 - y2) / 2
    scale = math.sqrt(max(1.0, (mx / rx) ** 2 + (my / ry) ** 2))
    rx, ry = rx * scale, ry * scale
    num = rx * rx * ry * ry - rx * rx * my * my - ry * ry * mx * mx
    factor = math.sqrt(max(0.0, num / (rx * rx * my * my + ry * ry * mx * mx)))
    if large == sweep:
        factor = -factor
    cx = factor * rx * my / ry + (x1 + x2) / 2
    cy = -factor * ry * mx / rx + (y1 + y2) / 2
    theta = math.atan2((y1 - cy) / ry, (x1 - cx) / rx)
    delta = math.atan2((y2 - cy) / ry, (x2 - cx) / rx) - theta
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    steps = max(2, math.ceil(abs(delta) / ARC_STEP_RADIANS))
    angles = [theta + delta * i / steps for i in range(1, steps)]
    return [*((cx + rx * math.cos(a), cy + ry * math.sin(a)) for a in angles), end]


def path_contours(d: str) -> list[list[Point]]:
    tokens = TOKEN.findall(d)
    contours: list[list[Point]] = []
    x = y = 0.0
    index, command = 0, ""

    def number() -> float:
        nonlocal index
        index += 1
        return float(tokens[index - 1])

    while index < len(tokens):
        if tokens[index].isalpha():
            command = tokens[index]
            index += 1
        relative, op = command.islower(), command.upper()
        ox, oy = (x, y) if relative else (0.0, 0.0)
        if op == "M":
            x, y = ox + number(), oy + number()
            contours.append([(x, y)])
            command = "l" if relative else "L"  # further pairs are line-tos
        elif op == "L":
            x, y = ox + number(), oy + number()
            contours[-1].append((x, y))
        elif op == "H":
            x = ox + number()
            contours[-1].append((x, y))
        elif op == "V":
            y = oy + number()
            contours[-1].append((x, y))
        elif op == "A":
            radii, _rotation = (number(), number()), number()
            large, sweep = number() != 0, number() != 0
            end = (ox + number(), oy + number())
            contours[-1].extend(arc_points((x, y), end, radii, large, sweep))
            x, y = end
        elif op == "Z":
            x, y = contours[-1][0]
            command = ""
        else:
            raise IconError(f"unsupported path command {command!r}")
    return contours


def rect_contour(x: float, y: float, w: float, h: float, r: float) -> list[Point]:
    r = min(r, w / 2, h / 2)
    d = (
        f"M{x + r} {y}H{x + w - r}A{r} {r} 0 0 1 {x + w} {y + r}V{y + h - r}"
        f"A{r} {r} 0 0 1 {x + w - r} {y + h}H{x + r}A{r} {r} 0 0 1 {x} {y + h - r}"
        f"V{y + r}A{r} {r} 0 0 1 {x + r} {y}Z"
    )
    return path_contours(d)[0]


def read_icon(svg: str) -> Icon:
    root = ET.fromstring(svg)
    x0, y0, width, height = (float(v) for v in root.attrib["viewBox"].split())
    if (x0, y0) != (0, 0) or width != height:
        raise IconError("the icon's viewBox must be a square starting at 0 0")
    shapes = []
    for element in root:
        tag, attrs = element.tag.removeprefix(SVG_NS), element.attrib
        colour = parse_colour(attrs.get("fill", "#000000"))
        if tag == "rect":
            x, y = float(attrs.get("x", 0)), float(attrs.get("y", 0))
            w, h = float(attrs["width"]), float(attrs["height"])
            contour = rect_contour(x, y, w, h, float(attrs.get("rx", attrs.get("ry", 0))))
            shapes.append(Shape([contour], colour))
        elif tag == "path":
            shapes.append(Shape(path_contours(attrs["d"]), colour))
        else:
            raise IconError(f"unsupported SVG element <{tag}>")
    return Icon(width, shapes)


# --- rasterising ----------------------------------------------------------------------------


def crossings(contours: list[list[Point]], y: float) -> list[tuple[float, int]]:
    """Where the horizontal line at `y` crosses the outline, with each edge's direction."""
    found = []
    for contour in contours:
        for (xa, ya), (xb, yb) in zip(contour, contour[1:] + contour[:1], strict=True):
            if (ya <= y < yb) or (yb <= y < ya):
                found.append((xa + (y - ya) * (xb - xa) / (yb - ya), 1 if yb > ya else -1))
    return sorted(found)


def spans(contours: list[list[Point]], y: float) -> Iterator[Point]:
    """Inside intervals of the line at `y` under the non-zero fill rule (SVG's default)."""
    winding, start = 0, 0.0
    for x, direction in crossings(contours, y):
        if winding == 0:
            start = x
        winding += direction
        if winding == 0:
            yield start, x


def coverage_row(contours: list[list[Point]], row: int, width: int) -> list[float]:
    """Fraction (0..1) of each pixel of `row` covered by the shape."""
    partial = [0.0] * (width + 1)
    full = [0] * (width + 1)  # difference array: +1 where a run of covered pixels starts
    for k in range(SUBSCANLINES):
        for left, right in spans(contours, row + (k + 0.5) / SUBSCANLINES):
            a, b = max(left, 0.0), min(right, float(width))
            if b <= a:
                continue
            ia, ib = int(a), int(b)
            if ia == ib:
                partial[ia] += b - a
                continue
            partial[ia] += ia + 1 - a
            full[ia + 1] += 1
            full[ib] -= 1
            partial[ib] += b - ib
    row_cover, running = [], 0
    for i in range(width):
        running += full[i]
        row_cover.append(min(1.0, (running + partial[i]) / SUBSCANLINES))
    return row_cover


def transformed(shape: Shape, scale: float, centre: float, zoom: float) -> Shape:
    """The shape in pixels: `zoom` shrinks it about the icon's centre first."""
    contours = [
        [
            ((centre + (x - centre) * zoom) * scale, (centre + (y - centre) * zoom) * scale)
            for x, y in contour
        ]
        for contour in shape.contours
    ]
    return Shape(contours, shape.colour)


def rasterise(shapes: list[Shape], size: int, background: Colour | None) -> list[bytearray]:
    """Paint the shapes in order (source-over); RGBA rows, transparent unless `background`."""
    fill = (*background, 255) if background else (0, 0, 0, 0)
    rows = [bytearray(fill * size) for _ in range(size)]
    for shape in shapes:
        top = max(0, int(min(y for c in shape.contours for _, y in c)))
        bottom = min(size, math.ceil(max(y for c in shape.contours for _, y in c)))
        for row in range(top, bottom):
            pixels = rows[row]
            for x, alpha in enumerate(coverage_row(shape.contours, row, size)):
                if alpha > 0:
                    paint(pixels, 4 * x, shape.colour, alpha)
    return rows


def paint(pixels: bytearray, at: int, colour: Colour, alpha: float) -> None:
    under = pixels[at + 3] / 255
    out = alpha + under * (1 - alpha)
    for channel in range(3):
        mixed = colour[channel] * alpha + pixels[at + channel] * under * (1 - alpha)
        pixels[at + channel] = round(mixed / out)
    pixels[at + 3] = round(out * 255)


def glyph_radius(icon: Icon) -> float:
    """How far the artwork on top of the background reaches from the centre (viewBox units)."""
    centre = icon.size / 2
    return max(
        math.hypot(x - centre, y - centre)
        for shape in icon.shapes[1:]
        for contour in shape.contours
        for x, y in contour
    )


def render(icon: Icon, size: int, *, maskable: bool = False) -> list[bytearray]:
    scale, centre = size / icon.size, icon.size / 2
    if not maskable:
        return rasterise([transformed(s, scale, centre, 1.0) for s in icon.shapes], size, None)
    # Full bleed: the first shape's colour fills the square (the launcher supplies the shape)
    # and the glyph is shrunk into the safe zone.
    zoom = min(1.0, MASKABLE_GLYPH_RADIUS * icon.size / glyph_radius(icon))
    glyph = [transformed(s, scale, centre, zoom) for s in icon.shapes[1:]]
    return rasterise(glyph, size, icon.shapes[0].colour)


# --- writing PNG ----------------------------------------------------------------------------


def png_bytes(rows: list[bytearray]) -> bytes:
    """An 8-bit RGBA PNG; deterministic, so rebuilding an unchanged icon changes no byte."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        checksum = zlib.crc32(kind + body)
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", checksum)

    height, width = len(rows), len(rows[0]) // 4
    raw = b"".join(b"\x00" + bytes(row) for row in rows)  # filter type 0 on every row
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", header),
            chunk(b"IDAT", zlib.compress(raw, 9)),
            chunk(b"IEND", b""),
        )
    )


# File name -> (size in pixels, maskable), as the web app manifest lists them.
ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
}


def write_icons(svg: Path, target: Path) -> list[Path]:
    """Render every manifest icon of `svg` into `target`; returns the files written."""
    icon = read_icon(svg.read_text())
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (size, maskable) in ICONS.items():
        path = target / name
        path.write_bytes(png_bytes(render(icon, size, maskable=maskable)))
        written.append(path)
    return written
