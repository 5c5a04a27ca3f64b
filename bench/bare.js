// The baseline `make bench` compares Lexical's startup with: the vendored Pyodide loading the
// packages named in ?packages= (the bench passes the list app/main.py loads), then data-ready.
import { loadPyodide } from "../static/vendor/pyodide/pyodide.mjs";

const packages = (new URLSearchParams(location.search).get("packages") || "")
  .split(",").filter(Boolean);
const pyodide = await loadPyodide({ indexURL: "../static/vendor/pyodide/" });
performance.mark("bare:runtime");  // for the bench's breakdown: runtime ready, packages next
await pyodide.loadPackage(packages, { checkIntegrity: true });
document.documentElement.dataset.ready = "true";
