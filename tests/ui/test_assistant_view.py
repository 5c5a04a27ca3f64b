"""The assistant panel's state and views: events in, turns out, rendered safely."""

from __future__ import annotations

from app.agents import Confirmation, Entry, Failed, Finished, Navigate, Routed, StepDone, TextDelta
from app.store import Store
from app.store.conversations import (
    VOICE_TURN,
    UsageEntry,
    UsageRecord,
    UsageSummary,
    VoiceSummary,
)
from app.text.nodes import El, find_all, text_content
from app.tools.registry import Link
from app.ui.assistant_state import PanelState, TurnView, countdown, destination, turns_of
from app.ui.assistant_view import (
    NOT_CONFIGURED,
    OFFLINE,
    badge_text,
    confirm_dialog,
    render_panel,
    render_turn,
    usage_view,
)

FOLDER = Link(kind="folder", id=3, folder_id=3, label="Cardiology")
WORD = Link(kind="word", id=7, folder_id=3, label="aorta")


def tagged(node: El, tag: str) -> list[El]:
    return find_all(node, lambda el: el.tag == tag)


def actions(node: El) -> list[str]:
    return [
        el.attrs["data-action"].removeprefix("ai-")
        for el in find_all(node, lambda el: "data-action" in el.attrs)
    ]


def architect_turn() -> PanelState:
    state = PanelState()
    state.start("Create a folder Cardiology and add 10 heart terms")
    for event in (
        Routed("architect", "Architect: 'create', 'folder', 'add'"),
        StepDone("CREATE_FOLDER", "Created folder Cardiology", "done", FOLDER),
        StepDone("ADD_WORD", "Could not add word: bad", "failed"),
        TextDelta("Created "),
        TextDelta("**Cardiology**."),
        Finished("architect", "Created **Cardiology**.", 12, "Architect: Create a folder"),
    ):
        state.apply(event)
    return state


def test_a_finished_turn_keeps_its_answer_steps_and_conversation() -> None:
    state = architect_turn()
    (turn,) = state.turns
    assert (turn.status, turn.agent, turn.text) == ("ok", "architect", "Created **Cardiology**.")
    assert [s.text for s in turn.steps] == ["Created folder Cardiology", "Could not add word: bad"]
    assert state.conversation_id == 12
    assert not state.running
    assert not turn.can_save
    assert not turn.can_retry  # the Architect's answers are not notes


def test_the_turn_renders_markdown_step_links_and_the_one_undo_hint() -> None:
    node = render_turn(architect_turn().turns[0], 0)
    assert [text_content(s) for s in tagged(node, "strong")] == ["Cardiology"]
    (link,) = tagged(node, "a")
    assert link.attrs["href"] == "#/folder/3"
    assert text_content(link) == "Created folder Cardiology"
    assert "Could not add word: bad" in text_content(node)
    assert "One Undo" in text_content(node)


def test_model_html_is_shown_as_text_never_as_markup() -> None:
    turn = TurnView("q", agent="scholar", text="<img src=x onerror=alert(1)><script>x</script>")
    node = render_turn(turn, 0)
    assert not find_all(node, lambda el: el.tag in ("img", "script"))
    assert "<script>" in text_content(node)


def test_a_stopped_turn_keeps_the_partial_text_marked_and_offers_retry() -> None:
    state = PanelState()
    state.start("explain aorta")
    state.apply(Routed("scholar", "Scholar"))
    state.apply(TextDelta("The aorta is"))
    state.apply(Failed("scholar", "stopped", "Stopped.", "", 4, False))
    turn = state.turns[0]
    assert (turn.status, turn.text) == ("stopped", "The aorta is")
    node = render_turn(turn, 0)
    assert "Stopped" in text_content(node)
    assert "The aorta is" in text_content(node)
    assert actions(node) == ["retry"]
    assert state.conversation_id == 4


