"""Records of UIKit's events other than touches (contract §2.1), for touches documents.

A key press, a press of a remote's button, a shake, a remote-control event, and app code that
makes a responder first responder or resigns it::

    from taptrace import events

    doc = events.touches(
        events.key_press("s", "command"),           # ⌘S at 0, released 0.08 s later
        events.key_press("a", t=0.5),               # "a" typed at 0.5
        events.shake(t=1.0),                        # began at 1.0, ended at 1.4
        events.remote_control("togglePlayPause", t=2.0),
        events.resign("titleField", t=3.0),
    )
    run = taptrace.dispatch(scene, doc)
    assert run.press("P1").key_command == "editorVC.keyCommands[0]"

Each helper returns a list of ``events`` records. ``touches(...)`` joins them (and gestures)
into a touches document, in time order; a press left without an ``id`` gets the next free
``P1``, ``P2``, …. ``TapTrace.dispatch`` does the same with a plain list of records and
gestures.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

#: The modifier flags a key may carry, in the contract's order.
MODIFIER_FLAGS = ("alphaShift", "shift", "control", "alternate", "command", "numericPad")
#: ``UIPress.PressType`` values other than ``keyboard``.
PRESS_TYPES = ("upArrow", "downArrow", "leftArrow", "rightArrow", "select", "menu", "playPause",
               "pageUp", "pageDown")
#: Remote-control subtypes (``UIEvent.EventSubtype``).
REMOTE_CONTROL_SUBTYPES = ("play", "pause", "stop", "togglePlayPause", "nextTrack", "previousTrack",
                           "beginSeekingBackward", "endSeekingBackward", "beginSeekingForward",
                           "endSeekingForward")
#: How long ``key_press`` and ``press`` hold a key, and ``shake`` shakes (seconds).
KEY_HOLD = 0.08
SHAKE_DURATION = 0.4

# Other names for the modifiers: macOS's and the symbols.
_MODIFIER_ALIASES = {"cmd": "command", "⌘": "command", "option": "alternate", "opt": "alternate",
                     "alt": "alternate", "⌥": "alternate", "ctrl": "control", "⌃": "control",
                     "⇧": "shift", "capslock": "alphaShift", "alphashift": "alphaShift",
                     "numericpad": "numericPad"}

_NAMED = {"return": ("\r", "keyboardReturnOrEnter"), "enter": ("\r", "keyboardReturnOrEnter"),
          "escape": ("UIKeyInputEscape", "keyboardEscape"), "esc": ("UIKeyInputEscape", "keyboardEscape"),
          "tab": ("\t", "keyboardTab"), "backspace": ("\b", "keyboardDeleteOrBackspace"),
          "delete": ("UIKeyInputDelete", "keyboardDeleteForward"), "space": (" ", "keyboardSpacebar"),
          "up": ("UIKeyInputUpArrow", "keyboardUpArrow"), "down": ("UIKeyInputDownArrow", "keyboardDownArrow"),
          "left": ("UIKeyInputLeftArrow", "keyboardLeftArrow"), "right": ("UIKeyInputRightArrow", "keyboardRightArrow"),
          "home": ("UIKeyInputHome", "keyboardHome"), "end": ("UIKeyInputEnd", "keyboardEnd"),
          "pageup": ("UIKeyInputPageUp", "keyboardPageUp"), "pagedown": ("UIKeyInputPageDown", "keyboardPageDown")}
_NAMED.update({f"f{n}": (f"UIKeyInputF{n}", f"keyboardF{n}") for n in range(1, 25)})
for _arrow in ("up", "down", "left", "right"):
    _NAMED[_arrow + "arrow"] = _NAMED[_arrow]
_PUNCTUATION = {"-": "keyboardHyphen", "=": "keyboardEqualSign", "[": "keyboardOpenBracket",
                "]": "keyboardCloseBracket", "\\": "keyboardBackslash", ";": "keyboardSemicolon",
                "'": "keyboardQuote", "`": "keyboardGraveAccentAndTilde", ",": "keyboardComma",
                ".": "keyboardPeriod", "/": "keyboardSlash", " ": "keyboardSpacebar"}

Record = Dict[str, Any]


class _PressId:
    """The id of a press written without one: ``touches`` (or ``dispatch``) names it."""

    def __repr__(self) -> str:
        return "<press id to be assigned>"


def _flags(modifiers: Iterable[str]) -> List[str]:
    wanted = set()
    for m in modifiers:
        low = str(m).lower()
        flag = _MODIFIER_ALIASES.get(low) or next((f for f in MODIFIER_FLAGS if f.lower() == low), None)
        if flag is None:
            raise ValueError(f"unknown modifier {m!r}: use {', '.join(MODIFIER_FLAGS)} "
                             f"(or cmd, option, alt, ctrl, ⌘ ⌥ ⌃ ⇧)")
        wanted.add(flag)
    return [f for f in MODIFIER_FLAGS if f in wanted]


def key(name: str, *modifiers: str) -> Dict[str, Any]:
    """The ``UIKey`` UIKit reports for a key: one character (``"s"``, ``"5"``, ``"/"``; a capital
    letter is the letter with shift) or a named key (``Return``, ``Escape``, ``Tab``,
    ``Backspace``, ``Delete``, ``Space``, ``Up``/``Down``/``Left``/``Right``, ``Home``, ``End``,
    ``PageUp``, ``PageDown``, ``F1``…``F24``), with ``modifiers`` (``"command"``, ``"shift"``,
    ``"alternate"``, ``"control"``; ``"cmd"``, ``"option"``, ``"ctrl"`` and ``⌘ ⌥ ⌃ ⇧`` too)::

        key("s", "command") == {"characters": "s", "charactersIgnoringModifiers": "s",
                                "keyCode": "keyboardS", "modifierFlags": ["command"]}
        key("Return")["characters"] == "\\r"
    """
    flags = set(_flags(modifiers))
    named = _NAMED.get(name.strip().lower()) if name.strip() else None
    if len(name) == 1 and not named:
        lower = name.lower()
        if "a" <= lower <= "z":
            if name != lower:
                flags.add("shift")
            code = "keyboard" + lower.upper()
        elif "0" <= name <= "9":
            code = "keyboard" + name
        elif name in _PUNCTUATION:
            code = _PUNCTUATION[name]
        else:
            raise ValueError(f"{name!r} is not a key of a US keyboard: give a letter, a digit, "
                             f"punctuation or a key's name (Return, Escape, Up, F1, …)")
        ignoring = lower
        characters = lower.upper() if "shift" in flags else lower
    elif named:
        characters = ignoring = named[0]
        code = named[1]
    else:
        raise ValueError(f"{name!r} is not a key: give one character or a key's name "
                         f"(Return, Escape, Tab, Backspace, Up, F1, …)")
    return {"characters": characters, "charactersIgnoringModifiers": ignoring, "keyCode": code,
            "modifierFlags": [f for f in MODIFIER_FLAGS if f in flags]}


def key_press(name: Union[str, Mapping[str, Any]], *modifiers: str, t: float = 0.0,
              hold: float = KEY_HOLD, id: Optional[str] = None) -> List[Record]:
    """A key pressed at ``t`` and released ``hold`` seconds later: two ``presses`` records.
    ``name`` and ``modifiers`` are as for ``key``; or pass a ``UIKey`` dict as ``name``."""
    uikey = dict(name) if isinstance(name, Mapping) else key(name, *modifiers)
    if isinstance(name, Mapping) and modifiers:
        raise TypeError("modifiers go inside a UIKey dict (modifierFlags), not beside it")
    return _press("keyboard", uikey, t, hold, id)


def press(type: str, *, t: float = 0.0, hold: float = KEY_HOLD, id: Optional[str] = None) -> List[Record]:
    """A press of a remote's or game controller's button (``select``, ``menu``, ``playPause``,
    ``upArrow``, …): ``began`` at ``t``, ``ended`` ``hold`` seconds later."""
    if type not in PRESS_TYPES:
        raise ValueError(f"unknown press type {type!r}: one of {', '.join(PRESS_TYPES)} "
                         f"(a keyboard key is key_press)")
    return _press(type, None, t, hold, id)


def _press(type: str, uikey: Optional[Dict[str, Any]], t: float, hold: float, id: Optional[str]) -> List[Record]:
    if hold <= 0:
        raise ValueError("hold must be positive: the release follows the press")
    pid: Any = id if id is not None else _PressId()

    def change(phase: str) -> Dict[str, Any]:
        c: Dict[str, Any] = {"id": pid, "phase": phase, "type": type}
        if uikey is not None:
            c["key"] = dict(uikey)
        return c
    return [{"t": t, "presses": [change("began")]}, {"t": _round(t + hold), "presses": [change("ended")]}]


def shake(*, t: float = 0.0, duration: float = SHAKE_DURATION, cancelled: bool = False) -> List[Record]:
    """A shake: ``began`` at ``t``, ``ended`` (or ``cancelled``) ``duration`` seconds later."""
    if duration <= 0:
        raise ValueError("duration must be positive")
    return [{"t": t, "motion": {"subtype": "shake", "phase": "began"}},
            {"t": _round(t + duration), "motion": {"subtype": "shake", "phase": "cancelled" if cancelled else "ended"}}]


def remote_control(subtype: str, *, t: float = 0.0) -> List[Record]:
    """A remote-control event (``togglePlayPause``, ``nextTrack``, …) at ``t``."""
    if subtype not in REMOTE_CONTROL_SUBTYPES:
        raise ValueError(f"unknown remote-control subtype {subtype!r}: one of {', '.join(REMOTE_CONTROL_SUBTYPES)}")
    return [{"t": t, "remoteControl": {"subtype": subtype}}]


def become(responder: str, *, t: float = 0.0) -> List[Record]:
    """App code calling ``becomeFirstResponder`` on a view or view controller at ``t`` (F3)."""
    return [{"t": t, "responder": {"become": responder}}]


def resign(responder: str, *, t: float = 0.0) -> List[Record]:
    """App code calling ``resignFirstResponder`` on a view or view controller at ``t`` (F4)."""
    return [{"t": t, "responder": {"resign": responder}}]


_RECORD_KEYS = ("touches", "presses", "motion", "remoteControl", "responder")


def is_record(item: Any) -> bool:
    """Whether ``item`` is a record of ``events`` (rather than a gesture)."""
    return isinstance(item, Mapping) and any(k in item for k in _RECORD_KEYS)


def touches(*parts: Union[Record, Sequence[Record]], gestures: Sequence[Mapping[str, Any]] = (),
            until: Optional[float] = None) -> Dict[str, Any]:
    """A touches document of these records (each helper's list, or single records; a gesture
    given here goes to ``gestures``), ordered by time; presses without an id get one."""
    events: List[Record] = []
    extra: List[Mapping[str, Any]] = list(gestures)
    for part in parts:
        for item in ([part] if isinstance(part, Mapping) else list(part)):
            (events if is_record(item) else extra).append(item)
    document: Dict[str, Any] = {"format": "taptrace/touches@1"}
    if events:
        document["events"] = name_presses(sorted(events, key=lambda r: r["t"]))
    if extra:
        document["gestures"] = [dict(g) for g in extra]
    if until is not None:
        document["until"] = until
    return document


def name_presses(events: Sequence[Record]) -> List[Record]:
    """``events`` with every press written without an id named ``P1``, ``P2``, … (in order of
    its first record, skipping ids already used)."""
    used = {c["id"] for r in events for c in r.get("presses", []) if isinstance(c.get("id"), str)}
    names: Dict[int, str] = {}
    counter = 0
    out = []
    for record in events:
        if not any(isinstance(c.get("id"), _PressId) for c in record.get("presses", [])):
            out.append(record)
            continue
        changes = []
        for c in record["presses"]:
            if isinstance(c.get("id"), _PressId):
                if id(c["id"]) not in names:
                    counter += 1
                    while f"P{counter}" in used:
                        counter += 1
                    names[id(c["id"])] = f"P{counter}"
                c = {**c, "id": names[id(c["id"])]}
            changes.append(c)
        out.append({**record, "presses": changes})
    return out


def _round(t: float) -> float:
    # 0.1 + 0.08 is 0.18000000000000002: the document says 0.18.
    return round(t, 9)
