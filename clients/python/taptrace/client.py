"""The HTTP client: one method per thing a test harness asks TapTrace."""
from __future__ import annotations

import ipaddress
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import events as _events
from .errors import TapTraceError, TapTraceProblem
from .models import (
    AuditReport,
    CheckReport,
    Comparison,
    Explanation,
    HitTest,
    ImportResult,
    Result,
    ReplayReport,
    Run,
    RunSummary,
    Scene,
    SceneListItem,
    Screenshot,
    WhyAnswer,
    _time,
)

#: A scene document as a dict, or a path (``pathlib.Path``) to a ``.scene.json`` file.
SceneDocument = Union[Mapping[str, Any], "os.PathLike[str]"]
#: A stored scene: its id (``scn_…``) or the ``Scene`` an upload returned.
SceneRef = Union[str, Scene]
#: A touches document (dict), or just its list of gestures and ``events`` records (the lists
#: that ``taptrace.events`` helpers return may be given as they are).
Touches = Union[Mapping[str, Any], Sequence[Any]]
#: An element name (view id, else accessibilityIdentifier, else label) or a screen point.
Target = Union[str, Tuple[float, float]]

IMPORT_FORMATS = ("auto", "recursive-description", "appium", "xcuitest")


class TapTrace:
    """A client of one ``taptrace serve``.

    >>> tt = TapTrace("http://127.0.0.1:8080")
    >>> scene = tt.upload(pathlib.Path("examples/checkout.scene.json"))
    >>> run = tt.tap(scene, "buyButton", label="Buy button")
    >>> run.first_responder.id, run.action_names
    ('buyButton', ['buyTapped:'])

    Scenes are passed as documents (a dict, or a ``pathlib.Path`` to a JSON file: a plain
    ``str`` is always a scene id) or as stored scenes (an id or the ``Scene`` an upload
    returned). Methods that take either run statelessly on a document (nothing is stored; the
    answer is a ``Result``) and store the run on a stored scene (the answer is a ``Run``, which
    has the same accessors plus its id, label and version). Every error answer raises
    ``TapTraceProblem``; an unreachable server raises ``TapTraceError``.

    ``timeout`` is the socket timeout of each request in seconds. A loopback ``base_url``
    (``127.0.0.1``, ``::1``, ``localhost``) is reached directly even when ``HTTP_PROXY`` is set.

    ``token`` is the bearer token of a server started with ``--auth-token-file`` (sent as
    ``Authorization: Bearer``); without it, ``$TAPTRACE_TOKEN`` is used when set. It is never
    part of the client's ``repr`` or of an error message.
    """

    def __init__(self, base_url: str, timeout: float = 30.0, token: Optional[str] = None):
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"base_url must be an http(s) URL such as http://127.0.0.1:8080, "
                             f"not {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        if token is None:
            token = os.environ.get("TAPTRACE_TOKEN", "").strip() or None
        if token is not None and (not token or any(not 33 <= ord(c) < 127 or c == "," for c in token)):
            raise ValueError("token must be visible ASCII without spaces or commas, as in the "
                             "server's token file")
        self._token = token
        handlers = [urllib.request.ProxyHandler({})] if _is_loopback(parsed.hostname) else []
        self._opener = urllib.request.build_opener(*handlers)

    def __repr__(self) -> str:
        return f"TapTrace({self.base_url!r})"

    # ----- engine (nothing stored) -----

    def dispatch(self, scene: Union[SceneDocument, SceneRef], touches: Touches, *,
                 knobs: Optional[Mapping[str, Any]] = None, label: Optional[str] = None,
                 version: Optional[int] = None) -> Union[Result, Run]:
        """Runs touches against a scene.

        A scene document (dict or path): ``POST /v1/dispatch``, nothing stored, a ``Result``.
        A stored scene (id or ``Scene``): ``POST /v1/scenes/{id}/dispatch`` against its latest
        version (or ``version``), the run kept in the scene's history under ``label`` (the
        test's name), a ``Run``. ``touches`` is a touches document or a list of gestures
        (``[{"tap": [100, 332]}, {"tap": {"view": "buyButton"}}]``); ``format`` and gesture
        times may be left out (docs/touches.md). The list may hold ``events`` records too, such
        as those of ``taptrace.events`` (``[events.key_press("s", "command"),
        events.shake(t=1)]``): they are put in time order and presses without an id named.
        """
        body: Dict[str, Any] = {"touches": _touches(touches)}
        if knobs is not None:
            body["knobs"] = dict(knobs)
        if _is_stored(scene):
            if label is not None:
                body["label"] = label
            if version is not None:
                body["version"] = version
            return Run.from_json(self._post(f"/v1/scenes/{_scene_id(scene)}/dispatch", body))
        if label is not None or version is not None:
            raise TypeError("label and version apply to a stored scene (an id or a Scene); "
                            "a scene document is dispatched without storing anything")
        body = {"scene": _document(scene), **body}
        return Result.from_json(self._post("/v1/dispatch", body))

    def tap(self, scene: Union[SceneDocument, SceneRef], element: Target, *,
            label: Optional[str] = None, version: Optional[int] = None,
            knobs: Optional[Mapping[str, Any]] = None) -> Union[Result, Run]:
        """Taps an element — a view id, else an accessibilityIdentifier, else a label — at the
        centre of its frame on screen, as XCUITest and Appium do; or a point ``(x, y)``.

        ``dispatch`` with one ``{"tap": {"view": element}}`` gesture, so it is stored (a
        ``Run``) on a stored scene and stateless (a ``Result``) on a document. The answer's
        ``element()`` says whether the element was hittable and, if not, why. An unknown or
        ambiguous name raises ``TapTraceProblem`` (422, pointer ``/touches/gestures/0/tap/view``,
        the candidates in the detail).
        """
        return self.dispatch(scene, [{"tap": _target(element)}], knobs=knobs, label=label,
                             version=version)

    def press_key(self, scene: Union[SceneDocument, SceneRef], key: str, *modifiers: str,
                  label: Optional[str] = None, version: Optional[int] = None,
                  knobs: Optional[Mapping[str, Any]] = None) -> Union[Result, Run]:
        """Presses a hardware keyboard's key with modifiers (``press_key(scene, "s",
        "command")``: ⌘S) and releases it 0.08 s later, as press ``P1`` sent to the key
        window's first responder. ``key`` is one character or a key's name (``Return``,
        ``Escape``, ``Up``, ``F1``; see ``taptrace.events.key``). Stored or stateless as
        ``dispatch``; the answer's ``press("P1")`` says where the key went."""
        return self.dispatch(scene, _events.key_press(key, *modifiers), knobs=knobs, label=label,
                             version=version)

    def shake(self, scene: Union[SceneDocument, SceneRef], *, label: Optional[str] = None,
              version: Optional[int] = None,
              knobs: Optional[Mapping[str, Any]] = None) -> Union[Result, Run]:
        """Shakes the device: a shake motion that begins at 0 and ends 0.4 s later. The
        answer's ``motions`` say who received each phase and who handled it."""
        return self.dispatch(scene, _events.shake(), knobs=knobs, label=label, version=version)

    def remote_control(self, scene: Union[SceneDocument, SceneRef], subtype: str, *,
                       label: Optional[str] = None, version: Optional[int] = None,
                       knobs: Optional[Mapping[str, Any]] = None) -> Union[Result, Run]:
        """Sends one remote-control event (``togglePlayPause``, ``nextTrack``, …); the answer's
        ``remote_controls`` say where it went."""
        return self.dispatch(scene, _events.remote_control(subtype), knobs=knobs, label=label,
                             version=version)

    def why(self, subject: Union[Mapping[str, Any], "os.PathLike[str]", str, RunSummary], *,
            recognizer: Optional[str] = None, action: Optional[str] = None,
            view: Optional[str] = None, first_responder: bool = False,
            expect: Optional[str] = None) -> WhyAnswer:
        """Why a recognizer, an action, a view or the first responder ended up as it did.

        ``subject`` is a dispatch request (``{"scene", "touches", "knobs"?}``, dict or path:
        ``POST /v1/why``) or a stored run (its id or the ``Run``: ``POST /v1/runs/{id}/why``).
        Ask exactly one question; ``expect`` (``fired``, ``not-fired``, ``hit``) adds up to five
        verified changes that give that outcome.
        """
        question: Dict[str, Any] = {}
        if recognizer is not None:
            question["recognizer"] = recognizer
        if action is not None:
            question["action"] = action
        if view is not None:
            question["view"] = view
        if first_responder:
            question["firstResponder"] = True
        if len(question) != 1:
            raise TypeError("ask exactly one of recognizer=, action=, view=, first_responder=True")
        if expect is not None:
            question["expect"] = expect
        if isinstance(subject, (str, RunSummary)):
            path = f"/v1/runs/{_quote(_run_id(subject))}/why"
            return WhyAnswer.from_json(self._post(path, question))
        return WhyAnswer.from_json(self._post("/v1/why", {**_document(subject), **question}))

    def check(self, case: Union[Mapping[str, Any], "os.PathLike[str]",
                                Sequence[Union[Mapping[str, Any], "os.PathLike[str]"]]]
              ) -> CheckReport:
        """Runs test files (``*.case.json``, docs/test-files.md): one case (dict or path) or a
        list of them in one request. A failing case is an answer (``report.ok`` is false, each
        failed expectation in ``cases[i].failures``); an invalid case raises
        ``TapTraceProblem`` (422, pointers under ``/cases/N`` for a list) and runs nothing."""
        if isinstance(case, (Mapping, os.PathLike)):
            body: Dict[str, Any] = _document(case)
        else:
            body = {"cases": [_document(c) for c in case]}
        return CheckReport.from_json(self._post("/v1/check", body))

    def audit(self, scene: Union[SceneDocument, SceneRef], *, version: Optional[int] = None,
              knobs: Optional[Mapping[str, Any]] = None) -> AuditReport:
        """Can every interactive element be tapped (docs/audit.md)? A document is audited
        statelessly (``POST /v1/audit``; ``knobs`` are merged into its own ``knobs``), a stored
        scene at its latest version or ``version``. ``report.ok`` is the verdict."""
        if _is_stored(scene):
            body: Dict[str, Any] = {}
            if version is not None:
                body["version"] = version
            if knobs is not None:
                body["knobs"] = dict(knobs)
            return AuditReport.from_json(self._post(f"/v1/scenes/{_scene_id(scene)}/audit", body))
        if version is not None:
            raise TypeError("version applies to a stored scene (an id or a Scene)")
        document = _document(scene)
        if knobs is not None:
            document = {**document, "knobs": {**document.get("knobs", {}), **knobs}}
        return AuditReport.from_json(self._post("/v1/audit", document))

    # ----- scenes -----

    def upload(self, scene: SceneDocument, name: Optional[str] = None) -> Scene:
        """Stores a scene document as version 1 of a new scene (``POST /v1/scenes``).
        ``name`` replaces the document's own ``name``."""
        document = _document(scene)
        if name is not None:
            document = {**document, "name": name}
        return Scene.from_json(self._post("/v1/scenes", document))

    def put_version(self, scene: SceneRef, document: SceneDocument, *,
                    if_match: Union[int, str, None] = None) -> Scene:
        """Stores a new version of a stored scene (``PUT /v1/scenes/{id}``); earlier versions
        and their runs stay. ``if_match=N`` stores it only while N is still the latest version
        (else ``TapTraceProblem`` 409); ``"*"`` or ``None`` always stores it."""
        headers = {}
        if if_match is not None:
            headers["If-Match"] = _etag(if_match)
        return Scene.from_json(self._request("PUT", f"/v1/scenes/{_scene_id(scene)}",
                                             body=_document(document), headers=headers))

    def scene(self, scene: SceneRef, version: Optional[int] = None) -> Scene:
        """A stored scene's latest version (or ``version``) with its ``document``."""
        return Scene.from_json(self._get(f"/v1/scenes/{_scene_id(scene)}", {"version": version}))

    def scenes(self, page_size: int = 50) -> Iterator[SceneListItem]:
        """Every stored scene, most recently created first; pages are fetched as you iterate."""
        for item in self._pages("/v1/scenes", {"limit": page_size}):
            yield SceneListItem(id=item["id"], name=item.get("name"),
                                latest_version=item["latestVersion"],
                                created_at=_time(item["createdAt"]),
                                updated_at=_time(item["updatedAt"]))

    def versions(self, scene: SceneRef) -> List[Dict[str, Any]]:
        """A scene's versions, oldest first, as JSON objects (``version``, ``createdAt``,
        ``contentHash``, ``counts``, ``size``)."""
        return self._get(f"/v1/scenes/{_scene_id(scene)}/versions")["items"]

    def delete_scene(self, scene: SceneRef) -> None:
        """Deletes a scene with all its versions and runs."""
        self._request("DELETE", f"/v1/scenes/{_scene_id(scene)}")

    def put_screenshot(self, scene: SceneRef, image: Union[bytes, "os.PathLike[str]"], *,
                       version: Optional[int] = None,
                       media_type: Optional[str] = None) -> Screenshot:
        """Attaches a screenshot (PNG or JPEG) to a scene version, replacing the one it had
        (``PUT /v1/scenes/{id}/versions/{n}/screenshot``). ``version`` defaults to the version
        of a ``Scene`` passed in, else to the scene's latest. ``media_type`` defaults to what
        the image's first bytes say. The viewer draws it under the views' boxes."""
        if isinstance(image, os.PathLike):
            with open(image, "rb") as f:
                data = f.read()
        else:
            data = bytes(image)
        media_type = media_type or _image_type(data)
        path = self._screenshot_path(scene, version)
        answer = self._request("PUT", path, data=data, headers={"Content-Type": media_type})
        return Screenshot.from_json(answer)

    def screenshot(self, scene: SceneRef, version: Optional[int] = None) -> bytes:
        """A scene version's screenshot, the image file's bytes (``TapTraceProblem`` 404 when
        it has none). ``version`` as in ``put_screenshot``."""
        return self._request("GET", self._screenshot_path(scene, version), answer="bytes")

    def delete_screenshot(self, scene: SceneRef, version: Optional[int] = None) -> None:
        """Removes a scene version's screenshot (the version stays)."""
        self._request("DELETE", self._screenshot_path(scene, version))

    def _screenshot_path(self, scene: SceneRef, version: Optional[int]) -> str:
        if version is None:
            version = scene.version if isinstance(scene, Scene) else self.scene(scene).version
        return f"/v1/scenes/{_scene_id(scene)}/versions/{int(version)}/screenshot"

    def hit_test(self, scene: SceneRef, point: Tuple[float, float], *,
                 version: Optional[int] = None,
                 knobs: Optional[Mapping[str, Any]] = None) -> HitTest:
        """Which view of a stored scene a screen point reaches, the path and the trace."""
        body = _point_body(point, version, knobs)
        return HitTest.from_json(self._post(f"/v1/scenes/{_scene_id(scene)}/hit-test", body))

    def explain(self, scene: SceneRef, point: Tuple[float, float], target: str, *,
                version: Optional[int] = None,
                knobs: Optional[Mapping[str, Any]] = None) -> Explanation:
        """Why ``target`` (a view or recognizer id) is or is not hit at ``point``."""
        body = {**_point_body(point, version, knobs), "target": target}
        return Explanation.from_json(self._post(f"/v1/scenes/{_scene_id(scene)}/explain", body))

    # ----- runs -----

    def run(self, run: Union[str, RunSummary]) -> Run:
        """A stored run with its request and result."""
        return Run.from_json(self._get(f"/v1/runs/{_quote(_run_id(run))}"))

    def run_text(self, run: Union[str, RunSummary], names: str = "objc") -> str:
        """A stored run as the plain-text trace (``names``: ``objc``, ``swift`` or ``both``)."""
        return self._request("GET", f"/v1/runs/{_quote(_run_id(run))}",
                             query={"format": "text", "names": names}, answer="text")

    def chrome_trace(self, run: Union[str, RunSummary]) -> Dict[str, Any]:
        """A stored run as Chrome trace-event JSON (Perfetto UI opens it)."""
        return self._get(f"/v1/runs/{_quote(_run_id(run))}", {"format": "chrome"})

    def runs(self, scene: SceneRef, label: Optional[str] = None,
             page_size: int = 50) -> Iterator[RunSummary]:
        """A scene's history, newest first, optionally only the runs stored with ``label``.
        Pages are fetched as you iterate (cursor pagination: runs stored meanwhile do not
        shift later pages)."""
        query = {"limit": page_size, "label": label}
        for item in self._pages(f"/v1/scenes/{_scene_id(scene)}/runs", query):
            yield RunSummary.from_json(item)

    def replay(self, scene: SceneRef, from_version: int, to_version: int) -> ReplayReport:
        """Re-runs every stored run of ``from_version`` against ``to_version`` (the new runs
        are stored, keeping their labels) and reports which outcomes changed, and how."""
        body = {"from": from_version, "to": to_version}
        return ReplayReport.from_json(self._post(f"/v1/scenes/{_scene_id(scene)}/replay", body))

    def compare(self, a: Union[str, RunSummary], b: Union[str, RunSummary]) -> Comparison:
        """What differs between run ``a`` (before) and run ``b`` (after): outcome differences
        and an aligned diff of the traces."""
        path = f"/v1/runs/{_quote(_run_id(a))}/compare/{_quote(_run_id(b))}"
        return Comparison.from_json(self._get(path))

    # ----- import -----

    def import_dump(self, dump: Union[str, bytes, "os.PathLike[str]"], format: str = "auto", *,
                    store: bool = False, name: Optional[str] = None,
                    scene: Optional[SceneRef] = None, ids: Optional[str] = None,
                    if_match: Union[int, str, None] = None) -> ImportResult:
        """A scene from what a running app printed: ``recursiveDescription`` (with the
        debugger's add-ons), Appium's page source or XCUITest's ``debugDescription``.

        ``dump`` is the text (``str``/``bytes``) or a path to it. ``format`` is ``auto`` (the
        server recognises it; ``result.format`` says which), ``recursive-description``,
        ``appium`` or ``xcuitest``. ``store=True`` (or ``name``) stores it as a new scene;
        ``scene`` stores it as that scene's next version (``if_match`` as in ``put_version``).
        ``ids="address"`` names views by class and address instead of what a relaunch keeps.
        Malformed input raises ``TapTraceProblem`` (422) with its ``line`` and ``column``.
        """
        if format not in IMPORT_FORMATS:
            raise ValueError(f"format must be one of {', '.join(IMPORT_FORMATS)}, not {format!r}")
        if isinstance(dump, os.PathLike):
            with open(dump, "rb") as f:
                data = f.read()
        elif isinstance(dump, str):
            data = dump.encode("utf-8")
        else:
            data = bytes(dump)
        query = {"store": "true" if store else None, "name": name,
                 "scene": None if scene is None else _scene_id(scene), "ids": ids}
        headers = {"Content-Type": "text/plain; charset=utf-8"}
        if if_match is not None:
            headers["If-Match"] = _etag(if_match)
        path = "/v1/import" if format == "auto" else f"/v1/import/{format}"
        answer = self._request("POST", path, query=query, data=data, headers=headers)
        return ImportResult.from_json(answer)

    # ----- system -----

    def health(self) -> Dict[str, Any]:
        """``GET /health``: ``{"status": "ok", "version", "database": {…}}``."""
        return self._get("/health")

    # ----- HTTP -----

    def _get(self, path: str, query: Optional[Mapping[str, Any]] = None) -> Any:
        return self._request("GET", path, query=query)

    def _post(self, path: str, body: Any) -> Any:
        return self._request("POST", path, body=body)

    def _pages(self, path: str, query: Mapping[str, Any]) -> Iterator[Dict[str, Any]]:
        cursor = None
        while True:
            page = self._get(path, {**query, "cursor": cursor})
            yield from page["items"]
            cursor = page.get("nextCursor")
            if not cursor:
                return

    def _request(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None,
                 body: Any = None, data: Optional[bytes] = None,
                 headers: Optional[Mapping[str, str]] = None, answer: str = "json") -> Any:
        """One request; the answer as JSON (``answer="json"``), text or bytes."""
        url = self.base_url + path
        params = {k: v for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        all_headers = {"Accept": "application/json, application/problem+json"}
        if body is not None:
            # ensure_ascii=False with UTF-8 keeps labels and names readable in the server's log.
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        if self._token is not None:
            all_headers["Authorization"] = "Bearer " + self._token
        request = urllib.request.Request(url, data=data, method=method, headers=all_headers)
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                payload = response.read()
        except urllib.error.HTTPError as error:
            raise _problem(error, method, url) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise TapTraceError(f"{method} {url}: cannot reach taptrace at {self.base_url}: "
                                f"{reason}") from error
        if answer == "bytes":
            return payload
        if answer == "text":
            return payload.decode("utf-8")
        if not payload:
            return None
        try:
            return json.loads(payload)
        except ValueError as error:
            raise TapTraceError(f"{method} {url}: the answer is not JSON: {error}: "
                                f"{payload[:200]!r}") from error


# ----- helpers -----

def _problem(error: urllib.error.HTTPError, method: str, url: str) -> TapTraceProblem:
    payload = error.read() or b""
    try:
        document = json.loads(payload)
    except ValueError:
        document = None
    if not isinstance(document, dict) or "status" not in document:
        text = payload.decode("utf-8", "replace").strip()
        document = {"type": "about:blank", "title": error.reason or "HTTP error",
                    "status": error.code, "detail": text[:500]}
    return TapTraceProblem(document, method=method, url=url)


def _image_type(data: bytes) -> str:
    """The media type an image's magic bytes say; the server checks them against it again."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    raise ValueError("not a PNG or JPEG image: pass media_type= to send it anyway")


def _is_loopback(host: Optional[str]) -> bool:
    if host is None:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_stored(scene: Any) -> bool:
    return isinstance(scene, (str, Scene))


def _scene_id(scene: SceneRef) -> str:
    if isinstance(scene, Scene):
        return _quote(scene.id)
    if isinstance(scene, str):
        if scene.endswith(".json"):
            # A str is always an id; a file name here is a slip that would otherwise be a 404.
            raise TypeError(f"{scene!r} is taken as a scene id; pass pathlib.Path({scene!r}) "
                            f"to send the file's document")
        return _quote(scene)
    raise TypeError(f"a stored scene is its id (str) or a Scene, not {type(scene).__name__}")


def _run_id(run: Union[str, RunSummary]) -> str:
    if isinstance(run, RunSummary):
        return run.id
    if isinstance(run, str):
        return run
    raise TypeError(f"a run is its id (str) or a Run, not {type(run).__name__}")


def _quote(segment: str) -> str:
    return urllib.parse.quote(segment, safe="")


def _document(value: Any) -> Dict[str, Any]:
    """A JSON object given as a mapping or as a path to a file holding one."""
    if isinstance(value, os.PathLike):
        with open(value, encoding="utf-8") as f:
            value = json.load(f)
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a JSON object (a dict) or a path to a JSON file, "
                        f"not {type(value).__name__}")
    return dict(value)


def _touches(touches: Touches) -> Dict[str, Any]:
    if isinstance(touches, Mapping):
        document = dict(touches)
        if "events" in document:
            document["events"] = _events.name_presses(document["events"])
        return document
    if isinstance(touches, (str, bytes)) or not isinstance(touches, Sequence):
        raise TypeError("touches must be a touches document (dict) or a list of gestures and "
                        f"events records, not {type(touches).__name__}")
    items: List[Any] = []
    for item in touches:
        # A helper of taptrace.events gives a list of records: taken as they are.
        items.extend(item if isinstance(item, list) else [item])
    if not any(_events.is_record(item) for item in items):
        return {"gestures": items}
    document = _events.touches(items)
    del document["format"]
    return document


def _target(element: Target) -> Any:
    if isinstance(element, str):
        return {"view": element}
    if isinstance(element, (tuple, list)) and len(element) == 2:
        return [element[0], element[1]]
    raise TypeError(f"an element is a view name (str) or a point (x, y), not {element!r}")


def _etag(version: Union[int, str]) -> str:
    if isinstance(version, int) and not isinstance(version, bool):
        return f'"{version}"'
    if version == "*" or (isinstance(version, str) and version.startswith('"')):
        return version
    raise ValueError(f'if_match is a version number, "*" or an entity tag, not {version!r}')


def _point_body(point: Tuple[float, float], version: Optional[int],
                knobs: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    body: Dict[str, Any] = {"point": [point[0], point[1]]}
    if version is not None:
        body["version"] = version
    if knobs is not None:
        body["knobs"] = dict(knobs)
    return body
