#!/usr/bin/env python3
"""The viewer against a server that requires a bearer token (issue 34 item 7), in Debian's
headless Chromium driven by selenium.

Starts the built `taptrace serve --auth-token-file` on a free port and stores the checkout
scene with the token, then checks:

  prompt     the page loads without a token; its first /v1 call is refused (401) and a modal
             dialog with a labelled token field asks for one
  wrong      a refused token asks again, saying so
  accepted   the right token lists the stored scene; it is kept in sessionStorage
  reload     a reload in the same tab asks nothing and lists the scene again
  download   a run's text export, clicked, is fetched with the token (a plain link's request
             would carry none and be refused)

Browser console errors other than the 401s the test provokes fail the run. Screenshots go to
.ci/artifacts/browser/token-*.png.

Usage: IntegrationTests/browser/test_viewer_token.py   (after `swift build`; TAPTRACE_BIN overrides the binary)
"""
import json
import os
import pathlib
import sys
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from test_viewer import Browser, Server, example, expect  # noqa: E402

TOKEN = "viewer-token-31415"


class TokenServer(Server):
    """`taptrace serve --port 0 --auth-token-file F` on a temporary database."""

    def __init__(self):
        def token_file(directory):
            tokens = os.path.join(directory, "tokens")
            with open(tokens, "w") as file:
                file.write(TOKEN + "\n")
            return ["--auth-token-file", tokens]
        super().__init__(token_file)

    def store_scene(self):
        request = urllib.request.Request(self.base + "/v1/scenes", data=example("checkout.scene.json"), method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    def store_run(self, scene_id):
        request = urllib.request.Request(f"{self.base}/v1/scenes/{scene_id}/dispatch", data=b'{"touches":' + example("checkout.touches.json") + b"}",
                                         method="POST", headers={"Content-Type": "application/json",
                                                                 "Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    def log_lines(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read().splitlines()



def dialog_open(browser):
    return browser.js("const d = document.querySelector('dialog.token-dialog'); return !!(d && d.open);")


def enter(browser, token):
    field = browser.find("#token-dialog-input")
    field.clear()
    field.send_keys(token)
    browser.find("dialog.token-dialog button[type=submit]").click()


def scene_listed(browser, name):
    return any(name in item.text for item in browser.finds("#scene-list li"))


def main():
    server = TokenServer()
    browser = None
    try:
        scene = server.store_scene()
        name = scene["name"]
        browser = Browser()

        browser.driver.get(server.base + "/")
        browser.wait(lambda d: dialog_open(browser), "the token dialog")
        label = browser.find("label[for=token-dialog-input]")
        expect(label.text.strip() == "Token", f"the field's label: {label.text!r}")
        field = browser.find("#token-dialog-input")
        expect(field.get_attribute("type") == "password", "the token field hides what is typed")
        expect(browser.js("return document.activeElement.id") == "token-dialog-input", "the field has the focus")
        expect(not scene_listed(browser, name), "nothing is listed before the token")
        browser.screenshot("token-prompt")
        print("ok prompt")

        enter(browser, "not-the-token")
        browser.wait(lambda d: dialog_open(browser)
                     and "not accepted" in browser.find("#token-dialog-help").text, "the dialog to ask again")
        print("ok wrong")

        enter(browser, TOKEN)
        browser.wait(lambda d: scene_listed(browser, name), "the stored scene in the list")
        expect(not dialog_open(browser), "the dialog is closed")
        stored = browser.js("return sessionStorage.getItem('taptrace.token')")
        expect(stored == TOKEN, f"sessionStorage holds the token: {stored!r}")
        browser.screenshot("token-accepted")
        print("ok accepted")

        browser.driver.refresh()
        browser.wait(lambda d: scene_listed(browser, name), "the scene after a reload")
        expect(not dialog_open(browser), "no dialog after a reload")
        print("ok reload")

        run_id = server.store_run(scene["id"])["id"]
        browser.driver.get(f"{server.base}/?run={run_id}")
        link = browser.wait(lambda d: browser.finds("#export-text"), "the run's export links")[0]
        refused = f"GET /v1/runs/{run_id} 401"
        served = f"GET /v1/runs/{run_id} 200"
        before = sum(1 for line in server.log_lines() if line.startswith(served))
        link.click()
        browser.wait(lambda d: sum(1 for line in server.log_lines() if line.startswith(served)) > before,
                     "the export fetched with the token")
        expect(not any(line.startswith(refused) for line in server.log_lines()), "no export request was refused")
        expect(not browser.finds(".download-error"), "no download error is shown")
        print("ok download")

        severe = [entry for entry in browser.collect_console()
                  if entry["level"] == "SEVERE" and "401" not in entry["message"]]
        expect(not severe, f"browser console errors: {severe}")
        server.log.seek(0)
        expect(TOKEN not in server.log.read(), "the token is not in the server's log")
        return 0
    except Exception as error:  # noqa: BLE001 - report any failure as the test's
        print(f"FAIL {error}", file=sys.stderr)
        if browser:
            browser.screenshot("token-failure")
        return 1
    finally:
        if browser:
            browser.quit()
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
