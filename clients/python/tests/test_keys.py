"""Keys, shakes, remote control and the first responder (contract §2.1): the record helpers of
``taptrace.events``, the client's shortcuts, and the typed result members."""
import copy

import pytest

from taptrace import Delivery, KeyResponder, Press, ResponderChange, Result, Run, events

CHAIN = ["titleField", "editorRoot", "editorVC", "W", "UIApplication", "AppDelegate"]

# An editor: the title field (a UITextField) is the first responder at t = 0; its view
# controller has ⌘S → saveDocument:, which it implements.
EDITOR = {
    "format": "taptrace/scene@1",
    "name": "Editor with a hardware keyboard",
    "app": {
        "delegate": {"id": "AppDelegate", "class": "AppDelegate", "isResponder": True},
        "focusedResponder": "titleField",
    },
    "windows": [{
        "id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "isKey": True,
        "subviews": [{
            "id": "editorRoot", "class": "UIView", "frame": [0, 0, 390, 844],
            "viewController": {
                "id": "editorVC", "class": "EditorViewController", "implements": ["saveDocument:"],
                "keyCommands": [{"input": "s", "modifierFlags": ["command"], "action": "saveDocument:"}],
            },
            "subviews": [{"id": "titleField", "class": "UITextField", "label": "Title",
                          "frame": [20, 100, 350, 44]}],
        }],
    }],
}


def editor():
    return copy.deepcopy(EDITOR)


# ----- the helpers (no server) -----

def test_keys_as_uikit_reports_them():
    assert events.key("s", "command") == {"characters": "s", "charactersIgnoringModifiers": "s",
                                          "keyCode": "keyboardS", "modifierFlags": ["command"]}
    assert events.key("S") == {"characters": "S", "charactersIgnoringModifiers": "s",
                               "keyCode": "keyboardS", "modifierFlags": ["shift"]}
    assert events.key("a", "⌘", "shift")["modifierFlags"] == ["shift", "command"]
    assert events.key("z", "cmd", "option", "ctrl")["modifierFlags"] == ["control", "alternate", "command"]
    assert events.key("Return")["characters"] == "\r"
    assert events.key("return")["keyCode"] == "keyboardReturnOrEnter"
    assert events.key("Escape") == {"characters": "UIKeyInputEscape", "charactersIgnoringModifiers": "UIKeyInputEscape",
                                    "keyCode": "keyboardEscape", "modifierFlags": []}
    assert events.key("Up")["characters"] == "UIKeyInputUpArrow"
    assert events.key("Left")["keyCode"] == "keyboardLeftArrow"
    assert (events.key("Tab")["characters"], events.key("Backspace")["characters"]) == ("\t", "\b")
    assert events.key("Backspace")["keyCode"] == "keyboardDeleteOrBackspace"
    assert events.key("F1")["characters"] == "UIKeyInputF1" and events.key("F12")["keyCode"] == "keyboardF12"
    assert [events.key(d)["keyCode"] for d in "10"] == ["keyboard1", "keyboard0"]
    assert events.key(" ")["keyCode"] == "keyboardSpacebar"
    with pytest.raises(ValueError, match="not a key"):
        events.key("Hyper")
    with pytest.raises(ValueError, match="unknown modifier"):
        events.key("s", "meta")


def test_records_in_time_order_with_press_ids():
    doc = events.touches(
        events.shake(t=1.0),
        events.key_press("s", "command"),
        events.key_press("a", t=0.5),
        events.press("select", t=2.0, id="remote"),
        events.remote_control("togglePlayPause", t=3.0),
        events.become("titleField", t=4.0),
        events.resign("titleField", t=5.0),
        gestures=[{"tap": [100, 120], "t": 6}],
    )
    assert doc["format"] == "taptrace/touches@1"
    assert doc["gestures"] == [{"tap": [100, 120], "t": 6}]
    records = doc["events"]
    assert [r["t"] for r in records] == [0.0, 0.08, 0.5, 0.58, 1.0, 1.4, 2.0, 2.08, 3.0, 4.0, 5.0]
    assert records[0] == {"t": 0.0, "presses": [{"id": "P1", "phase": "began", "type": "keyboard",
                                                 "key": events.key("s", "command")}]}
    assert records[1]["presses"][0]["phase"] == "ended" and records[1]["presses"][0]["id"] == "P1"
    assert [r["presses"][0]["id"] for r in records[2:4]] == ["P2", "P2"]
    assert records[4]["motion"] == {"subtype": "shake", "phase": "began"}
    assert records[5]["motion"] == {"subtype": "shake", "phase": "ended"}
    assert records[6]["presses"] == [{"id": "remote", "phase": "began", "type": "select"}]
    assert records[8] == {"t": 3.0, "remoteControl": {"subtype": "togglePlayPause"}}
    assert records[9:] == [{"t": 4.0, "responder": {"become": "titleField"}},
                           {"t": 5.0, "responder": {"resign": "titleField"}}]
    # A press named by hand keeps its id; the others skip it.
    named = events.touches(events.key_press("x", id="P1", t=0), events.key_press("y", t=1))
    assert [r["presses"][0]["id"] for r in named["events"]] == ["P1", "P1", "P2", "P2"]
    with pytest.raises(ValueError):
        events.remote_control("rewind")
    with pytest.raises(ValueError):
        events.press("keyboard")


