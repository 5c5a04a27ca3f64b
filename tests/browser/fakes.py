"""Just enough of the browser for app/browser/ to run under CPython: fake `js`, `pyodide`,
`pyodide.ffi` and `pyodide_js` modules over a tiny DOM.

The DOM keeps what the browser layer reads and writes: attributes (and `dataset` over the
`data-*` ones), children, focus, listeners with capture and bubbling, and a small CSS matcher
(tags, #id, .class, [attr], [attr=value], :not(), :disabled and the descendant combinator).
As in Pyodide, JS `null` comes back as `jsnull`. tests/browser/conftest.py installs it all
before app.browser is imported and resets it before each test.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable, Iterable
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

Handler = Callable[[Any], Any]


class JsNull:
    def __repr__(self) -> str:
        return "jsnull"


jsnull = JsNull()


class JsException(Exception):
    pass


class NodeList(list[Any]):
    @property
    def length(self) -> int:
        return len(self)

    def item(self, index: int) -> Any:
        return self[index] if 0 <= index < len(self) else jsnull


class Event:
    def __init__(self, type_: str, **fields: Any) -> None:
        self.type = type_
        self.target: Any = None
        self.defaultPrevented = False
        self.propagationStopped = False
        self.isComposing = False
        self.key = ""
        self.ctrlKey = self.metaKey = self.shiftKey = self.altKey = False
        for name, value in fields.items():
            setattr(self, name, value)

    def preventDefault(self) -> None:
        self.defaultPrevented = True

    def stopPropagation(self) -> None:
        self.propagationStopped = True


class EventTarget:
    parentNode: Any = None

    def __init__(self) -> None:
        self.listeners: list[tuple[str, Handler, bool]] = []

    def addEventListener(self, type_: str, handler: Handler, capture: Any = False) -> None:
        self.listeners.append((type_, handler, bool(capture)))

    def _fire(self, event: Event, capture: bool) -> None:
        for type_, handler, on_capture in list(self.listeners):
            if type_ == event.type and on_capture == capture:
                handler(event)


class Node:
    parentNode: Any = None

    def remove(self) -> None:
        if self.parentNode is not None:
            self.parentNode.childNodes.remove(self)
            self.parentNode = None

    def replaceWith(self, node: Any) -> None:
        parent = self.parentNode
        index = parent.childNodes.index(self)
        self.remove()
        node.parentNode = parent
        parent.childNodes.insert(index, node)


class Text(Node):
    """A text node: no attributes and no `closest`, as event targets can be."""

    def __init__(self, text: str) -> None:
        self.textContent = text


class DataSet:
    """`element.dataset`: camelCase names over the element's `data-*` attributes."""

    def __init__(self, element: Element) -> None:
        object.__setattr__(self, "_element", element)

    @staticmethod
    def _attribute(name: str) -> str:
        return "data-" + re.sub(r"[A-Z]", lambda m: "-" + m.group().lower(), name)

    def __getattr__(self, name: str) -> Any:
        return self._element.attributes.get(self._attribute(name))

    def __setattr__(self, name: str, value: str) -> None:
        self._element.setAttribute(self._attribute(name), value)


