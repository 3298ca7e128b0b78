"""Typed views of the server's answers.

Every class is a frozen dataclass built from a JSON document. Attribute names are the JSON
members in snake_case (``firstResponder`` → ``first_responder``); where a JSON name cannot be a
Python attribute the docstring says so (``class`` → ``class_name``, ``from``/``to`` of a trace
state entry → ``from_state``/``to_state``). Points and sizes are tuples. Each top-level answer
keeps the whole document in ``raw`` (left out of ``repr`` and ``==``), so a member this module
does not name — one a newer server adds — is still there.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Dict, List, Optional, Tuple

from .errors import Issue

Point = Tuple[float, float]


def _time(value: Optional[str]) -> Optional[datetime]:
    # The server writes RFC 3339 UTC with a "Z", which fromisoformat reads only from 3.11 on.
    if value is None:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _point(value: Any) -> Optional[Point]:
    return None if value is None else (value[0], value[1])


@dataclass(frozen=True)
class Ref:
    """A view, recognizer or responder as the server names it: ``{"id", "class"}``."""

    id: str
    class_name: str  # JSON "class"

    @classmethod
    def from_json(cls, d: Optional[Dict[str, Any]]) -> Optional["Ref"]:
        return None if d is None else cls(id=d["id"], class_name=d["class"])

    def __str__(self) -> str:
        return f"{self.id} ({self.class_name})"


def _refs(items: Optional[List[Dict[str, Any]]]) -> List[Ref]:
    return [Ref(id=d["id"], class_name=d["class"]) for d in items or []]


# ----- result document (taptrace/result@1) -----

@dataclass(frozen=True)
class Responder:
    """An entry of ``responderChain``: ``role`` is ``view``, ``viewController``, ``window``,
    ``windowScene``, ``application``, ``appDelegate`` or ``cycle``."""

    id: str
    class_name: str  # JSON "class"
    role: str


@dataclass(frozen=True)
class Touch:
    """An entry of ``touches``: where one touch went and how it ended."""

    id: str
    window: Optional[str]
    hit_test_view: Optional[str]  # hitTestView
    recognizers: List[str]
    refused: Optional[str]
    final_phase: str  # finalPhase
    cancelled_by: Optional[str]  # cancelledBy


@dataclass(frozen=True)
class RecognizerOutcome:
    """An entry of ``recognizers``: every state the recognizer was in, in order (the initial
    ``possible``, each change, ``possible`` again after each reset)."""

    id: str
    class_name: str  # JSON "class"
    view: str
    states: List[str]

    @property
    def outcome(self) -> str:
        """The last state other than ``possible`` (``ended``, ``failed``, ``cancelled``, …), or
        ``possible`` when it never left it. A discrete recognition is ``ended``."""
        for state in reversed(self.states):
            if state != "possible":
                return state
        return "possible"


@dataclass(frozen=True)
class Action:
    """An action sent: ``via`` is ``target``, ``responderChain``, ``unhandled`` (no ``target``),
    ``recognizer`` (``sender`` is the recognizer's id) or ``keyCommand`` (``sender`` is the key
    command's id, ``VC.keyCommands[0]``). ``events`` are the control events
    that sent it (empty in a history item, which does not carry them)."""

    t: float
    action: str
    sender: str
    target: Optional[str]
    via: str
    events: List[str] = field(default_factory=list)
    state: Optional[str] = None  # a recognizer action's state

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Action":
        return cls(t=d["t"], action=d["action"], sender=d["sender"], target=d.get("target"),
                   via=d["via"], events=list(d.get("events") or []), state=d.get("state"))


@dataclass(frozen=True)
class KeyResponder:
    """``keyResponder``: the key window's first responder at the start and at the end of the
    run (F2); ``None`` when it had none."""

    initial: Optional[str]
    final: Optional[str]


@dataclass(frozen=True)
class Press:
    """An entry of ``presses``: where one press (a key, or a remote's button) went, from its
    ``began`` on. ``type`` is ``keyboard`` or a ``UIPress.PressType``; ``key`` the key's
    ``charactersIgnoringModifiers`` (``None`` for other types); ``responder`` the key responder
    it was bound to and ``source`` why (``firstResponder``, or ``fallback`` when the key window
    had none, N3); ``chain`` the responder chain from it; ``delivered`` who received
    ``pressesBegan:withEvent:``, in order; ``handled_by`` who consumed it (``UIApplication``
    when text input took the key there, KC1); ``key_command`` the id of the key command
    performed (KC4); ``text_input`` the responder whose text input took the key (KC2)."""

    id: str
    type: str
    key: Optional[str]
    responder: Optional[str]
    source: Optional[str]
    chain: List[str]
    delivered: List[str]
    handled_by: Optional[str]  # handledBy
    key_command: Optional[str]  # keyCommand
    text_input: Optional[str]  # textInput
    recognizers: List[str]
    final_phase: str  # finalPhase

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Press":
        return cls(id=d["id"], type=d["type"], key=d.get("key"), responder=d.get("responder"),
                   source=d.get("source"), chain=list(d.get("chain", [])),
                   delivered=list(d.get("delivered", [])), handled_by=d.get("handledBy"),
                   key_command=d.get("keyCommand"), text_input=d.get("textInput"),
                   recognizers=list(d.get("recognizers", [])), final_phase=d["finalPhase"])


@dataclass(frozen=True)
class Delivery:
    """An entry of ``motions`` (``phase`` set: ``began``, ``ended``, ``cancelled``) or
    ``remote_controls``: the record's time, ``subtype`` (``shake``, or a remote-control
    subtype), the key responder and ``source`` as for a press, the chain, who received it and
    who handled it. ``dropped`` is true for a remote-control record the application does not
    receive (RC3): nothing was delivered."""

    t: float
    subtype: str
    responder: Optional[str]
    source: Optional[str]
    chain: List[str]
    delivered: List[str]
    handled_by: Optional[str]  # handledBy
    phase: Optional[str] = None
    dropped: bool = False

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Delivery":
        return cls(t=d["t"], subtype=d["subtype"], responder=d.get("responder"),
                   source=d.get("source"), chain=list(d.get("chain", [])),
                   delivered=list(d.get("delivered", [])), handled_by=d.get("handledBy"),
                   phase=d.get("phase"), dropped=bool(d.get("dropped", False)))


@dataclass(frozen=True)
class ResponderChange:
    """An entry of ``responderChanges``: one ``become``/``resign`` record, its answer
    (``result``), and the first responder of the receiver's window before and after
    (``from_responder``/``to_responder`` are JSON ``from``/``to``)."""

    t: float
    call: str
    receiver: str
    result: bool
    from_responder: Optional[str]  # JSON "from"
    to_responder: Optional[str]  # JSON "to"

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "ResponderChange":
        return cls(t=d["t"], call=d["call"], receiver=d["receiver"], result=d["result"],
                   from_responder=d.get("from"), to_responder=d.get("to"))


@dataclass(frozen=True)
class Reason:
    """Why a view is not hit (``explain``'s reasons): a rule id of dispatch-rules.md (``H1``),
    its ``kind`` (``covered``, ``pruned``, ``outsideBounds``, ``override``, ``window``,
    ``deeperView``, ``disabledControl``, ``noWindow``; the audit adds ``zeroSize`` and
    ``offscreen``), the sentence, and the views it names (empty in a result's ``elements``)."""

    rule: str
    kind: str
    text: str
    views: List[Ref] = field(default_factory=list)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Reason":
        return cls(rule=d["rule"], kind=d["kind"], text=d["text"], views=_refs(d.get("views")))

    def __str__(self) -> str:
        return f"[{self.rule}] {self.text}"


@dataclass(frozen=True)
class Element:
    """An entry of ``elements``: a gesture that named a view (``{"tap": {"view": …}}``),
    checked as XCUITest's ``isHittable`` checks it. ``gesture`` is the gesture's index,
    ``view`` the id the name matched, ``point`` the view's centre on screen where the gesture
    touched, ``hit_test_view`` the view that point reaches (``None``: no window takes it), and
    ``reasons`` why it is not the element (deciding reason first; empty when hittable)."""

    gesture: int
    view: str
    point: Point
    hittable: bool
    hit_test_view: Optional[str]  # hitTestView
    reasons: List[Reason]


@dataclass(frozen=True)
class TraceEntry:
    """One trace entry (dispatch-rules.md §5.2). ``kind`` is ``call`` (``receiver``,
    ``selector``, ``swift``, ``args``, ``result``), ``state`` (``from_state`` and ``to_state``
    are JSON ``from`` and ``to``, with ``reason``) or ``marker`` (``marker``, ``args``)."""

    seq: int
    t: float
    cause: str
    kind: str
    receiver: Optional[Ref]
    depth: int
    parent: Optional[int]
    selector: Optional[str] = None
    swift: Optional[str] = None
    args: Optional[Dict[str, Any]] = None
    result: Any = None
    from_state: Optional[str] = None  # JSON "from"
    to_state: Optional[str] = None  # JSON "to"
    reason: Optional[str] = None
    marker: Optional[str] = None
    discrete: Optional[bool] = None
    note: Optional[str] = None

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "TraceEntry":
        return cls(seq=d["seq"], t=d["t"], cause=d["cause"], kind=d["kind"],
                   receiver=Ref.from_json(d.get("receiver")), depth=d["depth"],
                   parent=d.get("parent"), selector=d.get("selector"), swift=d.get("swift"),
                   args=d.get("args"), result=d.get("result"), from_state=d.get("from"),
                   to_state=d.get("to"), reason=d.get("reason"), marker=d.get("marker"),
                   discrete=d.get("discrete"), note=d.get("note"))

    @property
    def call(self) -> Optional[str]:
        """``"<receiver id> <selector>"`` for a call (the form test files use), else ``None``."""
        if self.kind != "call" or self.receiver is None or self.selector is None:
            return None
        return f"{self.receiver.id} {self.selector}"


class _Outcome:
    """Accessors shared by a result and a stored run (which carries one)."""

    first_responder: Optional[Ref]
    responder_chain: List[Responder]
    touches: List[Touch]
    recognizers: List[RecognizerOutcome]
    actions: List[Action]
    elements: List[Element]
    trace: List[TraceEntry]
    key_responder: Optional[KeyResponder]
    presses: List[Press]
    motions: List[Delivery]
    remote_controls: List[Delivery]
    responder_changes: List[ResponderChange]
    warnings: List[Issue]

    @property
    def chain_ids(self) -> List[str]:
        """The ids of ``responder_chain``, first responder first."""
        return [r.id for r in self.responder_chain]

    @property
    def action_names(self) -> List[str]:
        """The selectors of ``actions``, in the order they were sent."""
        return [a.action for a in self.actions]

    @property
    def calls(self) -> List[str]:
        """Every call of the trace as ``"<receiver id> <selector>"``, in order."""
        return [e.call for e in self.trace if e.call is not None]

    def recognizer(self, id: str) -> RecognizerOutcome:
        """The recognizer with this id; ``KeyError`` naming the ones there are."""
        return _find(self.recognizers, lambda r: r.id == id, "recognizer", id,
                     [r.id for r in self.recognizers])

    def touch(self, id: str = "T1") -> Touch:
        """The touch with this id; ``KeyError`` naming the ones there are."""
        return _find(self.touches, lambda t: t.id == id, "touch", id, [t.id for t in self.touches])

    def press(self, id: str = "P1") -> Press:
        """The press with this id; ``KeyError`` naming the ones there are."""
        return _find(self.presses, lambda p: p.id == id, "press", id, [p.id for p in self.presses])

    def element(self, view: Optional[str] = None) -> Element:
        """The element entry for this view id (the only one when ``view`` is ``None``)."""
        if view is None:
            if len(self.elements) != 1:
                raise KeyError(f"{len(self.elements)} element entries; name the view")
            return self.elements[0]
        return _find(self.elements, lambda e: e.view == view, "element", view,
                     [e.view for e in self.elements])


def _find(items, predicate, what, key, known):
    for item in items:
        if predicate(item):
            return item
    raise KeyError(f"no {what} {key!r}; there are: {', '.join(known) or 'none'}")


@dataclass(frozen=True)
class Result(_Outcome):
    """A result document (``taptrace/result@1``), as ``POST /v1/dispatch`` answers it.

    ``elements`` is empty when no gesture named an element (the JSON has no ``elements`` then).
    ``knobs`` are the effective knob values and ``input`` the touches as dispatched (gestures
    expanded into events), both as JSON. A run with presses, shakes, remote-control events or
    first responder changes (contract §2.1) fills ``key_responder``, ``presses``, ``motions``,
    ``remote_controls`` and ``responder_changes``; for touches alone ``key_responder`` is
    ``None`` and the lists are empty (the JSON has none of them). ``warnings`` are what is legal
    in the scene but almost surely a mistake (a key command whose action nobody implements),
    each with the pointer into the scene document; empty when there is none."""

    first_responder: Optional[Ref]  # firstResponder
    responder_chain: List[Responder]  # responderChain
    touches: List[Touch]
    recognizers: List[RecognizerOutcome]
    actions: List[Action]
    elements: List[Element]
    key_responder: Optional[KeyResponder]  # keyResponder
    presses: List[Press]
    motions: List[Delivery]
    remote_controls: List[Delivery]  # remoteControls
    responder_changes: List[ResponderChange]  # responderChanges
    warnings: List[Issue]
    # Left out of repr: a failed assertion prints the outcome, not hundreds of trace entries.
    trace: List[TraceEntry] = field(repr=False)
    knobs: Dict[str, Any] = field(repr=False)
    input: Dict[str, Any] = field(repr=False)
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Result":
        return cls(
            first_responder=Ref.from_json(d.get("firstResponder")),
            responder_chain=[Responder(id=r["id"], class_name=r["class"], role=r["role"])
                             for r in d.get("responderChain", [])],
            touches=[Touch(id=t["id"], window=t.get("window"), hit_test_view=t.get("hitTestView"),
                           recognizers=list(t.get("recognizers", [])), refused=t.get("refused"),
                           final_phase=t["finalPhase"], cancelled_by=t.get("cancelledBy"))
                     for t in d.get("touches", [])],
            recognizers=[RecognizerOutcome(id=r["id"], class_name=r["class"], view=r["view"],
                                           states=list(r["states"]))
                         for r in d.get("recognizers", [])],
            actions=[Action.from_json(a) for a in d.get("actions", [])],
            elements=[Element(gesture=e["gesture"], view=e["view"], point=_point(e["point"]),
                              hittable=e["hittable"], hit_test_view=e.get("hitTestView"),
                              reasons=[Reason.from_json(r) for r in e.get("reasons", [])])
                      for e in d.get("elements", [])],
            key_responder=(KeyResponder(initial=d["keyResponder"].get("initial"),
                                        final=d["keyResponder"].get("final"))
                           if d.get("keyResponder") is not None else None),
            presses=[Press.from_json(p) for p in d.get("presses", [])],
            motions=[Delivery.from_json(m) for m in d.get("motions", [])],
            remote_controls=[Delivery.from_json(r) for r in d.get("remoteControls", [])],
            responder_changes=[ResponderChange.from_json(c) for c in d.get("responderChanges", [])],
            warnings=[Issue(pointer=w["pointer"], detail=w["detail"]) for w in d.get("warnings", [])],
            trace=[TraceEntry.from_json(e) for e in d.get("trace", [])],
            knobs=d.get("knobs", {}),
            input=d.get("input", {}),
            raw=d,
        )


# ----- stored runs -----

@dataclass(frozen=True)
class RunSummary:
    """A stored run as the history lists it (``GET /v1/scenes/{id}/runs``). ``outcome`` is the
    digest over first responder, chain, touches, recognizer states and actions: two runs with
    the same digest did the same thing. ``label`` is the harness's name for the run."""

    id: str
    scene_id: str  # sceneId
    scene_version: int  # sceneVersion
    created_at: datetime  # createdAt
    label: Optional[str]
    first_responder: Optional[Ref]  # firstResponder
    actions: List[Action]
    action_count: int  # actionCount
    outcome: str
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "RunSummary":
        return cls(id=d["id"], scene_id=d["sceneId"], scene_version=d["sceneVersion"],
                   created_at=_time(d["createdAt"]), label=d.get("label"),
                   first_responder=Ref.from_json(d.get("firstResponder")),
                   actions=[Action.from_json(a) for a in d.get("actions", [])],
                   action_count=d["actionCount"], outcome=d["outcome"], raw=d)


@dataclass(frozen=True)
class Run(RunSummary, _Outcome):
    """A stored run (``GET /v1/runs/{id}``, and the answer of a stored dispatch): the summary,
    the ``request`` it was dispatched with (JSON) and its ``result``. ``responder_chain``,
    ``touches``, ``recognizers``, ``elements``, ``trace``, ``actions`` (with their control
    events) and the members of non-touch events (``presses``, ``motions``, …) are the result's,
    so a run reads like a result."""

    request: Dict[str, Any] = field(repr=False)
    result: Result = field(repr=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Run":
        result = Result.from_json(d["result"])
        summary = RunSummary.from_json(d)
        return cls(id=summary.id, scene_id=summary.scene_id, scene_version=summary.scene_version,
                   created_at=summary.created_at, label=summary.label,
                   first_responder=summary.first_responder, actions=result.actions,
                   action_count=summary.action_count, outcome=summary.outcome, raw=d,
                   request=d.get("request", {}), result=result)

    @property
    def responder_chain(self) -> List[Responder]:
        return self.result.responder_chain

    @property
    def touches(self) -> List[Touch]:
        return self.result.touches

    @property
    def recognizers(self) -> List[RecognizerOutcome]:
        return self.result.recognizers

    @property
    def elements(self) -> List[Element]:
        return self.result.elements

    @property
    def trace(self) -> List[TraceEntry]:
        return self.result.trace

    @property
    def key_responder(self) -> Optional[KeyResponder]:
        return self.result.key_responder

    @property
    def presses(self) -> List[Press]:
        return self.result.presses

    @property
    def motions(self) -> List[Delivery]:
        return self.result.motions

    @property
    def remote_controls(self) -> List[Delivery]:
        return self.result.remote_controls

    @property
    def responder_changes(self) -> List[ResponderChange]:
        return self.result.responder_changes

    @property
    def warnings(self) -> List[Issue]:
        return self.result.warnings


# ----- scenes -----

@dataclass(frozen=True)
class Counts:
    views: int  # windows included
    windows: int
    recognizers: int  # declared ones (a scroll view's built-in ones are not counted)


@dataclass(frozen=True)
class Screenshot:
    """A scene version's screenshot, without the image (``TapTrace.screenshot`` fetches it):
    the ``screenshot`` member of a version, or the answer of ``put_screenshot``."""

    media_type: str  # mediaType: image/png or image/jpeg
    width: int  # pixels
    height: int
    size: int  # JSON "bytes": the image file's size
    sha256: str
    created_at: datetime  # createdAt
    href: str  # /v1/scenes/{id}/versions/{n}/screenshot
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Optional[Dict[str, Any]]) -> Optional["Screenshot"]:
        if d is None:
            return None
        return cls(media_type=d["mediaType"], width=d["width"], height=d["height"],
                   size=d["bytes"], sha256=d["sha256"], created_at=_time(d["createdAt"]),
                   href=d["href"], raw=d)


@dataclass(frozen=True)
class Scene:
    """A stored scene version: the answer of an upload, a new version, or
    ``GET /v1/scenes/{id}`` (which alone fills ``document``, the stored canonical scene, and
    ``screenshot`` when the version has one)."""

    id: str
    name: Optional[str]
    version: int
    latest_version: int  # latestVersion
    created_at: datetime  # createdAt: when this version was stored
    content_hash: str  # contentHash
    counts: Counts
    document: Optional[Dict[str, Any]] = field(default=None, repr=False, compare=False)  # JSON "scene"
    screenshot: Optional[Screenshot] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Scene":
        c = d["counts"]
        return cls(id=d["id"], name=d.get("name"), version=d["version"],
                   latest_version=d["latestVersion"], created_at=_time(d["createdAt"]),
                   content_hash=d["contentHash"],
                   counts=Counts(views=c["views"], windows=c["windows"],
                                 recognizers=c["recognizers"]),
                   document=d.get("scene"), screenshot=Screenshot.from_json(d.get("screenshot")),
                   raw=d)


@dataclass(frozen=True)
class SceneListItem:
    """An entry of ``GET /v1/scenes``."""

    id: str
    name: Optional[str]
    latest_version: int  # latestVersion
    created_at: datetime  # createdAt
    updated_at: datetime  # updatedAt


@dataclass(frozen=True)
class ImportResult:
    """A scene read from a dump (``POST /v1/import``): the importer that read it (``format``:
    ``recursive-description``, ``appium`` or ``xcuitest``), the scene document, and the
    importer's warnings (what changes a tap first). ``stored`` is the stored version when the
    import was stored (``store=True``, ``name`` or ``scene``), else ``None``."""

    format: str
    scene: Dict[str, Any] = field(repr=False)
    warnings: List[str]
    stored: Optional[Scene]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "ImportResult":
        stored = Scene.from_json(d) if "id" in d else None
        return cls(format=d["format"], scene=d["scene"], warnings=list(d.get("warnings", [])),
                   stored=stored, raw=d)


# ----- audit -----

@dataclass(frozen=True)
class AuditElement:
    """An interactive element of an audit. ``status`` is ``hittable``, ``partlyReachable``,
    ``offscreen`` or ``unreachable``; ``hittable`` is ``status == "hittable"`` (XCUITest's
    ``isHittable``); ``point`` is its centre on screen and ``hit_test_view`` what that centre
    reaches; ``reachable_point`` a point that does reach it when it is partly reachable."""

    id: str
    class_name: str  # JSON "class"
    interactions: List[str]
    point: Point
    size: Tuple[float, float]
    status: str
    hittable: bool
    hit_test_view: Optional[Ref]  # hitTestView
    reachable_fraction: float  # reachableFraction
    reachable_point: Optional[Point]  # reachablePoint
    reasons: List[Reason]
    small_target: bool  # smallTarget

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "AuditElement":
        return cls(id=d["id"], class_name=d["class"], interactions=list(d["interactions"]),
                   point=_point(d["point"]), size=_point(d["size"]), status=d["status"],
                   hittable=d["hittable"], hit_test_view=Ref.from_json(d.get("hitTestView")),
                   reachable_fraction=d["reachableFraction"],
                   reachable_point=_point(d.get("reachablePoint")),
                   reasons=[Reason.from_json(r) for r in d.get("reasons", [])],
                   small_target=d["smallTarget"])


_AUDIT_MARKS = {"hittable": "ok  ", "partlyReachable": "PART", "offscreen": "OFF ",
                "unreachable": "FAIL"}


@dataclass(frozen=True)
class AuditReport:
    """A tappability audit (docs/audit.md): every interactive element in document order and
    the counts. ``ok`` is the verdict (no element unreachable; partly reachable, offscreen and
    small targets are warnings). ``scene_id``/``scene_version`` are set for a stored scene."""

    elements: List[AuditElement]
    count: int
    hittable: int
    partly_reachable: int  # partlyReachable
    offscreen: int
    unreachable: int
    small: int
    scene_id: Optional[str]  # sceneId
    scene_version: Optional[int]  # sceneVersion
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "AuditReport":
        return cls(elements=[AuditElement.from_json(e) for e in d["elements"]],
                   count=d["count"], hittable=d["hittable"],
                   partly_reachable=d["partlyReachable"], offscreen=d["offscreen"],
                   unreachable=d["unreachable"], small=d["small"], scene_id=d.get("sceneId"),
                   scene_version=d.get("sceneVersion"), raw=d)

    @property
    def ok(self) -> bool:
        return self.unreachable == 0

    @property
    def unreachable_elements(self) -> List[AuditElement]:
        return [e for e in self.elements if e.status == "unreachable"]

    def element(self, id: str) -> AuditElement:
        return _find(self.elements, lambda e: e.id == id, "audited element", id,
                     [e.id for e in self.elements])

    def summary(self) -> str:
        """The audit as ``taptrace audit --text`` lays it out: one line per element, the
        reasons numbered under it, the counts last (for an assertion's message)."""
        lines = []
        for e in self.elements:
            where = f"({e.point[0]:g}, {e.point[1]:g})"
            line = f"{_AUDIT_MARKS.get(e.status, e.status)} {e.id} ({e.class_name}) at {where}: {e.status}"
            if not e.hittable:
                line += f"; the centre goes to {e.hit_test_view.id if e.hit_test_view else 'no view'}"
            if e.small_target:
                line += "; smaller than 44 × 44 pt"
            lines.append(line)
            lines.extend(f"    {i}. {r}" for i, r in enumerate(e.reasons, 1))
        lines.append(f"{self.count} interactive elements: {self.hittable} hittable, "
                     f"{self.partly_reachable} partly reachable, {self.offscreen} offscreen, "
                     f"{self.unreachable} unreachable; {self.small} smaller than 44 × 44 pt")
        return "\n".join(lines)


# ----- compare and replay -----

@dataclass(frozen=True)
class RunRef:
    """A run named by a comparison (``a``, ``b``)."""

    id: str
    scene_id: str  # sceneId
    scene_version: int  # sceneVersion
    created_at: datetime  # createdAt
    label: Optional[str]

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "RunRef":
        return cls(id=d["id"], scene_id=d["sceneId"], scene_version=d["sceneVersion"],
                   created_at=_time(d["createdAt"]), label=d.get("label"))


@dataclass(frozen=True)
class Difference:
    """An outcome difference: ``field`` is ``firstResponder``, ``responderChain``,
    ``touches[T1].hitTestView``, ``recognizers[cardTap].states``, ``actions``, …; ``before`` and
    ``after`` are the values as text (``None`` when there was none)."""

    field: str
    before: Optional[str]
    after: Optional[str]
    text: str


def _differences(items: List[Dict[str, Any]]) -> List[Difference]:
    return [Difference(field=d["field"], before=d.get("before"), after=d.get("after"),
                       text=d["text"]) for d in items]


@dataclass(frozen=True)
class TraceDiff:
    """The aligned diff of two traces. ``removed`` (``{"a", "entry"}``), ``inserted``
    (``{"b", "entry"}``), ``changed`` (``{"a", "b", "entry", "fields"}``) and ``script``
    (``{"op", "a", "b", "count"}``) are kept as the server's JSON objects; ``a``/``b`` are
    ``seq`` numbers of the two traces."""

    a_entries: int  # aEntries
    b_entries: int  # bEntries
    unchanged: int
    minimal: bool
    removed: List[Dict[str, Any]]
    inserted: List[Dict[str, Any]]
    changed: List[Dict[str, Any]]
    script: List[Dict[str, Any]]


@dataclass(frozen=True)
class Comparison:
    """What differs between two runs (``GET /v1/runs/{a}/compare/{b}``). ``outcome_a`` and
    ``outcome_b`` are the JSON ``outcome.a`` and ``outcome.b`` digests."""

    a: RunRef
    b: RunRef
    identical: bool
    outcome_changed: bool  # outcomeChanged
    outcome_a: str
    outcome_b: str
    differences: List[Difference]
    trace: TraceDiff
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Comparison":
        t = d["trace"]
        return cls(a=RunRef.from_json(d["a"]), b=RunRef.from_json(d["b"]),
                   identical=d["identical"], outcome_changed=d["outcomeChanged"],
                   outcome_a=d["outcome"]["a"], outcome_b=d["outcome"]["b"],
                   differences=_differences(d["differences"]),
                   trace=TraceDiff(a_entries=t["aEntries"], b_entries=t["bEntries"],
                                   unchanged=t["unchanged"], minimal=t["minimal"],
                                   removed=t["removed"], inserted=t["inserted"],
                                   changed=t["changed"], script=t["script"]),
                   raw=d)

    @property
    def fields(self) -> List[str]:
        """The ``field`` of each difference, in order (a field may repeat: ``actions``)."""
        return [d.field for d in self.differences]


@dataclass(frozen=True)
class ReplayedRun:
    """One run of a replay: the ``original`` run id, the ``replayed`` run stored against the
    new version (it keeps the original's ``label``), whether the outcome ``changed`` and how.
    ``outcome_before``/``outcome_after`` are JSON ``outcome.before``/``outcome.after``."""

    original: str
    replayed: str
    label: Optional[str]
    changed: bool
    outcome_before: str
    outcome_after: str
    differences: List[Difference]


@dataclass(frozen=True)
class ReplayReport:
    """A replay (``POST /v1/scenes/{id}/replay``). ``from_version``/``to_version`` are JSON
    ``from``/``to``; ``runs`` are in the order the originals were stored."""

    scene_id: str  # sceneId
    from_version: int  # from
    to_version: int  # to
    runs: List[ReplayedRun]
    count: int
    changed_count: int  # changedCount
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "ReplayReport":
        return cls(scene_id=d["sceneId"], from_version=d["from"], to_version=d["to"],
                   runs=[ReplayedRun(original=r["original"], replayed=r["replayed"],
                                     label=r.get("label"), changed=r["changed"],
                                     outcome_before=r["outcome"]["before"],
                                     outcome_after=r["outcome"]["after"],
                                     differences=_differences(r["differences"]))
                         for r in d["runs"]],
                   count=d["count"], changed_count=d["changedCount"], raw=d)

    @property
    def changed(self) -> List[ReplayedRun]:
        """The runs whose outcome changed."""
        return [r for r in self.runs if r.changed]

    def run(self, label: str) -> ReplayedRun:
        """The one replayed run with this label; ``KeyError`` if there is none or several."""
        matches = [r for r in self.runs if r.label == label]
        if len(matches) != 1:
            raise KeyError(f"{len(matches)} replayed runs are labelled {label!r}")
        return matches[0]


# ----- test files (POST /v1/check) -----

@dataclass(frozen=True)
class CheckFailure:
    """A failed expectation: ``key`` narrowed to the entry at fault (``recognizers.cardTap``,
    ``actions[0].action``), the value the case gave, the value the result showed."""

    key: str
    expected: Any
    actual: Any
    text: str


@dataclass(frozen=True)
class CaseResult:
    name: str
    passed: bool
    failures: List[CheckFailure]


@dataclass(frozen=True)
class CheckReport:
    """The answer of ``POST /v1/check``: how many cases passed and failed, and each case's
    failed expectations. ``ok`` is true when no case failed."""

    passed: int
    failed: int
    cases: List[CaseResult]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "CheckReport":
        return cls(passed=d["passed"], failed=d["failed"],
                   cases=[CaseResult(name=c["name"], passed=c["passed"],
                                     failures=[CheckFailure(key=f["key"], expected=f["expected"],
                                                            actual=f["actual"], text=f["text"])
                                               for f in c["failures"]])
                          for c in d["cases"]],
                   raw=d)

    @property
    def ok(self) -> bool:
        return self.failed == 0

    def summary(self) -> str:
        """One line per case and one per failed expectation, as ``taptrace check`` prints."""
        lines = []
        for case in self.cases:
            lines.append(f"{'PASS' if case.passed else 'FAIL'}  {case.name}")
            lines.extend(f"      {f.text}" for f in case.failures)
        lines.append(f"{len(self.cases)} cases: {self.passed} passed, {self.failed} failed")
        return "\n".join(lines)


# ----- point questions and why -----

@dataclass(frozen=True)
class HitTest:
    """``POST /v1/scenes/{id}/hit-test``: the window and view a point reaches, the path down to
    it, and the hit-test trace."""

    scene_id: str  # sceneId
    scene_version: int  # sceneVersion
    point: Point
    window: Optional[Ref]
    hit_test_view: Optional[Ref]  # hitTestView
    path: List[Ref]
    trace: List[TraceEntry] = field(repr=False)
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "HitTest":
        return cls(scene_id=d["sceneId"], scene_version=d["sceneVersion"],
                   point=_point(d["point"]), window=Ref.from_json(d.get("window")),
                   hit_test_view=Ref.from_json(d.get("hitTestView")), path=_refs(d["path"]),
                   trace=[TraceEntry.from_json(e) for e in d["trace"]], raw=d)


@dataclass(frozen=True)
class Explanation:
    """``POST /v1/scenes/{id}/explain``: whether ``target`` is the hit-test view of ``point``
    (``is_hit_test_view``; ``receives_touch`` for a recognizer target) and the reasons."""

    scene_id: str  # sceneId
    scene_version: int  # sceneVersion
    point: Point
    target: Ref
    is_hit_test_view: bool  # isHitTestView
    receives_touch: Optional[bool]  # receivesTouch
    window: Optional[Ref]
    hit_test_view: Optional[Ref]  # hitTestView
    reasons: List[Reason]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Explanation":
        return cls(scene_id=d["sceneId"], scene_version=d["sceneVersion"],
                   point=_point(d["point"]), target=Ref.from_json(d["target"]),
                   is_hit_test_view=d["isHitTestView"], receives_touch=d.get("receivesTouch"),
                   window=Ref.from_json(d.get("window")),
                   hit_test_view=Ref.from_json(d.get("hitTestView")),
                   reasons=[Reason.from_json(r) for r in d["reasons"]], raw=d)


@dataclass(frozen=True)
class WhyReason:
    """A reason of a why answer; ``trace`` holds the indices of the trace entries that show it."""

    rule: str
    text: str
    trace: List[int]


@dataclass(frozen=True)
class WhyChange:
    """A single change to the scene that gives the expected outcome, verified by dispatching."""

    edit: str
    rule: str
    verified: bool
    outcome: str


@dataclass(frozen=True)
class WhyAnswer:
    """``POST /v1/why`` and ``POST /v1/runs/{id}/why``: the question, a one-sentence answer,
    the reasons, and (with ``expect``) up to five changes, smallest first."""

    question: str
    answer: str
    reasons: List[WhyReason]
    changes: List[WhyChange]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "WhyAnswer":
        return cls(question=d["question"], answer=d["answer"],
                   reasons=[WhyReason(rule=r["rule"], text=r["text"], trace=list(r["trace"]))
                            for r in d["reasons"]],
                   changes=[WhyChange(edit=c["edit"], rule=c["rule"], verified=c["verified"],
                                      outcome=c["outcome"]) for c in d["changes"]],
                   raw=d)
