#!/usr/bin/env python3
"""Keys, shakes and remote control in the viewer (issue 35, contract §2.1), in a real browser
(Debian's headless Chromium, selenium), started like test_viewer.py, in a 1280x800 window.

The scene: an editor whose title field (a UITextField) is the first responder at t = 0
(`app.focusedResponder`), inside a view controller with the key command ⌘S → saveDocument:,
which it implements.

  keys        from the Touch panel, ⌘S (the key field and the ⌘ box) and then "a" are sent; each
              is a began and an ended press 0.08 s apart, after what the panel's document holds.
              The run view says "Key responder: titleField → titleField", has a row per press
              (P1 ⌘s performs the key command, P2 "a" is typed into the title field and handled
              by UIApplication) with its path up the chain, and lists saveDocument: sent via
              the key command; "why?" beside P1 answers with its key command
  shake       the Shake button adds a shake (began, ended 0.4 s later); its rows show who got
              it and who handled it, as the result says
  remote      the remote-control select and Send add a togglePlayPause event, shown likewise
  bad-key     a key the field cannot read is reported beside the form; nothing is sent
  touch-only  a run of touches alone shows no key section (its result has no such members)

Until the server reads these records and keys (the decoders of issue 35), storing the scene is
a 422: the test then fails at once, saying so. Any SEVERE console entry fails a check.
Screenshots go to .ci/artifacts/browser/keys-*.png.

Usage: IntegrationTests/browser/test_viewer_keys.py   (after `swift build`; TAPTRACE_BIN overrides)
"""
import json
import pathlib
import sys
import urllib.error

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from test_viewer import expect, run_checks  # noqa: E402

PREFIX = "keys-"
CHAIN = ["titleField", "editorRoot", "editorVC", "W", "UIApplication", "AppDelegate"]

SCENE = {
    "format": "taptrace/scene@1",
    "name": "Editor with a hardware keyboard",
    "app": {
        "delegate": {"id": "AppDelegate", "class": "AppDelegate", "isResponder": True},
        "focusedResponder": "titleField",
    },
    "windows": [{
        "id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "isKey": True,
        "subviews": [{
            "id": "editorRoot", "class": "UIView", "frame": [0, 0, 390, 844],
            "viewController": {
                "id": "editorVC", "class": "EditorViewController",
                "implements": ["saveDocument:"],
                "keyCommands": [{"input": "s", "modifierFlags": ["command"], "action": "saveDocument:"}],
            },
            "subviews": [{"id": "titleField", "class": "UITextField", "label": "Title", "frame": [20, 100, 350, 44]}],
        }],
    }],
}


class NotSupported(Exception):
    """The server under test does not read the records of contract §2.1 yet."""


def store_fixtures(server):
    try:
        scene = server.call("POST", "/v1/scenes", SCENE)
    except urllib.error.HTTPError as error:
        problem = error.read().decode(errors="replace")
        if error.code == 422:
            raise NotSupported("the server refuses a scene with keyCommands (422): this build has no decoders "
                               f"for issue 35's keys yet. Problem: {problem[:400]}") from None
        raise
    sid = scene["id"]
    # A tap on the title field: a touch-only run, whose result must look as before.
    tap = server.call("POST", f"/v1/scenes/{sid}/dispatch", {"touches": {"gestures": [{"tap": [100, 120], "t": 0}]}})
    expect("keyResponder" not in tap["result"], "a touch-only result has no keyResponder")
    return {"scene": sid, "tap": tap}


# ---------------------------------------------------------------- helpers

def open_touch_panel(browser, server, f, fresh=False):
    if fresh:
        browser.open(server.base, f"/?scene={f['scene']}")
    browser.find("#tab-touch").click()
    browser.wait(lambda d: browser.find("#tab-touch").get_attribute("aria-selected") == "true"
                 and browser.find("#touch-send-key").is_enabled(), "the Touch panel with its key form")


def send_and_wait(browser, button):
    """Clicks `button` and waits for the run it stores to be shown; returns the run's id."""
    before = browser.driver.current_url
    browser.find(button).click()

    def shown(d):
        url = d.current_url
        if url == before or "run=" not in url:
            error = browser.finds("#touch-message .error, #touch-message .problem")
            if error:
                raise AssertionError(f"the panel reports: {browser.find('#touch-message').text[:600]}")
            return False
        run_id = url.split("run=")[1]
        return run_id if browser.finds("#run-heading") and browser.find("#run-heading").text.endswith(run_id) else False
    return browser.wait(shown, f"the run sent by {button}", timeout=30)


def sent_document(browser):
    return json.loads(browser.find("#touch-document").get_property("value"))


def press_row(browser, press_id):
    rows = browser.finds(f'#run-presses tbody tr[data-press="{press_id}"]')
    expect(len(rows) == 1, f"one row for {press_id}, found {len(rows)}")
    cells = rows[0].find_elements(By.CSS_SELECTOR, "th, td")
    return {"id": cells[0].text, "key": cells[1].text, "responder": cells[2].text, "path": path_of(cells[3]),
            "outcome": cells[4].text}


