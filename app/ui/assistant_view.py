"""The assistant panel and its dialogs as safe element trees (app.text.nodes).

Answers are Markdown from a model: they go through app/text/markdown.py, never innerHTML.
Controls carry `data-action` names starting with `ai-`: app/browser/assistant.py registers
them as the page's commands, so they go through the page's one delegation and never reach the
collection's controller. Each turn has a stable id, so a streamed answer re-renders only
its own turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.agents import Confirmation, route
from app.agents.router import Override
from app.store.conversations import ConversationInfo, UsageSummary, VoiceSummary
from app.text.markdown import render_markdown
from app.text.nodes import Child, El, Node, h
from app.ui.assistant_state import AGENT_TITLES, PanelState, TurnView, link_route

OVERRIDES: tuple[tuple[Override, str], ...] = (
    ("auto", "Auto"),
    ("architect", "Architect"),
    ("scholar", "Scholar"),
)
OFFLINE = "AI is offline: you are not connected. Everything else keeps working."
NOT_CONFIGURED = "No AI provider is set up yet. Add your Gemini or OpenAI key (or a local server)."
SAVE_NEEDS_FOLDER = "Open a folder first: the answer is saved as a note in the open folder."


def badge_text(text: str, override: Override) -> str:
    """Who will answer, and why, for the badge above Send."""
    if not text.strip() and override == "auto":
        return "Auto: the Architect changes your collection, the Scholar explains"
    return route(text, override).reason


def render_panel(
    state: PanelState,
    *,
    configured: bool,
    online: bool,
    draft: str,
    conversations: Sequence[ConversationInfo] = (),
    usage: UsageSummary | None = None,
    voice: Node = "",
) -> tuple[Node, ...]:
    """Everything inside the panel's <aside>; `voice` is the talk controls."""
    return (
        _head(state),
        h("div", {"id": "ai-notice"}, notice(configured=configured, online=online)),
        conversations_view(conversations, state.conversation_id)
        if state.show_conversations
        else "",
        h(
            "div",
            {"id": "ai-log", "class": "ai-log", "role": "log", "aria-label": "Conversation"},
            [render_turn(turn, i) for i, turn in enumerate(state.turns)]
            or h(
                "p",
                {"class": "empty"},
                "Ask the Scholar about a word, or the Architect to "
                "build folders: “Create a folder Cardiology and add 10 heart terms”.",
            ),
        ),
        voice,
        composer(state, draft=draft, can_send=configured and online),
        usage_view(usage) if usage is not None and usage.count else "",
    )


def _head(state: PanelState) -> El:
    listing = "Hide conversations" if state.show_conversations else "Conversations"
    return h(
        "div",
        {"class": "ai-head"},
        h("h2", {"id": "assistant-title"}, "Assistant"),
        _button("New", "new-conversation", label="New conversation"),
        _button(
            listing,
            "toggle-conversations",
            expanded="true" if state.show_conversations else "false",
        ),
        _button("AI settings", "open-settings"),
        _button("×", "close-panel", label="Close assistant"),
    )


def _button(
    text: str,
    name: str,
    *,
    label: str | None = None,
    turn: int | None = None,
    css: str = "small-button",
    expanded: str | None = None,
) -> El:
    return h(
        "button",
        {
            "type": "button",
            "class": css,
            "data-action": f"ai-{name}",
            "data-id": turn,
            "aria-label": label,
            "aria-expanded": expanded,
        },
        text,
    )


def notice(*, configured: bool, online: bool) -> Node:
    if not online:
        return h("p", {"class": "ai-notice", "role": "status"}, OFFLINE)
    if not configured:
        return h(
            "div",
            {"class": "ai-notice"},
            h("p", None, NOT_CONFIGURED),
            _button("Open AI settings", "open-settings", css="primary"),
        )
    return ""


def conversations_view(conversations: Sequence[ConversationInfo], current: int | None) -> El:
    if not conversations:
        body: Node = h("p", {"class": "empty"}, "No saved conversations yet.")
    else:
        body = h(
            "ul",
            {"class": "ai-conversations", "aria-label": "Saved conversations"},
            (_conversation_row(c, current) for c in conversations),
        )
    return h("section", {"class": "ai-list", "aria-label": "Conversations"}, body)


def _conversation_row(info: ConversationInfo, current: int | None) -> El:
    title = info.title or "Untitled"
    return h(
        "li",
        {"aria-current": "true" if info.id == current else None},
        h(
            "button",
            {
                "type": "button",
                "class": "link-button",
                "data-action": "ai-reopen",
                "data-id": info.id,
            },
            title,
        ),
        h(
            "button",
            {
                "type": "button",
                "class": "small-button danger",
                "data-action": "ai-delete-conversation",
                "data-id": info.id,
                "aria-label": f"Delete conversation {title}",
            },
            "Delete",
        ),
    )


