"""Studying through the controller, as the browser drives it: start, answer, grade, undo,
switch mode, end, options, and the due counts in the sidebar."""

from __future__ import annotations

from app.domain import FolderId
from app.store import Store
from app.store.db import Database
from app.store.transfer.steps import run_steps
from app.text.nodes import El, find_all, text_content
from app.ui.controller import Controller
from app.ui.routes import Route
from app.ui.update import Update
from tests.study.helpers import SPANISH, Clock, folder_with_words


def setup() -> tuple[Controller, FolderId, Clock]:
    clock = Clock()
    ui = Controller(Store(Database.open(), clock=clock))
    folder = folder_with_words(ui.store, "Spanish", SPANISH)
    return ui, folder.id, clock


def finished(update: Update) -> Update:
    """The update an action ends with once the work it left (Update.then) is done, as the
    page drives it; the update itself if it left none."""
    return update if update.then is None else run_steps(update.then)


def go(ui: Controller, fragment: str | None) -> None:
    assert fragment is not None
    ui.navigate(Route.parse(fragment))


def prompt(ui: Controller) -> str:
    found = find_all(ui.render_main(), lambda el: el.attrs.get("id") == "study-prompt")
    return text_content(found[0]) if found else ""


def by_action(node: El, action: str) -> list[El]:
    return find_all(node, lambda el: el.attrs.get("data-action") == action)


def test_the_sidebar_and_folder_show_what_is_due_and_new() -> None:
    ui, folder, _ = setup()
    ui.navigate(Route(folder))
    assert "(0 due, 5 new)" in text_content(ui.render_tree())
    assert "0 due · 5 new today" in text_content(ui.render_main())
    assert by_action(ui.render_main(), "study")
    assert ui.due_today().new == 5


def test_a_session_from_start_to_summary() -> None:
    ui, folder, _ = setup()
    update = ui.dispatch("study", str(folder))
    assert update.error is None
    go(ui, update.navigate)
    assert prompt(ui) == "perro"
    ui.dispatch("study-reveal")
    main = ui.render_main()
    assert "Easy" in text_content(main)
    assert len(by_action(main, "study-grade")) == 4
    update = ui.dispatch("study-grade", "4")
    assert update.counts
    assert update.error is None
    assert prompt(ui) == "gato"
    assert "(0 due, 4 new)" in text_content(ui.render_tree())
    for _ in range(4):
        ui.dispatch("study-reveal")
        ui.dispatch("study-grade", "4")
    assert "Session complete" in text_content(ui.render_main())
    update = ui.dispatch("study-end")
    assert update.navigate == Route(folder).to_hash()


def test_ending_part_way_shows_what_was_studied_and_done_goes_back() -> None:
    """Issue 25: "End session" after some cards skipped the summary of what was studied."""
    ui, folder, _ = setup()
    go(ui, ui.dispatch("study", str(folder)).navigate)
    for rating in ("1", "4"):
        ui.dispatch("study-reveal")
        ui.dispatch("study-grade", rating)
    update = ui.dispatch("study-end")
    assert update.navigate is None
    shown = text_content(ui.render_main())
    assert "Session complete" in shown
    assert "perro" in shown  # missed
    update = ui.dispatch("study-end")  # Done
    assert update.navigate == Route(folder).to_hash()


def test_ending_before_any_card_goes_straight_back() -> None:
    ui, folder, _ = setup()
    go(ui, ui.dispatch("study", str(folder)).navigate)
    assert ui.dispatch("study-end").navigate == Route(folder).to_hash()


def test_ctrl_z_on_the_study_screen_undoes_the_grade_not_an_edit() -> None:
    ui, folder, _ = setup()
    go(ui, ui.dispatch("study", str(folder)).navigate)
    ui.dispatch("study-reveal")
    ui.dispatch("study-grade", "3")
    label = ui.store.undo_label
    update = ui.dispatch("undo")
    assert update.toast == "Undid the grade of perro."
    assert prompt(ui) == "perro"
    assert ui.store.undo_label == label  # the edit history is untouched


