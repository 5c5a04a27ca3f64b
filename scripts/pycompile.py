"""Compile Python sources ahead of time for the browser's Python (the vendored Pyodide), and
pack the compiled trees into deterministic zips (the wheels and app.zip that ship them).

Pyodide starts every page load with an empty in-memory file system, so each module imported at
startup is compiled from source again, every time: for pydantic that is about half of its
import time in the browser. Here the vendored Pyodide runs once under Node.js and writes
`__pycache__/*.cpython-314.pyc` next to the sources. They are "unchecked-hash" pycs, which
Python uses without comparing timestamps; the .py files stay, for tracebacks. If the running
Python ever differs (another magic number), it ignores the pycs and compiles as before.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "static" / "vendor" / "pyodide"
EPOCH = (2020, 1, 1, 0, 0, 0)  # fixed timestamps: the same files always give the same zip

# Each tree is mounted into Pyodide's file system and compiled with `shown_as` as the directory
# tracebacks name (where the files live in the browser). Files that do not compile on their own
# (app/main.py awaits at top level) are skipped: Python compiles those at run time as before.
_NODE_SCRIPT = """
const [indexURL, treesJson, beside, mode] = process.argv.slice(1);
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
const pyodide = await loadPyodide({ indexURL });
for (const [index, [host, shownAs]] of JSON.parse(treesJson).entries()) {
  const mount = `/compile/${index}`;
  pyodide.FS.mkdirTree(mount);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: host }, mount);
  pyodide.globals.set("mount", mount);
  pyodide.globals.set("shown_as", shownAs);
  pyodide.globals.set("beside", beside === "beside");
  pyodide.globals.set("mode", mode);
  pyodide.runPython(`
import compileall, py_compile
compileall.compile_dir(mount, ddir=shown_as, quiet=2, legacy=beside,
                       invalidation_mode=py_compile.PycInvalidationMode[mode])
`);
}
"""


def compile_trees(
    trees: list[tuple[Path, str]], *, beside_sources: bool = False, checked: bool = False
) -> None:
    """Write pycs into each (host directory, directory as the browser sees it): in
    `__pycache__/` for packages installed as files, or `x.pyc` beside `x.py` for a zip that is
    imported from directly (zipimport looks only there). `checked` pycs carry their source's
    hash and Python compiles the source instead whenever it differs: for sources that another
    program writes at run time, which could change without the pycs knowing."""
    node = shutil.which("node")
    if node is None:
        sys.exit("pycompile: Node.js is needed to compile Python ahead of time for the browser")
    if not (PYODIDE / "pyodide.mjs").exists():
        sys.exit("pycompile: run scripts/vendor.py first (Pyodide compiles the sources)")
    trees_json = json.dumps([[str(host.resolve()), shown_as] for host, shown_as in trees])
    subprocess.run(
        [
            *(node, "--input-type=module", "-e", _NODE_SCRIPT, f"{PYODIDE}/", trees_json),
            "beside" if beside_sources else "cached",
            "CHECKED_HASH" if checked else "UNCHECKED_HASH",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )


# Imports every module of the app's core (not app.browser or app.main, which need a page) with
# the packages it uses loaded, and writes the code each of its dataclasses compiles as it is
# made, one file per module (app/compiled_dataclasses.py reads them).
_DATACLASS_SCRIPT = """
const [indexURL, root, packagesJson, folder] = process.argv.slice(1);
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
const pyodide = await loadPyodide({ indexURL });
await pyodide.loadPackage(JSON.parse(packagesJson), { messageCallback: () => {} });
pyodide.FS.mkdirTree("/record");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/record");
pyodide.globals.set("folder", folder);
pyodide.runPython(`
import dataclasses, importlib, marshal, pathlib, sys
sys.path.insert(0, "/record")
from app.compiled_dataclasses import source_key
made = {}

def record(source, namespace, local, /):
    code = compile(source, "<string>", "exec")
    module = namespace.get("__name__", "")
    if module.split(".")[0] == "app":
        made.setdefault(module, {})[source_key(source)] = code
    exec(code, namespace, local)

dataclasses.exec = record
tree = pathlib.Path("/record/app")
for path in sorted(tree.rglob("*.py")):
    name = ".".join(path.relative_to("/record").with_suffix("").parts).removesuffix(".__init__")
    if name.split(".")[:2] not in (["app", "browser"], ["app", "main"]):
        importlib.import_module(name)
out = tree / folder
out.mkdir()
for module, codes in made.items():
    (out / f"{module}.marshal").write_bytes(marshal.dumps(codes))
`);
"""


def record_dataclass_methods(app: Path, packages: list[str], folder: str) -> None:
    """Write into `app/folder/` the code the dataclasses of the app's core compile as they are
    made, by the browser's Python, one `<module>.marshal` file each (the digest of each
    source, app.compiled_dataclasses.source_key, to its code)."""
    node = shutil.which("node") or sys.exit("pycompile: Node.js is needed")
    subprocess.run(
        [
            *(node, "--input-type=module", "-e", _DATACLASS_SCRIPT, f"{PYODIDE}/"),
            *(str(app.parent.resolve()), json.dumps(packages), folder),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def zip_tree(tree: Path, target: Path, *, names_from: Path) -> None:
    """Zip every file under `tree`, named relative to `names_from`, sorted, with fixed
    timestamps, so the archive's hash changes only when its contents do."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(p for p in tree.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(str(path.relative_to(names_from)), date_time=EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
