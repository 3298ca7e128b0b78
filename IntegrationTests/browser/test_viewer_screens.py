#!/usr/bin/env python3
"""The trace viewer on real screens, in a real browser (Debian's headless Chromium, selenium).

Starts the built `taptrace serve` like test_viewer.py and checks, in a 1280x800 window:

  appium     an Appium page source pasted into the import form is stored and drawn with its
             windows see-through: the tapped "Skip" button is the element under its own centre
             (no window's fill covers it), and the pass-through windows say so (canvas caption,
             outline badge, inspector)
  stacked    a recursiveDescription dump with seven stacked full-screen views: none of them is
             filled (no wash), one caption where the seven would overlap, captions at 11 px at
             every zoom and never overlapping
  thousand   a 1,000-view screen: drawn, zoomed with the buttons (found by their accessible
             names), ctrl+wheel about the pointer, keys and a drag; fit restores; the sidebar's
             splitter moved by keyboard
  outline    the outline tree and its search (id, class, label, accessibility identifier,
             address), synced with the canvas both ways; hidden and pruned views marked with
             their rule
  point      the views under a point, front to back, following the pointer and then pinned by a
             click, with the service's hit-test status and each view's rule (compared with the
             hit-test and explain endpoints)
  layers     the layered view: one plane per drawn view, the hit-test view on top of the
             views under the pinned point, layers stepped through with the range
  manage     rename (a new version with the new name) and delete from the sidebar
  import     a dump with an error: the error scrolls into view and its line is selected

Any SEVERE console entry fails a check, except the one 422 the import check provokes.
Screenshots go to .ci/artifacts/browser/screens-*.png.

Usage: IntegrationTests/browser/test_viewer_screens.py   (after `swift build`; TAPTRACE_BIN overrides)
"""
import json
import pathlib
import sys
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from test_viewer import ROOT, centre, expect, run_checks, settle, to_client  # noqa: E402

# The importers' test fixtures: real dumps (their sources are in each file's first line).
SAMPLES = ROOT / "Tests" / "TapTraceImportTests" / "Fixtures"
APPIUM = "appium_pagesource_01_shirates-core_XmlDataIos_iOS1.txt"
STACKED = "recursiveDescription_04_LZRight123-ARM_cycript_wechat.txt"
LONG_DUMP = "recursiveDescription_01_sentry_mockViewHierarchyData.txt"
PREFIX = "screens-"


def sample(name):
    return (SAMPLES / name).read_text()


# ---------------------------------------------------------------- a 1,000-view screen

def thousand_view_scene():
    """A product list like bench/make-scene.py's, grown to exactly 1,000 views: a header, a
    table of 80 cells (the rows below the fold clipped), a tab bar; some views carry an
    accessibility identifier and a dump address so the search can find them by those."""
    count = 0

    def view(id, cls, frame, **extra):
        nonlocal count
        count += 1
        return {"id": id, "class": cls, "frame": frame, **extra}

    cells = []
    for c in range(80):
        parts = [
            view(f"cell{c}.image", "UIImageView", [12, 8, 72, 72]),
            view(f"cell{c}.title", "UILabel", [96, 8, 200, 22], label=f"Product {c}"),
            view(f"cell{c}.price", "UILabel", [96, 34, 90, 18], label=f"{10 + c}.99 €"),
            view(f"cell{c}.badge", "UIView", [300, 8, 40, 18]),
            view(f"cell{c}.stars", "UIStackView", [96, 58, 90, 14]),
            view(f"cell{c}.divider", "UIView", [12, 87, 366, 1]),
            view(f"cell{c}.fav", "UIButton", [300, 40, 36, 36],
                 targets=[{"events": ["touchUpInside"], "target": "listVC", "action": "favouriteTapped:"}]),
            view(f"cell{c}.buy", "UIButton", [200, 44, 80, 32], label="Buy", accessibilityIdentifier=f"buy-{c}",
                 address=f"0x7fa{c:05x}",
                 targets=[{"events": ["touchUpInside"], "target": "listVC", "action": "buyTapped:"}]),
            view(f"cell{c}.spinner", "UIView", [340, 8, 20, 20], hidden=True),
            view(f"cell{c}.overlay", "UIView", [0, 0, 390, 88], alpha=0.0),
        ]
        content = view(f"cell{c}.content", "UIView", [0, 0, 390, 88], subviews=parts)
        cells.append(view(f"cell{c}", "UITableViewCell", [0, c * 88, 390, 88], subviews=[content]))
    header = view("header", "UIView", [0, 0, 390, 100], subviews=[
        view("header.title", "UILabel", [16, 56, 200, 30], label="Shop"),
        view("header.search", "UIButton", [330, 56, 44, 30], label="Search",
             targets=[{"events": ["touchUpInside"], "target": "listVC", "action": "searchTapped:"}]),
    ])
    tabs = view("tabBar", "UIView", [0, 760, 390, 84], subviews=[
        view(f"tab{i}", "UIControl", [i * 78, 0, 78, 84], label=f"Tab {i}",
             targets=[{"events": ["touchUpInside"], "target": "listVC", "action": "selectTab:"}]) for i in range(5)])
    table = view("table", "UITableView", [0, 100, 390, 660], clipsToBounds=True,
                 scrollView={"contentSize": [390, 80 * 88]}, subviews=cells)
    root = view("root", "UIView", [0, 0, 390, 844],
                viewController={"id": "listVC", "class": "ProductListViewController",
                                "implements": ["buyTapped:", "favouriteTapped:", "searchTapped:", "selectTab:"]},
                subviews=[table, header, tabs])
    window = view("W", "UIWindow", [0, 0, 390, 844], isKey=True, subviews=[root])
    missing = 1000 - count
    root["subviews"] = [view(f"placeholder{i}", "UIView", [0, 0, 390, 844], hidden=True) for i in range(missing)] + root["subviews"]
    assert count == 1000, count
    return {"format": "taptrace/scene@1", "name": "Product list, 1,000 views", "windows": [window]}


