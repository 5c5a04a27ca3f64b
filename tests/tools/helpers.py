"""Helpers for the tool tests: a workspace over a fresh store and a one-line tool call."""

from __future__ import annotations

from typing import Any

from app.domain import FolderId
from app.inputs import NewFolder, NewWord
from app.tools import TOOLS
from app.tools.registry import Outcome, Plan
from app.tools.workspace import Workspace
from tests.store.helpers import make_store


def workspace() -> Workspace:
    return Workspace(make_store())


def call(ws: Workspace, tool_name: str, **arguments: Any) -> Outcome:
    tool = TOOLS.get(tool_name)
    assert tool is not None
    return tool.invoke(ws, tool.parse(arguments))


def plan(ws: Workspace, tool_name: str, **arguments: Any) -> Plan | None:
    tool = TOOLS.get(tool_name)
    assert tool is not None
    assert tool.plan is not None
    return tool.plan(ws, tool.parse(arguments))


def folder(ws: Workspace, name: str, parent: FolderId | None = None) -> FolderId:
    return ws.store.create_folder(NewFolder(name=name, parent_id=parent)).id


def words(ws: Workspace, folder_id: FolderId, *terms: str) -> None:
    for term in terms:
        ws.store.add_word(NewWord(folder_id=folder_id, term=term, meanings=[f"{term} meaning"]))
