#!/usr/bin/env python3
"""Pixels, pictures, the audit, what-if and why in the viewer, in a real browser (Debian's
headless Chromium, selenium), started like test_viewer.py, in a 1280x800 window:

  screenshot  a PNG made here (the checkout screen at 2x, its card and Buy button painted) is
              attached from the sidebar and drawn under the boxes, scaled to the screen: the
              page's pixels at the button's centre are the button's colour; the opacity slider
              (a labelled range) fades it; replaced and removed; a dump imported with an image
              beside it gets it on the version the import stores
  audit       the Audit toggle marks the unreachable control, the partly reachable one and the
              small target the audit endpoint reports, with the reason on hover and on keyboard
              focus; Enter on a badge selects its view
  compare     two runs of one tap on two versions drawn side by side and overlaid: the tap, each
              run's hit-test view and first responder, the view that moved; the aligned traces
              grow with the window (checked at 2560x1440 too)
  whatif      the inspector's userInteractionEnabled toggle stores a new version through PATCH
              and runs the open run's touches on it: the compare opens; a frame edit with staged
              touches does the same without a run
  why         "why?" beside a recognizer shows the why API's answer with links into the trace;
              one of its suggested changes becomes a what-if version whose run does what the
              service predicted

Any SEVERE console entry fails a check. Screenshots go to .ci/artifacts/browser/whatif-*.png.

Usage: IntegrationTests/browser/test_viewer_whatif.py   (after `swift build`; TAPTRACE_BIN overrides)
"""
import json
import pathlib
import struct
import sys
import tempfile
import urllib.parse
import zlib

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from test_viewer import HEIGHT, WIDTH, centre, example, expect, run_checks, settle, to_client  # noqa: E402

PREFIX = "whatif-"
SCALE = 2
SCREEN = (390, 844)
BACKGROUND, CARD, BUTTON, REPLACED = (235, 235, 245), (0, 150, 0), (230, 0, 0), (0, 0, 220)


# ---------------------------------------------------------------- images

def png(width, height, background, rects=()):
    """An RGB PNG: `background` with `rects` ((x, y, w, h), colour) painted in order."""
    rows = []
    base = bytes(background) * width
    for y in range(height):
        row = bytearray(base)
        for (rx, ry, rw, rh), colour in rects:
            if ry <= y < ry + rh:
                row[rx * 3:(rx + rw) * 3] = bytes(colour) * rw
        rows.append(b"\x00" + bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 6)) + chunk(b"IEND", b"")


