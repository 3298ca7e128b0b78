#!/usr/bin/env python3
"""Writes the benchmark's 200-view scene and its requests into a directory.

The scene looks like a real screen: a window, a root view with its view controller, a
navigation header, a scroll view with 20 product cards (each with a tap recognizer, a title,
a price, an image, a few decorations and a "Buy" button) and a tab bar. The touch is a tap on
the button of the 12th card, so the hit-test walks past the cards in front of it, the card's
recognizer and the button arbitrate (X1), and an action is sent.

Files written (all JSON):
    scene.json            the scene (exactly 200 views, windows included)
    dispatch.json         {"scene", "touches"}: body of POST /v1/dispatch
    dispatch-unique.json  the same with the scene's name "__UNIQUE__" (bench/wrk.lua makes it
                          different in every request: the stateless scene cache never hits)
    stored-dispatch.json  {"touches"}: body of POST /v1/scenes/{id}/dispatch
    stored-dispatch-unique.json  the same tap as explicit events whose touch id is
                          "__UNIQUE__": every stored run has a result of its own (the
                          store shares identical results, so this is its full write path)
"""
import json
import pathlib
import sys

out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
out.mkdir(parents=True, exist_ok=True)

views = 0


def view(id, cls, frame, **extra):
    global views
    views += 1
    node = {"id": id, "class": cls, "frame": frame}
    node.update(extra)
    return node


cards = []
for c in range(20):
    subviews = [
        view(f"card{c}.image", "UIImageView", [12, 12, 80, 80]),
        view(f"card{c}.title", "UILabel", [104, 12, 230, 22], label=f"Product {c}"),
        view(f"card{c}.price", "UILabel", [104, 40, 120, 20], label=f"{10 + c}.99 €"),
        view(f"card{c}.badge", "UIView", [300, 12, 40, 20]),
        view(f"card{c}.divider", "UIView", [12, 104, 334, 1]),
        view(f"card{c}.rating", "UIStackView", [104, 66, 100, 16]),
        view(f"card{c}.fav", "UIButton", [300, 60, 40, 40],
             targets=[{"events": ["touchUpInside"], "target": "listVC", "action": "favouriteTapped:"}]),
        view(f"card{c}.buy", "UIButton", [230, 60, 60, 36], label="Buy",
             targets=[{"events": ["touchUpInside"], "target": "listVC", "action": "buyTapped:"}]),
    ]
    cards.append(view(f"card{c}", "ProductCardView", [16, 16 + c * 124, 358, 116], base="UIView",
                      gestureRecognizers=[{"id": f"card{c}.tap", "class": "UITapGestureRecognizer",
                                           "targets": [{"target": "listVC", "action": "cardTapped:"}]}],
                      subviews=subviews))

header = view("header", "UIView", [0, 0, 390, 100], subviews=[
    view("header.title", "UILabel", [16, 56, 200, 30], label="Shop"),
    view("header.search", "UIButton", [330, 56, 44, 30],
         targets=[{"events": ["touchUpInside"], "target": "listVC", "action": "searchTapped:"}]),
])
tabs = view("tabBar", "UIView", [0, 760, 390, 84], subviews=[
    view(f"tab{i}", "UIControl", [i * 78, 0, 78, 84],
         targets=[{"events": ["touchUpInside"], "target": "listVC", "action": "selectTab:"}]) for i in range(5)
])
scroll = view("list", "UIScrollView", [0, 100, 390, 660], scrollView={"contentSize": [390, 20 * 124 + 16]},
              subviews=cards)
root = view("root", "UIView", [0, 0, 390, 844],
            viewController={"id": "listVC", "class": "ProductListViewController",
                            "implements": ["buyTapped:", "cardTapped:", "favouriteTapped:", "searchTapped:", "selectTab:"]},
            subviews=[scroll, header, tabs])
# Filler to reach exactly 200: hidden placeholder views inside the root, behind everything.
window = view("W", "UIWindow", [0, 0, 390, 844], isKey=True, subviews=[root])
missing = 200 - views
root["subviews"] = [view(f"placeholder{i}", "UIView", [0, 0, 390, 844], hidden=True) for i in range(missing)] + root["subviews"]
assert views == 200, views

scene = {"format": "taptrace/scene@1", "name": "Benchmark: product list, 200 views",
         "app": {"delegate": {"id": "AppDelegate", "class": "AppDelegate", "isResponder": True}},
         "windows": [window]}
# Card 12's Buy button: list origin y 100, card y 16 + 12 * 124 (scrolled content; offset 0
# shows cards 0…5 only), so scroll the list to show card 12 first.
scroll["bounds"] = [0, 12 * 124, 390, 660]
card_y = 100 + 16 + 12 * 124 - 12 * 124
touches = {"format": "taptrace/touches@1", "gestures": [{"tap": [16 + 230 + 30, card_y + 60 + 18], "t": 0, "duration": 0.08}]}

(out / "scene.json").write_text(json.dumps(scene))
(out / "dispatch.json").write_text(json.dumps({"scene": scene, "touches": touches}))
(out / "stored-dispatch.json").write_text(json.dumps({"touches": touches}))
tap = [16 + 230 + 30, card_y + 60 + 18]
unique_touches = {"format": "taptrace/touches@1", "events": [
    {"t": 0, "touches": [{"id": "__UNIQUE__", "phase": "began", "at": tap}]},
    {"t": 0.08, "touches": [{"id": "__UNIQUE__", "phase": "ended", "at": tap}]}]}
(out / "stored-dispatch-unique.json").write_text(json.dumps({"touches": unique_touches}))
(out / "dispatch-unique.json").write_text(json.dumps({"scene": dict(scene, name="__UNIQUE__"), "touches": touches}))
print(f"wrote {out}/scene.json ({views} views), dispatch.json, dispatch-unique.json, stored-dispatch.json, stored-dispatch-unique.json")