def test_results_without_non_touch_members():
    result = Result.from_json({"firstResponder": None, "responderChain": [], "touches": [],
                               "recognizers": [], "actions": [], "trace": [], "knobs": {}, "input": {}})
    assert result.key_responder is None
    assert (result.presses, result.motions, result.remote_controls, result.responder_changes) == ([], [], [], [])


# ----- against the server -----

def test_command_s_and_a_typed_key(taptrace):
    doc = events.touches(events.key_press("s", "command"), events.key_press("a", t=0.5))
    result = taptrace.dispatch(editor(), doc)
    assert isinstance(result, Result)
    assert result.key_responder == KeyResponder(initial="titleField", final="titleField")
    assert [p.id for p in result.presses] == ["P1", "P2"]

    save = result.press("P1")
    assert isinstance(save, Press)
    assert (save.type, save.key, save.responder, save.source) == ("keyboard", "s", "titleField", "firstResponder")
    assert save.chain == CHAIN
    assert save.key_command == "editorVC.keyCommands[0]"
    assert save.final_phase == "ended"
    action = result.actions[0]
    assert (action.action, action.via, action.sender, action.target) == (
        "saveDocument:", "keyCommand", "editorVC.keyCommands[0]", "editorVC")

    typed = result.press("P2")
    assert typed.text_input == "titleField" and typed.handled_by == "UIApplication"
    assert typed.key_command is None
    assert "UIApplication" in typed.delivered
    assert result.motions == [] and result.remote_controls == [] and result.responder_changes == []
    with pytest.raises(KeyError, match="P3"):
        result.press("P3")


def test_shortcuts_on_a_stored_scene(taptrace):
    scene = taptrace.upload(editor())
    run = taptrace.press_key(scene, "s", "command", label="save")
    assert isinstance(run, Run) and run.label == "save"
    assert run.action_names == ["saveDocument:"]
    assert run.press().key_command == "editorVC.keyCommands[0]"
    assert run.request["touches"]["events"][0]["presses"][0]["key"] == events.key("s", "command")
    # The run reads back the same from the store.
    again = taptrace.run(run.id)
    assert again.presses == run.presses and again.key_responder == run.key_responder

    shaken = taptrace.shake(scene)
    assert [m.phase for m in shaken.motions] == ["began", "ended"]
    assert all(isinstance(m, Delivery) and m.subtype == "shake" for m in shaken.motions)
    assert shaken.motions[0].responder == "titleField" and shaken.motions[0].chain == CHAIN
    assert shaken.presses == []

    remote = taptrace.remote_control(scene, "togglePlayPause")
    entry = remote.remote_controls[0]
    assert (entry.subtype, entry.t, entry.dropped) == ("togglePlayPause", 0, False)
    assert entry.delivered[0] == "titleField"


def test_become_and_resign(taptrace):
    result = taptrace.dispatch(editor(), [events.resign("titleField", t=0), events.key_press("a", t=0.5),
                                          events.become("titleField", t=1)])
    assert result.key_responder == KeyResponder(initial="titleField", final="titleField")
    assert result.responder_changes == [
        ResponderChange(t=0, call="resign", receiver="titleField", result=True,
                        from_responder="titleField", to_responder=None),
        ResponderChange(t=1, call="become", receiver="titleField", result=True,
                        from_responder=None, to_responder="titleField"),
    ]
    # With no first responder the key goes to the fallback (N3), and is typed nowhere.
    typed = result.press("P1")
    assert typed.source == "fallback" and typed.text_input is None


def test_a_key_command_nobody_implements_is_a_warning(taptrace):
    scene = editor()
    del scene["windows"][0]["subviews"][0]["viewController"]["implements"]
    result = taptrace.press_key(scene, "s", "command")
    [warning] = result.warnings
    assert warning.pointer == "/windows/0/subviews/0/viewController/keyCommands/0/action"
    assert "saveDocument:" in warning.detail
    assert result.press().key_command is None
    assert taptrace.press_key(editor(), "s", "command").warnings == []


def test_a_touch_only_run_has_none(taptrace):
    result = taptrace.tap(editor(), "titleField")
    assert result.key_responder is None and result.presses == []
    assert "keyResponder" not in result.raw


def test_check_passes_the_new_expect_keys(taptrace):
    case = {
        "name": "⌘S saves",
        "scene": editor(),
        "touches": events.touches(events.key_press("s", "command"), events.key_press("a", t=0.5)),
        "expect": {
            "keyResponder": {"initial": "titleField", "final": "titleField"},
            "presses": {"P1": {"keyCommand": "editorVC.keyCommands[0]"},
                        "P2": {"textInput": "titleField", "handledBy": "UIApplication"}},
            "actions": [{"action": "saveDocument:", "via": "keyCommand"}],
        },
    }
    report = taptrace.check(case)
    assert report.ok, report.summary()
    wrong = copy.deepcopy(case)
    wrong["expect"]["presses"]["P2"]["handledBy"] = "titleField"
    report = taptrace.check(wrong)
    assert not report.ok
    [failure] = report.cases[0].failures
    assert failure.key.startswith("presses") and "P2" in failure.key
    assert (failure.expected, failure.actual) == ("titleField", "UIApplication")
