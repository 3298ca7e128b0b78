"""Errors raised by the client and the server fixture."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional


class TapTraceError(Exception):
    """Base class of every error this package raises: catch it to catch them all."""


@dataclass(frozen=True)
class Issue:
    """One issue of a validation problem (JSON ``errors[]``): the RFC 6901 pointer of the value
    at fault in the request body, e.g. ``/touches/gestures/0/tap/view``, and what is wrong."""

    pointer: str
    detail: str


class TapTraceProblem(TapTraceError):
    """The server answered with an error: an RFC 9457 problem document
    (``application/problem+json``).

    ``status``, ``type``, ``title`` and ``detail`` are the document's members; ``issues`` are its
    ``errors`` (422 validation problems list every issue with its pointer); ``line`` and
    ``column`` say where malformed JSON or a dump broke; ``problem`` is the whole document as
    the server sent it, so members this class does not name (``operation``, ``omittedErrors``)
    are not lost. ``method`` and ``url`` name the request.

    An error answer that is not a problem document (a proxy's HTML page) is wrapped in one of
    type ``about:blank`` (RFC 9457 §4.2.1) with the start of the body as its detail.
    """

    def __init__(self, problem: Dict[str, Any], method: str = "", url: str = ""):
        self.problem = problem
        self.status: int = int(problem.get("status") or 0)
        self.type: str = str(problem.get("type") or "about:blank")
        self.title: str = str(problem.get("title") or "")
        self.detail: str = str(problem.get("detail") or "")
        self.line: Optional[int] = problem.get("line")
        self.column: Optional[int] = problem.get("column")
        self.issues: List[Issue] = [
            Issue(pointer=str(e.get("pointer", "")), detail=str(e.get("detail", "")))
            for e in problem.get("errors") or []
            if isinstance(e, dict)
        ]
        self.method = method
        self.url = url
        super().__init__(self._message())

    @property
    def kind(self) -> str:
        """The last segment of ``type``: ``validation``, ``not-found``, ``conflict``,
        ``malformed-json``, ``import-syntax``, …"""
        return self.type.rstrip("/").rsplit("/", 1)[-1]

    @property
    def pointers(self) -> List[str]:
        """The pointers of ``issues``, in the server's order."""
        return [issue.pointer for issue in self.issues]

    def _message(self) -> str:
        head = f"{self.status} {self.title}".strip()
        if self.method or self.url:
            head = f"{self.method} {self.url}: {head}".strip()
        lines = [f"{head}: {self.detail}" if self.detail else head]
        for issue in self.issues:
            lines.append(f"  {issue.pointer or '(document)'}: {issue.detail}")
        omitted = self.problem.get("omittedErrors")
        if omitted:
            lines.append(f"  … and {omitted} more")
        return "\n".join(lines)


class TapTraceServerError(TapTraceError):
    """``taptrace serve`` could not be found, did not start, or did not stop."""