def test_a_failure_is_an_alert_with_retry_and_a_scholar_answer_can_be_saved() -> None:
    failed = TurnView("q", agent="scholar")
    failed.apply(Failed("scholar", "server", "OpenAI had a problem on its side.", "", None, False))
    node = render_turn(failed, 2)
    (alert,) = find_all(node, lambda el: el.attrs.get("role") == "alert")
    assert text_content(alert) == "OpenAI had a problem on its side."
    assert actions(node) == ["retry"]
    ok = TurnView("q", agent="scholar")
    ok.apply(Finished("scholar", "An answer.", 1, None))
    assert actions(render_turn(ok, 0)) == ["save-note"]


def test_a_rate_limit_wait_shows_a_countdown_until_text_arrives() -> None:
    turn = TurnView("q")
    turn.waiting = countdown(6.6)
    assert "Retrying in 7 s…" in text_content(render_turn(turn, 0))
    turn.apply(TextDelta("Hi"))
    assert turn.waiting == ""
    assert countdown(0.2) == "Retrying in 1 s…"


def test_steps_undone_by_stop_are_no_longer_links() -> None:
    """Issue 25: a stopped turn's steps linked to folders the rollback had removed."""
    turn = TurnView(question="make Cardiology")
    turn.apply(StepDone("CREATE_FOLDER", "Created folder Cardiology", "done", FOLDER))
    assert len(tagged(render_turn(turn, 0), "a")) == 1
    turn.apply(Failed("architect", "stopped", "You stopped the answer.", "", None, True))
    shown = render_turn(turn, 0)
    assert tagged(shown, "a") == []
    assert "Created folder Cardiology (undone)" in text_content(shown)


def test_navigate_opens_the_item() -> None:
    assert destination(Navigate(WORD)) == "#/folder/3/word/7"
    assert destination(Navigate(FOLDER)) == "#/folder/3"
    note = Link(kind="note", id=9, folder_id=3, label="n")
    assert destination(Navigate(note)) == "#/folder/3"


def test_a_reopened_conversation_pairs_questions_with_answers() -> None:
    step = StepDone("CREATE_FOLDER", "Created folder X", "done", FOLDER)
    entries = [
        Entry("user", "architect", "make X", "ok", ()),
        Entry("assistant", "architect", "Made X.", "ok", (step,)),
        Entry("user", "scholar", "why", "ok", ()),
        Entry("assistant", "scholar", "Because", "stopped", ()),
    ]
    first, second = turns_of(entries)
    assert (first.question, first.text, first.steps) == ("make X", "Made X.", [step])
    assert (second.status, second.text, second.can_retry) == ("stopped", "Because", True)


def test_the_badge_says_who_answers_and_why() -> None:
    assert badge_text("Create a folder Birds", "auto").startswith("Architect: 'create'")
    assert badge_text("What does aorta mean?", "auto").startswith("Scholar")
    assert badge_text("Create a folder Birds", "scholar").startswith("Scholar")
    assert "Auto" in badge_text("", "auto")


def test_the_panel_says_when_it_cannot_answer() -> None:
    state = PanelState()
    offline = render_panel(state, configured=True, online=False, draft="")
    unset = render_panel(state, configured=False, online=True, draft="hello")
    text = " ".join(text_content(n) for n in offline)
    assert OFFLINE in text
    assert NOT_CONFIGURED in " ".join(text_content(n) for n in unset)
    sends = [
        el
        for n in unset
        if isinstance(n, El)
        for el in tagged(n, "button")
        if text_content(el) == "Send"
    ]
    assert sends
    assert "disabled" in sends[0].attrs


def test_a_running_turn_offers_stop_instead_of_send() -> None:
    state = PanelState()
    state.start("q")
    nodes = render_panel(state, configured=True, online=True, draft="")
    names = [a for n in nodes if isinstance(n, El) for a in actions(n)]
    assert "stop" in names
    assert state.running


def test_the_confirmation_lists_exactly_the_changes() -> None:
    dialog = confirm_dialog(
        Confirmation(
            title="The Architect wants to make this change:",
            changes=['Delete folder "Old" with 1 word'],
        )
    )
    (items,) = [el for el in tagged(dialog, "ul")]
    assert [text_content(li) for li in tagged(items, "li")] == ['Delete folder "Old" with 1 word']
    assert actions(dialog) == ["decline", "accept"]


