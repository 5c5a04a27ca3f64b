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
  errorBox.hidden = false;
  errorBox.textContent = "Lexical could not start: " + message +
    " Reload the page to try again; your saved words are not affected.";
  document.documentElement.dataset.bootError = "true";
}

window.addEventListener("py:ready", () => showStage(2));
window.addEventListener("error", (e) => showError(e.message || "a script failed to load."));
window.addEventListener("unhandledrejection", (e) => showError(String(e.reason && e.reason.message || e.reason)));
window.lexicalBoot = { showStage, showError };
