"""The web app manifest: installable, linked from the page, coloured like the light theme."""

from __future__ import annotations

import json
import re
from pathlib import Path

from scripts.icons import ICONS

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = json.loads((ROOT / "manifest.webmanifest").read_text())
ICON_FOLDER = "static/build/icons/"


def theme(selector: str) -> dict[str, str]:
    css = (ROOT / "static" / "app.css").read_text()
    block = re.search(re.escape(selector) + r"\s*\{(.*?)\}", css, re.S)
    assert block
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", block.group(1)))


def test_it_describes_a_standalone_app_covering_the_whole_site() -> None:
    assert MANIFEST["name"] == "Lexical"
    assert 0 < len(MANIFEST["short_name"]) <= 12  # fits under a home-screen icon
    assert MANIFEST["display"] == "standalone"
    assert MANIFEST["start_url"] == MANIFEST["scope"] == "./"


def test_its_colours_are_the_light_theme_page_and_top_bar() -> None:
    light = theme(":root")
    assert MANIFEST["background_color"] == light["bg"]
    assert MANIFEST["theme_color"] == light["panel"]


def test_the_browser_bar_takes_the_top_bar_colour_of_either_theme() -> None:
    page = (ROOT / "index.html").read_text()
    metas = dict(re.findall(r'name="theme-color" content="([^"]+)" media="([^"]+)"', page))
    assert metas == {
        theme(":root")["panel"]: "(prefers-color-scheme: light)",
        theme(':root[data-theme="dark"]')["panel"]: "(prefers-color-scheme: dark)",
    }


def test_every_icon_is_one_the_build_renders_at_its_stated_size() -> None:
    listed = {icon["src"]: icon for icon in MANIFEST["icons"]}
    assert set(listed) == {ICON_FOLDER + name for name in ICONS}
    for name, (size, maskable) in ICONS.items():
        icon = listed[ICON_FOLDER + name]
        assert icon["sizes"] == f"{size}x{size}"
        assert icon["type"] == "image/png"
        assert icon["purpose"] == ("maskable" if maskable else "any")
    sizes = {icon["sizes"] for icon in MANIFEST["icons"] if icon["purpose"] == "any"}
    assert {"192x192", "512x512"} <= sizes


def test_the_page_links_it_and_its_strict_policy_allows_it_and_the_worker() -> None:
    page = (ROOT / "index.html").read_text()
    assert '<link rel="manifest" href="./manifest.webmanifest">' in page
    policy = re.search(r'Content-Security-Policy" content="([^"]+)"', page)
    assert policy
    rules = dict(rule.strip().split(" ", 1) for rule in policy.group(1).split(";"))
    # The manifest falls under default-src, the worker under worker-src: both 'self' only.
    assert rules["default-src"] == "'self'"
    assert "'self'" in rules["worker-src"].split()
    assert "manifest-src" not in rules