def test_usage_shows_counts_success_rate_median_and_failures() -> None:
    store = Store.open()
    for outcome, ms in (("ok", 100), ("ok", 300), ("server", 900)):
        store.conversations.log_usage(
            UsageEntry(
                conversation_id=None,
                provider="openai",
                model="m",
                agent="scholar",
                tools=[],
                first_token_ms=50,
                total_ms=ms,
                outcome=outcome,
                detail="boom" if outcome != "ok" else "",
            )
        )
    text = text_content(usage_view(store.conversations.usage_summary()))
    assert "3" in text
    assert "2 (67%)" in text
    assert "300 ms" in text
    assert "scholar via openai (m): server error – boom" in text


def _voice_turn(outcome: str, stt: int | None, audio: int | None, total: int) -> UsageEntry:
    return UsageEntry(
        conversation_id=None,
        provider="gemini",
        model="m",
        agent=VOICE_TURN,
        tools=[],
        speech_to_text_ms=stt,
        first_token_ms=None if audio is None else 600,
        first_audio_ms=audio,
        total_ms=total,
        outcome=outcome,
    )


def rows(table: El) -> list[tuple[str, str]]:
    return [
        (text_content(tr.children[0]), text_content(tr.children[1])) for tr in tagged(table, "tr")
    ]


def voice_table(node: El) -> El | None:
    found = find_all(node, lambda el: el.attrs.get("aria-label") == "Voice turns")
    return found[0] if found else None


def test_usage_shows_voice_turns_with_their_success_rate_and_median_timings() -> None:
    store = Store.open()
    for entry in (
        _voice_turn("ok", 200, 1_100, 3_000),
        _voice_turn("ok", 300, 1_300, 4_000),
        _voice_turn("audio-capture", None, None, 0),
    ):
        store.conversations.log_usage(entry)
    view = usage_view(store.conversations.usage_summary())
    table = voice_table(view)
    assert table is not None
    assert rows(table) == [
        ("Turns", "3"),
        ("Succeeded", "2 (67%)"),
        ("Median speech-to-text", "250 ms"),
        ("Median first words", "600 ms"),
        ("Median first audio", "1.2 s"),
        ("Median total", "3.0 s"),
    ]
    assert "Voice" in [text_content(h) for h in tagged(view, "h3")]
    assert "No microphone" in text_content(view)


def test_voice_figures_use_thousands_separators_and_name_any_failure_in_words() -> None:
    failure = UsageRecord(**_voice_turn("some_new-kind", None, None, 0).model_dump(), created_at=1)
    voice = VoiceSummary(
        turns=12_345,
        succeeded=12_000,
        success_rate=12_000 / 12_345,
        median_speech_to_text_ms=None,
        median_first_token_ms=None,
        median_first_audio_ms=None,
        median_total_ms=1_234_567,
        recent_failures=[failure],
    )
    summary = UsageSummary(
        count=0,
        succeeded=0,
        success_rate=0.0,
        median_ms=None,
        median_first_token_ms=None,
        recent_failures=[],
        voice=voice,
    )
    view = usage_view(summary)
    table = voice_table(view)
    assert table is not None
    assert rows(table)[:3] == [
        ("Turns", "12,345"),
        ("Succeeded", "12,000 (97%)"),
        ("Median speech-to-text", "–"),
    ]
    assert ("Median total", "1,234.6 s") in rows(table)
    assert "Some new kind" in text_content(view)


def test_usage_has_no_voice_block_without_voice_turns() -> None:
    store = Store.open()
    store.conversations.log_usage(
        _voice_turn("ok", None, None, 100).model_copy(update={"agent": "scholar"})
    )
    view = usage_view(store.conversations.usage_summary())
    assert voice_table(view) is None
    assert "Voice" not in text_content(view)
