#!/usr/bin/env python3
"""Every operation's success answers, checked against openapi.yaml.

schemathesis's generated requests reach some success paths only by chance: a generated scene
is seldom valid (ids unique across the scene, UIWindow roots), so stored dispatch, a stored
run in its three formats, compare and import were answered 2xx once or never in a run. This
walks the README's flow with the documents of examples/ and the importer fixtures against
a running `taptrace serve` and checks each answer with schemathesis's own checks (status code,
content type, headers, body schema), and that it is the success status the flow expects.

Usage: IntegrationTests/api/success_paths.py BASE_URL   (run by scripts/check-api on its server)
"""
import json
import struct
import zlib
import pathlib
import sys
from urllib.parse import urlencode

import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


class Flow:
    """One server, its document, and what the walk found so far."""

    def __init__(self, base):
        self.base = base
        self.schema = schemathesis.openapi.from_url(f"{base}/openapi.yaml")
        self.checked = 0
        self.failures = []

    def call(self, method, path, expect, path_parameters=None, query=None, body=None,
             headers=None, raw=None):
        """Sends one request of the document's operation `method path`, checks the answer
        against the document and that its status is `expect`; returns the response.

        `body` is sent as JSON; `raw` is `(content type, text)` sent byte for byte (an import's
        dump: schemathesis's own XML serializer would wrap a string in an element)."""
        operation = self.schema[path][method]
        case = operation.Case(
            path_parameters=path_parameters or {}, query=query or {}, headers=headers or {},
            **({} if body is None else {"body": body, "media_type": "application/json"}),
        )
        if raw is None:
            response = case.call(base_url=self.base)
        else:
            content_type, data = raw
            response = case.call(base_url=self.base, headers={"Content-Type": content_type},
                                 data=data if isinstance(data, bytes) else data.encode())
        label = f"{method} {case.formatted_path}" + (f"?{urlencode(query)}" if query else "")
        self.checked += 1
        try:
            case.validate_response(response, checks=CHECKS)
        except BaseExceptionGroup as group:  # schemathesis's FailureGroup: the failed checks
            self.failures.append(f"{label}: {group}")
        if response.status_code != expect:
            self.failures.append(
                f"{label}: status {response.status_code}, expected {expect}: "
                f"{response.content[:300].decode('utf-8', 'replace')}")
        return response

    def report(self):
        """Prints the failures and a summary; returns the exit status (1 when anything
        failed, including a step the rest depended on, where the walk stopped)."""
        for failure in self.failures:
            print(f"success_paths: {failure}", file=sys.stderr)
        print(f"success_paths: {self.checked} answers checked against openapi.yaml, "
              f"{len(self.failures)} failures")
        return 1 if self.failures else 0


def fixture(name):
    return (ROOT / "Tests" / "TapTraceImportTests" / "Fixtures" / name).read_text()


