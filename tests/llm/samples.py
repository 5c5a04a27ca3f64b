"""Conversations and tools shaped like the agents' own, for the wire-format tests."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.llm.messages import Message, ModelRequest, ToolCall, ToolResult, ToolSpec

KEY = "sk-test-5ecret-K3y-that-must-never-leak-0123456789"
GEMINI_KEY = "AIzaSyTest-5ecret-K3y-must-never-leak-0123"


class Meaning(BaseModel):
    text: str = Field(description="One meaning, in plain words")
    example: str | None = Field(default=None, description="An example sentence")


class AddWords(BaseModel):
    """Add words to a folder."""

    folder: str = Field(description="Folder name or path")
    words: list[str] = Field(min_length=1, max_length=50)
    meanings: list[Meaning] = Field(default_factory=list)
    language: str | None = Field(default=None, pattern=r"^[a-z]{2}$")
    colour: Literal["red", "green", "blue"] = "blue"
    position: int | None = Field(default=None, ge=0)


class NoArguments(BaseModel):
    pass


TOOLS = (
    ToolSpec(
        name="ADD_WORDS",
        description="Add words to a folder.",
        parameters=AddWords.model_json_schema(),
    ),
    ToolSpec(
        name="GET_FOLDER_STRUCTURE",
        description="The folder tree.",
        parameters=NoArguments.model_json_schema(),
    ),
)

CALL = ToolCall(
    id="call_abc", name="ADD_WORDS", arguments={"folder": "Cardiology", "words": ["aorta"]}
)

HISTORY = (
    Message(role="user", text="Create Cardiology and add aorta ❤️"),
    Message(role="assistant", text="", tool_calls=(CALL,)),
    Message(
        role="tool",
        tool_results=(ToolResult(call_id="call_abc", name="ADD_WORDS", content={"added": 1}),),
    ),
    Message(role="assistant", text="Added aorta to Cardiology."),
    Message(role="user", text="What does it mean?"),
)

REQUEST = ModelRequest(
    system="You are the Architect.",
    messages=HISTORY,
    tools=TOOLS,
    max_output_tokens=512,
    temperature=0.2,
)

PLAIN = ModelRequest(system="", messages=(Message(role="user", text="hi"),))