class Element(EventTarget, Node):
    def __init__(self, tag: str, attrs: dict[str, str] | None = None, *children: Any) -> None:
        super().__init__()
        self.tagName = tag.upper()
        self.attributes: dict[str, str] = {}
        self.childNodes = NodeList()
        self.parentNode: Any = None
        self.value = ""
        self.hidden = False
        self.disabled = False
        self.open = False
        self.textContent = ""
        self.isContentEditable = False
        self.scrollTop = 0
        self.dataset = DataSet(self)
        self.namespaceURI = "http://www.w3.org/1999/xhtml"
        for name, value in (attrs or {}).items():
            self.setAttribute(name, value)
        for child in children:
            self.appendChild(Text(child) if isinstance(child, str) else child)

    @property
    def id(self) -> str:
        return self.attributes.get("id", "")

    @property
    def type(self) -> str:
        if self.tagName == "TEXTAREA":
            return "textarea"
        return self.attributes.get("type", "text" if self.tagName == "INPUT" else "")

    @property
    def firstChild(self) -> Any:
        return self.childNodes.item(0)

    @property
    def text(self) -> str:
        """All the text inside (what a person reads), not a DOM property."""
        return "".join(c.textContent if isinstance(c, Text) else c.text for c in self.childNodes)

    def setAttribute(self, name: str, value: Any) -> None:
        self.attributes[name] = str(value)

    def getAttribute(self, name: str) -> Any:
        return self.attributes.get(name, jsnull)

    def hasAttribute(self, name: str) -> bool:
        return name in self.attributes

    def removeAttribute(self, name: str) -> None:
        self.attributes.pop(name, None)

    def appendChild(self, child: Any) -> Any:
        if isinstance(child, Element) and child.tagName == "#FRAGMENT":
            for node in list(child.childNodes):
                self.appendChild(node)
            return child
        if child.parentNode is not None:
            child.parentNode.childNodes.remove(child)
        child.parentNode = self
        self.childNodes.append(child)
        return child

    def replaceChildren(self, *nodes: Any) -> None:
        for child in self.childNodes:
            child.parentNode = None
        self.childNodes.clear()
        for node in nodes:
            self.appendChild(node)

    def elements(self) -> Iterable[Element]:
        """Every element inside, in document order."""
        for child in self.childNodes:
            if isinstance(child, Element):
                yield child
                yield from child.elements()

    def querySelectorAll(self, selector: str) -> NodeList:
        return NodeList(e for e in self.elements() if matches(e, selector))

    def querySelector(self, selector: str) -> Any:
        return next(iter(self.querySelectorAll(selector)), jsnull)

    def closest(self, selector: str) -> Any:
        node: Any = self
        while isinstance(node, Element):
            if matches(node, selector):
                return node
            node = node.parentNode
        return jsnull

    def focus(self) -> None:
        document.activeElement = self

    def blur(self) -> None:
        document.activeElement = document.body

    def select(self) -> None:
        self.selected = True

    def close(self) -> None:
        self.open = False

    def scrollIntoView(self, _options: Any = None) -> None:
        self.scrolled_into_view = True


class Document(Element):
    def __init__(self) -> None:
        super().__init__("#document")
        self.documentElement = Element("html")
        self.body = Element("body")
        self.activeElement: Any = self.body
        self.appendChild(self.documentElement)
        self.documentElement.appendChild(self.body)

    def getElementById(self, element_id: str) -> Any:
        return self.querySelector(f"#{element_id}")

    def createElement(self, tag: str) -> Element:
        return Element(tag)

    def createElementNS(self, namespace: str, tag: str) -> Element:
        element = Element(tag)
        element.namespaceURI = namespace
        return element

    def createTextNode(self, text: str) -> Text:
        return Text(text)

    def createDocumentFragment(self) -> Element:
        return Element("#fragment")


# --- the page's own shell -----------------------------------------------------------------------

SHELL = Path(__file__).resolve().parents[2] / "index.html"
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _ShellReader(HTMLParser):
    def __init__(self, body: Element) -> None:
        super().__init__()
        self.open: list[Element] = []
        self.body = body

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self.open = [self.body]
        elif self.open:
            element = Element(tag, {name: value or "" for name, value in attrs})
            element.hidden = element.hasAttribute("hidden")
            element.disabled = element.hasAttribute("disabled")
            self.open[-1].appendChild(element)
            if tag not in VOID:
                self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        if self.open and tag not in VOID:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open and data.strip():
            self.open[-1].appendChild(Text(data))


def load_shell() -> Document:
    """The body of index.html, as the page starts before Python takes over."""
    _ShellReader(document.body).feed(SHELL.read_text())
    return document


# --- a small CSS matcher -----------------------------------------------------------------------

_TOKEN = re.compile(
    r"(?P<tag>^[a-zA-Z][a-zA-Z0-9]*)|#(?P<id>[\w-]+)|\.(?P<cls>[\w-]+)|:disabled(?P<disabled>)"
    r"|:not\((?P<not>[^)]*)\)|\[(?P<attr>[\w-]+)(?:=['\"]?(?P<value>[^'\"\]]*)['\"]?)?\]"
)


@cache
def _tokens(compound: str) -> list[re.Match[str]]:
    tokens = list(_TOKEN.finditer(compound))
    if "".join(t.group() for t in tokens) != compound:
        raise ValueError(f"the fake DOM cannot read the selector {compound!r}")
    return tokens


