"""The voice persona (app.voice.persona) is added after the agent's own prompt."""

from __future__ import annotations

from app.agents.prompts import ARCHITECT
from app.voice.persona import VOICE_PERSONA, voice_prompt


def test_the_persona_follows_the_agents_prompt_so_it_overrides_formatting() -> None:
    prompt = voice_prompt(ARCHITECT)
    assert prompt.startswith(ARCHITECT)
    assert prompt.endswith(VOICE_PERSONA)


def test_the_persona_asks_for_short_unformatted_speakable_answers() -> None:
    for must in ("75 words", "No Markdown", "numbers, dates", "offering"):
        assert must.lower() in VOICE_PERSONA.lower()
