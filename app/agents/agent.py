"""What distinguishes one agent from another: its prompt, its tools and whether it may write."""

from __future__ import annotations

from dataclasses import dataclass

from app.agents.router import Agent
from app.tools.registry import Registry


@dataclass(frozen=True)
class AgentSpec:
    name: Agent
    title: str  # "Architect", as the panel and Undo labels say it
    prompt: str
    tools: Registry
    writes: bool  # False: tools run while SQLite refuses every write