# ---------------------------------------------------------------- helpers

def import_dump(server, kind, text):
    content = "application/xml" if kind == "appium" else "text/plain; charset=utf-8"
    return server.call("POST", f"/v1/import/{kind}?store=true", text.encode(), content_type=content)


def open_scene(browser, server, sid):
    browser.open(server.base, f"/?scene={sid}")
    browser.wait(lambda d: browser.finds("svg.scene-svg g.view"), "the scene drawn")
    settle(browser)


def click_client(browser, xy):
    """A real pointer click at page coordinates xy (offsets from the SVG's centre)."""
    svg = browser.find("svg.scene-svg")
    r = browser.js("const b = arguments[0].getBoundingClientRect(); return [b.x, b.y, b.width, b.height];", svg)
    ActionChains(browser.driver).move_to_element_with_offset(
        svg, int(round(xy[0] - (r[0] + r[2] / 2))), int(round(xy[1] - (r[1] + r[3] / 2)))).click().perform()


def camera(browser):
    return browser.js("""
      const t = document.querySelector('.scene-svg g.camera').getAttribute('transform');
      return t.match(/-?[0-9.e+-]+/g).map(Number);""")


def captions(browser):
    """The captions shown: text, font size and box in page pixels."""
    return browser.js("""
      return [...document.querySelectorAll('.scene-svg text.caption')].filter(t => t.getAttribute('display') !== 'none')
        .map(t => { const b = t.getBoundingClientRect();
          return {id: t.dataset.id, text: t.textContent, size: getComputedStyle(t).fontSize, box: [b.left, b.top, b.right, b.bottom]}; });""")


def overlapping(boxes):
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5:
                return a, b
    return None


def inside(quad, p):
    sign = 0
    for i in range(4):
        (ax, ay), (bx, by) = quad[i], quad[(i + 1) % 4]
        cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
        if cross == 0:
            continue
        if sign == 0:
            sign = 1 if cross > 0 else -1
        elif (cross > 0) != (sign > 0):
            return False
    return sign != 0


def front_to_back_containing(geometry, p):
    order = []
    for window in reversed(geometry["windows"]):
        order += [v for v in reversed(geometry["views"]) if v["window"] == window]
    return [v["id"] for v in order if v["quad"] and inside(v["quad"], p)]


def tree_row(browser, selector):
    """A row of the outline read in one script ({id, text, title, level, expanded, selected}),
    or None: the tree is virtualized, and its rows are drawn again whenever its box changes
    size (the inspector below it grows), so an element found by one call may be gone by the next."""
    return browser.js("""
      const r = document.querySelector('#outline-tree [role=treeitem]' + arguments[0]);
      return r && {id: r.dataset.id, kind: r.dataset.kind, text: r.innerText, title: r.title, level: r.getAttribute('aria-level'),
                   expanded: r.getAttribute('aria-expanded'), selected: r.getAttribute('aria-selected')};""", selector)


def wait_row(browser, selector, what):
    return browser.wait(lambda d: tree_row(browser, selector), what)


def pinned_point(browser):
    """The point the page pinned, in screen points (its marker's position)."""
    return browser.js("""const m = document.querySelector('.point-overlay g.marker');
      return m && [Number(m.dataset.x), Number(m.dataset.y)];""")


# ---------------------------------------------------------------- checks