def decode_png(data):
    """(width, height, rows of RGB(A) bytes, bytes per pixel) of an 8-bit, non-interlaced PNG
    (Chromium's screenshots): enough to read the pixels the page shows."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = previous[i], previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(line)
        previous = line
    return width, height, rows, bpp


def pixel(browser, xy):
    """The colour the page shows at page pixel xy."""
    width, height, rows, bpp = decode_png(browser.driver.get_screenshot_as_png())
    x, y = int(round(xy[0])), int(round(xy[1]))
    return tuple(rows[y][x * bpp:x * bpp + 3])


def checkout_png(geometry, colour=BUTTON):
    """The checkout screen at SCALE: the card and the Buy button painted where the geometry puts them."""
    def box(id):
        v = next(v for v in geometry["views"] if v["id"] == id)
        xs, ys = [q[0] for q in v["quad"]], [q[1] for q in v["quad"]]
        return (int(min(xs) * SCALE), int(min(ys) * SCALE), int((max(xs) - min(xs)) * SCALE), int((max(ys) - min(ys)) * SCALE))
    return png(SCREEN[0] * SCALE, SCREEN[1] * SCALE, BACKGROUND, [(box("card"), CARD), (box("buyButton"), colour)])


# ---------------------------------------------------------------- helpers

def box_of(browser, element):
    return browser.js("const b = arguments[0].getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom];", element)


def open_page(browser, server, path, ready_css):
    browser.open(server.base, path)
    browser.wait(lambda d: browser.finds(ready_css), f"{path} shown")
    settle(browser)


def select_in_outline(browser, id):
    browser.find("#tab-outline").click()
    search = browser.find("#outline-search")
    search.clear()
    search.send_keys(id)
    browser.wait(lambda d: f"“{id}”" in browser.find("#outline-count").text, f"the search for {id}")
    search.send_keys(Keys.ENTER)
    browser.wait(lambda d: browser.finds("#inspector-title") and browser.find("#inspector-title").text == id, f"{id} in the inspector")


UPLOADS = []


def upload(data, suffix=".png"):
    """A file for an <input type=file> (the browser reads it from disk); removed at the end."""
    handle = tempfile.NamedTemporaryFile(prefix="taptrace-viewer-", suffix=suffix, delete=False)
    handle.write(data)
    handle.close()
    UPLOADS.append(pathlib.Path(handle.name))
    return handle.name


def compared(browser):
    """The two run ids of the /?compare=A,B address shown."""
    query = urllib.parse.parse_qs(urllib.parse.urlparse(browser.driver.current_url).query)
    return query["compare"][0].split(",")


def latest(server, sid):
    return server.call("GET", f"/v1/scenes/{sid}")


def find_view(node, id):
    if node["id"] == id:
        return node
    for child in node.get("subviews", []):
        found = find_view(child, id)
        if found:
            return found
    return None


def audit_scene():
    """A control covered by a banner (unreachable), one half under it (partly reachable), a
    30 x 30 pt close button (a small target) and one that is fine."""
    def button(id, frame, label):
        return {"id": id, "class": "UIButton", "label": label, "frame": frame,
                "targets": [{"events": ["touchUpInside"], "target": "shopVC", "action": f"{id}Tapped:"}]}
    return {"format": "taptrace/scene@1", "name": "Audit: covered, half covered, small", "windows": [
        {"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "isKey": True, "subviews": [
            {"id": "root", "class": "UIView", "frame": [0, 0, 390, 844],
             "viewController": {"id": "shopVC", "class": "ShopViewController",
                                "implements": ["payTapped:", "halfTapped:", "closeTapped:", "okTapped:"]},
             "subviews": [
                 button("pay", [40, 200, 140, 50], "Pay"),
                 button("half", [200, 240, 150, 60], "Half"),
                 button("close", [340, 60, 30, 30], "×"),
                 button("ok", [40, 600, 310, 50], "OK"),
                 {"id": "banner", "class": "UIView", "frame": [0, 180, 390, 100]},
             ]}]}]}


# ---------------------------------------------------------------- checks

def check_screenshot(browser, server, f):
    """A screenshot attached from the sidebar, drawn under the boxes at the screen's size."""
    sid = server.call("POST", "/v1/scenes", example("checkout.scene.json"))["id"]
    f["checkout"] = sid
    geometry = server.call("GET", f"/v1/scenes/{sid}/geometry")
    f["geometry"] = geometry
    image = upload(checkout_png(geometry))
    open_page(browser, server, f"/?scene={sid}", "svg.scene-svg g.view")
    browser.find("#tab-scenes").click()
    section = browser.find("#screenshot-section")
    expect(section.is_displayed() and "None" in browser.find("#screenshot-summary").text, "the version has no screenshot yet")
    expect(not browser.find("#screenshot-control").is_displayed(), "no opacity slider without a screenshot")
    browser.find("#screenshot-file").send_keys(image)
    browser.find("#screenshot-attach").click()
    browser.wait(lambda d: browser.finds(".layer-screenshot image.screenshot"), "the screenshot drawn")
    stored = latest(server, sid)["screenshot"]
    expect(stored["width"] == SCREEN[0] * SCALE and stored["height"] == SCREEN[1] * SCALE, f"stored {stored}")
    settle(browser)

    # The image covers the screen rectangle exactly: pixels scaled to points.
    picture = browser.find(".layer-screenshot image.screenshot")
    attrs = [float(picture.get_attribute(a)) for a in ("x", "y", "width", "height")]
    expect(attrs == [float(x) for x in geometry["screen"]], f"image placed at {attrs}, screen {geometry['screen']}")
    expect(picture.get_attribute("data-sha256") == stored["sha256"], "the image drawn is the one stored")
    expect(picture.get_attribute("href").startswith("data:image/png;base64,"), "read through the API, shown as data")
    screen_box = box_of(browser, browser.find("svg.scene-svg rect.screen"))
    image_box = box_of(browser, picture)
    expect(all(abs(a - b) < 1 for a, b in zip(screen_box, image_box)), f"image {image_box} vs screen {screen_box}")
    # What the page shows: the button's colour at the button's centre, the card's beside it.
    buy = next(v for v in geometry["views"] if v["id"] == "buyButton")
    at_button = to_client(browser, centre(buy))

    def shows(colour_test):
        r, g, b = pixel(browser, at_button)
        return colour_test(r, g, b)
    # The image is decoded after it is placed: the page shows it within a few frames.
    browser.wait(lambda d: shows(lambda r, g, b: r > g + 80 and r > b + 80),
                 f"the Buy button's colour at its centre (the page shows {pixel(browser, at_button)})")
    card_point = to_client(browser, [300, 250])
    r, g, b = pixel(browser, card_point)
    expect(g > r + 50 and g > b + 50, f"inside the card the page shows {(r, g, b)}")
    # The boxes stay on top: the button's box is drawn over the image.
    top = browser.js("const e = document.elementFromPoint(arguments[0], arguments[1]); return e && e.closest('g.view') && e.closest('g.view').dataset.id;",
                     *to_client(browser, centre(buy)))
    expect(top == "buyButton", f"the element over the button's centre is {top!r}")

    # The opacity slider: a labelled range that fades the layer, by keyboard.
    slider = browser.find("input[type=range]#screenshot-opacity")
    expect(browser.find("label[for=screenshot-opacity]").text == "Screenshot", "the slider's label")
    before = float(browser.find(".layer-screenshot").get_attribute("opacity"))
    browser.js("arguments[0].focus()", slider)
    for _ in range(4):
        slider.send_keys(Keys.ARROW_LEFT)
    after = float(browser.find(".layer-screenshot").get_attribute("opacity"))
    expect(abs(before - after - 0.2) < 1e-6, f"opacity {before} → {after}")
    expect(not browser.find("#screenshot-info").is_displayed(), "an image of the screen's shape needs no note")
    expect("drawn on the 390 × 844 pt screen (2 px a point)" in browser.js("return document.getElementById('screenshot-info').textContent"),
           "the slider's description says the scale")
    expect(slider.get_attribute("aria-valuetext") == f"{round(after * 100)}% opaque", "the slider says its value")
    expect("screenshot" in browser.find("#version-list").text, "the version list says v1 has a screenshot")
    thumb = browser.js("const i = document.querySelector('#screenshot-summary img'); return i && [i.naturalWidth, i.naturalHeight];")
    expect(thumb == [SCREEN[0] * SCALE, SCREEN[1] * SCALE], f"the sidebar's thumbnail {thumb}")
    browser.screenshot(f"{PREFIX}01-screenshot")
    slider.send_keys(Keys.END)

    # Replaced: a new image at a new address; removed: the layer is empty, the screen white.
    old = picture.get_attribute("href")
    browser.find("#screenshot-file").send_keys(upload(checkout_png(geometry, REPLACED)))
    expect(browser.find("#screenshot-attach").text == "Replace", "the button says Replace")
    browser.find("#screenshot-attach").click()
    browser.wait(lambda d: browser.finds(".layer-screenshot image") and browser.find(".layer-screenshot image").get_attribute("href") != old,
                 "the replaced image")
    browser.wait(lambda d: shows(lambda r, g, b: b > r + 80), f"the replaced image's colour at the button ({pixel(browser, at_button)})")
    browser.find("#screenshot-remove").click()
    browser.wait(lambda d: not browser.finds(".layer-screenshot image"), "the image removed")
    expect("screenshot" not in latest(server, sid), "the version has no screenshot")
    expect(not browser.find("#screenshot-control").is_displayed(), "the slider hidden again")
    fill = browser.js("return getComputedStyle(document.querySelector('svg.scene-svg rect.screen')).fill")
    expect(fill == "rgb(255, 255, 255)", f"the screen is white again: {fill}")

    # The add-a-scene form takes an image beside a dump: stored on the version the import stores.
    browser.find("#add-scene summary").click()
    browser.find("input[name=source][value=recursive-description]").click()
    browser.js("const t = document.getElementById('add-scene-text'); t.value = arguments[0];",
               example("detail.dump.txt").decode())
    browser.find("#add-scene-image").send_keys(image)
    browser.find("#add-scene-new").click()
    browser.wait(lambda d: "scene=" in d.current_url and sid not in d.current_url, "the new scene opened")
    browser.wait(lambda d: browser.finds(".layer-screenshot image"), "its screenshot drawn")
    new = browser.driver.current_url.split("scene=")[1].split("&")[0]
    expect(latest(server, new)["screenshot"]["width"] == SCREEN[0] * SCALE, "the imported scene's version has the screenshot")
    # A 390 x 844 pt capture on the dump's 375 x 667 pt screen: not its shape, fitted inside it.
    fit = browser.js("return document.querySelector('.layer-screenshot image').getAttribute('preserveAspectRatio')")
    expect(fit == "xMidYMin meet", f"fitted, not stretched: {fit}")
    info = browser.find("#screenshot-info")
    expect(info.is_displayed() and "not the shape of the 375 × 667 pt screen" in info.text, f"the page says so: {info.text!r}")
    settle(browser)
    browser.screenshot(f"{PREFIX}02-imported-with-screenshot")