def render_turn(turn: TurnView, index: int) -> El:
    return h(
        "div",
        {"class": "ai-turn", "id": f"ai-turn-{index}", "data-status": turn.status},
        turn.question
        and h(
            "p",
            {"class": "ai-question"},
            h("span", {"class": "visually-hidden"}, "You: "),
            turn.question,
        ),
        h(
            "div",
            {"class": "ai-answer", "data-agent": turn.agent or None},
            h("p", {"class": "ai-agent"}, AGENT_TITLES.get(turn.agent, "Assistant")),
            render_markdown(turn.text) if turn.text else None,
            turn.status == "running"
            and not turn.text
            and not turn.waiting
            and h("p", {"class": "ai-thinking"}, "Thinking…"),
            steps_view(turn) if turn.steps else None,
            turn.waiting and h("p", {"class": "ai-waiting"}, turn.waiting),
            _outcome(turn),
            _turn_actions(turn, index),
        ),
    )


def steps_view(turn: TurnView) -> El:
    return h(
        "ul",
        {"class": "ai-steps", "aria-label": "Steps"},
        (
            h(
                "li",
                {"data-status": step.status},
                # A step undone with its turn names what no longer exists: no link, and said.
                f"{step.text} (undone)"
                if turn.rolled_back and step.status == "done"
                else h("a", {"href": link_route(step.link).to_hash()}, step.text)
                if step.link is not None and step.status in ("done", "read")
                else step.text,
            )
            for step in turn.steps
        ),
    )


def _outcome(turn: TurnView) -> Node | None:
    if turn.status == "stopped":
        return h("p", {"class": "ai-stopped"}, h("mark", None, "Stopped"), " ", turn.error)
    if turn.status == "failed":
        return h("p", {"class": "ai-error", "role": "alert"}, turn.error)
    if turn.status == "ok" and turn.undo_label:
        return h("p", {"class": "hint"}, "One Undo (Ctrl+Z) reverts everything this request did.")
    if turn.limited:
        return h("p", {"class": "hint"}, "The assistant stopped early after many steps.")
    return None


def _turn_actions(turn: TurnView, index: int) -> Node | None:
    buttons = []
    if turn.can_save:
        saved = "Saved to notes" if turn.saved_note else "Save to notes"
        buttons.append(_button(saved, "save-note", turn=index))
    if turn.can_retry and turn.question:
        buttons.append(_button("Retry", "retry", turn=index))
    return h("div", {"class": "ai-turn-actions"}, buttons) if buttons else None


def composer(state: PanelState, *, draft: str, can_send: bool) -> El:
    running = state.running
    return h(
        "form",
        {"class": "ai-compose", "data-action": "ai-send", "aria-label": "Ask the assistant"},
        h("label", {"for": "ai-input", "class": "visually-hidden"}, "Ask the assistant"),
        h(
            "textarea",
            {
                "id": "ai-input",
                "name": "text",
                "rows": 3,
                "placeholder": "Ask or instruct… (Enter sends, Shift+Enter for a new line)",
                "aria-describedby": "ai-badge",
                "data-input-action": "ai-badge",
            },
            draft,
        ),
        h(
            "div",
            {"class": "ai-compose-row"},
            h("span", {"id": "ai-badge", "class": "ai-badge"}, badge_text(draft, state.override)),
        ),
        h(
            "div",
            {"class": "ai-compose-row"},
            agent_toggle(state.override),
            _button("Stop", "stop", css="danger")
            if running
            else h(
                "button", {"type": "submit", "class": "primary", "disabled": not can_send}, "Send"
            ),
        ),
    )


def agent_toggle(selected: Override) -> El:
    return h(
        "div",
        {"class": "ai-toggle", "role": "radiogroup", "aria-label": "Who answers"},
        (
            h(
                "label",
                None,
                h(
                    "input",
                    {
                        "type": "radio",
                        "name": "override",
                        "value": value,
                        "checked": value == selected,
                        "data-input-action": "ai-override",
                    },
                ),
                " ",
                text,
            )
            for value, text in OVERRIDES
        ),
    )


