"""The workspace tools the agents call: one registry of folder, word, note and item tools.

`TOOLS` holds them all (the Architect's set); `TOOLS.only("read")` is the Scholar's.
"""

from app.tools.folder_tools import FOLDER_TOOLS
from app.tools.item_tools import ITEM_TOOLS
from app.tools.note_tools import NOTE_TOOLS
from app.tools.registry import Registry
from app.tools.study_tools import STUDY_TOOLS
from app.tools.word_tools import WORD_TOOLS

TOOLS = Registry([*FOLDER_TOOLS, *WORD_TOOLS, *ITEM_TOOLS, *NOTE_TOOLS, *STUDY_TOOLS])

__all__ = ["TOOLS"]
