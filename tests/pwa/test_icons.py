"""The manifest's PNG icons are resvg's renderings of static/icon.svg, the maskable one with
the artwork inside the safe zone."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PIL import Image

from scripts.icons import ICONS, MASKABLE_GLYPH_RADIUS, IconError, maskable_svg, write_icons

ROOT = Path(__file__).resolve().parents[2]
SVG = ROOT / "static" / "icon.svg"
BLUE = (0x2F, 0x5F, 0xD0)
SAFE_ZONE_RADIUS = 0.4  # of the icon's width, as the maskable icon spec defines it
SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
BACKGROUND = '<rect width="64" height="64" fill="#2f5fd0"/>'


def image(path: Path) -> Image.Image:
    with Image.open(path) as png:
        return png.convert("RGBA")


def reach(picture: Image.Image, background: tuple[int, int, int]) -> float:
    """How far from the centre the pixels that are not the background go, as a fraction of
    the width."""
    width, height = picture.size
    far = 0.0
    for index, (r, g, b, _a) in enumerate(picture.get_flattened_data()):
        if (r, g, b) != background:
            y, x = divmod(index, width)
            far = max(far, math.hypot(x + 0.5 - width / 2, y + 0.5 - height / 2))
    return far / width


def maskable_png(svg: str, tmp_path: Path) -> Image.Image:
    source = tmp_path / "icon.svg"
    source.write_text(svg)
    write_icons(source, tmp_path / "icons")
    return image(tmp_path / "icons" / "maskable-512.png")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("icons")
    return {path.name: path for path in write_icons(SVG, folder)}


def test_every_manifest_icon_is_written_at_its_size(written: dict[str, Path]) -> None:
    assert list(written) == list(ICONS)
    for name, (size, _maskable) in ICONS.items():
        assert image(written[name]).size == (size, size)


def test_the_app_icon_is_a_blue_rounded_square_with_a_white_book(
    written: dict[str, Path],
) -> None:
    icon = image(written["icon-192.png"])
    assert icon.getpixel((0, 0))[3] == 0  # the rounded corner is transparent
    assert icon.getpixel((96, 10)) == (*BLUE, 255)  # the square's top edge area
    assert icon.getpixel((70, 96)) == (255, 255, 255, 255)  # the left page
    assert icon.getpixel((108, 96)) == (*BLUE, 255)  # the gutter between the pages
    reds = {r for r, _g, _b, a in icon.get_flattened_data() if a}
    assert reds & set(range(BLUE[0] + 1, 255))  # the curved edges are anti-aliased


def test_the_maskable_icon_bleeds_to_the_edges_and_keeps_the_book_in_the_safe_zone(
    written: dict[str, Path],
) -> None:
    icon = image(written["maskable-512.png"])
    assert {a for _r, _g, _b, a in icon.get_flattened_data()} == {255}
    # The book is as large as the margin we chose allows, and inside it.
    assert MASKABLE_GLYPH_RADIUS - 2 / 512 < reach(icon, BLUE) <= MASKABLE_GLYPH_RADIUS + 1 / 512
    assert MASKABLE_GLYPH_RADIUS < SAFE_ZONE_RADIUS


def test_rendering_again_changes_no_byte(written: dict[str, Path], tmp_path: Path) -> None:
    for path in write_icons(SVG, tmp_path):
        assert path.read_bytes() == written[path.name].read_bytes()


def test_artwork_reaching_the_corners_is_shrunk_into_the_margin(tmp_path: Path) -> None:
    corners = '<path d="M0 0H64V64H0z M8 8V56H56V8z" fill="#fff"/>'  # a frame at the edges
    icon = maskable_png(SVG_OPEN + BACKGROUND + corners + "</svg>", tmp_path)
    assert MASKABLE_GLYPH_RADIUS - 2 / 512 < reach(icon, BLUE) <= MASKABLE_GLYPH_RADIUS + 1 / 512


def test_small_artwork_is_not_enlarged(tmp_path: Path) -> None:
    dot = '<rect x="30" y="30" width="4" height="4" fill="#fff"/>'
    icon = maskable_png(SVG_OPEN + BACKGROUND + dot + "</svg>", tmp_path)
    assert reach(icon, BLUE) == pytest.approx(math.hypot(2, 2) / 64, abs=1 / 512)


@pytest.mark.parametrize(
    ("svg", "message"),
    [
        ("not an svg", "not readable SVG"),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32"></svg>', "square"),
        (SVG_OPEN + BACKGROUND + "</svg>", "artwork on its background"),
        (SVG_OPEN + '<rect width="64" height="64"/><circle r="3"/></svg>', "fill"),
    ],
)
def test_an_icon_the_maskable_rule_cannot_apply_to_is_refused_clearly(
    svg: str, message: str
) -> None:
    with pytest.raises(IconError, match=message):
        maskable_svg(svg)


def test_an_unreadable_icon_file_is_named(tmp_path: Path) -> None:
    source = tmp_path / "icon.svg"
    source.write_text("<svg")
    with pytest.raises(IconError, match=r"icon\.svg"):
        write_icons(source, tmp_path / "icons")
    assert not (tmp_path / "icons").exists()
