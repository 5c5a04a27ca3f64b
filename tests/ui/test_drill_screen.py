"""The hands-free mode through the controller and the drill's screen: the mode is a session's
like any other (offered, remembered, resumed), the drill runs over the session while it is
chosen, and the screen follows the drill in large type."""

from __future__ import annotations

from app.domain import FolderId
from app.drill.commands import Command
from app.drill.events import Begin, Button, Heard, SpeechDone
from app.drill.where import ANOTHER_MODE, OFFLINE
from app.drill.where import hands_free as hands_free_where
from app.store import Store
from app.store.db import Database
from app.text.nodes import El, find_all, text_content
from app.ui.controller import Controller
from app.ui.drill_view import CANNOT_STATUS
from app.ui.routes import Route
from app.voice.ladder import NO_RECOGNITION, ON_DEVICE, Rung
from app.voice.ladder import OFFLINE as OFFLINE_LADDER
from tests.study.helpers import Clock
from tests.ui.test_study_actions import by_action, go, setup


def by_id(node: El, element_id: str) -> El:
    found = find_all(node, lambda el: el.attrs.get("id") == element_id)
    assert found, f"no #{element_id}"
    return found[0]


def hands_free() -> tuple[Controller, Clock]:
    ui, folder, clock = setup()
    study_hands_free(ui, folder)
    return ui, clock


def study_hands_free(ui: Controller, folder: FolderId) -> None:
    update = ui.dispatch("study", str(folder), {"value": "hands-free"})
    assert update.error is None
    go(ui, update.navigate)


def test_the_folder_offers_hands_free_study_and_the_picker_offers_the_mode() -> None:
    ui, folder, _ = setup()
    ui.navigate(Route(folder))
    buttons = by_action(ui.render_main(), "study")
    assert [b.attrs.get("data-value") for b in buttons] == [None, "hands-free"]
    go(ui, ui.dispatch("study", str(folder)).navigate)
    picker = by_action(ui.render_main(), "study-mode")
    assert [text_content(b) for b in picker][-1] == "Hands-free"


def test_a_hands_free_session_shows_the_start_button_and_its_reason() -> None:
    ui, _ = hands_free()
    assert ui.study.session is not None
    assert ui.study.session.mode == "hands-free"
    main = ui.render_main()
    start = by_id(main, "drill-start")
    assert text_content(start) == "Start"
    assert "only after a click" in text_content(by_id(main, start.attrs["aria-describedby"]))
    assert text_content(by_id(main, "drill-prompt")) == "perro"
    assert "5 cards left" in text_content(main)
    assert not by_action(main, "drill")  # the controls come once it runs


def test_the_drill_runs_over_the_session_and_the_screen_follows_it() -> None:
    ui, _ = hands_free()
    drill = ui.study.drill
    assert drill is not None
    assert drill is ui.study.drill  # the same drill on every redraw
    said = drill.handle(Begin(0.0))
    drill.handle(SpeechDone(len([e for e in said if hasattr(e, "id")]), 1.0))
    drill.handle(Heard(("dog",), 2.0))
    main = ui.render_main()
    assert text_content(by_id(main, "drill-heard")) == "dog"
    assert text_content(by_id(main, "drill-said")) == "Right."
    assert text_content(by_id(main, "drill-grade")) == "Easy"
    assert [b.attrs["data-value"] for b in by_action(main, "drill")] == [
        "pause",
        "repeat",
        "undo",
        "stop",
    ]
    drill.handle(Button(Command.PAUSE, 3.0))
    main = ui.render_main()
    assert text_content(by_id(main, "drill-pause")) == "Resume"
    assert "Paused" in text_content(by_id(main, "drill-status"))


def test_a_reload_resumes_the_hands_free_session_at_its_card() -> None:
    ui, clock = hands_free()
    drill = ui.study.drill
    assert drill is not None
    drill.handle(Begin(0.0))
    drill.handle(Button(Command.GOOD, 1.0))  # perro graded, gato asked
    again = Controller(Store(Database.from_bytes(ui.store.snapshot()), clock=clock))
    again.navigate(Route(view="study"))
    main = again.render_main()
    assert text_content(by_id(main, "drill-start")) == "Resume hands-free"
    assert text_content(by_id(main, "drill-prompt")) == "gato"


def test_switching_mode_away_ends_the_drill_and_back_makes_a_new_one() -> None:
    ui, _ = hands_free()
    first = ui.study.drill
    ui.dispatch("study-mode", None, {"value": "typing"})
    assert ui.study.drill is None
    assert by_id(ui.render_main(), "study-typed")
    ui.dispatch("study-mode", None, {"value": "hands-free"})
    assert ui.study.drill is not None
    assert ui.study.drill is not first
    assert ui.dispatch("study-mode", None, {"value": "hands free!"}).error


