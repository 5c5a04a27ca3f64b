"""The tool registry: what a tool is, what it returns, and the JSON schema the provider sees.

A tool has a name, a description written for the model, a pydantic parameter model, a kind and a
function over the `Workspace`. Kinds: "read" tools never write; "write" tools add or change
without loss; "destructive" tools may remove or overwrite, so they also have a `plan` that says
exactly what a call would change, for the confirmation dialog (app/agents/safety.py decides when
to ask). Arguments come from a model, so they are validated here with messages it can act on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from app.llm.messages import ToolSpec
from app.tools.workspace import Workspace

ToolKind = Literal["read", "write", "destructive"]
ItemKind = Literal["folder", "word", "note"]
# The part of JSON Schema that Gemini's function declarations and OpenAI's tools both accept.
# Not "default": "required" already says what may be left out, and every key costs tokens.
PORTABLE_KEYS = frozenset(
    {
        *("type", "description", "enum", "items", "properties", "required"),
        *("minItems", "maxItems", "minLength", "maxLength", "minimum", "maximum"),
    }
)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Params(BaseModel):
    """Base of every parameter model: unknown arguments are an error the model can fix."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Link(_Frozen):
    """Where the UI can take the user for a step: the item and the folder to open for it."""

    kind: ItemKind
    id: int
    folder_id: int
    label: str


class Outcome(_Frozen):
    """What a call did. `step` is the line the user reads ("Created folder Cardiology");
    `data` is what the model reads (collection content, so the loop labels it as data)."""

    step: str
    data: dict[str, Any] = {}
    link: Link | None = None
    navigate: bool = False  # the UI should open `link` (NAVIGATE_TO)


class Plan(_Frozen):
    """What a destructive call would change, worked out before it runs."""

    change: str  # one line for the dialog, e.g. 'Delete folder "Biology" with 3 subfolders'
    deletes: int = 0  # items removed
    overwrites: int = 0  # existing text replaced
    large: bool = False  # needs the user's yes whatever else this turn has done
    targets: tuple[str, ...] = ()  # the names of what it removes, as the user would say them


P = TypeVar("P", bound=Params)


@dataclass(frozen=True)
class Tool(Generic[P]):
    name: str
    description: str
    params: type[P]
    kind: ToolKind
    run: Callable[[Workspace, P], Outcome]
    plan: Callable[[Workspace, P], Plan | None] | None = None

    def parse(self, arguments: dict[str, Any]) -> P:
        """Validated arguments, or `BadArguments` with a message naming each problem."""
        try:
            return self.params.model_validate(arguments)
        except ValidationError as exc:
            raise BadArguments(self.name, describe_errors(exc)) from exc

    def invoke(self, ws: Workspace, params: P) -> Outcome:
        """Run the call; the item its step links to is what "it" means from now on."""
        outcome = self.run(ws, params)
        if outcome.link is not None:
            ws.refs.saw(outcome.link.kind, outcome.link.id)
        return outcome

    def spec(self) -> ToolSpec:
        return ToolSpec(
            name=self.name,
            description=self.description,
            parameters=portable_schema(self.params),
        )


AnyTool = Tool[Any]


class BadArguments(Exception):  # noqa: N818 - reads as a plain phrase at call sites
    def __init__(self, tool: str, problems: str) -> None:
        super().__init__(problems)
        self.tool = tool
        self.problems = problems


def describe_errors(exc: ValidationError) -> str:
    """E.g. "words[2].term: must not be empty; colour: unknown argument"."""
    parts = []
    for error in exc.errors():
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"])
        where = where.lstrip(".") or "arguments"
        ctx = error.get("ctx") or {}
        if error["type"] == "extra_forbidden":
            text = "unknown argument"
        elif error["type"] == "missing":
            text = "missing (required)"
        else:
            text = str(ctx["error"]) if "error" in ctx else error["msg"]
        parts.append(f"{where}: {text}")
    return "; ".join(parts)


def portable_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema without $ref, titles, defaults or null branches (an optional
    field is one the model may leave out), keeping only keys both providers understand."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})
    cleaned: dict[str, Any] = _clean(schema, defs)
    return cleaned


def _clean(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_clean(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _clean(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    node = dict(node)
    branches = [b for b in node.pop("anyOf", []) if b.get("type") != "null"]
    if branches:
        node = {**_clean(branches[0], defs), **node}
    cleaned = {
        k: _clean(v, defs) for k, v in node.items() if k in PORTABLE_KEYS and k != "properties"
    }
    if "properties" in node:  # keys there are argument names, not schema keywords
        cleaned["properties"] = {k: _clean(v, defs) for k, v in node["properties"].items()}
    return cleaned


class Registry:
    """Tools by name, in a stable order (the order the model sees them)."""

    def __init__(self, tools: Iterable[AnyTool], specs: dict[str, ToolSpec] | None = None) -> None:
        self._tools = {t.name: t for t in tools}
        # Shared with the registries made from this one: schema generation costs a few ms a turn.
        self._specs = {} if specs is None else specs

    def __contains__(self, name: str) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def get(self, name: str) -> AnyTool | None:
        return self._tools.get(name)

    def only(self, *kinds: ToolKind) -> Registry:
        return self.where(lambda tool: tool.kind in kinds)

    def where(self, keep: Callable[[AnyTool], bool]) -> Registry:
        return Registry((t for t in self._tools.values() if keep(t)), self._specs)

    def specs(self) -> tuple[ToolSpec, ...]:
        """What the model is offered; each tool's spec is built once."""
        for name, tool in self._tools.items():
            if name not in self._specs:
                self._specs[name] = tool.spec()
        return tuple(self._specs[name] for name in self._tools)
