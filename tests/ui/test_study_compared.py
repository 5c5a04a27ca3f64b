"""How a typed or spoken answer that was not right is shown against the answer: "You typed" (or
"You said") and "Answer" on lines of their own, each the whole text as written, with the letters
of a slip or the words of a wrong answer marked, so a screen reader and a page without styles
read two answers, never a mix of both (app/study/compared.py does the marking)."""

from __future__ import annotations

from app.text.nodes import El, find_all, text_content
from tests.study.helpers import folder_with_words
from tests.ui.test_study_actions import go, setup

LABEL = "Your answer compared with the right one"


def compared_block(main: El) -> El:
    (block,) = find_all(main, lambda el: el.attrs.get("aria-label") == LABEL)
    return block


def compared_lines(main: El) -> list[str]:
    return [text_content(line) for line in find_all(compared_block(main), lambda el: el.tag == "p")]


def marked(main: El) -> list[tuple[str, str, str]]:
    """Each marked piece: its element, the side it is on (its class) and its text."""
    sides = ("diff-yours", "diff-answer")
    marks = find_all(compared_block(main), lambda el: el.attrs.get("class") in sides)
    return [(mark.tag, str(mark.attrs.get("class")), text_content(mark)) for mark in marks]


def typed(answer: str, text: str) -> El:
    ui, _, _ = setup()
    folder = folder_with_words(ui.store, "Colours", [("casa verde", [answer])])
    go(ui, ui.dispatch("study", str(folder.id), {"mode": "typing"}).navigate)
    ui.dispatch("study-answer", None, {"text": text})
    return ui.render_main()


def test_a_slip_marks_the_letters_on_each_side() -> None:
    main = typed("green house", "green hause")
    assert "Almost: a small slip" in text_content(main)
    assert compared_lines(main) == ["You typed: “green hause”", "Answer: “green house”"]
    # Letters only look marked: announced, they would break "house" into "h", "o", "use".
    assert marked(main) == [("span", "diff-yours", "a"), ("span", "diff-answer", "o")]


def test_a_wrong_typed_answer_marks_whole_words() -> None:
    main = typed("green house", "red house")
    assert "Not quite" in text_content(main)
    assert compared_lines(main) == ["You typed: “red house”", "Answer: “green house”"]
    assert marked(main) == [("mark", "diff-yours", "red"), ("mark", "diff-answer", "green")]


def test_nothing_in_common_is_shown_without_marks() -> None:
    main = typed("green house", "perro")
    assert compared_lines(main) == ["You typed: “perro”", "Answer: “green house”"]
    assert marked(main) == []


def test_the_comparison_is_a_named_group_with_no_struck_out_text() -> None:
    block = compared_block(typed("green house", "green hause"))
    assert block.tag == "div"
    assert block.attrs.get("role") == "group"  # a paragraph may not carry a label
    assert not find_all(block, lambda el: el.tag in ("del", "ins", "s"))
