#!/usr/bin/env python3
"""The trace viewer in a real browser: Debian's headless Chromium driven by selenium.

Starts the built `taptrace serve` on a free port with a temporary database, stores the
checkout scene of examples/ with a tap run, a long drag (a trace of more than 10,000 entries)
and a second version, then checks in a 1280x800 window:

  run        /?run=ID shows the responder chain, the actions and trace entries, and draws the
             canvas (every view of the scene, the first responder highlighted); selecting a
             trace entry highlights its receiver on the canvas
  tap        a click on the Buy button on the canvas shows the touch sequence, sends it, and
             the new run (stored, in the address bar) is shown
  large      a 10,000+ entry trace renders a bounded number of rows, and scrolling it to the
             end by keyboard moves nothing else on the page
  explain    the explain endpoint's reasons are listed and drawn on the canvas
  compare    /?compare=A,B lists the differences and the aligned traces
  history    the scene's runs newest first, and a replay of v1 against v2 listing changed outcomes
  export     the Chrome trace and text links download what the API serves

Any SEVERE browser console entry (a JavaScript error, a failed request, a CSP violation)
fails the run. A screenshot of each check is written to .ci/artifacts/browser/.

Usage: IntegrationTests/browser/test_viewer.py   (after `swift build`; TAPTRACE_BIN overrides the binary)
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("TAPTRACE_BIN", ROOT / ".build" / "debug" / "taptrace"))
ARTIFACTS = ROOT / ".ci" / "artifacts" / "browser"
CHROMIUM = os.environ.get("CHROMIUM_BIN", shutil.which("chromium") or "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", shutil.which("chromedriver") or "/usr/bin/chromedriver")
WIDTH, HEIGHT = 1280, 800
LARGE_TRACE = 10_000


class Server:
    """`taptrace serve --port 0` on a temporary database; the port comes from its first line.
    `arguments(directory)` gives more arguments, with files it may write in the directory."""

    def __init__(self, arguments=lambda directory: []):
        self.directory = tempfile.mkdtemp(prefix="taptrace-browser-")
        self.log = open(os.path.join(self.directory, "stderr.log"), "w+")
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", "0", "--db", os.path.join(self.directory, "viewer.sqlite")]
            + arguments(self.directory), stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"taptrace serve did not start: {line!r}")
        self.base = f"http://127.0.0.1:{match.group(1)}"

    def call(self, method, path, body=None, content_type="application/json"):
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": content_type} if data is not None else {})
        with urllib.request.urlopen(request, timeout=60) as response:
            payload = response.read()
            kind = response.headers.get("Content-Type", "")
            return json.loads(payload) if "json" in kind else payload.decode()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


class Browser:
    def __init__(self):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         f"--window-size={WIDTH},{HEIGHT}", "--force-device-scale-factor=1",
                         "--no-first-run", "--disable-extensions", "--disable-background-networking"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # Chromium leaves its singleton folder (org.chromium.Chromium.*) in $TMPDIR when
        # chromedriver ends it: one per run. It gets a folder of its own, removed in quit().
        self.directory = tempfile.mkdtemp(prefix="taptrace-chromium-")
        service = Service(CHROMEDRIVER, env={**os.environ, "TMPDIR": self.directory})
        try:
            self.driver = webdriver.Chrome(service=service, options=options)
        except BaseException:
            shutil.rmtree(self.directory, ignore_errors=True)
            raise
        # The viewport itself is 1280x800 (a window of that size has less room inside).
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        self.console = []

    def wait(self, condition, what, timeout=20):
        try:
            # A condition that reads an element the page has just re-rendered is asked again.
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition(d))
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what}") from None

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def finds(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def collect_console(self):
        entries = self.driver.get_log("browser")
        self.console += entries
        return entries

    def open(self, base, path):
        self.driver.get(base + path)
        self.wait(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), f"{path} to load")

    def screenshot(self, name):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))

    def quit(self):
        self.driver.quit()
        shutil.rmtree(self.directory, ignore_errors=True)


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


# ---------------------------------------------------------------- the canvas (shared by the viewer's tests)

def settle(browser):
    """Two animation frames: captions are laid out in one after the camera moves."""
    browser.driver.execute_async_script(
        "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()));")


def to_client(browser, p):
    """A scene point in the page's CSS pixels (through the camera's transform)."""
    return browser.js("""
      const m = document.querySelector('.scene-svg g.camera').getScreenCTM();
      const q = new DOMPoint(arguments[0], arguments[1]).matrixTransform(m);
      return [q.x, q.y];""", p[0], p[1])


def centre(view):
    """The centre of a geometry view's bounding box on screen."""
    xs = [q[0] for q in view["quad"]]
    ys = [q[1] for q in view["quad"]]
    return [(min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2]


# ---------------------------------------------------------------- the runner (shared by the viewer's tests)

def run_checks(title, checks, prefix="", fixtures=lambda server: {}, cleanup=lambda: None):
    """Starts the server and the browser, runs every check (each failure is reported, and
    screenshotted as `<prefix>failed-<name>`), and fails on any SEVERE console entry. A check
    may return a float (a time, printed) or a list of message fragments: the SEVERE entries it
    provoked on purpose. Returns the exit code."""
    for path in (BINARY, pathlib.Path(CHROMIUM), pathlib.Path(CHROMEDRIVER)):
        if not path.exists():
            print(f"{title}: {path} is missing (swift build; scripts/setup --test)", file=sys.stderr)
            return 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob(f"{prefix}*.png"):
        old.unlink()
    started = time.monotonic()
    server = Server()
    browser = None
    failures = 0
    try:
        stored = fixtures(server)
        browser = Browser()
        for check in checks:
            name = check.__name__.removeprefix("check_")
            try:
                extra = check(browser, server, stored)
                allowed = extra if isinstance(extra, list) else []
                errors = [e for e in browser.collect_console() if e["level"] == "SEVERE"
                          and not any(a in e["message"] for a in allowed)]
                if errors:
                    raise AssertionError("console errors: " + "; ".join(e["message"] for e in errors))
                print(f"ok   {name}" + (f" (shown in {extra:.2f} s)" if isinstance(extra, float) else ""))
            except Exception as error:  # noqa: BLE001 — every check runs, each failure is reported
                failures += 1
                browser.screenshot(f"{prefix}failed-{name}")
                print(f"FAIL {name}: {error}")
                if not isinstance(error, AssertionError):
                    traceback.print_exc()
                browser.collect_console()
    finally:
        if browser:
            browser.quit()
        server.stop()
        cleanup()
    print(f"{title}: {len(checks) - failures}/{len(checks)} checks passed in {time.monotonic() - started:.1f} s; "
          f"screenshots in {ARTIFACTS.relative_to(ROOT)}/{prefix}*.png")
    return 1 if failures else 0


# ---------------------------------------------------------------- fixtures

def example(name):
    return (ROOT / "examples" / name).read_bytes()


def store_fixtures(server):
    scene = server.call("POST", "/v1/scenes", example("checkout.scene.json"))
    sid = scene["id"]
    touches = json.loads(example("checkout.touches.json"))
    # A stored dispatch answers with the run ({id, …, request, result}); the checks read the
    # result's members and the run's id.
    def stored(answer):
        return {**answer["result"], "run": {"id": answer["id"]}}

    tap = stored(server.call("POST", f"/v1/scenes/{sid}/dispatch", {"touches": touches}))
    # A long drag over the scroll view: its pan recognizer changes state on every move, so each
    # step adds several entries; 2,200 steps give a trace well over 10,000 entries.
    drag = {"format": "taptrace/touches@1",
            "gestures": [{"drag": {"from": [200, 700], "to": [200, 60]}, "duration": 4.0, "steps": 2200, "t": 0}]}
    large = stored(server.call("POST", f"/v1/scenes/{sid}/dispatch", {"touches": drag}))
    expect(len(large["trace"]) >= LARGE_TRACE, f"the drag made only {len(large['trace'])} trace entries")
    server.call("PUT", f"/v1/scenes/{sid}", example("checkout-v2.scene.json"))
    geometry = server.call("GET", f"/v1/scenes/{sid}/geometry?version=1")
    overlay = server.call("POST", "/v1/scenes", example("overlay.scene.json"))["id"]
    return {"scene": sid, "tap": tap, "large": large, "geometry": geometry, "overlay": overlay}


# ---------------------------------------------------------------- checks

def check_run(browser, server, f):
    """/?run=ID: chain, actions, trace entries, canvas drawn; an entry's receiver highlighted."""
    run = f["tap"]
    browser.open(server.base, f"/?run={run['run']['id']}")
    browser.wait(lambda d: browser.finds("#run-chain li"), "the responder chain")
    chain = [li.find_element(By.CSS_SELECTOR, "button").text for li in browser.finds("#run-chain li")]
    expect(chain == [link["id"] for link in run["responderChain"]], f"chain shown {chain}")
    expect(browser.find("#run-first-responder").text == "buyButton", "first responder in the header")
    actions = browser.finds("#run-actions [role=option]")
    expect(len(actions) == len(run["actions"]) == 1 and "buyTapped:" in actions[0].text, "the action row")
    rows = browser.finds("#trace-list [role=option]")
    expect(len(rows) > 10, f"only {len(rows)} trace rows shown")
    expect(browser.find("#trace-count").text == f"{len(run['trace'])} entries", "the trace count")
    expect("W -> hitTest:withEvent:" in rows[0].text, f"first trace row: {rows[0].text!r}")
    lanes = browser.finds("#run-recognizers .lane")
    expect(len(lanes) == len(run["recognizers"]), "one timeline lane per recognizer")

    views = browser.finds("#canvas-frame svg.scene-svg g.view")
    expect(len(views) == len(f["geometry"]["views"]), f"{len(views)} views drawn")
    box = browser.find('g.view[data-id="buyButton"] > rect.box').rect
    expect(box["width"] > 50 and box["height"] > 15, f"buyButton drawn at {box}")
    expect("hl-first" in browser.find('g.view[data-id="buyButton"]').get_attribute("class"), "first responder highlighted")
    expect(len(browser.finds("g.view.hl-path")) == 5, "hit-test path W → checkoutRoot → scroll → card → buyButton")

    # Keyboard: focus the trace, move down to the first touchesBegan: of the card's tap
    # recognizer; a recognizer is drawn as the view it is attached to.
    index = next(i for i, e in enumerate(run["trace"])
                 if e["kind"] == "call" and e["receiver"]["id"] == "cardTap" and e["selector"].startswith("touchesBegan"))
    trace = browser.find("#trace-list")
    trace.click()
    trace.send_keys(Keys.HOME)
    for _ in range(index):
        trace.send_keys(Keys.ARROW_DOWN)
    selected = active_row(browser)
    expect(selected and "cardTap -> touchesBegan:withEvent:" in selected["text"], f"selected row {selected!r}")
    browser.wait(lambda d: "cardTap is highlighted on the canvas (as card)" in browser.find("#trace-detail").text,
                 "the entry's detail")
    expect([g.get_attribute("data-id") for g in browser.finds("g.view.hl-focus")] == ["card"], "receiver highlighted")
    f["small-layout"] = layout_snapshot(browser)
    browser.screenshot("01-run")


def check_tap(browser, server, f):
    """A click on the Buy button of the canvas: the touches shown, sent, the new run shown."""
    sid = f["scene"]
    before = server.call("GET", f"/v1/scenes/{sid}/runs?limit=1000")["items"]
    browser.open(server.base, f"/?scene={sid}&version=1")
    # A click inspects by default; in Touch mode it is a tap.
    browser.find("input[name=canvas-mode][value=touch]").click()
    target = browser.find('g.view[data-id="buyButton"] > rect.box')
    ActionChains(browser.driver).move_to_element(target).click().perform()
    browser.wait(lambda d: '"tap"' in browser.find("#touch-document").get_property("value"), "the touch sequence")
    touches = json.loads(browser.find("#touch-document").get_property("value"))
    x, y = touches["gestures"][0]["tap"]
    expect(40 <= x <= 160 and 310 <= y <= 354, f"tap at {(x, y)} is not on buyButton (40, 310, 120, 44)")
    expect(browser.find("#tab-touch").get_attribute("aria-selected") == "true", "the Touch panel shows the sequence")
    expect(browser.finds(".pending-overlay .touch-mark"), "the pending tap marked on the canvas")
    browser.screenshot("02-tap-preview")
    browser.find("#touch-send").click()
    browser.wait(lambda d: "run=" in d.current_url, "the new run's address")
    new_id = d_run = browser.driver.current_url.split("run=")[1]
    browser.wait(lambda d: browser.find("#run-heading").text.endswith(new_id), "the new run shown")
    after = server.call("GET", f"/v1/scenes/{sid}/runs?limit=1000")["items"]
    expect(len(after) == len(before) + 1 and after[0]["id"] == d_run, "the run was stored, newest first")
    expect(browser.find("#run-first-responder").text == "buyButton", "the tap hit the button")
    expect("buyTapped:" in browser.find("#run-actions").text, "the button's action was sent")
    browser.screenshot("03-tap-run")

    # Another scene from the sidebar replaces the canvas; Back brings the run back.
    browser.find("#tab-scenes").click()
    browser.find(f'#scene-list a[data-scene="{f["overlay"]}"]').click()
    browser.wait(lambda d: browser.finds('g.view[data-id="gradientOverlay"]'), "the overlay scene drawn")
    expect(len(browser.finds("g.view")) == 4 and not browser.finds('g.view[data-id="buyButton"]'), "only the overlay scene is drawn")
    expect(f"scene={f['overlay']}" in browser.driver.current_url, "the address names the scene")
    browser.driver.back()
    browser.wait(lambda d: browser.finds('g.view[data-id="buyButton"]') and browser.finds("#run-heading")
                 and browser.find("#run-heading").text.endswith(new_id), "the run again after Back")
    expect("hl-first" in browser.find('g.view[data-id="buyButton"]').get_attribute("class"), "its highlights restored")


def layout_snapshot(browser):
    return browser.js("""
      const r = (sel) => { const b = document.querySelector(sel).getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; };
      return {list: r('#trace-list'), detail: r('#trace-detail'), tabs: r('#tabs'), canvas: r('#canvas-frame'),
              panelScroll: document.getElementById('panel-run').scrollHeight,
              page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]};
    """)


def active_row(browser):
    """The trace list's selected row (aria-activedescendant), read in one script, or None."""
    return browser.js("""
      const list = document.getElementById('trace-list');
      const row = document.getElementById(list.getAttribute('aria-activedescendant') || '');
      if (!row) return null;
      const r = row.getBoundingClientRect(), l = list.getBoundingClientRect();
      return {posinset: row.getAttribute('aria-posinset'), text: row.innerText,
              visible: r.height > 0 && r.width > 0, bottom: r.bottom, listBottom: l.bottom};
    """)


def check_large(browser, server, f):
    """A 10,000+ entry trace: a bounded number of rows, and scrolling it moves nothing else."""
    run = f["large"]
    total = len(run["trace"])
    started = time.monotonic()
    browser.open(server.base, f"/?run={run['run']['id']}")
    browser.wait(lambda d: browser.find("#trace-count").text == f"{total} entries", "the large trace")
    shown_in = time.monotonic() - started
    browser.js("document.getElementById('trace-list').scrollIntoView({block: 'center'})")
    rows = browser.finds("#trace-list [role=option]")
    expect(0 < len(rows) < 120, f"{len(rows)} rows in the DOM for {total} entries (not virtualized?)")
    before = layout_snapshot(browser)
    expect(before["page"] == [WIDTH, HEIGHT], f"the page itself scrolls: {before['page']}")
    small = f.get("small-layout")
    if small:
        # The trace's box is the same for 46 entries and for 10,000: the size never jumps.
        expect(before["list"][2:] == small["list"][2:] and before["detail"][2:] == small["detail"][2:],
               f"the trace box changed size: {small['list']} → {before['list']}")

    trace = browser.find("#trace-list")
    trace.click()
    trace.send_keys(Keys.END)
    # The list is virtualized: its rows are replaced while it scrolls, so a row found by one
    # WebDriver call may be gone by the next (a stale element). Read the selected row in one
    # script, which runs between two renders.
    browser.wait(lambda d: (active_row(browser) or {}).get("posinset") == str(total), "the last entry selected")
    last = active_row(browser)
    expect(last["text"].startswith(str(run["trace"][-1]["seq"])), f"last row {last['text']!r}")
    expect(last["visible"] and last["bottom"] <= last["listBottom"] + 1, "the last row is in view")
    trace.send_keys(Keys.PAGE_UP)
    browser.js("const l = document.getElementById('trace-list'); l.scrollTop = l.scrollHeight / 2;")
    time.sleep(0.2)
    after = layout_snapshot(browser)
    # Positions read in one script too: the rows may be re-rendered between two calls.
    middle = [int(n) for n in browser.js(
        "return [...document.querySelectorAll('#trace-list [role=option]')].map(r => r.getAttribute('aria-posinset'));")]
    expect(0 < len(middle) < 120, f"{len(middle)} rows after scrolling")
    expect(before == after, f"the layout moved while the trace scrolled:\n{before}\n{after}")
    expect(min(middle) > total // 3, f"rows near the middle rendered, got {min(middle)}..{max(middle)}")
    lanes = browser.finds("#run-recognizers .lane")
    expect(lanes and "changed ×" in browser.find("#run-recognizers").text, "repeated states counted in the timeline")
    browser.screenshot("04-large-trace")
    return shown_in


def check_explain(browser, server, f):
    """Explain: target and point in, the reasons listed and drawn."""
    browser.open(server.base, f"/?scene={f['scene']}&version=1")
    browser.find("input[name=canvas-mode][value=explain]").click()
    browser.wait(lambda d: browser.find("#tab-explain").get_attribute("aria-selected") == "true", "the Explain panel")
    Select(browser.find("#explain-target")).select_by_value("buyButton")
    for field, value in (("#explain-x", "100"), ("#explain-y", "160")):
        browser.find(field).clear()
        browser.find(field).send_keys(value)
    browser.find("#explain-submit").click()
    browser.wait(lambda d: browser.finds("#explain-reasons li"), "the reasons")
    verdict = browser.find("#explain-verdict").text
    expect("buyButton is not the hit-test view" in verdict and "card" in verdict, f"verdict {verdict!r}")
    expect("H4" in browser.find("#explain-reasons").text, "the rule id of the reason")
    expect("hl-target" in browser.find('g.view[data-id="buyButton"]').get_attribute("class"), "the target on the canvas")
    expect("hl-hit" in browser.find('g.view[data-id="card"]').get_attribute("class"), "the hit-test view on the canvas")
    expect(browser.finds(".explain-overlay .explain-point"), "the point on the canvas")
    browser.screenshot("05-explain")


def check_compare(browser, server, f):
    a, b = f["tap"]["run"]["id"], f["large"]["run"]["id"]
    browser.open(server.base, f"/?compare={a},{b}")
    browser.wait(lambda d: browser.finds("#compare-verdict"), "the comparison")
    expect(browser.find("#compare-verdict").text == "The outcomes differ.", "verdict")
    fields = [row.find_element(By.TAG_NAME, "th").text for row in browser.finds("#compare-differences tbody tr")]
    expect("firstResponder" in fields and "actions" in fields, f"differences listed: {fields[:6]}")
    expect(browser.finds(".compare-column .differs"), "differences highlighted in the columns")
    expect(browser.finds("#compare-trace .op-inserted") or browser.finds("#compare-trace .op-removed"), "aligned trace rows")
    expect(not browser.find("#canvas-column").is_displayed(), "the comparison uses the full width")
    browser.screenshot("06-compare")


def check_history(browser, server, f):
    browser.open(server.base, f"/?scene={f['scene']}&version=1")
    browser.find("#tab-history").click()
    runs = server.call("GET", f"/v1/scenes/{f['scene']}/runs?limit=1000")["items"]
    browser.wait(lambda d: len(browser.finds("#history-list [data-run]")) == len(runs), "the run list")
    shown = [li.get_attribute("data-run") for li in browser.finds("#history-list [data-run]")]
    expect(shown == [r["id"] for r in runs], "runs newest first")
    Select(browser.find("#replay-from")).select_by_value("1")
    Select(browser.find("#replay-to")).select_by_value("2")
    browser.find("#replay-submit").click()
    browser.wait(lambda d: browser.finds("#replay-table tbody tr"), "the replay report", timeout=60)
    changed = browser.finds("#replay-table tbody tr.changed")
    expect(changed, "v2 moved the button: some outcomes changed")
    expect("firstResponder" in browser.find("#replay-output").text, "what changed is listed")
    browser.screenshot("07-history-replay")


def check_export(browser, server, f):
    run_id = f["tap"]["run"]["id"]
    browser.open(server.base, f"/?run={run_id}")
    chrome = browser.find("#export-chrome")
    text = browser.find("#export-text")
    expect(chrome.get_attribute("download") == f"{run_id}.chrome.json", "Chrome trace file name")
    trace = server.call("GET", chrome.get_attribute("href").replace(server.base, ""))
    expect(trace.get("traceEvents"), "the Chrome link serves trace events")
    rendered = server.call("GET", text.get_attribute("href").replace(server.base, ""))
    expect("buyButton -> touchesBegan:withEvent:" in rendered, "the text link serves the text rendering")
    # Keyboard: the tab list moves with arrow keys.
    browser.find("#tab-run").send_keys(Keys.ARROW_RIGHT)
    expect(browser.find("#tab-touch").get_attribute("aria-selected") == "true", "arrow keys move between tabs")
    expect(browser.driver.switch_to.active_element.get_attribute("id") == "tab-touch", "focus follows the tab")
    browser.screenshot("08-export-keyboard")


CHECKS = [check_run, check_tap, check_large, check_explain, check_compare, check_history, check_export]


def main():
    # The first of the viewer's tests: it starts from an empty screenshot folder.
    if ARTIFACTS.exists():
        shutil.rmtree(ARTIFACTS)
    return run_checks("test_viewer", CHECKS, fixtures=store_fixtures)


if __name__ == "__main__":
    sys.exit(main())
