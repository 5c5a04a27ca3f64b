"""Listening and Speaking modes through the controller, as the browser drives them: the mode
switcher, the hidden prompt and its "Show prompt", the Say it and Hear controls, what was heard,
"Did you say …?" with Yes and No, and nothing heard left ungraded."""

from __future__ import annotations

from app.domain import FolderId
from app.study.options import StudyOptions
from app.text.nodes import El, find_all, text_content
from app.ui.controller import Controller
from tests.ui.test_study_actions import by_action, go, prompt, setup
from tests.ui.test_study_compared import compared_lines


def start(mode: str, *, reverse: bool = False) -> tuple[Controller, FolderId]:
    ui, folder, _ = setup()
    if reverse:
        ui.store.study.set_options(folder, StudyOptions(directions="reverse"))
    go(ui, ui.dispatch("study", str(folder), {"mode": mode}).navigate)
    return ui, folder


def by_id(node: El, element_id: str) -> list[El]:
    return find_all(node, lambda el: el.attrs.get("id") == element_id)


def labels(node: El, action: str) -> list[str]:
    return [text_content(el) for el in by_action(node, action)]


def test_the_mode_switcher_offers_listening_and_speaking() -> None:
    ui, _ = start("flashcard")
    modes = by_action(ui.render_main(), "study-mode")
    assert [text_content(b) for b in modes] == [
        "Flashcards",
        "Typing",
        "Choice",
        "Listening",
        "Speaking",
        "Hands-free",
    ]
    ui.dispatch("study-mode", None, {"value": "speaking"})
    assert ui.study.session is not None
    assert ui.study.session.mode == "speaking"
    update = ui.dispatch("study-mode", None, {"value": "nonsense"})
    assert update.error == "Choose flashcards, typing, choice, listening, speaking or hands-free."


def test_listening_hides_the_prompt_until_asked_and_takes_typing() -> None:
    ui, _ = start("listening")
    main = ui.render_main()
    assert "perro" not in prompt(ui)
    assert by_action(main, "study-hear")
    assert by_action(main, "study-show-prompt")
    assert by_id(main, "study-typed")
    assert by_id(main, "study-say")
    assert by_id(main, "study-listening")  # where the adapter says what it hears
    ui.dispatch("study-show-prompt")
    assert prompt(ui) == "perro"
    assert not by_action(ui.render_main(), "study-show-prompt")
    update = ui.dispatch("study-answer", None, {"text": "dog"})
    assert update.focus == ".grades .grade.primary"
    assert "Correct" in text_content(ui.render_main())


def test_speaking_shows_the_prompt_and_grades_what_was_heard() -> None:
    ui, _ = start("speaking")
    main = ui.render_main()
    assert prompt(ui) == "perro"
    assert labels(main, "study-hear") == ["Hear it R"]
    assert not by_id(main, "study-typed")
    assert by_action(main, "study-reveal")  # "I don't know" without a microphone too
    ui.dispatch("study-spoken", None, {"heard": "The dog.\nthe doc"})
    main = ui.render_main()
    assert "Correct" in text_content(main)
    assert "You said: “The dog.”" in text_content(main)
    primary = find_all(main, lambda el: "primary" in str(el.attrs.get("class", "")))
    assert any(el.attrs.get("data-rating") == "good" for el in primary)


def test_a_wrong_spoken_answer_shows_what_was_heard_and_the_answer_whole() -> None:
    ui, _ = start("speaking")
    ui.dispatch("study-spoken", None, {"heard": "house"})
    main = ui.render_main()
    assert "Not quite" in text_content(main)
    # Not interleaved letter by letter ("I heard: grhouseen" to a screen reader): two lines.
    assert compared_lines(main) == ["You said: “house”", "Answer: “dog”"]


def test_a_near_miss_asks_did_you_say_and_yes_suggests_hard() -> None:
    ui, _ = start("speaking", reverse=True)
    assert prompt(ui) == "dog"
    update = ui.dispatch("study-spoken", None, {"heard": "perros"})
    assert update.focus == "#study-yes"
    main = ui.render_main()
    assert "Did you say “perro”?" in text_content(main)
    assert "I heard “perros”." in text_content(main)
    assert labels(main, "study-confirm") == ["Yes", "No, listen again"]
    assert "Yes counts it as right" in text_content(main)
    ui.dispatch("study-confirm", None, {"value": "yes"})
    main = ui.render_main()
    grades = find_all(main, lambda el: el.attrs.get("data-rating") == "hard")
    assert "primary" in str(grades[0].attrs.get("class"))
    assert "Counted as right" in text_content(main)


def test_no_listens_again() -> None:
    ui, _ = start("speaking", reverse=True)
    ui.dispatch("study-spoken", None, {"heard": "perros"})
    update = ui.dispatch("study-confirm", None, {"value": "no"})
    assert update.focus == "#study-say"
    assert "Did you say" not in text_content(ui.render_main())


def test_nothing_heard_says_so_and_grades_nothing() -> None:
    ui, _ = start("speaking")
    ui.dispatch("study-spoken", None, {"heard": ""})
    main = ui.render_main()
    assert "I didn't hear an answer, so nothing was graded." in text_content(main)
    assert not by_action(main, "study-grade")
    assert ui.store.study.db.scalar("SELECT count(*) FROM review") == 0


def test_hostile_hearings_stay_text() -> None:
    ui, _ = start("speaking")
    hostile = '<img src=x onerror="alert(1)">'
    ui.dispatch("study-spoken", None, {"heard": hostile + "\n" * 5_000 + "x" * 100_000})
    main = ui.render_main()
    assert not find_all(main, lambda el: el.tag == "img")
    assert ' src=x onerror="alert(1)">' in text_content(main)  # in the diff against "dog"