def check_appium(browser, server, f):
    """An Appium page source pasted into the import form: windows see-through, pass-through said."""
    browser.open(server.base, "/")
    browser.find("#tab-scenes").click()
    browser.find("#add-scene summary").click()
    browser.find("input[name=source][value=appium]").click()
    # 20 kB typed key by key would take a minute: the text is set as a paste would set it.
    browser.js("const t = document.getElementById('add-scene-text'); t.value = arguments[0];"
               "t.dispatchEvent(new Event('input', {bubbles: true}));", sample(APPIUM))
    browser.find("#add-scene-new").click()
    browser.wait(lambda d: "scene=" in d.current_url and browser.finds("svg.scene-svg g.view"), "the imported scene")
    settle(browser)
    sid = browser.driver.current_url.split("scene=")[1].split("&")[0]
    f["appium"] = sid
    geometry = server.call("GET", f"/v1/scenes/{sid}/geometry")
    f["appium-geometry"] = geometry
    expect(geometry["windows"] == ["Window", "Window[2]", "Window[3]"], f"windows {geometry['windows']}")
    expect(len(browser.finds("svg.scene-svg g.view")) == len(geometry["views"]), "every element drawn")

    # No window is filled, so nothing drawn over the app window hides its elements.
    fills = browser.js("return [...document.querySelectorAll('g.view.window > rect.box')].map(r => getComputedStyle(r).fill);")
    expect(fills and all(fill == "none" for fill in fills), f"window fills {fills}")
    skip = next(v for v in geometry["views"] if v["id"] == "Button:Skip")
    x, y = to_client(browser, centre(skip))
    top = browser.js("const e = document.elementFromPoint(arguments[0], arguments[1]); return e && e.closest('g.view') && e.closest('g.view').dataset.id;", x, y)
    expect(top == "Button:Skip", f"the element at the Skip button's centre is {top!r}")
    box = browser.find('g.view[data-id="Button:Skip"] > rect.box').rect
    expect(box["width"] > 30 and box["height"] > 20, f"Skip drawn at {box}")

    # Pass-through windows say so: a caption, an outline badge, the inspector.
    shown = {c["id"]: c["text"] for c in captions(browser)}
    expect("pass-through" in shown.get("Window[3]", ""), f"caption of Window[3]: {shown.get('Window[3]')!r}")
    expect("pass-through" in browser.find('g.view[data-id="Window[3]"]').get_attribute("class"), "Window[3] drawn as pass-through")
    browser.wait(lambda d: browser.find("#tab-outline").get_attribute("aria-selected") == "true", "the outline shown")
    # The front window is the last row of a long tree: the search brings it up.
    browser.find("#outline-search").send_keys("Window[3]")
    row = wait_row(browser, '[data-id="Window[3]"]', "the window's row")
    expect("pass-through" in row["text"], f"outline row {row['text']!r}")
    browser.js("document.querySelector('#outline-tree [role=treeitem][data-id=\"Window[3]\"]').click()")
    browser.wait(lambda d: browser.finds("#inspector-title") and browser.find("#inspector-title").text == "Window[3]", "the inspector")
    expect("pass-through window" in browser.find("#inspector-fields").text, "the inspector says pass-through")
    browser.screenshot(f"{PREFIX}01-appium")


def check_stacked(browser, server, f):
    """Seven stacked full-screen views: no wash, one caption for the pile, captions at screen size."""
    stored = import_dump(server, "recursive-description", sample(STACKED))
    sid = stored["id"]
    f["stacked"] = sid
    geometry = server.call("GET", f"/v1/scenes/{sid}/geometry")
    screen = geometry["screen"]
    full = [v["id"] for v in geometry["views"] if v["frame"][2:] == screen[2:] and v["quad"] and v["quad"][0] == [screen[0], screen[1]]]
    expect(len(full) == 7, f"{len(full)} full-screen views in the sample: {full}")
    open_scene(browser, server, sid)
    fills = browser.js("""return arguments[0].map(id => getComputedStyle(
        document.querySelector(`g.view[data-id="${CSS.escape(id)}"] > rect.box`)).fill);""", full)
    expect(all(fill == "none" for fill in fills), f"stacked views filled: {fills}")
    shown = captions(browser)
    corner = [c for c in shown if c["id"] in full]
    expect(len(corner) == 1, f"{len(corner)} captions for the seven stacked views: {[c['text'] for c in corner]}")
    expect(all(c["size"] == "11px" for c in shown), "captions at 11 px")
    expect(not overlapping([c["box"] for c in shown]), f"overlapping captions: {overlapping([c['box'] for c in shown])}")
    browser.screenshot(f"{PREFIX}02-stacked")
    # Zoomed in, captions keep their size and still do not overlap.
    for _ in range(3):
        browser.find("button[aria-label='Zoom in']").click()
    settle(browser)
    zoomed = captions(browser)
    expect(zoomed and all(c["size"] == "11px" for c in zoomed), "captions at 11 px when zoomed in")
    expect(not overlapping([c["box"] for c in zoomed]), "no overlap when zoomed in")


