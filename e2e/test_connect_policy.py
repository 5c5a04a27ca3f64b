"""The page reaches only this site, this computer and the AI server the user chose (decision
022): a request anywhere else is refused by the browser before it leaves; choosing a new
server allows it through one reload, and Test key and Save still do what was asked."""

from __future__ import annotations

import json

from playwright.sync_api import BrowserContext, Page, Route, expect

from e2e.conftest import BOOT_TIMEOUT_MS, READY, Guard, open_app, reload, screenshot
from e2e.lexical_ui import fill_compatible_server, toast

MODELS = "https://models.example"
ELSEWHERE = "https://collector.example/upload"
# A fetch from the page; resolves to how it ended and the CSP violation it caused, if any.
FETCH = """async (url) => {
  const blocked = new Promise((resolve) => {
    document.addEventListener("securitypolicyviolation",
      (e) => resolve(e.effectiveDirective + " " + e.blockedURI), { once: true });
    setTimeout(() => resolve(""), 2000);
  });
  let outcome;
  try { outcome = "status " + (await fetch(url, { method: "POST", body: "words" })).status; }
  catch (e) { outcome = "refused"; }
  return [outcome, await blocked];
}"""


def fetch_from_page(page: Page, url: str) -> list[str]:
    result: list[str] = page.evaluate(FETCH, url)
    return result


def serve_models(context: BrowserContext) -> list[str]:
    """Answer for the server at MODELS; the addresses it was asked for."""
    seen: list[str] = []

    def answer(route: Route) -> None:
        seen.append(route.request.url)
        route.fulfill(json={"object": "list", "data": [{"id": "tiny-1", "object": "model"}]})

    context.route(f"{MODELS}/**", answer)  # after the guard's, so tried first
    return seen


def test_nothing_saved_means_nowhere_but_this_site_and_this_computer(
    app: Page, guard: Guard
) -> None:
    assert fetch_from_page(app, ELSEWHERE) == ["refused", f"connect-src {ELSEWHERE}"]
    assert guard.outside == []  # the browser refused it: it never reached the network
    sources = app.evaluate("document.documentElement.dataset.connectSrc")
    assert sources == "'self' http://localhost:* http://127.0.0.1:*"


def test_no_page_load_logs_a_policy_error(context: BrowserContext, base_url: str) -> None:
    """Chromium refused the IPv6 source `http://[::1]:*` ("invalid source") on every load; a
    list saved by an older version may still hold an IPv6 origin, and is read as well."""
    logged: list[str] = []
    context.on("console", lambda message: logged.append(f"{message.type}: {message.text}"))
    stored = json.dumps(["http://[::1]:8080", MODELS])
    # In a try: init scripts also run in frames that may not touch storage.
    context.add_init_script(
        f"try {{ localStorage.setItem('lexical-connect', {json.dumps(stored)}); }} catch (e) {{}}"
    )
    page = open_app(context, base_url)
    reload(page)
    assert [line for line in logged if "Content Security Policy" in line] == []
    sources = page.evaluate("document.documentElement.dataset.connectSrc")
    assert sources == f"'self' http://localhost:* http://127.0.0.1:* {MODELS}"


def test_an_ipv6_server_is_refused_with_localhost_offered(app: Page) -> None:
    """A page's policy cannot name [::1] (decision 022): the dialog says so and offers the
    address that reaches the same server, instead of a reload and a refused request."""
    box = fill_compatible_server(app, "http://[::1]:11434/v1")
    box.get_by_role("button", name="Test key").click()
    error = box.locator("#ai-settings-error")
    expect(error).to_contain_text("Use http://localhost:11434/v1 instead")
    screenshot(app, "connect-ipv6-refused")
    assert app.evaluate("sessionStorage.length") == 0  # no reload was prepared


def test_a_new_server_is_allowed_through_one_reload_and_test_key_then_save_work(
    app: Page, context: BrowserContext, guard: Guard
) -> None:
    seen = serve_models(context)
    box = fill_compatible_server(app, f"{MODELS}/v1", "sk-typed-once")
    box.get_by_role("button", name="Test key").click()
    # The page reloads allowing the server, the dialog comes back and the test runs.
    app.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
    expect(box.locator("#ai-check")).to_contain_text("It works", timeout=BOOT_TIMEOUT_MS)
    expect(box.get_by_label("Base URL")).to_have_value(f"{MODELS}/v1")
    expect(box.get_by_label("API key")).to_have_value("")  # the key is never written back
    screenshot(app, "connect-test-key-after-reload")
    assert seen == [f"{MODELS}/v1/models"]
    box.get_by_role("button", name="Save").click()  # this load reaches it: no second reload
    expect(box).to_be_hidden()
    expect(toast(app)).to_contain_text("AI settings saved")
    assert fetch_from_page(app, ELSEWHERE) == ["refused", f"connect-src {ELSEWHERE}"]

    reload(app)  # the saved server stays allowed, and only it
    assert fetch_from_page(app, f"{MODELS}/v1/models") == ["status 200", ""]
    assert fetch_from_page(app, ELSEWHERE) == ["refused", f"connect-src {ELSEWHERE}"]
    stored = app.evaluate("localStorage.getItem('lexical-connect')")
    assert json.loads(stored) == [MODELS]
    assert guard.outside == []


STORAGE_WATCH = """
for (const area of ["localStorage", "sessionStorage"]) {
  const storage = window[area];
  for (let i = 0; i < storage.length; i++) {
    console.log(`${area} at start: ${storage.key(i)}=${storage.getItem(storage.key(i))}`);
  }
}
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  console.log(`written: ${key}=${value}`);
  return setItem.call(this, key, value);
};
"""


def test_saving_a_new_server_keeps_a_key_held_only_in_memory_across_the_reload(
    app: Page, context: BrowserContext
) -> None:
    # Issue 25: the key rode the reload in sessionStorage. Every write to storage, and what
    # storage holds as each page starts, is reported.
    written: list[str] = []
    app.on("console", lambda message: written.append(message.text))
    context.add_init_script(STORAGE_WATCH)
    seen = serve_models(context)
    box = fill_compatible_server(app, f"{MODELS}/v1", "sk-memory-only")
    box.get_by_label("Model").fill("tiny-1")
    box.get_by_role("button", name="Save").click()
    app.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
    expect(toast(app)).to_contain_text("AI settings saved", timeout=BOOT_TIMEOUT_MS)
    # Nothing of the reload is left in the tab, and the key is not in the page's storage.
    left = app.evaluate("JSON.stringify(Object.keys(sessionStorage))")
    assert json.loads(left) == []
    assert app.evaluate("localStorage.getItem('lexical-ai-key')") is None
    app.get_by_role("button", name="AI settings").first.click()
    expect(box.get_by_text("A key is saved")).to_be_visible()
    box.get_by_role("button", name="Test key").click()
    expect(box.locator("#ai-check")).to_contain_text("It works")
    assert seen == [f"{MODELS}/v1/models"]
    assert [line for line in written if "sk-memory-only" in line] == []
    assert app.evaluate("window.name") == ""