def check_audit(browser, server, f):
    """Unreachable, partly reachable and small targets marked, the reason on hover and focus."""
    sid = server.call("POST", "/v1/scenes", json.dumps(audit_scene()).encode())["id"]
    report = server.call("POST", f"/v1/scenes/{sid}/audit", {})
    flagged = {e["id"]: e for e in report["elements"] if e["status"] != "hittable" or e["smallTarget"]}
    expect({e: flagged[e]["status"] for e in flagged} == {"pay": "unreachable", "half": "partlyReachable", "close": "hittable"},
           f"the audit of the fixture: {[(e['id'], e['status'], e['smallTarget']) for e in report['elements']]}")
    open_page(browser, server, f"/?scene={sid}", "svg.scene-svg g.view")
    toggle = browser.find("button#audit-toggle")
    expect(toggle.text == "Audit" and toggle.get_attribute("aria-pressed") == "false", "the Audit toggle")
    toggle.click()
    browser.wait(lambda d: browser.finds(".audit-badge"), "the audit's badges")
    badges = {g.get_attribute("data-id"): g for g in browser.finds(".audit-badge")}
    expect(set(badges) == set(flagged), f"badges for {sorted(badges)}, audit flags {sorted(flagged)}")
    expect(badges["pay"].get_attribute("data-status") == "unreachable" and badges["close"].get_attribute("data-status") == "small",
           "each badge says its status")
    summary = browser.find("#audit-counts").text
    expect(f"{report['unreachable']} unreachable" in summary and f"{report['small']} smaller than 44" in summary, f"summary {summary!r}")
    for id, cls in (("pay", "hl-audit-fail"), ("half", "hl-audit-part"), ("close", "hl-audit-small")):
        expect(cls in browser.find(f'g.view[data-id="{id}"]').get_attribute("class"), f"{id} outlined as {cls}")
    # Each badge sits on its element's centre on screen.
    for id, element in flagged.items():
        x, y = to_client(browser, element["point"])
        b = box_of(browser, badges[id])
        expect(abs((b[0] + b[2]) / 2 - x) < 1.5 and abs((b[1] + b[3]) / 2 - y) < 1.5, f"{id}'s badge at {b}, centre {(x, y)}")

    # Hover: the reason, as the audit gives it.
    ActionChains(browser.driver).move_to_element(badges["pay"]).perform()
    browser.wait(lambda d: browser.find("#audit-tooltip").is_displayed(), "the tooltip on hover")
    tip = browser.find("#audit-tooltip").text
    reason = flagged["pay"]["reasons"][0]
    expect(reason["rule"] in tip and reason["text"] in tip, f"the tooltip {tip!r} lacks {reason}")
    expect("banner" in tip, "the tooltip names the view in front")
    settle(browser)
    browser.screenshot(f"{PREFIX}03-audit-hover")
    ActionChains(browser.driver).move_by_offset(0, 200).perform()

    # Keyboard: Tab from the canvas reaches the badges; focus shows the reason; Enter selects.
    browser.js("document.getElementById('canvas-frame').focus()")
    reached = []
    for _ in range(6):
        browser.driver.switch_to.active_element.send_keys(Keys.TAB)
        active = browser.driver.switch_to.active_element
        if "audit-badge" not in (active.get_attribute("class") or ""):
            break
        reached.append(active.get_attribute("data-id"))
        if active.get_attribute("data-id") == "half":
            expect(browser.find("#audit-tooltip").is_displayed(), "the tooltip on focus")
            tip = browser.find("#audit-tooltip").text
            expect("partly reachable" in tip.lower() and flagged["half"]["reasons"][0]["text"] in tip, f"focused tooltip {tip!r}")
            label = active.get_attribute("aria-label")
            expect(label.startswith("half: partly reachable") and flagged["half"]["reasons"][0]["rule"] in label, f"badge name {label!r}")
            settle(browser)
            browser.screenshot(f"{PREFIX}04-audit-focus")
            active.send_keys(Keys.ENTER)
            browser.wait(lambda d: browser.finds("#inspector-title") and browser.find("#inspector-title").text == "half", "Enter selects")
            break
    expect("half" in reached, f"Tab reached the badges {reached}")
    toggle.click()
    expect(not browser.finds(".audit-badge") and not browser.finds("g.view.hl-audit-fail"), "the toggle clears the marks")


