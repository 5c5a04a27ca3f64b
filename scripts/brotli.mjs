// Write a brotli copy of each file named (`<file>.br`), for hosts that serve pre-compressed
// files (nginx's brotli_static, Caddy's `precompressed`, GitLab Pages). Node's own zlib has the
// encoder, and Node is already needed by the build, so no package is added for it.
// Usage: node scripts/brotli.mjs FILE...  (scripts/dist.py calls it for the stale copies only:
// quality 11 costs about 25 s for each of the two big .wasm files, once per version of them.)
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

for (const file of process.argv.slice(2)) {
  const bytes = readFileSync(file);
  const packed = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  // Written aside and renamed, so an interrupted run never leaves a truncated copy to serve.
  writeFileSync(`${file}.br.tmp`, packed);
  renameSync(`${file}.br.tmp`, `${file}.br`);
}
