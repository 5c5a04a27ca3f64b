"""The Scholar: teaches in Markdown with read tools only, on a handle that refuses writes.

`save_answer` is for the panel's "Save to notes" button: the user (not the agent) keeps an
answer as a note of the open folder, an ordinary undoable command.
"""

from __future__ import annotations

from app.agents import prompts
from app.agents.agent import AgentSpec
from app.domain import FolderId, Note
from app.inputs import NewNote, parse_input
from app.store import Store
from app.tools import TOOLS
from app.tools.views import clip

SCHOLAR = AgentSpec(
    name="scholar",
    title="Scholar",
    prompt=prompts.SCHOLAR,
    tools=TOOLS.only("read"),
    writes=False,
)
TITLE_CHARS = 80


def save_answer(store: Store, folder_id: FolderId, answer: str, question: str = "") -> Note:
    """Keep `answer` (Markdown) as a note in `folder_id`, titled after the question."""
    title = clip(" ".join(question.split()), TITLE_CHARS) or "Scholar's answer"
    return store.add_note(
        parse_input(NewNote, {"folder_id": folder_id, "title": title, "body": answer})
    )
