"""The benchmark's web server: the app's own static server, plus `/bench-data/` from a folder.

`/bench-data/` carries the generated database snapshots the bench seeds into IndexedDB, so
nothing generated is ever written into the repository. Run as a separate process so serving
files never competes with the bench's own Python for the GIL.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import posixpath
import urllib.parse
from pathlib import Path

from scripts.serve import ROOT, Handler

DATA_PREFIX = "/bench-data/"


class BenchHandler(Handler):
    data_dir: Path

    def translate_path(self, path: str) -> str:
        clean = posixpath.normpath(urllib.parse.unquote(urllib.parse.urlsplit(path).path))
        if clean.startswith(DATA_PREFIX):
            return str(self.data_dir / Path(clean).name)
        return super().translate_path(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--data", type=Path, required=True)
    args = parser.parse_args()
    handler = type("Bound", (BenchHandler,), {"data_dir": args.data})
    factory = functools.partial(handler, directory=str(ROOT))
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), factory) as server:
        server.quiet = True  # type: ignore[attr-defined]
        server.serve_forever()


if __name__ == "__main__":
    main()
