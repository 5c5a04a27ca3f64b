"""The manifest's PNG icons are faithful, deterministic renderings of static/icon.svg."""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

import pytest

from scripts.icons import (
    ICONS,
    MASKABLE_GLYPH_RADIUS,
    IconError,
    arc_points,
    path_contours,
    png_bytes,
    read_icon,
    rect_contour,
    render,
    write_icons,
)

ROOT = Path(__file__).resolve().parents[2]
SVG = ROOT / "static" / "icon.svg"
BLUE = (0x2F, 0x5F, 0xD0)
SAFE_ZONE_RADIUS = 0.4  # of the icon's width, as the maskable icon spec defines it


def area(contour: list[tuple[float, float]]) -> float:
    pairs = zip(contour, contour[1:] + contour[:1], strict=True)
    return abs(sum(xa * yb - xb * ya for (xa, ya), (xb, yb) in pairs)) / 2


def pixel(rows: list[bytearray], x: int, y: int) -> tuple[int, ...]:
    return tuple(rows[y][4 * x : 4 * x + 4])


def decode_png(data: bytes) -> tuple[int, int, bytes]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    at, idat, size = 8, b"", (0, 0)
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert zlib.crc32(kind + body) == crc
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
            assert body[8:] == bytes([8, 6, 0, 0, 0])  # 8-bit RGBA, no interlace
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    return size[0], size[1], zlib.decompress(idat)


def test_an_arc_stays_on_its_circle_and_ends_where_asked() -> None:
    points = arc_points((10, 0), (0, 10), (10, 10), large=False, sweep=True)
    assert points[-1] == (0, 10)
    assert all(math.isclose(math.hypot(x, y), 10, rel_tol=1e-9) for x, y in points)
    assert all(x >= -1e-9 and y >= -1e-9 for x, y in points)  # the short way round


def test_the_sweep_flag_picks_the_side_of_the_arc() -> None:
    clockwise = arc_points((0, 0), (10, 0), (5, 5), large=False, sweep=True)
    counter = arc_points((0, 0), (10, 0), (5, 5), large=False, sweep=False)
    assert min(y for _, y in clockwise) < -4  # y points down: sweep 1 bulges upwards
    assert max(y for _, y in counter) > 4


def test_a_rounded_rectangle_has_the_area_of_its_corners_cut() -> None:
    contour = rect_contour(0, 0, 64, 40, 10)
    assert math.isclose(area(contour), 64 * 40 - (4 - math.pi) * 100, rel_tol=1e-3)


def test_relative_and_absolute_paths_draw_the_same_square() -> None:
    assert path_contours("M1 1h4v4H1z") == path_contours("M1 1L5 1L5 5L1 5Z")


@pytest.mark.parametrize(
    "body",
    [
        '<circle r="3"/>',  # an element it does not draw
        '<path d="M0 0C1 1 2 2 3 3"/>',  # a curve command it does not draw
        '<path d="M0 0h3" fill="red"/>',  # a colour that is not #rrggbb
    ],
)
def test_what_the_renderer_cannot_draw_is_refused_by_name(body: str) -> None:
    with pytest.raises(IconError):
        read_icon(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">{body}</svg>')


def test_a_viewbox_that_is_not_a_square_is_refused() -> None:
    with pytest.raises(IconError, match="square"):
        read_icon('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32"></svg>')


def test_the_app_icon_is_a_blue_rounded_square_with_a_white_book() -> None:
    icon = read_icon(SVG.read_text())
    rows = render(icon, 192)
    assert len(rows) == 192
    assert all(len(row) == 192 * 4 for row in rows)
    assert pixel(rows, 0, 0)[3] == 0  # the rounded corner is transparent
    assert pixel(rows, 96, 10) == (*BLUE, 255)  # the square's top edge area
    assert pixel(rows, 70, 96) == (255, 255, 255, 255)  # the left page
    assert pixel(rows, 108, 96) == (*BLUE, 255)  # the gutter between the pages
    reds = {pixel(rows, x, y)[0] for y in range(192) for x in range(192) if pixel(rows, x, y)[3]}
    assert reds & set(range(BLUE[0] + 1, 255))  # the curved edges are anti-aliased


def test_the_maskable_icon_bleeds_to_the_edges_and_keeps_the_book_in_the_safe_zone() -> None:
    size = 512
    rows = render(read_icon(SVG.read_text()), size, maskable=True)
    centre, reach = size / 2, 0.0
    for y in range(size):
        for x in range(size):
            r, g, b, a = pixel(rows, x, y)
            assert a == 255
            if (r, g, b) != BLUE:
                reach = max(reach, math.hypot(x + 0.5 - centre, y + 0.5 - centre))
    assert reach > 0.25 * size  # the book is there, at a readable size...
    assert reach <= MASKABLE_GLYPH_RADIUS * size + 1  # ...inside the margin we chose
    assert MASKABLE_GLYPH_RADIUS < SAFE_ZONE_RADIUS


def test_png_files_decode_to_the_rendered_pixels_and_are_reproducible(tmp_path: Path) -> None:
    written = write_icons(SVG, tmp_path)
    assert [p.name for p in written] == list(ICONS)
    icon = read_icon(SVG.read_text())
    for path in written:
        size, maskable = ICONS[path.name]
        rows = render(icon, size, maskable=maskable)
        width, height, raw = decode_png(path.read_bytes())
        assert (width, height) == (size, size)
        assert raw == b"".join(b"\x00" + bytes(row) for row in rows)
        assert path.read_bytes() == png_bytes(rows)