def check_thousand(browser, server, f):
    """1,000 views: drawn; zoom by buttons, ctrl+wheel about the pointer, keys, drag; fit."""
    sid = server.call("POST", "/v1/scenes", json.dumps(thousand_view_scene()).encode())["id"]
    f["thousand"] = sid
    started = time.monotonic()
    open_scene(browser, server, sid)
    shown_in = time.monotonic() - started
    expect(len(browser.finds("svg.scene-svg g.view")) == 1000, "1,000 views drawn")
    shown = captions(browser)
    expect(not overlapping([c["box"] for c in shown]), "captions do not overlap")
    # Rows scrolled out of the table are clipped: no caption of theirs shows.
    expect(not [c for c in shown if c["id"].startswith("cell20.")], "a caption of a clipped row shows")

    # The sidebar's splitter by keyboard: a separator with its value.
    splitter = browser.find("#split-left")
    expect(splitter.get_attribute("role") == "separator", "the splitter is a separator")
    width = int(splitter.get_attribute("aria-valuenow"))
    browser.js("arguments[0].focus()", splitter)
    splitter.send_keys(Keys.ARROW_RIGHT)
    expect(int(splitter.get_attribute("aria-valuenow")) == width + 16, "the right arrow widens the sidebar")
    expect(abs(browser.find(".sidebar").rect["width"] - (width + 16)) < 1, "the sidebar follows")
    splitter.send_keys(Keys.ARROW_LEFT)

    labels = {b.get_attribute("aria-label") for b in browser.finds(".zoom-controls button")}
    expect({"Zoom in", "Zoom out", "Fit the scene to the canvas"} <= labels, f"zoom buttons named {labels}")
    fit = camera(browser)
    level = browser.find("#zoom-level").text
    browser.find("button[aria-label='Zoom in']").click()
    after = camera(browser)
    expect(abs(after[0] / fit[0] - 1.25) < 1e-6, f"zoom in: {fit[0]} → {after[0]}")
    browser.wait(lambda d: browser.find("#zoom-level").text != level, "the zoom level shown")
    browser.find("button[aria-label='Zoom out']").click()
    expect(abs(camera(browser)[0] - fit[0]) < 1e-6, "zoom out undoes zoom in")

    # Ctrl + wheel (a trackpad pinch) zooms about the pointer: the scene point under it stays.
    button = browser.find('g.view[data-id="header.search"] > rect.box').rect
    # Whole pixels: Chromium keeps a synthetic WheelEvent's clientX and clientY as integers.
    px, py = round(button["x"] + button["width"] / 2), round(button["y"] + button["height"] / 2)
    before = browser.js("""
      const m = document.querySelector('.scene-svg g.camera').getScreenCTM().inverse();
      const p = new DOMPoint(arguments[0], arguments[1]).matrixTransform(m); return [p.x, p.y];""", px, py)
    browser.js("""document.querySelector('svg.scene-svg').dispatchEvent(new WheelEvent('wheel',
        {deltaY: -240, ctrlKey: true, clientX: arguments[0], clientY: arguments[1], bubbles: true, cancelable: true}));""", px, py)
    zoomed = camera(browser)
    expect(zoomed[0] > fit[0] * 1.5, f"ctrl+wheel zoomed {fit[0]} → {zoomed[0]}")
    still = to_client(browser, before)
    expect(abs(still[0] - px) < 0.5 and abs(still[1] - py) < 0.5, f"the point under the pointer moved to {still} from {(px, py)}")

    # Keys on the focused canvas: 0 fits, + zooms, arrows pan.
    frame = browser.find("#canvas-frame")
    browser.js("arguments[0].focus()", frame)
    frame.send_keys("0")
    expect(camera(browser) == fit, "0 fits")
    frame.send_keys("+")
    expect(abs(camera(browser)[0] / fit[0] - 1.25) < 1e-6, "+ zooms in")
    x_before = camera(browser)[4]
    frame.send_keys(Keys.ARROW_LEFT)
    expect(abs(camera(browser)[4] - x_before - 40) < 1e-6, "the left arrow pans")
    # A drag in Inspect mode pans.
    t = camera(browser)
    svg = browser.find("svg.scene-svg")
    ActionChains(browser.driver).move_to_element(svg).click_and_hold().move_by_offset(30, 10).move_by_offset(30, 10).release().perform()
    moved = camera(browser)
    expect(abs(moved[4] - t[4] - 60) < 1 and abs(moved[5] - t[5] - 20) < 1, f"drag panned {t[4:]} → {moved[4:]}")
    settle(browser)
    browser.screenshot(f"{PREFIX}03-thousand-zoomed")
    browser.find("button[aria-label='Fit the scene to the canvas']").click()
    expect(camera(browser) == fit, "Fit restores the fitted view")
    browser.screenshot(f"{PREFIX}04-thousand")
    return shown_in


