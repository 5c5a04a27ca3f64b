"""The narrow-screen drawers: one open at a time, and they close when the user moves on."""

from __future__ import annotations

import pytest

from app.ui.drawers import DRAWERS, Drawer, Drawers


@pytest.mark.parametrize("drawer", DRAWERS)
def test_its_button_opens_and_closes_a_drawer(drawer: Drawer) -> None:
    drawers = Drawers()
    drawers.click(toggle=drawer, inside=None, chose=False)
    assert drawers.open == drawer
    drawers.click(toggle=drawer, inside=None, chose=False)
    assert drawers.open is None


def test_opening_one_drawer_closes_the_other() -> None:
    drawers = Drawers(open="menu")
    drawers.click(toggle="folders", inside=None, chose=False)
    assert drawers.open == "folders"


def test_choosing_something_in_the_drawer_closes_it() -> None:
    drawers = Drawers(open="folders")
    drawers.click(toggle=None, inside="folders", chose=True)
    assert drawers.open is None


def test_expanding_the_tree_inside_the_drawer_keeps_it_open() -> None:
    drawers = Drawers(open="folders")
    drawers.click(toggle=None, inside="folders", chose=False)
    assert drawers.open == "folders"


@pytest.mark.parametrize("inside", [None, "menu"])
def test_a_click_outside_the_open_drawer_closes_it(inside: Drawer | None) -> None:
    drawers = Drawers(open="folders")
    drawers.click(toggle=None, inside=inside, chose=False)
    assert drawers.open is None


def test_close_says_which_drawer_it_closed_so_its_button_gets_focus() -> None:
    drawers = Drawers(open="menu")
    assert drawers.close() == "menu"
    assert drawers.open is None
    assert drawers.close() is None


def test_clicks_change_nothing_while_every_drawer_is_closed() -> None:
    drawers = Drawers()
    drawers.click(toggle=None, inside="folders", chose=True)
    assert drawers.open is None
