#!/usr/bin/env python3
"""Every endpoint of a running `taptrace serve`, again and again, for pgo/train's profile.

bench/run covers health and the two dispatches; this covers the rest, so that the release build
is not optimised as if they never ran: scenes and their versions, history pages, a run in its
three formats, compare, replay, hit-test, explain, geometry, both importers, the viewer, and
the error answers (malformed JSON, validation, unknown ids, a stale If-Match). The scenes are
the three of examples/, dispatched with taps, double taps, long presses and drags. Answers are
checked only for their status: the tests check their contents.

Usage: pgo/exercise.py BASE_URL ROUNDS
"""
import json
import pathlib
import sys
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "Tests" / "TapTraceImportTests" / "Fixtures"


def call(base, method, path, expect, body=None, content_type="application/json", headers=None):
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request) as response:
            status, payload = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, payload = error.code, error.read()
    if status != expect:
        raise SystemExit(f"exercise: {method} {path} answered {status}, expected {expect}: {payload[:300]!r}")
    return json.loads(payload) if payload.startswith(b"{") else payload


def gestures(point):
    """Touch sequences of every shorthand, at one point of a scene and around it."""
    x, y = point
    return [
        [{"tap": [x, y], "t": 0}],
        [{"doubleTap": [x, y], "t": 0}],
        [{"longPress": [x, y], "duration": 0.8, "t": 0}],
        [{"drag": {"from": [x, y], "to": [x, y + 200]}, "duration": 0.3, "steps": 10, "t": 0}],
        [{"drag": {"from": [x, y], "to": [x + 120, y]}, "duration": 0.5, "steps": 30, "t": 0}],
    ]


def one_round(base, name):
    request = json.loads((EXAMPLES / f"{name}.request.json").read_text())
    scene = request["scene"]
    point = request["touches"]["gestures"][0]["tap"]
    call(base, "POST", "/v1/dispatch", 200, request)
    created = call(base, "POST", "/v1/scenes", 201, scene)
    sid = created["id"]
    call(base, "GET", f"/v1/scenes/{sid}", 200)
    call(base, "GET", "/v1/scenes?limit=5", 200)
    call(base, "GET", f"/v1/scenes/{sid}/geometry", 200)
    call(base, "POST", f"/v1/scenes/{sid}/hit-test", 200, {"point": point})
    target = scene["windows"][0]["id"]
    call(base, "POST", f"/v1/scenes/{sid}/explain", 200, {"point": point, "target": target})

    runs = []
    for touches in gestures(point):
        body = {"touches": {"format": "taptrace/touches@1", "gestures": touches, "until": 2.0}}
        call(base, "POST", "/v1/dispatch", 200, {"scene": scene, **body})
        runs.append(call(base, "POST", f"/v1/scenes/{sid}/dispatch", 201, body)["id"])
    page = call(base, "GET", f"/v1/scenes/{sid}/runs?limit=2", 200)
    while page.get("nextCursor"):
        page = call(base, "GET", f"/v1/scenes/{sid}/runs?limit=2&cursor={page['nextCursor']}", 200)
    for run_format in ["json", "text", "chrome"]:
        call(base, "GET", f"/v1/runs/{runs[0]}?format={run_format}", 200)
        call(base, "GET", f"/v1/runs/{runs[-1]}?format={run_format}", 200)
    call(base, "GET", f"/v1/runs/{runs[0]}/compare/{runs[1]}", 200)
    call(base, "GET", f"/v1/runs/{runs[3]}/compare/{runs[4]}", 200)

    moved = json.loads(json.dumps(scene))
    moved["windows"][0]["subviews"] = list(reversed(moved["windows"][0].get("subviews", [])))
    call(base, "PUT", f"/v1/scenes/{sid}", 409, moved, headers={"If-Match": '"7"'})
    call(base, "PUT", f"/v1/scenes/{sid}", 200, moved, headers={"If-Match": '"1"'})
    call(base, "GET", f"/v1/scenes/{sid}/versions", 200)
    call(base, "POST", f"/v1/scenes/{sid}/replay", 200, {"from": 1, "to": 2})

    call(base, "POST", "/v1/dispatch", 400, b'{"scene": ')
    call(base, "POST", "/v1/dispatch", 422, {"scene": {"format": "taptrace/scene@1", "windows": [{}]},
                                             "touches": request["touches"]})
    call(base, "POST", f"/v1/scenes/{sid}/dispatch", 415, b"{}", content_type="text/plain")
    call(base, "GET", "/v1/runs/run_000000000000", 404)
    call(base, "DELETE", f"/v1/scenes/{sid}", 204)


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    base, rounds = sys.argv[1].rstrip("/"), int(sys.argv[2])
    call(base, "GET", "/openapi.yaml", 200)
    call(base, "GET", "/", 200)
    call(base, "GET", "/viewer/main.js", 200)
    # The importable dumps of the three formats; the debugger's add-ons (printHierarchy_…,
    # gestureRecognizers_…, allTargets_…) import only after a hierarchy, as in
    # examples/detail.dump.txt, which goes through POST /v1/import.
    kinds = {"appium_": "appium", "recursiveDescription_": "recursive-description", "xcuitest_": "xcuitest"}
    dumps = [(path, kind) for path in sorted(FIXTURES.glob("*.txt")) if "malformed" not in path.name
             for prefix, kind in kinds.items() if path.name.startswith(prefix)]
    detail = (EXAMPLES / "detail.dump.txt").read_bytes()
    for _ in range(rounds):
        call(base, "GET", "/health", 200)
        for name in ["checkout", "overlay", "tabbar"]:
            one_round(base, name)
        for path, kind in dumps:
            call(base, "POST", f"/v1/import/{kind}", 200, path.read_bytes(),
                 content_type="application/xml" if kind == "appium" else "text/plain")
        call(base, "POST", "/v1/import", 200, detail, content_type="text/plain")
    return 0


if __name__ == "__main__":
    sys.exit(main())