def check_compare(browser, server, f):
    """Two runs drawn: the tap, hit-test views, first responders, the moved view; the trace list grows."""
    sid = f["checkout"]
    touches = json.loads(example("checkout.touches.json"))
    a = server.call("POST", f"/v1/scenes/{sid}/dispatch", {"touches": touches, "version": 1})
    server.call("PUT", f"/v1/scenes/{sid}", example("checkout-v2.scene.json"))
    b = server.call("POST", f"/v1/scenes/{sid}/dispatch", {"touches": touches, "version": 2})
    f["compare"] = (a["id"], b["id"])
    open_page(browser, server, f"/?compare={a['id']},{b['id']}", "#compare-figure-b svg .pview")
    for name, run in (("a", a), ("b", b)):
        figure = f"#compare-figure-{name}"
        hits = {t["hitTestView"] for t in run["result"]["touches"]}
        shown = {g.get_attribute("data-id") for g in browser.finds(f"{figure} .pview.hl-hit")}
        expect(shown == hits, f"{name}: hit-test views marked {shown}, run {hits}")
        first = browser.finds(f"{figure} .pview.hl-first")
        expect([g.get_attribute("data-id") for g in first] == [run["result"]["firstResponder"]["id"]], f"{name}: first responder marked")
        start = browser.find(f"{figure} .touch-mark circle.touch-start")
        expect([float(start.get_attribute("cx")), float(start.get_attribute("cy"))] == touches["gestures"][0]["tap"], f"{name}: the tap drawn")
        expect(run["id"] in browser.find(f"{figure} figcaption").text, f"{name}: the caption names the run")
    expect(a["result"]["firstResponder"]["id"] != b["result"]["firstResponder"]["id"], "the fixture's runs differ")
    moved = {g.get_attribute("data-id") for g in browser.finds("#compare-figure-b .pview.cmp-changed")}
    expect("buyButton" in moved, f"the moved button marked as changed: {moved}")
    # Side by side, in the panel's width, above the fold.
    fa, fb = box_of(browser, browser.find("#compare-figure-a")), box_of(browser, browser.find("#compare-figure-b"))
    expect(fa[2] <= fb[0] and abs(fa[1] - fb[1]) < 1 and fb[3] < HEIGHT, f"figures at {fa} and {fb}")
    diff = browser.find("#compare-trace").rect["height"]
    expect(diff >= 360, f"the aligned traces {diff} px tall")
    browser.screenshot(f"{PREFIX}05-compare")

    overlay = browser.find("button#compare-overlay")
    overlay.click()
    expect(overlay.get_attribute("aria-pressed") == "true", "the overlay toggle is pressed")
    sides = browser.finds("#compare-figure-overlay .compare-side")
    expect([s.get_attribute("data-run") for s in sides] == [a["id"], b["id"]], "one picture, A under B")
    expect(len(browser.finds("#compare-figure-overlay .touch-mark")) == 2, "both taps drawn")
    browser.screenshot(f"{PREFIX}06-compare-overlaid")
    overlay.click()

    # A larger window: the aligned traces take the room.
    browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 2560, "height": 1440, "deviceScaleFactor": 1, "mobile": False})
    try:
        browser.wait(lambda d: browser.find("#compare-trace").rect["height"] > 1100, "the trace list grown with the window")
        browser.js("document.getElementById('compare-trace-heading').scrollIntoView({block: 'start'})")
        expect(box_of(browser, browser.find("#compare-trace"))[3] <= 1440, "the whole list in the window once scrolled to")
        settle(browser)
        browser.screenshot(f"{PREFIX}07-compare-2560x1440")
    finally:
        browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})