def check_outline(browser, server, f):
    """Outline tree and search; selection synced both ways; out-of-play views say why."""
    sid = f["thousand"]
    geometry = server.call("GET", f"/v1/scenes/{sid}/geometry")
    document = server.call("GET", f"/v1/scenes/{sid}")["scene"]
    open_scene(browser, server, sid)
    browser.wait(lambda d: browser.find("#tab-outline").get_attribute("aria-selected") == "true", "the outline tab")
    tree = browser.find("#outline-tree")
    expect(tree.get_attribute("role") == "tree", "a tree")
    expect(browser.find("#outline-count").text == "1000 views", f"count {browser.find('#outline-count').text!r}")
    rows = browser.finds("#outline-tree [role=treeitem]")
    expect(0 < len(rows) < 120, f"{len(rows)} rows in the DOM (virtualized)")
    vc = wait_row(browser, "[data-kind=controller]", "the view controller's row")
    expect("listVC" in vc["text"] and vc["level"] == "2", f"view controller row {vc!r}")

    search = browser.find("input[type=search]#outline-search")

    def run_search(text):
        search.clear()
        search.send_keys(text)
        browser.wait(lambda d: f"“{text}”" in browser.find("#outline-count").text, f"the search for {text}")
        return browser.find("#outline-count").text

    def searched(text):
        needle = text.lower()
        ids = set()

        def walk(node):
            fields = [node["id"], node["class"], node.get("label"), node.get("accessibilityIdentifier"), node.get("address")]
            vc_fields = [node.get("viewController", {}).get("id"), node.get("viewController", {}).get("class")]
            placement = next(v for v in geometry["views"] if v["id"] == node["id"])
            fields.append(placement["base"])
            if any(x and needle in x.lower() for x in fields + vc_fields):
                ids.add(node["id"])
            for child in node.get("subviews", []):
                walk(child)
        for w in document["windows"]:
            walk(w)
        return ids

    for text in ("cell7.buy", "UITableViewCell", "Product 42", "buy-13", "0x7fa0002a"):
        count = run_search(text)
        expected = searched(text)
        expect(count.startswith(f"{len(expected)} of 1000"), f"{text}: {count!r}, expected {len(expected)}")
        matches = {g.get_attribute("data-id") for g in browser.finds("g.view.hl-match")}
        expect(matches == expected, f"{text}: canvas marks {sorted(matches)[:5]}…, expected {sorted(expected)[:5]}…")
    # By address: one button, in a row scrolled out of the table. Enter selects it in the
    # tree and on the canvas; the inspector says it is clipped away, and the camera stays.
    run_search("0x7fa0002a")
    before = camera(browser)
    search.send_keys(Keys.ENTER)
    target = "cell42.buy"
    browser.wait(lambda d: browser.finds(f'g.view.hl-select[data-id="{target}"]'), "the match selected on the canvas")
    selected = wait_row(browser, "[aria-selected=true]", "the selected row")
    expect(selected["id"] == target, f"tree selection {selected['id']}")
    expect(browser.find("#inspector-title").text == target, "the inspector shows it")
    expect("0x7fa0002a" in browser.find("#inspector-fields").text, "with its address")
    expect("outside table" in browser.find("#inspector-clipped").text, "and says the table clips it away")
    expect(camera(browser) == before, "nothing to bring into view")

    # A view out of the canvas (zoomed in on the header) is brought into view when selected.
    for _ in range(4):
        browser.find("button[aria-label='Zoom in']").click()
    frame = browser.find("#canvas-frame").rect

    def in_view(id):
        box = browser.find(f'g.view[data-id="{id}"] > rect.box').rect
        return (frame["x"] <= box["x"] and box["x"] + box["width"] <= frame["x"] + frame["width"]
                and frame["y"] <= box["y"] and box["y"] + box["height"] <= frame["y"] + frame["height"])
    expect(not in_view("tab4"), "tab4 is out of view when zoomed in")
    run_search("Tab 4")
    search.send_keys(Keys.ENTER)
    browser.wait(lambda d: browser.finds('g.view.hl-select[data-id="tab4"]'), "tab4 selected")
    expect(in_view("tab4"), "the selected view brought into view")
    settle(browser)
    browser.screenshot(f"{PREFIX}05-outline-search")

    # Canvas → outline: a click on a view selects its row (the search clears when it hides it).
    search.clear()
    search.send_keys(Keys.ENTER)
    browser.wait(lambda d: browser.find("#outline-count").text == "1000 views", "the search cleared")
    browser.find("button[aria-label='Fit the scene to the canvas']").click()
    tab = next(v for v in geometry["views"] if v["id"] == "tab2")
    click_client(browser, to_client(browser, centre(tab)))
    wait_row(browser, '[aria-selected=true][data-id="tab2"]', "tab2 selected in the tree")
    expect(browser.find("#inspector-title").text == "tab2", "inspector follows the canvas")
    # Keyboard in the tree: Left goes to the parent (tabBar), Left again closes it.
    tree.send_keys(Keys.ARROW_LEFT)
    wait_row(browser, '[aria-selected=true][data-id="tabBar"]', "the parent selected")
    tree.send_keys(Keys.ARROW_LEFT)
    wait_row(browser, '[data-id="tabBar"][aria-expanded=false]', "tabBar closed")
    expect(not tree_row(browser, '[data-id="tab2"]'), "its rows hidden")
    expect(browser.finds('g.view.hl-select[data-id="tabBar"]'), "the canvas follows the tree")

    # Hidden and pruned views say why, with the rule id.
    run_search("cell3.")
    spinner = wait_row(browser, '[data-id="cell3.spinner"]', "the matching rows")
    expect("hidden · H2" in spinner["text"], f"hidden row {spinner['text']!r}")
    overlay = tree_row(browser, '[data-id="cell3.overlay"]')
    expect("alpha < 0.01 · H3" in overlay["text"], f"transparent row {overlay['text']!r}")
    title = tree_row(browser, '[data-id="cell3.title"]')
    expect("no interaction · H9" in title["text"], f"label row {title['text']!r}")
    why = next(v for v in geometry["views"] if v["id"] == "cell3.spinner")["outOfPlay"]["text"]
    expect(why in spinner["title"], "the row's title gives the reason in full")
    browser.screenshot(f"{PREFIX}06-outline-why")