def path_of(cell):
    """The path cell as [(id, state)], state one of handled, delivered, not-reached."""
    return [(li.find_element(By.CSS_SELECTOR, "button").text, li.get_attribute("class"))
            for li in cell.find_elements(By.CSS_SELECTOR, "ol.event-path > li")]


def expected_path(entry):
    delivered = entry["delivered"]
    order = delivered + [r for r in entry["chain"] if r not in delivered]
    return [(r, "handled" if r == entry["handledBy"] else "delivered" if r in delivered else "not-reached") for r in order]


# ---------------------------------------------------------------- checks

def check_keys(browser, server, f):
    """⌘S, then "a", from the Touch panel: the key responder, the press rows and the action."""
    open_touch_panel(browser, server, f, fresh=True)
    browser.find("#touch-key").clear()
    browser.find("#touch-key").send_keys("s")
    browser.find("#touch-mod-command").click()
    expect(Select(browser.find("#touch-press-type")).first_selected_option.get_attribute("value") == "keyboard",
           "a keyboard key by default")
    browser.screenshot(f"{PREFIX}01-key-form")
    first = send_and_wait(browser, "#touch-send-key")
    run = server.call("GET", f"/v1/runs/{first}")
    events = run["request"]["touches"]["events"]
    key = {"characters": "s", "charactersIgnoringModifiers": "s", "keyCode": "keyboardS", "modifierFlags": ["command"]}
    expect([(e["t"], e["presses"][0]["phase"]) for e in events] == [(0, "began"), (0.08, "ended")],
           f"⌘S is pressed at 0 and released 0.08 s later: {events}")
    expect(all(e["presses"][0] == {"id": "P1", "phase": e["presses"][0]["phase"], "type": "keyboard", "key": key} for e in events),
           f"the press carries UIKit's key for ⌘S: {events[0]['presses'][0]}")
    result = run["result"]
    expect(result["keyResponder"] == {"initial": "titleField", "final": "titleField"}, f"keyResponder {result['keyResponder']}")
    p1 = result["presses"][0]
    expect(p1["keyCommand"] and p1["chain"] == CHAIN, f"P1 performs the key command: {p1}")
    expect(any(a["action"] == "saveDocument:" and a["via"] == "keyCommand" for a in result["actions"]),
           f"saveDocument: sent via the key command: {result['actions']}")
    browser.wait(lambda d: browser.finds("#run-key-responder"), "the key responder line")
    expect(browser.find("#run-key-responder").text == "Key responder: titleField → titleField",
           f"the key responder line: {browser.find('#run-key-responder').text!r}")
    row = press_row(browser, "P1")
    expect(row["key"] == "⌘s" and row["responder"] == "titleField", f"P1's row {row}")
    expect(f"key command {p1['keyCommand']}" in row["outcome"], f"P1's key command shown: {row['outcome']!r}")
    expect(row["path"] == expected_path(p1), f"P1's path {row['path']} (result: {p1})")
    actions = browser.find("#run-actions").text
    expect("saveDocument:" in actions and "via keyCommand" in actions, f"the action list: {actions!r}")

    # "a" after ⌘S: the panel's document still holds P1, the new press follows it.
    open_touch_panel(browser, server, f)
    browser.find("#touch-key").clear()
    browser.find("#touch-key").send_keys("a")
    browser.find("#touch-mod-command").click()
    expect(not browser.find("#touch-mod-command").is_selected(), "⌘ unchecked")
    second = send_and_wait(browser, "#touch-send-key")
    expect(second != first, "a second run")
    run = server.call("GET", f"/v1/runs/{second}")
    events = run["request"]["touches"]["events"]
    expect([(e["t"], e["presses"][0]["id"], e["presses"][0]["phase"]) for e in events]
           == [(0, "P1", "began"), (0.08, "P1", "ended"), (0.58, "P2", "began"), (0.66, "P2", "ended")],
           f"P2 follows P1: {[(e['t'], e['presses'][0]['id']) for e in events]}")
    expect(events[2]["presses"][0]["key"] == {"characters": "a", "charactersIgnoringModifiers": "a",
                                               "keyCode": "keyboardA", "modifierFlags": []}, "UIKit's key for a")
    result = run["result"]
    p2 = next(p for p in result["presses"] if p["id"] == "P2")
    expect(p2["textInput"] == "titleField" and p2["handledBy"] == "UIApplication" and not p2["keyCommand"],
           f"P2 is typed into the title field at UIApplication (KC1): {p2}")
    browser.wait(lambda d: len(browser.finds("#run-presses tbody tr")) == 2, "two press rows")
    row = press_row(browser, "P2")
    expect(row["key"] == '"a"', f"P2's key {row['key']!r}")
    expect("typed into titleField" in row["outcome"] and "handled by UIApplication" in row["outcome"], f"P2's outcome {row['outcome']!r}")
    expect(row["path"] == expected_path(p2), f"P2's path {row['path']} (result: {p2})")
    expect(("UIApplication", "handled") in row["path"], f"UIApplication marked as the handler: {row['path']}")
    expect(press_row(browser, "P1")["key"] == "⌘s", "P1 is still ⌘s")
    # "why?" beside P1 asks the why API about the press; the answer names its key command.
    browser.find('#run-presses tr[data-press="P1"] .why-button').click()
    browser.wait(lambda d: browser.finds("#why-answer-text"), "the answer about P1")
    expect("P1" in browser.find("#why-question").text and p1["keyCommand"] in browser.find("#why-answer-text").text,
           f"the answer about P1: {browser.find('#why-answer').text[:300]!r}")
    browser.js("document.getElementById('run-key-responder').scrollIntoView()")
    browser.screenshot(f"{PREFIX}02-keys-run")


