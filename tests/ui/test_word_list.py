"""A big folder's words as a user drives them: a link deep into the folder opens the page that
holds the word, the filter and sort narrow and order the list, and pages move both ways."""

from __future__ import annotations

from app.store import Store
from app.text.nodes import El, find_all, text_content
from app.ui.controller import Controller
from app.ui.routes import Route
from app.ui.state import PAGE_SIZE


def _big_folder(size: int = 450) -> tuple[Controller, int]:
    ui = Controller(Store.open())
    update = ui.dispatch("save-folder", None, {"name": "Chinese", "color": "none", "emoji": ""})
    assert update.navigate
    ui.navigate(Route.parse(update.navigate))
    fid = ui.state.route.folder_id
    assert fid is not None
    lines = [f"w{i:04d} - {'even' if i % 2 == 0 else 'odd'} meaning" for i in range(size)]
    ui.dispatch("bulk-add", str(fid), {"text": "\n".join(lines)})
    return ui, fid


def _terms(main: El) -> list[str]:
    return [
        text_content(el)
        for el in find_all(main, lambda el: "word-term" in el.attrs.get("class", ""))
    ]


def _by_id(main: El, element_id: str) -> El | None:
    found = find_all(main, lambda el: el.attrs.get("id") == element_id)
    return found[0] if found else None


def _action(main: El, name: str) -> bool:
    return bool(find_all(main, lambda el: el.attrs.get("data-action") == name))


def test_a_link_deep_into_a_folder_opens_the_page_holding_the_word() -> None:
    ui, fid = _big_folder()
    word = ui.store.words(fid, 437, 1)[0]
    update = ui.navigate(Route(fid, word.id))
    assert update.reveal == f"#word-{word.id}"
    main = ui.render_main()
    # Only that page is drawn, however far down: the first screen stays as fast as any other.
    assert _terms(main) == [f"w{i:04d}" for i in range(400, 450)]
    row = _by_id(main, f"word-{word.id}")
    assert row is not None
    assert row.attrs.get("data-highlight") == "true"
    assert "Showing 401–450 of 450 words." in text_content(main)
    assert _action(main, "show-earlier")
    assert not _action(main, "show-more")
    ui.dispatch("show-earlier")
    assert _terms(ui.render_main())[0] == "w0300"


def test_a_link_to_a_word_already_on_screen_keeps_the_pages_shown() -> None:
    ui, fid = _big_folder()
    ui.dispatch("show-more")
    ui.dispatch("show-more")
    ui.navigate(Route(fid, ui.store.words(fid, 150, 1)[0].id))
    assert (ui.state.word_start, ui.state.word_limit) == (0, 3 * PAGE_SIZE)


def test_a_link_to_a_word_the_filter_hides_clears_the_filter() -> None:
    ui, fid = _big_folder()
    ui.dispatch("sort-words", None, {"text": "newest"})
    ui.dispatch("filter-words", None, {"text": "ODD"})
    even = ui.store.words(fid, 2, 1)[0]
    assert ui.navigate(Route(fid, even.id)).reveal == f"#word-{even.id}"
    assert ui.state.word_query.text == ""
    assert ui.state.word_query.sort == "newest"
    assert _by_id(ui.render_main(), f"word-{even.id}") is not None


def test_a_link_to_a_word_of_another_folder_reveals_nothing() -> None:
    ui, fid = _big_folder(3)
    word = ui.store.words(fid, 0, 1)[0]
    assert ui.navigate(Route(fid + 1, word.id)).reveal is None
    assert ui.navigate(Route(fid)).reveal is None


def test_the_filter_narrows_the_list_and_says_how_many_match() -> None:
    ui, _fid = _big_folder()
    update = ui.dispatch("filter-words", None, {"text": "  w000"})
    assert update.main
    assert update.focus == "#word-filter"
    main = ui.render_main()
    assert _terms(main) == [f"w000{i}" for i in range(10)]
    count = _by_id(main, "word-count")
    assert count is not None
    assert text_content(count) == "10 of 450 words"
    box = _by_id(main, "word-filter")
    assert box is not None
    assert box.attrs["value"] == "  w000"  # what was typed, as typed


def test_a_filter_matching_nothing_says_so_and_offers_to_clear_it() -> None:
    ui, _fid = _big_folder(5)
    ui.dispatch("filter-words", None, {"text": "<script>龍"})
    main = ui.render_main()
    assert "No words here match “<script>龍”." in text_content(main)
    count = _by_id(main, "word-count")
    assert count is not None
    assert text_content(count) == "0 of 5 words"
    ui.dispatch("clear-filter")
    assert len(_terms(ui.render_main())) == 5


def test_filtering_starts_again_from_the_first_page() -> None:
    ui, _fid = _big_folder()
    ui.dispatch("show-more")
    ui.dispatch("filter-words", None, {"text": "even"})
    main = ui.render_main()
    assert len(_terms(main)) == PAGE_SIZE
    assert "Showing 1–100 of 225 words." in text_content(main)
    ui.dispatch("show-more")
    assert len(_terms(ui.render_main())) == 2 * PAGE_SIZE


def test_the_sort_orders_the_list_and_stays_for_other_folders_but_the_filter_does_not() -> None:
    ui, fid = _big_folder(5)
    assert ui.dispatch("sort-words", None, {"text": "newest"}).focus == "#word-sort"
    assert _terms(ui.render_main()) == ["w0004", "w0003", "w0002", "w0001", "w0000"]
    ui.dispatch("filter-words", None, {"text": "w"})
    ui.navigate(Route())
    ui.navigate(Route(fid))
    assert ui.state.word_query.sort == "newest"
    assert ui.state.word_query.text == ""
    sort = _by_id(ui.render_main(), "word-sort")
    assert sort is not None
    chosen = find_all(sort, lambda el: "selected" in el.attrs)
    assert [text_content(el) for el in chosen] == ["Newest first"]


def test_an_unknown_sort_changes_nothing() -> None:
    ui, _fid = _big_folder(3)
    assert not ui.dispatch("sort-words", None, {"text": "id; DROP TABLE word"}).main
    assert ui.state.word_query.sort == "az"


def test_pages_start_again_when_the_words_they_showed_are_gone() -> None:
    ui, fid = _big_folder(250)
    ui.navigate(Route(fid, ui.store.words(fid, 240, 1)[0].id))
    ui.store.delete_words([w.id for w in ui.store.words(fid, 100, 200)])
    assert _terms(ui.render_main())[0] == "w0000"


def test_an_empty_folder_has_no_filter() -> None:
    ui, _fid = _big_folder(0)
    main = ui.render_main()
    assert _by_id(main, "word-filter") is None
    assert "No words yet" in text_content(main)