def check_point(browser, server, f):
    """Under a point: every containing view front to back, the hit-test status and the rule."""
    sid, geometry = f["appium"], f["appium-geometry"]
    open_scene(browser, server, sid)
    skip = next(v for v in geometry["views"] if v["id"] == "Button:Skip")
    p = centre(skip)
    # Hover: with the Point panel shown, the list follows the pointer.
    browser.find("#tab-point").click()
    x, y = to_client(browser, p)
    svg = browser.find("svg.scene-svg")
    r = browser.js("const b = arguments[0].getBoundingClientRect(); return [b.x, b.y, b.width, b.height];", svg)
    ActionChains(browser.driver).move_to_element_with_offset(
        svg, int(round(x - (r[0] + r[2] / 2))), int(round(y - (r[1] + r[3] / 2)))).perform()
    browser.wait(lambda d: "following the pointer" in browser.find("#point-where").text
                 and browser.find("#point-verdict").text.startswith("Hit-test view: Button:Skip"), "the list following the pointer")
    click_client(browser, (x, y))
    browser.wait(lambda d: browser.find("#tab-point").get_attribute("aria-selected") == "true"
                 and "pinned" in browser.find("#point-where").text, "the point pinned")
    browser.wait(lambda d: not [c for c in browser.finds("#under-point-table td.why") if c.text in ("…", "")], "every row explained", timeout=30)
    # The point the page pinned (the click, in screen points) and what the service says there.
    pinned = pinned_point(browser)
    expect(abs(pinned[0] - p[0]) < 2 and abs(pinned[1] - p[1]) < 2, f"pinned {pinned}, clicked {p}")
    expected = front_to_back_containing(geometry, pinned)
    shown = [tr.get_attribute("data-id") for tr in browser.finds("#under-point-table tbody tr")]
    expect(shown == expected, f"views under the point {shown} != {expected}")
    report = server.call("POST", f"/v1/scenes/{sid}/hit-test", {"point": pinned})
    hit = report["hitTestView"]["id"]
    expect(hit == "Button:Skip", f"hit-test view {hit}")
    rows = {tr.get_attribute("data-id"): tr for tr in browser.finds("#under-point-table tbody tr")}
    expect("is-hit" in rows[hit].get_attribute("class") and rows[hit].find_element(By.CSS_SELECTOR, ".hit-status").text == "hit-test view",
           "the hit-test view's row")
    for ref in report["path"][:-1]:
        expect("on-path" in rows[ref["id"]].get_attribute("class"), f"{ref['id']} on the path")
    expect(rows["Window[3]"].find_element(By.CSS_SELECTOR, ".hit-status").text == "asked: returned nil", "the pass-through window was asked")
    # Each row's rule is the explain endpoint's first reason for that view.
    for vid in ("Window[3]", "Window[2]", "Window/Other/Other"):
        answer = server.call("POST", f"/v1/scenes/{sid}/explain", {"point": pinned, "target": vid})
        rule = rows[vid].find_element(By.CSS_SELECTOR, ".why .rule").text
        expect(rule == answer["reasons"][0]["rule"], f"{vid}: rule {rule} != {answer['reasons'][0]['rule']}")
    expect(browser.find("#point-verdict").text.startswith("Hit-test view: Button:Skip"), "the verdict")
    expect(browser.finds('g.view.hl-under-hit[data-id="Button:Skip"]'), "the hit-test view marked on the canvas")
    expect(len(browser.finds("g.view.hl-under")) == len(expected), "the views under the point outlined")
    browser.screenshot(f"{PREFIX}07-under-point")
    f["appium-point"] = pinned


