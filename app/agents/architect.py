"""The Architect: changes the collection through every tool; one request is one Undo step."""

from __future__ import annotations

from app.agents import prompts
from app.agents.agent import AgentSpec
from app.tools import TOOLS

ARCHITECT = AgentSpec(
    name="architect", title="Architect", prompt=prompts.ARCHITECT, tools=TOOLS, writes=True
)
