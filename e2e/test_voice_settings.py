"""The Voice group of the AI settings dialog, as a user sees and saves it."""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page, expect

from e2e.accessibility import violations
from e2e.conftest import open_app, reload, screenshot
from e2e.lexical_ui import dialog


def test_voice_names_show_the_provider_defaults_and_a_chosen_voice_is_kept(
    context: BrowserContext, base_url: str
) -> None:
    app: Page = open_app(context, base_url)
    app.get_by_role("button", name="AI settings").first.click()
    box = dialog(app)
    box.get_by_label("Provider").select_option(label="OpenAI")
    group = box.get_by_role("group", name="Voice")
    expect(group).to_contain_text("only when your browser cannot recognise or speak a language")
    expect(group.get_by_label("Speech to text")).to_have_value("gpt-4o-mini-transcribe")
    expect(group.get_by_label("Text to speech")).to_have_value("gpt-4o-mini-tts")
    group.get_by_label("Voice").fill("nova")
    screenshot(app, "ai-settings-voice")
    assert not violations(app, "AI settings with voice")
    box.get_by_label("API key").fill("sk-voice-test-0123456789")
    box.get_by_role("button", name="Save").click()
    expect(box).to_be_hidden()
    reload(app)
    app.get_by_role("button", name="AI settings").first.click()
    expect(dialog(app).get_by_role("group", name="Voice").get_by_label("Voice")).to_have_value(
        "nova"
    )