def png(width, height):
    """A PNG of one colour, `width`×`height` pixels (8-bit RGB)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x33\x66\xcc" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    flow = Flow(sys.argv[1].rstrip("/"))
    examples = ROOT / "examples"
    request = json.loads((examples / "checkout.request.json").read_text())
    scene_v2 = json.loads((examples / "checkout-v2.scene.json").read_text())

    flow.call("GET", "/health", 200)
    flow.call("GET", "/openapi.yaml", 200)
    flow.call("GET", "/", 200)
    for file in ["main.js", "viewer.css", "icon.svg"]:
        flow.call("GET", "/viewer/{file}", 200, path_parameters={"file": file})

    flow.call("POST", "/v1/dispatch", 200, body=request)
    created = flow.call("POST", "/v1/scenes", 201, body=request["scene"]).json()
    if "id" not in created:
        return flow.report()
    scene = {"id": created["id"]}
    flow.call("GET", "/v1/scenes", 200, query={"limit": 1})
    flow.call("GET", "/v1/scenes/{id}", 200, path_parameters=scene)
    # A screenshot of version 1: attached, replaced, read, revalidated (304), and described in
    # the version's documents (here, and in the versions list read after PUT below).
    shot = {**scene, "n": 1}
    screenshot_path = "/v1/scenes/{id}/versions/{n}/screenshot"
    flow.call("PUT", screenshot_path, 201, path_parameters=shot, raw=("image/png", png(39, 84)))
    image = png(78, 168)
    flow.call("PUT", screenshot_path, 200, path_parameters=shot, raw=("image/png", image))
    served = flow.call("GET", screenshot_path, 200, path_parameters=shot)
    if served.content != image:
        flow.failures.append(f"GET {screenshot_path}: not the bytes stored")
    etag = (served.headers.get("etag") or [""])[0]  # schemathesis: lowercase names, lists of values
    flow.call("GET", screenshot_path, 304, path_parameters=shot, headers={"If-None-Match": etag})
    described = flow.call("GET", "/v1/scenes/{id}", 200, path_parameters=scene, query={"version": 1}).json()
    if described.get("screenshot", {}).get("width") != 78:
        flow.failures.append(f"GET /v1/scenes/{{id}}?version=1: no screenshot of width 78: {described.get('screenshot')}")
    geometry = flow.call("GET", "/v1/scenes/{id}/geometry", 200, path_parameters=scene).json()
    flow.call("POST", "/v1/scenes/{id}/hit-test", 200, path_parameters=scene, body={"point": [195, 600]})
    flow.call("POST", "/v1/scenes/{id}/explain", 200, path_parameters=scene,
              body={"point": [195, 600], "target": "checkoutRoot"})

    runs = []
    for _ in range(2):
        stored = flow.call("POST", "/v1/scenes/{id}/dispatch", 201, path_parameters=scene,
                           body={"touches": request["touches"]}).json()
        if "id" not in stored:
            return flow.report()
        runs.append(stored["id"])
    first_page = flow.call("GET", "/v1/scenes/{id}/runs", 200, path_parameters=scene,
                           query={"limit": 1}).json()
    if first_page.get("nextCursor"):
        flow.call("GET", "/v1/scenes/{id}/runs", 200, path_parameters=scene,
                  query={"limit": 1, "cursor": first_page["nextCursor"]})
    else:
        flow.failures.append("GET /v1/scenes/{id}/runs?limit=1: no nextCursor with two runs stored")
    for run_format in ["json", "text", "chrome"]:
        flow.call("GET", "/v1/runs/{runId}", 200, path_parameters={"runId": runs[0]},
                  query={"format": run_format})
    flow.call("GET", "/v1/runs/{a}/compare/{b}", 200, path_parameters={"a": runs[0], "b": runs[1]})
    flow.call("POST", "/v1/runs/{runId}/why", 200, path_parameters={"runId": runs[0]},
              body={"recognizer": "cardTap", "expect": "fired"})
    flow.call("POST", "/v1/why", 200, body={**request, "action": "buyTapped:"})

    flow.call("PUT", "/v1/scenes/{id}", 200, path_parameters=scene, body=scene_v2,
              headers={"If-Match": '"1"'})
    flow.call("GET", "/v1/scenes/{id}/versions", 200, path_parameters=scene)
    flow.call("POST", "/v1/scenes/{id}/replay", 200, path_parameters=scene, body={"from": 1, "to": 2})
    # A what-if edit: the button found by its pointer in the geometry, moved by a JSON Patch
    # (sent byte for byte under its own media type, as the importers' dumps are).
    pointer = next((v.get("pointer") for v in geometry.get("views", []) if v.get("id") == "buyButton"), None)
    if pointer is None:
        flow.failures.append("GET /v1/scenes/{id}/geometry: no pointer for buyButton")
    else:
        patch = [{"op": "test", "path": f"{pointer}/id", "value": "buyButton"},
                 {"op": "replace", "path": f"{pointer}/frame", "value": [200, 100, 120, 44]}]
        flow.call("PATCH", "/v1/scenes/{id}", 200, path_parameters=scene, headers={"If-Match": '"2"'},
                  raw=("application/json-patch+json", json.dumps(patch)))

    flow.call("POST", "/v1/import/{format}", 200, path_parameters={"format": "recursive-description"},
              raw=("text/plain", fixture("recursiveDescription_01_sentry_mockViewHierarchyData.txt")))
    flow.call("POST", "/v1/import/{format}", 200, path_parameters={"format": "xcuitest"},
              raw=("text/plain", fixture("xcuitest_debugDescription_01_appium-13681_excerpt.txt")))
    imported = flow.call("POST", "/v1/import/{format}", 201, path_parameters={"format": "appium"},
                         query={"store": "true"},
                         raw=("application/xml",
                              fixture("appium_pagesource_01_shirates-core_XmlDataIos_iOS1.txt"))).json()
    # One door: the format recognised, a named new scene, then a re-capture as its next version.
    detail = (examples / "detail.dump.txt").read_text()
    flow.call("POST", "/v1/import", 200, raw=("application/octet-stream", detail))
    captured = flow.call("POST", "/v1/import", 201, query={"name": "Detail"},
                         raw=("application/x-www-form-urlencoded", detail)).json()
    if "id" in captured:
        flow.call("POST", "/v1/import", 200, query={"scene": captured["id"]}, headers={"If-Match": '"1"'},
                  raw=("text/plain", (examples / "detail-next-build.dump.txt").read_text()))
        flow.call("DELETE", "/v1/scenes/{id}", 204, path_parameters={"id": captured["id"]})

    flow.call("DELETE", screenshot_path, 204, path_parameters=shot)
    flow.call("GET", screenshot_path, 404, path_parameters=shot)
    flow.call("DELETE", "/v1/scenes/{id}", 204, path_parameters=scene)
    if "id" in imported:
        flow.call("DELETE", "/v1/scenes/{id}", 204, path_parameters={"id": imported["id"]})
    flow.call("GET", "/v1/scenes/{id}", 404, path_parameters=scene)
    return flow.report()


if __name__ == "__main__":
    sys.exit(main())
