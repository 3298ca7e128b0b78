"""A Python client of TapTrace, UIKit's hit-testing and touch dispatch off-device.

``TapTrace(base_url)`` talks to a ``taptrace serve``; ``TapTraceServer`` starts one; the pytest
plugin (``taptrace.pytest_plugin``) gives tests the ``taptrace`` and ``taptrace_server``
fixtures. ``taptrace.events`` builds records of key presses, shakes, remote-control events and
first responder changes. Answers are the dataclasses of ``taptrace.models``; error answers raise
``TapTraceProblem``, which carries the RFC 9457 problem document.
"""
from . import events
from .client import TapTrace
from .errors import Issue, TapTraceError, TapTraceProblem, TapTraceServerError
from .models import (
    Action,
    AuditElement,
    AuditReport,
    CaseResult,
    CheckFailure,
    CheckReport,
    Comparison,
    Counts,
    Delivery,
    Difference,
    Element,
    Explanation,
    HitTest,
    ImportResult,
    KeyResponder,
    Press,
    Reason,
    RecognizerOutcome,
    Ref,
    ReplayedRun,
    ReplayReport,
    Responder,
    ResponderChange,
    Result,
    Run,
    RunRef,
    RunSummary,
    Scene,
    SceneListItem,
    Screenshot,
    Touch,
    TraceDiff,
    TraceEntry,
    WhyAnswer,
    WhyChange,
    WhyReason,
)
from .server import TapTraceServer, find_binary

__version__ = "0.1.0"

__all__ = [
    "TapTrace", "TapTraceServer", "find_binary", "events",
    "TapTraceError", "TapTraceProblem", "TapTraceServerError", "Issue",
    "Action", "AuditElement", "AuditReport", "CaseResult", "CheckFailure", "CheckReport",
    "Comparison", "Counts", "Delivery", "Difference", "Element", "Explanation", "HitTest",
    "ImportResult", "KeyResponder", "Press", "Reason", "RecognizerOutcome", "Ref", "ReplayedRun",
    "ReplayReport", "Responder", "ResponderChange", "Result",
    "Run", "RunRef", "RunSummary", "Scene", "SceneListItem", "Screenshot", "Touch", "TraceDiff", "TraceEntry",
    "WhyAnswer", "WhyChange", "WhyReason",
]
