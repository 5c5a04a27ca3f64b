// Judges regular expressions with recheck (npm `recheck`, pinned in package-lock.json) for
// scripts/check_patterns.py: reads [{source, flags}] as JSON on stdin and writes one result per
// pattern (status, complexity, attack string, hotspot) as JSON on stdout.
const { checkSync } = require("recheck");

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const results = JSON.parse(input).map(({ source, flags }) => {
    const found = checkSync(source, flags, { timeout: 20000 });
    return {
      status: found.status,
      complexity: found.complexity ? found.complexity.summary : "",
      checker: found.checker || "",
      attack: found.attack ? found.attack.string : "",
      hotspot: (found.hotspot || []).map((h) => source.slice(h.start, h.end)),
      error: found.error ? String(found.error.kind || found.error) : "",
    };
  });
  process.stdout.write(JSON.stringify(results));
});
