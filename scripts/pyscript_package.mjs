// Print PyScript's own Python package (the `pyscript` modules its bundle writes into Pyodide's
// file system at every start) as JSON: {"pyscript": {"__init__.py": "<source>", ...}}.
// Usage: node scripts/pyscript_package.mjs static/vendor/pyscript
// The bundle holds it as one object literal: found by its first key and evaluated alone, as a
// value in an empty sandbox. scripts/build.py compiles it; e2e/test_runtime_files.py checks
// that a start uses the result.
import { readFileSync, readdirSync } from "node:fs";
import vm from "node:vm";
const dir = process.argv[2];
const MARK = '{pyscript:{"__init__.py":';
const found = [];
for (const name of readdirSync(dir).filter((n) => n.endsWith(".js"))) {
  const text = readFileSync(`${dir}/${name}`, "utf8");
  const start = text.indexOf(MARK);
  if (start < 0) continue;
  let depth = 0, i = start, quote = null;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quote) { if (c === "\\") i++; else if (c === quote) quote = null; continue; }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) break;
  }
  found.push(vm.runInNewContext(`(${text.slice(start, i + 1)})`, {}, { timeout: 1000 }));
}
if (found.length !== 1) { console.error(`expected PyScript's package once, found it ${found.length} times`); process.exit(1); }
process.stdout.write(JSON.stringify(found[0]));