def test_typing_and_choice_modes_switch_mid_session() -> None:
    ui, folder, _ = setup()
    go(ui, ui.dispatch("study", str(folder)).navigate)
    ui.dispatch("study-mode", None, {"value": "typing"})
    assert find_all(ui.render_main(), lambda el: el.attrs.get("id") == "study-typed")
    ui.dispatch("study-answer", None, {"text": "dog"})
    assert "Correct" in text_content(ui.render_main())
    ui.dispatch("study-grade")  # the suggestion
    ui.dispatch("study-mode", None, {"value": "choice"})
    choices = by_action(ui.render_main(), "study-choose")
    assert len(choices) == 4
    assert ui.dispatch("study-mode", None, {"value": "nonsense"}).error


def test_a_reloaded_page_resumes_the_open_session() -> None:
    ui, folder, clock = setup()
    go(ui, ui.dispatch("study", str(folder)).navigate)
    ui.dispatch("study-reveal")
    ui.dispatch("study-grade", "1")
    again = Controller(Store(Database.from_bytes(ui.store.snapshot()), clock=clock))
    again.navigate(Route(view="study"))
    assert prompt(again) == prompt(ui) == "gato"


def test_the_study_screen_without_a_session_goes_home() -> None:
    ui, _, _ = setup()
    update = ui.navigate(Route(view="study"))
    assert update.replace_url == "#/"
    assert update.toast == "No study session is open."


def test_a_read_only_tab_cannot_study() -> None:
    ui, folder, _ = setup()
    ui.read_only = "This tab is read-only."
    assert ui.dispatch("study", str(folder)).error == "This tab is read-only."
    ui.navigate(Route(folder))
    main = ui.render_main()
    assert by_action(main, "study")[0].attrs.get("aria-disabled") == "true"
    assert "Studying is off in this tab" in text_content(main)


def test_study_options_are_saved_checked_and_inherited() -> None:
    ui, folder, _ = setup()
    assert ui.dispatch("study-options", str(folder)).dialog is not None
    form = {"retention": "0.95", "new_per_day": "2", "reviews_per_day": "100",
            "directions": "both", "accents_optional": "on"}  # fmt: skip
    assert ui.dispatch("save-study-options", str(folder), form).error is None
    options, own = ui.store.study.options_for(folder)
    assert own
    assert options.new_per_day == 2
    assert options.directions == "both"
    assert not options.articles_optional
    bad = ui.dispatch("save-study-options", str(folder), {**form, "retention": "0.5"})
    assert bad.error == "Desired retention must be from 0.70 to 0.99."
    assert ui.dispatch("save-study-options", str(folder), {**form, "new_per_day": "x"}).error
    assert "sets its own options" in text_content(ui.dispatch("study-options", str(folder)).dialog)
    ui.dispatch("study-options-inherit", str(folder))
    assert ui.store.study.options_for(folder)[1] is False


def test_the_day_start_hour_is_a_collection_option() -> None:
    ui, _, _ = setup()
    form = {"retention": "0.9", "new_per_day": "20", "reviews_per_day": "9999",
            "directions": "forward", "day_start_hour": "6"}  # fmt: skip
    assert ui.dispatch("save-study-options", None, form).error is None
    assert ui.store.study.day_start_hour() == 6


def test_a_search_can_be_studied() -> None:
    ui, _, _ = setup()
    options = ui.search("house")
    assert "Study the words found" in text_content(options[-1])
    update = ui.dispatch("study", None, {"query": "house"})
    go(ui, update.navigate)
    assert prompt(ui) == "casa"
    assert "the words matching “house”" in text_content(ui.render_main())
    assert ui.dispatch("study", None, {"query": "zzzz"}).error == (
        "No words match “zzzz”, so there is nothing to study."
    )


def test_a_tab_that_takes_over_studies_on_its_own_store() -> None:
    ui, folder, clock = setup()
    go(ui, ui.dispatch("study", str(folder)).navigate)
    ui.dispatch("study-reveal")
    ui.dispatch("study-grade", "3")
    old = ui.store
    ui.store = Store(Database.from_bytes(old.snapshot()), clock=clock)  # as a promoted tab
    ui.dispatch("study-reveal")
    ui.dispatch("study-grade", "3")
    assert ui.store.study.db.scalar("SELECT count(*) FROM review") == 2
    assert old.study.db.scalar("SELECT count(*) FROM review") == 1


