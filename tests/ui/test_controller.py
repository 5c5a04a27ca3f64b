"""The controller as a user drives it: actions in, store changes and screen updates out."""

from __future__ import annotations

from app.store import Store
from app.store.results import TreeRow
from app.text.nodes import El, find_all, text_content
from app.ui.controller import ASSISTANT_BUSY, Controller
from app.ui.routes import Route


def make() -> Controller:
    return Controller(Store.open())


def buttons(node: El, action: str) -> list[El]:
    return find_all(node, lambda el: el.attrs.get("data-action") == action)


def test_home_invites_first_folder() -> None:
    ui = make()
    main = ui.render_main()
    assert "Create your first folder" in text_content(main)
    assert buttons(main, "new-folder")


def test_create_folder_navigates_and_tree_shows_it() -> None:
    ui = make()
    assert ui.dispatch("new-folder").dialog is not None
    update = ui.dispatch("save-folder", None, {"name": "Biology", "emoji": "🧬", "color": "green"})
    assert update.error is None
    assert update.close_dialog
    assert update.navigate is not None
    ui.navigate(Route.parse(update.navigate))
    assert "🧬 Biology" in text_content(ui.render_tree())
    assert "🧬 Biology" in text_content(ui.render_main())


def test_bad_folder_name_is_a_message_not_a_crash() -> None:
    ui = make()
    update = ui.dispatch("save-folder", None, {"name": "   ", "emoji": "", "color": "none"})
    assert update.error
    assert "empty" in update.error.lower()
    assert ui.store.folders() == []


def folder(ui: Controller, name: str = "Biology") -> int:
    update = ui.dispatch("save-folder", None, {"name": name, "color": "none", "emoji": ""})
    assert update.navigate
    ui.navigate(Route.parse(update.navigate))
    fid = ui.state.route.folder_id
    assert fid is not None
    return fid


def test_add_edit_delete_word_and_undo() -> None:
    ui = make()
    fid = folder(ui)
    update = ui.dispatch(
        "save-word", None, {"folder": str(fid), "term": "mitosis", "meanings": "cell division\n\n"}
    )
    assert update.error is None
    word = ui.store.words(fid)[0]
    assert word.meanings == ["cell division"]
    ui.dispatch("edit-word", str(word.id))
    assert ui.state.editing_word == word.id
    ui.dispatch(
        "save-word", str(word.id), {"term": "Mitosis", "meanings": "division", "lang": "EN"}
    )
    assert ui.store.word(word.id).lang == "en"
    ui.dispatch("delete-word", str(word.id))
    assert ui.store.word_count(fid) == 0
    assert "Undid" in (ui.dispatch("undo").toast or "")
    assert ui.store.word(word.id).term == "Mitosis"


def test_hostile_text_stays_text() -> None:
    ui = make()
    fid = folder(ui, "<img src=x onerror=alert(1)>")
    ui.dispatch(
        "save-word", None, {"folder": str(fid), "term": "<script>x</script>", "meanings": ""}
    )
    main = ui.render_main()
    assert "<script>x</script>" in text_content(main)
    assert not find_all(main, lambda el: el.tag in {"script", "img"})


def test_delete_nonempty_folder_asks_first() -> None:
    ui = make()
    fid = folder(ui)
    ui.dispatch("save-word", None, {"folder": str(fid), "term": "cell"})
    update = ui.dispatch("delete-folder", str(fid))
    assert update.dialog is not None
    assert "1 word" in text_content(update.dialog)
    assert ui.store.word_count(fid) == 1
    update = ui.dispatch("confirm-delete-folder", str(fid))
    assert update.navigate == "#/"
    assert ui.store.folders() == []