def check_layers(browser, server, f):
    """The layered view: planes by depth, the hit-test view on top of the pile under the point."""
    sid, geometry = f["appium"], f["appium-geometry"]
    open_scene(browser, server, sid)
    skip = next(v for v in geometry["views"] if v["id"] == "Button:Skip")
    click_client(browser, to_client(browser, centre(skip)))
    browser.wait(lambda d: browser.finds('g.view.hl-under-hit[data-id="Button:Skip"]'), "the point pinned")
    toggle = browser.find("#layers-toggle")
    toggle.click()
    expect(toggle.get_attribute("aria-pressed") == "true", "the toggle is pressed")
    browser.wait(lambda d: browser.finds("rect.layer-box"), "the planes")
    settle(browser)
    planes = browser.js("return [...document.querySelectorAll('rect.layer-box')].map(r => [r.dataset.id, Number(r.dataset.layer)]);")
    drawn = [v["id"] for v in geometry["views"] if v["toScreen"]]
    expect(sorted(p[0] for p in planes) == sorted(drawn), "one plane per drawn view")
    layers = [z for _, z in planes]
    expect(layers == sorted(layers), "planes drawn back to front")
    layer = dict(planes)
    parents = {v["id"]: v["superview"] for v in geometry["views"]}
    expect(all(layer[i] > layer[parents[i]] for i in layer if parents[i]), "every view above its superview")
    # Under the pinned point: the hit-test view is above every in-play view of its window there.
    under = {r.get_attribute("data-id") for r in browser.finds("rect.layer-box.hl-under")}
    expect("Button:Skip" in under and browser.finds('rect.layer-box.hl-under-hit[data-id="Button:Skip"]'), "the hit-test view marked")
    # Views that share a point overlap, so their planes are in drawing order: the higher the
    # plane, the further in front (the list under the point, front to back).
    pinned = pinned_point(browser)
    in_front_first = sorted(under, key=lambda i: -layer[i])
    expect(in_front_first == front_to_back_containing(geometry, pinned), f"planes under the point {in_front_first}")
    # The point skewers the planes: a dot on each view under it, the hit-test view's the red one.
    dots = browser.js("return [...document.querySelectorAll('.layer-point .pierce-mark')].map(g => [g.dataset.id, g.querySelector('circle').classList.contains('pierce-hit')]);")
    expect(sorted(d[0] for d in dots) == sorted(under), "a dot per view under the point")
    expect([d[0] for d in dots if d[1]] == ["Button:Skip"], "the hit-test view's dot")
    # Nothing is canvas-captioned in the layered view (the planes are not to scale).
    expect(not captions(browser), "no captions on the planes")
    browser.screenshot(f"{PREFIX}08-layers")
    # Stepping: the range shows layers 0…n; the ones above are left out.
    top = max(layers)
    rng = browser.find("#layer-range")
    expect(rng.get_attribute("max") == str(top) and rng.get_attribute("value") == str(top), "the range covers every layer")
    target = layer["Button:Skip"]
    browser.js("arguments[0].focus()", rng)
    for _ in range(top - target):
        rng.send_keys(Keys.ARROW_LEFT)
    expect(rng.get_attribute("value") == str(target), f"stepped to {target}")
    hidden = browser.js("return [...document.querySelectorAll('rect.layer-box')].filter(r => getComputedStyle(r).display === 'none').map(r => Number(r.dataset.layer));")
    expect(hidden and min(hidden) == target + 1, "the layers above are left out")
    expect("Button:Skip" in browser.find("#layer-info").text or "more" in browser.find("#layer-info").text, "the layer's views named")
    browser.screenshot(f"{PREFIX}09-layers-stepped")
    toggle.click()
    browser.wait(lambda d: browser.find("svg .views").get_attribute("display") != "none", "the flat view back")