def test_hostile_text_in_a_card_stays_text() -> None:
    clock = Clock()
    ui = Controller(Store(Database.open(), clock=clock))
    hostile = '<img src=x onerror="alert(1)">'
    folder = folder_with_words(ui.store, "X", [(hostile, [hostile + " meaning"])])
    go(ui, ui.dispatch("study", str(folder.id), {"mode": "typing"}).navigate)
    assert prompt(ui) == hostile
    ui.dispatch("study-answer", None, {"text": hostile + " meanin"})
    main = ui.render_main()
    assert not find_all(main, lambda el: el.tag == "img")
    assert hostile + " meaning" in text_content(main)


def test_fitted_parameters_are_used_kept_on_save_and_undone_with_their_schedules() -> None:
    from tests.study.test_reschedule import FITTED  # noqa: PLC0415

    ui, folder, clock = setup()
    go(ui, ui.dispatch("study", str(folder)).navigate)
    for _ in range(4):
        ui.dispatch("study-reveal")
        ui.dispatch("study-grade", "3")
    clock.advance(days=3)
    dialog = ui.dispatch("study-options", str(folder)).dialog
    assert dialog is not None
    assert "A fit needs 400 reviews here besides each word's first" in text_content(dialog)
    assert "disabled" in by_action(dialog, "study-fit")[0].attrs
    before = {c.id: c.progress for c in ui.store.study.logged_cards(None)}
    text = ",".join(str(w) for w in FITTED)
    done = finished(ui.dispatch("study-use-parameters", str(folder), {"parameters": text}))
    assert done.toast == "Now scheduling with your own parameters, 4 cards rescheduled."
    assert ui.store.study.options_for(folder)[0].parameters == FITTED
    assert "fitted to your own reviews" in text_content(
        ui.dispatch("study-options", str(folder)).dialog
    )
    # Saving the form keeps them; out-of-range or garbled ones are refused.
    form = {"retention": "0.9", "new_per_day": "20", "reviews_per_day": "9999"}
    finished(ui.dispatch("save-study-options", str(folder), form))
    assert ui.store.study.options_for(folder)[0].parameters == FITTED
    wrong = ",".join(["500"] * 21)
    assert ui.dispatch("study-use-parameters", str(folder), {"parameters": wrong}).error
    assert ui.dispatch("study-use-parameters", str(folder), {"parameters": "a,b"}).error
    # Undo twice (the save, then the parameters): the schedules are as before, exactly.
    go(ui, "#/")  # on the study screen, Ctrl+Z takes back a grade
    finished(ui.dispatch("undo"))
    finished(ui.dispatch("undo"))
    assert ui.store.study.options_for(folder)[0].parameters is None
    assert {c.id: c.progress for c in ui.store.study.logged_cards(None)} == before


def test_options_that_do_not_enter_a_schedule_reschedule_nothing() -> None:
    ui, folder, _ = setup()
    go(ui, ui.dispatch("study", str(folder)).navigate)
    ui.dispatch("study-reveal")
    ui.dispatch("study-grade", "4")  # Easy: a review card, due in days
    go(ui, "#/")
    form = {"retention": "0.9", "new_per_day": "5", "reviews_per_day": "9999"}
    assert ui.dispatch("save-study-options", str(folder), form).toast == "Saved the study options."
    retention = {**form, "retention": "0.8"}
    done = finished(ui.dispatch("save-study-options", str(folder), retention))
    assert done.toast == "Saved the study options, 1 card rescheduled."
    undone = ui.dispatch("undo")
    assert undone.toast == "Undid: Study options"
    assert finished(undone).toast == "Undid: Study options, 1 card rescheduled"
    due = ui.store.study.logged_cards(None)[0].progress.due
    assert finished(ui.dispatch("undo")).toast == "Undid: Study options"  # nothing scheduled
    assert ui.store.study.logged_cards(None)[0].progress.due == due