def check_whatif(browser, server, f):
    """Inspector toggles: a new version through PATCH, the touches run again, the compare."""
    sid = f["checkout"]
    touches = json.loads(example("checkout.touches.json"))
    base = latest(server, sid)["version"]
    run = server.call("POST", f"/v1/scenes/{sid}/dispatch", {"touches": {"format": "taptrace/touches@1", "gestures": [{"tap": [260, 332], "t": 0}]}})
    expect(run["result"]["firstResponder"]["id"] == "buyButton", "the run taps the (moved) Buy button")
    open_page(browser, server, f"/?run={run['id']}", "#run-chain li")
    select_in_outline(browser, "buyButton")
    box = browser.find("#what-if-interaction")
    expect(box.is_selected(), "userInteractionEnabled shown as YES")
    expect(f"Store v{base + 1} and re-run" == browser.find("#what-if-apply").text, browser.find("#what-if-apply").text)
    expect(not browser.find("#what-if-apply").is_enabled(), "nothing to store before a change")
    box.click()
    plan = browser.find("#what-if-plan").text
    expect("userInteractionEnabled = NO" in plan and run["id"] in plan, f"the plan {plan!r}")
    browser.js("document.getElementById('what-if-apply').scrollIntoView({block: 'nearest'})")
    browser.screenshot(f"{PREFIX}08-what-if-form")
    browser.find("#what-if-apply").click()
    browser.wait(lambda d: "compare=" in d.current_url and browser.finds("#compare-figure-b svg .pview"), "the compare opened", timeout=30)
    after = latest(server, sid)
    expect(after["version"] == base + 1, f"version {after['version']} stored")
    button = find_view(after["scene"]["windows"][0], "buyButton")
    expect(button["userInteractionEnabled"] is False, "the new version's button ignores touches")
    a, b = compared(browser)
    expect(a == run["id"], "A is the open run")
    new = server.call("GET", f"/v1/runs/{b}")
    expect(new["sceneVersion"] == base + 1 and new["request"]["touches"] == run["request"]["touches"], "B is its touches on the new version")
    expect(new["result"]["touches"][0]["hitTestView"] == "card", f"B's hit-test view {new['result']['touches'][0]['hitTestView']}")
    expect("userInteractionEnabled = NO" in browser.find("#compare-what-if").text, "the compare says what changed")
    expect([g.get_attribute("data-id") for g in browser.finds("#compare-figure-b .pview.hl-hit")] == ["card"], "B's hit-test view drawn")
    settle(browser)
    browser.screenshot(f"{PREFIX}09-what-if-compare")

    # Without a run: staged touches, a frame edit.
    version = after["version"]
    open_page(browser, server, f"/?scene={sid}&version={version}", "svg.scene-svg g.view")
    browser.find("#tab-touch").click()
    for id, value in (("touch-x", "100"), ("touch-y", "200")):
        field = browser.find(f"#{id}")
        field.clear()
        field.send_keys(value)
    browser.find(".touch-form button[type=submit]").click()
    browser.wait(lambda d: browser.find("#touch-document").get_attribute("value"), "the touches staged")
    select_in_outline(browser, "card")
    y = browser.find("#what-if-frame-y")
    y.clear()
    y.send_keys("400")
    plan = browser.find("#what-if-plan").text
    expect("staged touches" in plan and "frame = [16, 400, 358, 260]" in plan, f"the plan {plan!r}")
    browser.find("#what-if-apply").click()
    browser.wait(lambda d: "compare=" in d.current_url and browser.finds("#compare-figure-b svg .pview"), "the compare of the staged touches", timeout=30)
    stored = latest(server, sid)
    expect(find_view(stored["scene"]["windows"][0], "card")["frame"] == [16, 400, 358, 260], "the frame stored")
    a, b = compared(browser)
    ra, rb = server.call("GET", f"/v1/runs/{a}"), server.call("GET", f"/v1/runs/{b}")
    expect((ra["sceneVersion"], rb["sceneVersion"]) == (version, version + 1), "the staged touches run on both versions")
    expect(ra["result"]["touches"][0]["hitTestView"] == "card" and rb["result"]["touches"][0]["hitTestView"] != "card",
           "the card moved away from the tap")
    expect("card" in {g.get_attribute("data-id") for g in browser.finds("#compare-figure-b .pview.cmp-changed")}, "the moved card marked")