def check_shake(browser, server, f):
    """The Shake button: a began and an ended motion; the rows show the result's deliveries."""
    open_touch_panel(browser, server, f, fresh=True)
    run_id = send_and_wait(browser, "#touch-shake")
    run = server.call("GET", f"/v1/runs/{run_id}")
    motions = [e["motion"] for e in run["request"]["touches"]["events"] if "motion" in e]
    expect(motions == [{"subtype": "shake", "phase": "began"}, {"subtype": "shake", "phase": "ended"}], f"the shake records {motions}")
    times = [e["t"] for e in run["request"]["touches"]["events"] if "motion" in e]
    expect(round(times[1] - times[0], 3) == 0.4, f"the shake lasts 0.4 s: {times}")
    result = run["result"]
    expect(len(result["motions"]) == 2, f"two motion entries {result['motions']}")
    rows = browser.finds("#run-motions tbody tr")
    expect(len(rows) == 2, f"{len(rows)} shake rows")
    for row, motion in zip(rows, result["motions"]):
        cells = row.find_elements(By.TAG_NAME, "td")
        expect(cells[1].text == f"shake {motion['phase']}", f"the event cell {cells[1].text!r}")
        expect(cells[2].text.startswith(motion["responder"] or "none"), f"the responder cell {cells[2].text!r}")
        expect(path_of(cells[3]) == expected_path(motion), f"the path {path_of(cells[3])} (result: {motion})")
        handled = f"handled by {motion['handledBy']}" if motion["handledBy"] else "not handled"
        expect(cells[4].text == handled, f"the outcome {cells[4].text!r}, expected {handled!r}")
    browser.js("document.getElementById('run-motions').scrollIntoView()")
    browser.screenshot(f"{PREFIX}03-shake-run")


def check_remote(browser, server, f):
    """Remote control: togglePlayPause sent; its row shows the result's delivery."""
    open_touch_panel(browser, server, f)
    Select(browser.find("#touch-remote")).select_by_value("togglePlayPause")
    run_id = send_and_wait(browser, "#touch-send-remote")
    result = server.call("GET", f"/v1/runs/{run_id}")["result"]
    expect([r["subtype"] for r in result["remoteControls"]] == ["togglePlayPause"], f"remoteControls {result['remoteControls']}")
    rows = browser.finds("#run-remote-controls tbody tr")
    expect(len(rows) == 1, f"{len(rows)} remote-control rows")
    cells = rows[0].find_elements(By.TAG_NAME, "td")
    entry = result["remoteControls"][0]
    expect(cells[1].text == "togglePlayPause", f"the event cell {cells[1].text!r}")
    if not entry.get("dropped"):
        expect(path_of(cells[3]) == expected_path(entry), f"the path {path_of(cells[3])} (result: {entry})")
    # The shake of the previous check was still in the document: it is sent again, before this.
    expect(len(browser.finds("#run-motions tbody tr")) == 2, "the shake sent again with it")
    browser.screenshot(f"{PREFIX}04-remote-run")


def check_bad_key(browser, server, f):
    """A key the field cannot read: said beside the form, nothing sent."""
    open_touch_panel(browser, server, f, fresh=True)
    runs = len(server.call("GET", f"/v1/scenes/{f['scene']}/runs?limit=1000")["items"])
    browser.find("#touch-key").clear()
    browser.find("#touch-key").send_keys("Hyper")
    browser.find("#touch-send-key").click()
    browser.wait(lambda d: browser.finds("#touch-key-error"), "the key error")
    expect('"Hyper" is not a key' in browser.find("#touch-key-error").text, f"the error {browser.find('#touch-key-error').text!r}")
    expect(len(server.call("GET", f"/v1/scenes/{f['scene']}/runs?limit=1000")["items"]) == runs, "nothing was sent")
    expect(browser.driver.switch_to.active_element.get_attribute("id") == "touch-key", "the key field has the focus")


def check_touch_only(browser, server, f):
    """A run of touches alone: no key section."""
    browser.open(server.base, f"/?run={f['tap']['id']}")
    browser.wait(lambda d: browser.finds("#run-chain li"), "the responder chain")
    expect(not browser.finds(".run-events") and not browser.finds("#run-key-responder"), "no key section for touches")
    expect(browser.find("#run-first-responder").text == "titleField", "the tap hit the title field")


CHECKS = [check_keys, check_shake, check_remote, check_bad_key, check_touch_only]


def main():
    try:
        return run_checks("test_viewer_keys", CHECKS, prefix=PREFIX, fixtures=store_fixtures)
    except NotSupported as error:
        print(f"FAIL test_viewer_keys: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
