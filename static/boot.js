// Startup progress and startup errors, shown before Python is running (and if it never does).
const stages = document.querySelectorAll(".boot-stages li");
const progress = document.getElementById("boot-progress");
const errorBox = document.getElementById("boot-error");

export function showStage(n) {
  performance.mark(`lexical:stage-${n}`);  // startup breakdown for DevTools and make bench
  progress.value = n;
  for (const li of stages) {
    const s = Number(li.dataset.stage);
    li.dataset.state = s < n ? "done" : s === n ? "active" : "";
  }
}

function showError(message) {
  if (document.documentElement.dataset.ready === "true") return;
  // The copy of the last screen (static/warm.js) must not look like a working app.
  for (const copy of document.querySelectorAll("[data-warm-copy]")) copy.remove();
  delete document.documentElement.dataset.warm;
  errorBox.hidden = false;
  errorBox.textContent = "Lexical could not start: " + message +
    " Reload the page to try again; your saved words are not affected.";
  document.documentElement.dataset.bootError = "true";
}

// Until Python runs nothing answers a click, so the header's buttons are off and the toolbar
// says it is busy; Python turns on its own buttons as it attaches them, these when ready.
const root = document.documentElement;
const toolbar = document.querySelector(".topbar .toolbar");
const waiting = [...toolbar.querySelectorAll("button:not(:disabled)")];
for (const button of waiting) button.disabled = true;
toolbar.setAttribute("aria-busy", "true");
new MutationObserver((_changes, observer) => {
  if (root.dataset.ready !== "true") return;
  observer.disconnect();
  for (const button of waiting) button.disabled = false;
  toolbar.removeAttribute("aria-busy");
  // Python's first render has replaced the copy of the last screen (static/warm.js); any part
  // it did not redraw must not stay on screen looking like the working app.
  for (const copy of document.querySelectorAll("[data-warm-copy]")) copy.remove();
  delete root.dataset.warm;
}).observe(root, { attributes: true, attributeFilter: ["data-ready"] });

// Once running, an error that means Python itself broke (its stack overflowed, or Pyodide
// stopped) may have cut a write short, and Python may never say so: the page stops showing
// "Saved", says what happened and takes no more edits until a reload.
const BROKEN = /Maximum call stack size exceeded|fatally failed|memory access out of bounds|fatal error/i;

function showBroken(message) {
  if (root.dataset.ready !== "true" || !BROKEN.test(message) || root.dataset.broken) return;
  root.dataset.broken = "true";
  const status = document.getElementById("save-status");
  status.dataset.state = "error";
  status.textContent = "Not saved";
  const banner = document.getElementById("banner");
  banner.dataset.kind = "error";
  banner.textContent = "Lexical stopped after an internal error, so your last change may not " +
    "have been saved. Reload the page to go on; everything saved before it is kept.";
  banner.hidden = false;
  document.querySelector(".layout").inert = true;
  toolbar.inert = true;
}

function failed(message) {
  showError(message);
  showBroken(message);
}

window.addEventListener("py:ready", () => showStage(2));
window.addEventListener("error", (e) => failed(e.message || "a script failed to load."));
window.addEventListener("unhandledrejection", (e) => failed(String(e.reason && e.reason.message || e.reason)));
window.lexicalBoot = { showStage, showError };