def _matches_compound(element: Element, compound: str) -> bool:
    return all(_matches_token(element, token) for token in _tokens(compound))


def _matches_token(element: Element, token: re.Match[str]) -> bool:
    tag, name, wanted = token.group("tag"), token.group("attr"), token.group("value")
    return (
        (tag is None or element.tagName == tag.upper())
        and (token.group("id") is None or element.id == token.group("id"))
        and (token.group("cls") is None or token.group("cls") in _classes(element))
        and (token.group("disabled") is None or element.disabled)
        and (token.group("not") is None or not _matches_compound(element, token["not"]))
        and (name is None or _has(element, name, wanted))
    )


def _has(element: Element, name: str, wanted: str | None) -> bool:
    return name in element.attributes and wanted in (None, element.attributes[name])


def _classes(element: Element) -> list[str]:
    return element.attributes.get("class", "").split()


def matches(element: Element, selector: str) -> bool:
    return any(_matches_chain(element, part.split()) for part in selector.split(","))


def _matches_chain(element: Element, compounds: list[str]) -> bool:
    if not _matches_compound(element, compounds[-1]):
        return False
    ancestor = element.parentNode
    for compound in reversed(compounds[:-1]):
        while isinstance(ancestor, Element) and not _matches_compound(ancestor, compound):
            ancestor = ancestor.parentNode
        if not isinstance(ancestor, Element):
            return False
        ancestor = ancestor.parentNode
    return True


# --- events, storage, tabs ---------------------------------------------------------------------


def dispatch(target: Any, event: Event) -> Event:
    """Deliver `event` as the browser does: capture from the window down, then bubble up."""
    event.target = target
    path: list[EventTarget] = []
    node = target
    while node is not None:
        if isinstance(node, EventTarget):
            path.append(node)
        node = node.parentNode
    if document in path:
        path.append(window)
    for current in reversed(path):
        current._fire(event, capture=True)
    for current in path:
        current._fire(event, capture=False)
    return event


class Storage:
    def __init__(self, blocked: bool = False) -> None:
        self.items: dict[str, str] = {}
        self.blocked = blocked

    def _check(self) -> None:
        if self.blocked:  # private mode or a policy: every call throws
            raise JsException("SecurityError: The operation is insecure.")

    def getItem(self, name: str) -> Any:
        self._check()
        return self.items.get(name, jsnull)

    def setItem(self, name: str, value: str) -> None:
        self._check()
        self.items[name] = str(value)

    def removeItem(self, name: str) -> None:
        self._check()
        self.items.pop(name, None)


class Location:
    """`location`: the hash, and how many times the page was told to reload."""

    def __init__(self) -> None:
        self.hash = ""
        self.reloads = 0

    def reload(self) -> None:
        self.reloads += 1


class Locks:
    """`navigator.locks`: a lock is held until `release` (its holder never lets go)."""

    def __init__(self) -> None:
        self.held: set[str] = set()
        self.queue: dict[str, list[Handler]] = {}

    def request(self, name: str, *args: Any) -> None:
        granted = args[-1]
        if name not in self.held:
            self.held.add(name)
            self.held_by = granted(SimpleNamespace(name=name))
        elif len(args) > 1 and args[0].ifAvailable:
            granted(jsnull)
        else:
            self.queue.setdefault(name, []).append(granted)

    def release(self, name: str) -> None:
        """The holding tab closed: the next in the queue gets the lock."""
        self.held.discard(name)
        waiting = self.queue.get(name, [])
        if waiting:
            self.request(name, waiting.pop(0))


_channels: list[BroadcastChannel] = []