def confirm_dialog(confirmation: Confirmation) -> El:
    return h(
        "div",
        {"class": "ai-confirm"},
        h("h2", {"id": "dialog-title"}, confirmation.title),
        h(
            "ul",
            {"class": "ai-changes", "aria-label": "What will change"},
            (h("li", None, change) for change in confirmation.changes),
        ),
        h("p", {"class": "hint"}, confirmation.note),
        h(
            "div",
            {"class": "form-actions"},
            h("button", {"type": "button", "data-action": "ai-decline"}, "Cancel"),
            h(
                "button",
                {"type": "button", "class": "primary danger", "data-action": "ai-accept"},
                "Confirm",
            ),
        ),
    )


def usage_view(summary: UsageSummary) -> El:
    """Counts, success rate, median latency and recent failures from the usage log, and the
    voice turns' timings when there were any."""
    facts = (
        ("Requests", f"{summary.count:,}"),
        ("Succeeded", _succeeded(summary.succeeded, summary.success_rate, summary.count)),
        ("Median time", _ms(summary.median_ms)),
        ("Median first words", _ms(summary.median_first_token_ms)),
    )
    return h(
        "details",
        {"class": "ai-usage"},
        h("summary", None, "Usage"),
        _facts_table(facts),
        _failures(
            "Recent failures",
            (
                f"{r.agent} via {r.provider} ({r.model}): {failure_words(r.outcome)}"
                + (f" – {r.detail}" if r.detail else "")
                for r in summary.recent_failures
            ),
        ),
        _voice_view(summary.voice) if summary.voice else None,
    )


def _voice_view(voice: VoiceSummary) -> Child:
    facts = (
        ("Turns", f"{voice.turns:,}"),
        ("Succeeded", _succeeded(voice.succeeded, voice.success_rate, voice.turns)),
        ("Median speech-to-text", _ms(voice.median_speech_to_text_ms)),
        ("Median first words", _ms(voice.median_first_token_ms)),
        ("Median first audio", _ms(voice.median_first_audio_ms)),
        ("Median total", _ms(voice.median_total_ms)),
    )
    return (
        h("h3", None, "Voice"),
        _facts_table(facts, "Voice turns"),
        _failures(
            "Recent voice failures",
            (failure_words(r.outcome).capitalize() for r in voice.recent_failures),
        ),
    )


def _facts_table(facts: Sequence[tuple[str, str]], label: str | None = None) -> El:
    return h(
        "table",
        {"class": "ai-usage-table", "aria-label": label},
        h(
            "tbody",
            None,
            (h("tr", None, h("th", {"scope": "row"}, k), h("td", None, v)) for k, v in facts),
        ),
    )


def _failures(title: str, lines: Iterable[str]) -> El | None:
    items = [h("li", None, line) for line in lines]
    return h("div", None, h("h3", None, title), h("ul", None, items)) if items else None


def _succeeded(succeeded: int, rate: float, count: int) -> str:
    return f"{succeeded:,} ({rate:.0%})" if count else f"{succeeded:,} (–)"


# Failure kinds in a few words: provider errors (app.llm.errors.ErrorKind), speech recognition
# errors (app.voice.problems) and speech synthesis errors (app.speech.outcome). The sentences
# the user saw at the time say what to do; this list only says what went wrong.
FAILURE_WORDS: dict[str, str] = {
    "bad_key": "key refused",
    "permission": "permission denied",
    "quota": "quota used up",
    "rate_limited": "too many requests",
    "server": "server error",
    "timeout": "timed out",
    "offline": "offline",
    "stream_cut": "answer cut off",
    "bad_request": "request refused",
    "bad_response": "unreadable answer",
    "stopped": "stopped",
    "daily_cap": "daily limit reached",
    "no-speech": "nothing heard",
    "aborted": "listening stopped",
    "audio-capture": "no microphone",
    "network": "speech service unreachable",
    "not-allowed": "blocked by the browser",
    "service-not-allowed": "speech service not allowed",
    "language-not-supported": "language not supported",
    "bad-grammar": "recognition could not start",
    "phrases-not-supported": "word hints not supported",
    "unsupported": "no speech recognition",
    "audio-busy": "sound output busy",
    "audio-hardware": "no speaker",
    "synthesis-unavailable": "speech engine unavailable",
    "language-unavailable": "voice cannot speak the language",
    "voice-unavailable": "voice no longer available",
    "text-too-long": "too long to speak",
}


def failure_words(kind: str) -> str:
    """A failure kind as words; a kind not listed here is still readable."""
    return FAILURE_WORDS.get(kind) or kind.replace("_", " ").replace("-", " ")


def _ms(value: int | None) -> str:
    if value is None:
        return "–"
    return f"{value} ms" if value < 1000 else f"{value / 1000:,.1f} s"