def check_why(browser, server, f):
    """Why a recognizer failed, with links into the trace; a suggested change applied in one click."""
    sid = server.call("POST", "/v1/scenes", example("checkout.scene.json"))["id"]
    touches = json.loads(example("checkout.touches.json"))
    run = server.call("POST", f"/v1/scenes/{sid}/dispatch", {"touches": touches})
    question = {"recognizer": "cardTap", "expect": "fired"}
    answer = server.call("POST", f"/v1/runs/{run['id']}/why", question)
    open_page(browser, server, f"/?run={run['id']}", "#run-chain li")
    names = [b.get_attribute("aria-label") for b in browser.finds("#panel-run .why-button")]
    for name in ("Why is the first responder buyButton?", "Why did buyButton get T1's phases as it did?",
                 "Why was buyTapped: sent?", "Why was cardTapped: not sent?", "Why did cardTap not recognize?"):
        expect(name in names, f"no “{name}” among {names}")
    browser.find('#panel-run .why-button[aria-label="Why did cardTap not recognize?"]').click()
    browser.wait(lambda d: browser.finds("#why-changes li"), "the answer with its changes", timeout=30)
    expect(browser.find("#why-question").text == answer["question"], "the question")
    expect(browser.find("#why-answer-text").text == answer["answer"], "the answer")
    rules = [li.find_element(By.CSS_SELECTOR, ".rule").text for li in browser.finds("#why-reasons li")]
    expect(rules == [r["rule"] for r in answer["reasons"]], f"reasons {rules}")
    changes = [li.find_element(By.CSS_SELECTOR, "code").text for li in browser.finds("#why-changes li")]
    expect(changes == [c["edit"] for c in answer["changes"]], f"changes {changes}")
    # A link into the trace selects the entry the reason cites.
    index = answer["reasons"][-1]["trace"][0]
    seq = run["result"]["trace"][index]["seq"]
    browser.find(f'#why-reasons .trace-link[data-seq="{seq}"]').click()
    browser.wait(lambda d: browser.finds("#trace-list [aria-selected=true]"), "the trace entry selected")
    selected = browser.find("#trace-list [aria-selected=true] .c-seq").text
    expect(selected == str(seq), f"trace entry {selected} selected, the reason cites {seq}")
    browser.find("#why-answer").location_once_scrolled_into_view
    settle(browser)
    browser.screenshot(f"{PREFIX}10-why")

    edit = "set cardTap.cancelsTouchesInView = NO"
    change = next(c for c in answer["changes"] if c["edit"] == edit)
    browser.find(f'#why-changes .why-try[aria-label="Try it: {edit}"]').click()
    browser.wait(lambda d: "compare=" in d.current_url and browser.finds("#compare-figure-b svg .pview"), "the what-if compare", timeout=30)
    a, b = compared(browser)
    expect(a == run["id"], "A is the run asked about")
    stored = latest(server, sid)
    recognizer = find_view(stored["scene"]["windows"][0], "card")["gestureRecognizers"][0]
    expect(stored["version"] == 2 and recognizer["cancelsTouchesInView"] is False, "the change stored as version 2")
    new = server.call("GET", f"/v1/runs/{b}")
    states = next(r["states"] for r in new["result"]["recognizers"] if r["id"] == "cardTap")
    expect("ended" in states, f"cardTap recognizes on the new version, as predicted: {states}")
    note = browser.find("#compare-what-if").text
    expect(edit in note and change["outcome"] in note, f"the note {note!r}")
    expect("outcomes differ" in browser.find("#compare-verdict").text, "the verdict")
    settle(browser)
    browser.screenshot(f"{PREFIX}11-why-applied")


CHECKS = [check_screenshot, check_audit, check_compare, check_whatif, check_why]


def main():
    def remove_uploads():
        for path in UPLOADS:
            path.unlink(missing_ok=True)
    return run_checks("test_viewer_whatif", CHECKS, prefix=PREFIX, cleanup=remove_uploads)


if __name__ == "__main__":
    sys.exit(main())