def test_ctrl_z_while_the_drill_runs_is_the_drill_s_undo() -> None:
    ui, _ = hands_free()
    told: list[Command] = []
    ui.study.drill_command = told.append
    drill = ui.study.drill
    assert drill is not None
    assert ui.dispatch("undo").toast == "No grade to undo in this session."  # not begun yet
    drill.handle(Begin(0.0))
    assert ui.dispatch("undo").toast is None
    assert told == [Command.UNDO]


def test_a_finished_drill_shows_the_summary_and_what_was_said() -> None:
    ui, _ = hands_free()
    drill = ui.study.drill
    assert drill is not None
    drill.handle(Begin(0.0))
    drill.handle(Button(Command.GOOD, 1.0))
    drill.handle(Button(Command.STOP, 2.0))
    main = ui.render_main()
    assert "Session complete" in text_content(main)
    said = text_content(by_id(main, "drill-said"))
    assert said.startswith("You studied 1 card and got 1 right (100%).")
    assert not find_all(main, lambda el: el.attrs.get("id") == "drill-start")


def test_the_finished_drill_tells_how_the_last_session_of_the_folder_went() -> None:
    ui, folder, clock = setup()
    study_hands_free(ui, folder)
    drill = ui.study.drill
    assert drill is not None
    drill.handle(Begin(0.0))
    drill.handle(Button(Command.AGAIN, 1.0))  # perro missed
    drill.handle(Button(Command.STOP, 2.0))
    assert "Last time" not in text_content(ui.render_main())  # the first session
    ui.dispatch("study-end")
    clock.advance(days=1)
    study_hands_free(ui, folder)
    drill = ui.study.drill
    assert drill is not None
    drill.handle(Begin(0.0))
    drill.handle(Button(Command.GOOD, 1.0))
    drill.handle(Button(Command.STOP, 2.0))
    main = ui.render_main()
    last = "Yesterday you got 0 of 1 right and missed perro."
    assert text_content(by_id(main, "summary-last")) == last
    assert last in text_content(by_id(main, "drill-said"))


def test_without_recognition_the_screen_says_why_and_offers_the_other_modes() -> None:
    ui, _ = hands_free()
    ui.study.drill_listening = hands_free_where(Rung("typing", NO_RECOGNITION), online=True)
    main = ui.render_main()
    assert text_content(by_id(main, "drill-cannot")) == f"{NO_RECOGNITION} {ANOTHER_MODE}"
    assert text_content(by_id(main, "drill-status")) == CANNOT_STATUS
    assert "Say: repeat" not in text_content(main)
    assert not find_all(main, lambda el: el.attrs.get("id") == "drill-start")
    offered = find_all(by_id(main, "drill-modes"), lambda el: el.tag == "button")
    assert [(text_content(b), b.attrs["data-action"], b.attrs["data-value"]) for b in offered] == [
        ("Switch to Listening", "study-mode", "listening"),
        ("Switch to Speaking", "study-mode", "speaking"),
        ("Switch to Typing", "study-mode", "typing"),
    ]
    ui.dispatch("study-mode", None, {"value": "typing"})
    assert by_id(ui.render_main(), "study-typed")


def test_offline_on_this_device_the_screen_says_what_needs_the_network() -> None:
    ui, _ = hands_free()
    ui.study.drill_listening = hands_free_where(Rung("on-device", ON_DEVICE), online=False)
    main = ui.render_main()
    assert text_content(by_id(main, "drill-where")) == ON_DEVICE
    assert text_content(by_id(main, "drill-offline")) == OFFLINE
    assert by_id(main, "drill-start")
    drill = ui.study.drill
    assert drill is not None
    drill.handle(Begin(0.0))
    assert text_content(by_id(ui.render_main(), "drill-offline")) == OFFLINE


def test_a_running_drill_that_can_no_longer_listen_says_why() -> None:
    ui, _ = hands_free()
    drill = ui.study.drill
    assert drill is not None
    drill.handle(Begin(0.0))
    ui.study.drill_listening = hands_free_where(Rung("typing", OFFLINE_LADDER), online=False)
    shown = text_content(by_id(ui.render_main(), "drill-where"))
    assert shown == f"{OFFLINE_LADDER} {ANOTHER_MODE}"


def test_a_drill_paused_because_nothing_can_listen_offers_the_other_modes() -> None:
    ui, _ = hands_free()
    drill = ui.study.drill
    assert drill is not None
    drill.handle(Begin(0.0))
    drill.handle(Button(Command.PAUSE, 1.0))
    drill.handle(SpeechDone(drill.state.said, 2.0))
    ui.study.drill_listening = hands_free_where(Rung("typing", NO_RECOGNITION), online=True)
    main = ui.render_main()
    assert text_content(by_id(main, "drill-cannot")) == f"{NO_RECOGNITION} {ANOTHER_MODE}"
    assert text_content(by_id(main, "drill-status")) == CANNOT_STATUS
    assert "Say: repeat" not in text_content(main)
    assert by_id(main, "drill-modes")