class BroadcastChannel:
    """Messages reach the other channels of the same name (not the sender), as in the page."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.onmessage: Handler | None = None
        _channels.append(self)

    @classmethod
    def new(cls, name: str) -> BroadcastChannel:
        return cls(name)

    def postMessage(self, message: Any) -> None:
        for channel in _channels:
            if channel is not self and channel.name == self.name and channel.onmessage:
                channel.onmessage(SimpleNamespace(data=message))


class Performance:
    def __init__(self) -> None:
        self.measures: list[str] = []

    def now(self) -> float:
        return 0.0

    def measure(self, name: str, _options: Any) -> None:
        self.measures.append(name)

    def mark(self, name: str) -> None:
        self.measures.append(name)

    def clearMeasures(self) -> None:
        self.measures.clear()

    def clearMarks(self) -> None:
        pass


def to_js(obj: Any, *, dict_converter: Callable[[Iterable[Any]], Any] | None = None) -> Any:
    if dict_converter is not None and isinstance(obj, dict):
        return dict_converter(obj.items())
    return obj


def _from_entries(entries: Iterable[tuple[str, Any]]) -> SimpleNamespace:
    return SimpleNamespace(**dict(entries))


class Proxy:
    """What `create_proxy` gives: callable from "JS" until destroyed, as in Pyodide; the ones
    not destroyed yet are in `live_proxies`, so a test can see what a part leaks."""

    def __init__(self, fn: Handler) -> None:
        self.fn: Handler | None = fn
        live_proxies.append(self)

    def __call__(self, *args: Any) -> Any:
        if self.fn is None:
            raise JsException("Error: This borrowed proxy was automatically destroyed")
        return self.fn(*args)

    def destroy(self) -> None:
        self.fn = None
        live_proxies.remove(self)


live_proxies: list[Proxy] = []


class OnceCallable(Proxy):
    """What `create_once_callable` gives: destroyed by its one call, or by `destroy()`."""

    def __call__(self, *args: Any) -> Any:
        result = super().__call__(*args)
        self.destroy()
        return result


class Timers:
    """`setTimeout` and `clearTimeout` on the running asyncio loop; `pending` are the timers
    set and neither fired nor cleared yet."""

    def __init__(self) -> None:
        self.pending: dict[int, asyncio.TimerHandle] = {}
        self._callbacks: dict[int, Handler] = {}
        self._next = 0

    def set(self, callback: Handler, ms: float) -> int:
        self._next += 1
        key = self._next
        loop = asyncio.get_running_loop()
        self.pending[key] = loop.call_later(ms / 1000, self._fire, key, callback)
        self._callbacks[key] = callback
        return key

    def elapse(self) -> None:
        """Fire every pending timer now, as if its delay had passed, without real waiting."""
        for key, handle in list(self.pending.items()):
            handle.cancel()
            self._fire(key, self._callbacks[key])

    def _fire(self, key: int, callback: Handler) -> None:
        del self.pending[key], self._callbacks[key]
        callback()

    def clear(self, key: int) -> None:
        self._callbacks.pop(key, None)
        handle = self.pending.pop(key, None)
        if handle is not None:
            handle.cancel()


timers = Timers()


class Window(EventTarget):
    """The page's window: its events, and the tab's name (app/browser/key_handoff.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.name = ""


document = Document()
window = Window()
js = ModuleType("js")
ffi = ModuleType("pyodide.ffi")


def reset() -> Document:
    """A fresh page: an empty body, nothing stored, no listeners, the hash at home."""
    # Renewed in place: app.browser.dom holds on to the `document` it imported.
    document.__init__()
    window.__init__()
    _channels.clear()
    live_proxies.clear()
    timers.__init__()
    js.__dict__.update(
        setTimeout=timers.set,
        clearTimeout=timers.clear,
        document=document,
        window=window,
        localStorage=Storage(),
        sessionStorage=Storage(),
        location=Location(),
        navigator=SimpleNamespace(locks=Locks()),
        performance=Performance(),
        Array=SimpleNamespace(from_=list),
        Object=SimpleNamespace(fromEntries=_from_entries),
        Promise=SimpleNamespace(new=lambda executor: SimpleNamespace(executor=executor)),
        BroadcastChannel=BroadcastChannel,
    )
    return document


def install() -> None:
    """Put the fake modules where `import js` and `from pyodide.ffi import ...` find them."""
    ffi.__dict__.update(
        jsnull=jsnull,
        JsNull=JsNull,
        JsException=JsException,
        to_js=to_js,
        create_proxy=Proxy,
        create_once_callable=OnceCallable,
    )
    pyodide = ModuleType("pyodide")
    pyodide.__dict__["ffi"] = ffi
    sys.modules.update({"js": js, "pyodide": pyodide, "pyodide.ffi": ffi})
    sys.modules["pyodide_js"] = ModuleType("pyodide_js")
    reset()
