"""Stored scenes and the questions asked about them: hit-test, explain, why; runs as traces."""
import pytest
from conftest import load

from taptrace import TapTraceProblem


def test_scene_versions_listing_and_delete(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json", name="Checkout, listed")
    assert scene.name == "Checkout, listed"
    taptrace.put_version(scene, examples / "checkout-v2.scene.json", if_match="*")
    versions = taptrace.versions(scene)
    assert [v["version"] for v in versions] == [1, 2]
    assert versions[0]["contentHash"] == scene.content_hash

    latest = taptrace.scene(scene.id)
    assert (latest.version, latest.latest_version) == (2, 2)
    assert latest.document["format"] == "taptrace/scene@1"
    listed = [s for s in taptrace.scenes(page_size=2) if s.id == scene.id]
    assert [(s.latest_version, s.updated_at >= s.created_at) for s in listed] == [(2, True)]

    taptrace.tap(scene, "buyButton", label="gone with the scene")
    taptrace.delete_scene(scene)
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.scene(scene)
    assert caught.value.status == 404
    assert all(s.id != scene.id for s in taptrace.scenes())


def test_hit_test_and_explain(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    hit = taptrace.hit_test(scene, (100, 332))
    assert hit.hit_test_view.id == "buyButton" and hit.window.id == "W"
    assert [r.id for r in hit.path] == ["W", "checkoutRoot", "scroll", "card", "buyButton"]
    assert hit.trace[0].call == "W hitTest:withEvent:"
    assert hit.trace[0].result == {"id": "buyButton", "class": "CheckoutButton"}

    why_not = taptrace.explain(scene, (100, 332), "title")
    assert not why_not.is_hit_test_view
    assert why_not.target.class_name == "UILabel"
    assert why_not.hit_test_view.id == "buyButton"
    assert [(r.rule, r.kind) for r in why_not.reasons][0] == ("H9", "pruned")


def test_why_on_a_request_and_on_a_stored_run(taptrace, examples):
    answer = taptrace.why(examples / "checkout.request.json", recognizer="cardTap", expect="fired")
    assert answer.answer.startswith("cardTap failed at t=0.08: buyButton's gestureRecognizerShouldBegin:")
    assert [r.rule for r in answer.reasons] == ["G1", "GP9", "X1"]
    assert answer.changes and all(c.verified for c in answer.changes)
    assert answer.changes[0].edit == "set cardTap.cancelsTouchesInView = NO"

    scene = taptrace.upload(examples / "checkout.scene.json")
    run = taptrace.tap(scene, "buyButton")
    sent = taptrace.why(run, action="buyTapped:")
    assert sent.answer.startswith("buyTapped: was sent at t=0.1 by buyButton")
    # Trace indices point into the stored run's trace.
    assert all(0 <= i < len(run.trace) for r in sent.reasons for i in r.trace)

    with pytest.raises(TypeError, match="exactly one"):
        taptrace.why(run, action="buyTapped:", view="buyButton")
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.why(run.id, recognizer="noSuchRecognizer")
    assert caught.value.status == 422 and caught.value.pointers == ["/recognizer"]


def test_a_run_as_text_and_as_a_chrome_trace(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    run = taptrace.tap(scene, "buyButton", label="traced")
    text = taptrace.run_text(run.id)
    assert text.startswith(f"run {run.id} of scene {scene.id} version 1")
    assert "element gesture 0: buyButton at (100, 332) hittable" in text
    assert "buyButton -> touchesBegan:withEvent:" in text
    swift = taptrace.run_text(run, names="swift")
    assert "touchesBegan(_:with:)" in swift

    chrome = taptrace.chrome_trace(run)
    assert chrome["otherData"]["format"] == "taptrace/chrome-trace@1"
    assert any(e["name"] == "buyButton -> touchesBegan:withEvent:" for e in chrome["traceEvents"])


def test_knobs_and_versions_of_a_stored_dispatch(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    taptrace.put_version(scene, examples / "checkout-v2.scene.json")
    point = [{"tap": [100, 332], "duration": 0.08}]
    assert taptrace.dispatch(scene, point).first_responder.id == "card"
    old = taptrace.dispatch(scene, point, version=1, knobs={"cancelTiming": "beforeAction"})
    assert old.scene_version == 1 and old.first_responder.id == "buyButton"
    assert old.result.knobs["cancelTiming"] == "beforeAction"
    assert old.request["knobs"] == {"cancelTiming": "beforeAction"}
    request = load("checkout.request.json")
    assert taptrace.dispatch(request["scene"], point).raw["format"] == "taptrace/result@1"