def test_bulk_paste_preview_then_add() -> None:
    ui = make()
    fid = folder(ui)
    ui.dispatch("save-word", None, {"folder": str(fid), "term": "cell"})
    preview = ui.dispatch("bulk-preview", str(fid), {"text": "cell - unit\natom - tiny\n\tbad"})
    assert preview.patch is not None
    update = ui.dispatch("bulk-add", str(fid), {"text": "cell - unit\natom - tiny\nion: charged"})
    assert update.error is None
    assert ui.store.word_count(fid) == 3
    ui.dispatch("undo")
    assert ui.store.word_count(fid) == 1


def test_move_folder_into_own_child_is_refused() -> None:
    ui = make()
    parent = folder(ui, "A")
    ui.dispatch("save-folder", None, {"name": "B", "parent": str(parent)})
    child = ui.store.children(parent)[0].id
    update = ui.dispatch("do-move-folder", str(parent), {"target": str(child)})
    assert update.error
    dialog = ui.dispatch("move-folder", str(parent)).dialog
    assert dialog is not None
    assert "B" not in text_content(dialog).replace("(Top level)", "")


def test_notes_render_markdown_safely() -> None:
    ui = make()
    folder(ui)
    ui.dispatch("add-note")
    ui.dispatch("save-note", None, {"title": "Tips", "body": "**bold** <script>alert(1)</script>"})
    main = ui.render_main()
    assert find_all(main, lambda el: el.tag == "strong")
    assert "<script>alert(1)</script>" in text_content(main)


def test_search_results_link_to_words() -> None:
    ui = make()
    fid = folder(ui)
    ui.dispatch("save-word", None, {"folder": str(fid), "term": "photosynthesis"})
    hits = ui.search("photo")
    assert hits
    assert hits[0].attrs["data-href"].startswith(f"#/folder/{fid}/word/")
    assert "Nothing matches" in text_content(ui.search("zzzz")[0])


def test_deleted_folder_route_recovers() -> None:
    ui = make()
    fid = folder(ui)
    ui.store.delete_folder(fid)
    assert ui.refresh().navigate == "#/"
    assert "not here" in text_content(ui.render_main())


def test_read_only_tab_refuses_writes_but_reads() -> None:
    ui = make()
    fid = folder(ui)
    ui.read_only = "Lexical is open in another tab."
    update = ui.dispatch("save-word", None, {"folder": str(fid), "term": "x"})
    assert update.error == "Lexical is open in another tab."
    assert ui.store.word_count(fid) == 0
    assert ui.dispatch("toggle-folder", str(fid)).error is None


def test_one_render_reads_the_folder_tree_once() -> None:
    ui = make()
    folder(ui)
    calls: list[int] = []
    tree = ui.store.folder_tree

    def counted() -> list[TreeRow]:
        calls.append(1)
        return tree()

    ui.store.folder_tree = counted  # type: ignore[method-assign]
    side, main = ui.render(tree=True, main=True)
    assert len(calls) == 1
    assert side is not None
    assert main is not None
    assert text_content(side) == text_content(ui.render_tree())
    assert ui.render(tree=False, main=False) == (None, None)


def test_a_stale_link_shows_home_and_corrects_the_address() -> None:
    ui = make()
    update = ui.navigate(Route(99999))
    assert update.replace_url == "#/"
    assert update.main
    assert ui.state.route == Route()
    assert ui.navigate(Route()).replace_url is None


def test_search_option_names_keep_title_and_kind_apart() -> None:
    ui = make()
    fid = folder(ui)
    ui.dispatch("save-word", None, {"folder": str(fid), "term": "mitosis"})
    assert text_content(ui.search("mito")[0]).startswith("mitosis, word")


def test_edits_and_undo_wait_while_an_agent_turn_is_open() -> None:
    ui = make()
    ui.dispatch("save-folder", None, {"name": "Biology", "emoji": "", "color": "none"})
    with ui.store.group("Architect: make things"):
        for action in ("undo", "new-folder", "save-folder"):
            update = ui.dispatch(action, None, {"name": "Chemistry"})
            assert update.error == ASSISTANT_BUSY
        assert ui.dispatch("help").dialog is not None  # reading is fine
    assert [r.folder.name for r in ui.store.folder_tree()] == ["Biology"]
    assert ui.dispatch("undo").error is None


