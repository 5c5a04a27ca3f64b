// The worker static/fsrs-fit.js starts: one fit, single-threaded (fsrs-browser's thread pool
// needs cross-origin isolation, which a static host cannot be relied on to give).
//
// Message in:   {type: "fit", ratings, deltaTs, lengths} (Uint32Arrays, app/study/training.py)
// Messages out: {type: "fitted", parameters} (21 numbers) or {type: "failed", message}.

import init, { Fsrs } from "./vendor/fsrs-browser/fsrs_browser.js";

self.addEventListener("message", async ({ data }) => {
  if (data?.type !== "fit") return; // fsrs-browser's own helper listens here too
  try {
    await init({ module_or_path: new URL("./vendor/fsrs-browser/fsrs_browser_bg.wasm", import.meta.url) });
    const fsrs = new Fsrs();
    try {
      const fitted = fsrs.computeParameters(data.ratings, data.deltaTs, data.lengths, undefined, true);
      self.postMessage({ type: "fitted", parameters: Array.from(fitted) });
    } finally {
      fsrs.free();
    }
  } catch (error) {
    self.postMessage({ type: "failed", message: String(error?.message ?? error) });
  }
});
