// Apply the saved (or system) colour theme before first paint, so the page never flashes.
(function () {
  var saved = null;
  try { saved = localStorage.getItem("lexical-theme"); } catch (e) { /* storage may be blocked */ }
  var dark = saved ? saved === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.dataset.theme = dark ? "dark" : "light";
})();