def test_the_sidebar_is_redrawn_only_when_what_it_shows_changes() -> None:
    ui = make()
    fid = folder(ui)
    ui.dispatch("save-folder", None, {"name": "Cells", "parent": str(fid)})
    ui.navigate(Route(folder_id=fid))
    ui.dispatch("save-word", None, {"folder": str(fid), "term": "mitosis", "meanings": "x"})
    first = ui.render_tree()
    word = ui.store.find_words("mitosis")[0]
    ui.dispatch("save-word", str(word.id), {"term": "mitosis", "meanings": "cell division"})
    assert ui.render_tree() is first  # a new meaning changes nothing the sidebar shows
    ui.dispatch("save-word", None, {"folder": str(fid), "term": "meiosis", "meanings": "y"})
    counted = ui.render_tree()
    assert counted is not first
    assert "2 words" in text_content(counted)
    ui.state.expanded.discard(fid)
    collapsed = ui.render_tree()
    assert collapsed is not counted
    assert "Cells" not in text_content(collapsed)
    ui.state.expanded.add(fid)
    assert "Cells" in text_content(ui.render_tree())


def test_the_bulk_paste_preview_scrolls_in_a_named_box_that_keys_can_reach() -> None:
    ui = make()
    fid = folder(ui)
    update = ui.dispatch("bulk-preview", str(fid), {"text": "cell - unit\natom - tiny"})
    assert update.patch is not None
    assert isinstance(update.patch[1], El)
    (box,) = find_all(update.patch[1], lambda e: "preview-scroll" in e.attrs.get("class", ""))
    assert (box.attrs["role"], box.attrs["aria-label"], box.attrs["tabindex"]) == (
        "region",
        "Preview",
        "0",
    )


def _lang_input(node: El, form_label: str) -> El:
    (form,) = find_all(node, lambda el: el.attrs.get("aria-label") == form_label)
    (field,) = find_all(form, lambda el: el.attrs.get("name") == "lang")
    return field


def test_a_folders_language_is_set_in_its_form_and_offered_to_new_words() -> None:
    ui = make()
    fid = folder(ui, "German")
    dialog = ui.dispatch("edit-folder", str(fid)).dialog
    assert dialog is not None
    assert _lang_input(dialog, "Edit German").attrs["value"] == ""
    fields = {"name": "German", "emoji": "", "color": "none", "lang": "de"}
    assert ui.dispatch("save-folder", str(fid), fields).error is None
    dialog = ui.dispatch("edit-folder", str(fid)).dialog
    assert dialog is not None
    assert _lang_input(dialog, "Edit German").attrs["value"] == "de"
    ui.dispatch("new-folder", str(fid))
    update = ui.dispatch("save-folder", None, {"name": "Verbs", "parent": str(fid), "lang": ""})
    assert update.navigate
    ui.navigate(Route.parse(update.navigate))
    # The subfolder's word form shows the language a new word will take.
    new_word = _lang_input(ui.render_main(), "Add a word")
    assert new_word.attrs["value"] == ""
    assert new_word.attrs["placeholder"] == "Folder default: de"
    sub = ui.state.route.folder_id
    ui.dispatch("save-word", None, {"folder": str(sub), "term": "gehen", "lang": ""})
    assert [w.lang for w in ui.store.words(ui.store.folders()[1].id)] == ["de"]


def test_a_bad_folder_language_is_a_message_like_a_words() -> None:
    ui = make()
    fid = folder(ui)
    update = ui.dispatch("save-folder", str(fid), {"name": "Biology", "lang": "german"})
    assert update.error == "Language must be a language tag such as en, es-MX or zh-Hant-TW."
    assert ui.store.folder(fid).lang == ""  # type: ignore[arg-type]
    word = ui.dispatch("save-word", None, {"folder": str(fid), "term": "t", "lang": "german"})
    assert word.error == update.error