def check_manage(browser, server, f):
    """Rename (a new version carrying the name) and delete from the sidebar."""
    sid = f["stacked"]
    open_scene(browser, server, sid)
    browser.find("#tab-scenes").click()
    note = browser.find("#scene-rename-note").text
    expect("stores version 2" in note, f"the rename says it stores a version: {note!r}")
    name = browser.find("#scene-name")
    name.clear()
    name.send_keys("Seven stacked views")
    browser.find("#scene-rename").click()
    browser.wait(lambda d: "version=2" in d.current_url, "the renamed version shown")
    stored = server.call("GET", f"/v1/scenes/{sid}")
    expect(stored["name"] == "Seven stacked views" and stored["latestVersion"] == 2, f"stored {stored['name']!r} v{stored['latestVersion']}")
    first = server.call("GET", f"/v1/scenes/{sid}?version=1")
    expect(first["scene"]["name"] != "Seven stacked views", "version 1 keeps its name")
    browser.wait(lambda d: "Seven stacked views" in browser.find(f'#scene-list a[data-scene="{sid}"]').text, "the new name listed")
    expect(len(browser.finds("#version-list li")) == 2, "two versions listed")
    browser.screenshot(f"{PREFIX}10-renamed")

    browser.find("#scene-delete").click()
    question = browser.find("#scene-delete-question").text
    expect("2 versions" in question, f"the confirmation: {question!r}")
    browser.screenshot(f"{PREFIX}11-delete-confirm")
    browser.find("#scene-delete-yes").click()
    browser.wait(lambda d: not browser.finds(f'#scene-list a[data-scene="{sid}"]'), "the scene gone from the list")
    expect(browser.driver.current_url.rstrip("/") == server.base, f"back home: {browser.driver.current_url}")
    expect(not browser.finds("svg.scene-svg g.view") or not browser.find("svg.scene-svg").is_displayed(), "the canvas emptied")
    try:
        server.call("GET", f"/v1/scenes/{sid}")
        raise AssertionError("the scene is still stored")
    except Exception as error:  # urllib raises HTTPError 404
        expect("404" in str(error), f"GET after delete: {error}")


def check_import(browser, server, f):
    """A dump with an error deep inside: the error scrolls into view and its line is selected."""
    lines = sample(LONG_DUMP).split("\n")
    index = max(i for i, line in enumerate(lines) if "frame = (" in line)
    lines[index] = lines[index].replace("frame = (", "frame = (x", 1)
    text = "\n".join(lines)
    browser.open(server.base, "/")
    browser.find("#add-scene summary").click()
    browser.find("input[name=source][value=recursive-description]").click()
    browser.js("const t = document.getElementById('add-scene-text'); t.value = arguments[0];", text)
    browser.find("#add-scene-new").click()
    browser.wait(lambda d: browser.finds("#add-scene-message .error"), "the error")
    error = browser.find("#add-scene-message .error").text
    expect(f"Line {index + 1}" in error, f"the error names line {index + 1}: {error!r}")
    state = browser.js("""
      const t = document.getElementById('add-scene-text'), m = document.getElementById('add-scene-message');
      const side = document.getElementById('panel-scenes').getBoundingClientRect(), b = m.getBoundingClientRect();
      return {start: t.selectionStart, end: t.selectionEnd, focused: document.activeElement === t, scrollTop: t.scrollTop,
              visible: b.top >= side.top - 1 && b.bottom <= side.bottom + 1 && b.height > 0};""")
    start = sum(len(line) + 1 for line in lines[:index])
    expect(state["start"] == start and state["end"] == start + len(lines[index]), f"selection {state} != line {index + 1} at {start}")
    expect(state["focused"], "the text box has the focus")
    expect(state["scrollTop"] > 0, "the text box scrolled to the line")
    expect(state["visible"], "the error is in view")
    browser.find("#add-scene-message .problem-line").click()
    expect(browser.js("return document.getElementById('add-scene-text').selectionStart") == start, "Go to line selects it again")
    browser.screenshot(f"{PREFIX}12-import-error")
    return ["/v1/import/recursive-description?store=true - Failed to load resource: the server responded with a status of 422"]


CHECKS = [check_appium, check_stacked, check_thousand, check_outline, check_point, check_layers, check_manage, check_import]


def main():
    return run_checks("test_viewer_screens", CHECKS, prefix=PREFIX)


if __name__ == "__main__":
    sys.exit(main())
