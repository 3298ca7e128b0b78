"""The checkout example: a "Buy now" button inside a card with its own tap recognizer."""
import pytest
from conftest import load

from taptrace import Result, Run

CHAIN = ["buyButton", "card", "scroll", "checkoutRoot", "checkoutVC", "W", "UIApplication",
         "AppDelegate"]


def test_tap_buy_button_on_a_stored_scene(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    assert scene.version == 1 and scene.latest_version == 1
    assert scene.name == "Checkout (iPhone 15)"
    assert (scene.counts.views, scene.counts.windows, scene.counts.recognizers) == (6, 1, 1)

    run = taptrace.tap(scene, "buyButton", label="Buy button")

    assert isinstance(run, Run)
    assert run.id.startswith("run_") and run.scene_id == scene.id and run.scene_version == 1
    assert run.label == "Buy button"
    assert run.first_responder.id == "buyButton"
    assert run.first_responder.class_name == "CheckoutButton"
    assert run.chain_ids == CHAIN
    assert [r.role for r in run.responder_chain][-2:] == ["application", "appDelegate"]
    assert run.action_names == ["buyTapped:"]
    buy = run.actions[0]
    assert (buy.sender, buy.target, buy.via) == ("buyButton", "checkoutVC", "target")
    assert buy.events == ["touchUpInside", "primaryActionTriggered"]
    # The button keeps the tap from the card's recognizer (X1).
    assert run.recognizer("cardTap").outcome == "failed"
    element = run.element("buyButton")
    assert element.hittable and element.hit_test_view == "buyButton"
    assert element.point == (100, 332) and element.reasons == []
    assert run.touch("T1").final_phase == "ended"
    assert "buyButton touchesBegan:withEvent:" in run.calls
    # The run reads back the same from the store.
    assert taptrace.run(run.id).outcome == run.outcome
    assert taptrace.run_text(run).splitlines()[1] == "firstResponder: buyButton"


def test_stateless_dispatch_of_the_request_file(taptrace, examples):
    request = load("checkout.request.json")
    result = taptrace.dispatch(request["scene"], request["touches"])
    assert isinstance(result, Result)
    assert result.first_responder.id == "buyButton"
    assert result.chain_ids == CHAIN
    assert result.action_names == ["buyTapped:"]
    assert result.elements == []  # the request taps a point, not an element
    assert result.actions[0].t == 0.08
    calls = result.calls
    assert calls.index("buyButton touchesBegan:withEvent:") < calls.index("checkoutVC buyTapped:")
    assert result.knobs["cancelTiming"] == "afterAction"


def test_tap_by_label_on_a_document(taptrace, examples):
    # "Buy now" is the button's label: no view has it as id or accessibilityIdentifier.
    result = taptrace.tap(examples / "checkout.scene.json", "Buy now")
    assert isinstance(result, Result)
    assert result.element().view == "buyButton"
    assert result.action_names == ["buyTapped:"]


def test_a_point_and_a_list_of_gestures(taptrace, examples):
    # Beside the button, on the card: the card's recognizer fires instead.
    result = taptrace.tap(examples / "checkout.scene.json", (300, 250))
    assert result.first_responder.id == "card"
    assert result.action_names == ["cardTapped:"]
    assert result.recognizer("cardTap").outcome == "ended"
    # Untimed gestures are 1 s apart: two single taps, never a double tap.
    two = taptrace.dispatch(examples / "checkout.scene.json",
                            [{"tap": {"view": "buyButton"}}, {"tap": [300, 250]}])
    assert two.action_names == ["buyTapped:", "cardTapped:"]
    assert [a.t for a in two.actions] == pytest.approx([0.1, 1.2])


def test_check_a_case_file(taptrace, examples):
    report = taptrace.check(examples / "checkout.case.json")
    assert report.ok and (report.passed, report.failed) == (1, 0)

    wrong = load("checkout.case.json")
    wrong["name"] = "wrong"
    wrong["expect"]["firstResponder"] = "card"
    report = taptrace.check([examples / "checkout.case.json", wrong])
    assert not report.ok and (report.passed, report.failed) == (1, 1)
    failed = report.cases[1]
    assert failed.name == "wrong" and not failed.passed
    assert [(f.key, f.expected, f.actual) for f in failed.failures] == [
        ("firstResponder", "card", "buyButton")]
    assert "FAIL  wrong" in report.summary()
