"""An incremental Server-Sent Events parser, as the WHATWG HTML standard describes it.

Both providers stream their answers as `text/event-stream`. Bytes arrive in chunks cut
anywhere: inside a UTF-8 sequence, between the CR and LF of a line end, in the middle of a
field. `SseParser.feed` takes each chunk as it comes and returns the events it completed;
nothing is dispatched until the blank line that ends an event, so a stream cut mid-event
never yields half an event.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

_LINE_END = re.compile(r"\r\n|\r|\n")
DONE = "[DONE]"  # OpenAI's end-of-stream marker, sent as the data of a last event


@dataclass(frozen=True)
class SseEvent:
    data: str
    event: str = "message"
    id: str = ""


class SseParser:
    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._skip_lf = False
        self._started = False
        self._data: list[str] = []
        self._event = ""
        self._last_id = ""

    @property
    def mid_event(self) -> bool:
        """True when an event has begun but its closing blank line has not arrived."""
        return bool(self._data or self._event or self._buffer)

    def feed(self, chunk: bytes) -> list[SseEvent]:
        text = self._decoder.decode(chunk)
        if not self._started and text:
            self._started = True
            text = text.removeprefix("\ufeff")
        self._buffer += text
        events: list[SseEvent] = []
        for line in self._complete_lines():
            event = self._take_line(line)
            if event is not None:
                events.append(event)
        return events

    def _complete_lines(self) -> list[str]:
        text = self._buffer
        if self._skip_lf and text:
            # The previous chunk ended in CR; a LF now is the second half of that CRLF.
            text = text.removeprefix("\n")
            self._skip_lf = False
        lines: list[str] = []
        start = 0
        for end in _LINE_END.finditer(text):
            lines.append(text[start : end.start()])
            start = end.end()
            self._skip_lf = end.group() == "\r" and start == len(text)
        self._buffer = text[start:]
        return lines

    def _take_line(self, line: str) -> SseEvent | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None  # a comment, often a keep-alive
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._last_id = value
        return None

    def _dispatch(self) -> SseEvent | None:
        if not self._data:
            self._event = ""
            return None
        event = SseEvent(
            data="\n".join(self._data), event=self._event or "message", id=self._last_id
        )
        self._data = []
        self._event = ""
        return event
