"""Tapping by element: hittable or not, and names that match no view or several."""
import pytest
from conftest import load, views

from taptrace import TapTraceProblem


def test_tab_under_a_presented_sheet_is_not_hittable(taptrace, examples):
    scene = taptrace.upload(examples / "tabbar.scene.json")
    run = taptrace.tap(scene, "tabHome", label="Home tab")
    element = run.element()
    assert element.view == "tabHome"
    assert not element.hittable
    assert element.hit_test_view == "sheet"
    assert element.point == (65, 802)
    assert (element.reasons[0].rule, element.reasons[0].kind) == ("H1", "covered")
    assert "sheet is in front of tabsRoot" in element.reasons[0].text
    # The touches go to the computed point anyway: the sheet takes the tap.
    assert run.first_responder.id == "sheet"
    assert run.actions == []


def test_pass_through_overlay_is_not_hittable_but_its_button_is(taptrace, examples):
    scene = examples / "overlay.scene.json"
    overlay = taptrace.tap(scene, "gradientOverlay").element()
    assert not overlay.hittable
    assert overlay.hit_test_view == "root"
    assert (overlay.reasons[0].rule, overlay.reasons[0].kind) == ("H8", "override")

    button = taptrace.tap(scene, "playButton")
    assert button.element().hittable
    assert button.action_names == ["playTapped:"]


def test_an_ambiguous_element_is_a_problem_listing_the_candidates(taptrace):
    scene = load("checkout.scene.json")
    title = next(v for v in views(scene) if v["id"] == "title")
    title["label"] = "Buy now"  # now the button and the title share the label
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.tap(scene, "Buy now")
    problem = caught.value
    assert problem.status == 422 and problem.kind == "validation"
    assert problem.pointers == ["/touches/gestures/0/tap/view"]
    assert "label of 2 views: title, buyButton" in problem.issues[0].detail
    assert "/touches/gestures/0/tap/view: \"Buy now\" is the label of 2 views" in str(problem)


def test_an_unknown_element_on_a_stored_scene_is_a_problem_and_stores_nothing(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.tap(scene, "checkoutButton", label="typo")
    assert caught.value.status == 422
    assert caught.value.issues[0].pointer == "/touches/gestures/0/tap/view"
    assert '"checkoutButton"' in caught.value.issues[0].detail
    assert list(taptrace.runs(scene)) == []
