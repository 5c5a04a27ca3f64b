"""Deep-link parsing: every hash the app writes parses back, and junk means home."""

from hypothesis import given
from hypothesis import strategies as st

from app.ui.routes import Route


def test_known_forms() -> None:
    assert Route.parse("#/") == Route()
    assert Route.parse("") == Route()
    assert Route.parse("#/folder/12") == Route(12)
    assert Route.parse("#/folder/12/word/34") == Route(12, 34)


def test_junk_is_home() -> None:
    for junk in ["#/folder/abc", "#/folder/", "#<script>", "#/folder/1/word/x", "#" + "9" * 40]:
        assert Route.parse(junk) == Route()


@given(st.integers(0, 10**12), st.none() | st.integers(0, 10**12))
def test_round_trip(folder: int, word: int | None) -> None:
    route = Route(folder, word)
    assert Route.parse(route.to_hash()) == route


def test_screens() -> None:
    assert Route.parse("#/study") == Route(view="study")
    assert Route.parse("#/stats") == Route(view="stats")
    assert Route.parse("#/stats/folder/7") == Route(7, view="stats")
    assert Route.parse("#/study/folder/7") == Route(view="study")
    assert Route.parse("#/studyx") == Route()


@given(st.none() | st.integers(0, 10**12))
def test_stats_round_trip(folder: int | None) -> None:
    route = Route(folder, view="stats")
    assert Route.parse(route.to_hash()) == route
