"""Stored runs: labels in the history, a new version, replay and compare."""
import pytest

from taptrace import TapTraceProblem

POINT_TAP = [{"tap": [100, 332], "duration": 0.08}]  # where the Buy button is in version 1


def test_history_by_label_newest_first_across_pages(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    first = taptrace.tap(scene, "buyButton", label="Buy button")
    other = taptrace.dispatch(scene, POINT_TAP, label="Card")
    second = taptrace.tap(scene, "buyButton", label="Buy button")

    everything = list(taptrace.runs(scene, page_size=1))  # three pages
    assert [r.id for r in everything] == [second.id, other.id, first.id]
    assert [r.label for r in everything] == ["Buy button", "Card", "Buy button"]

    buy = list(taptrace.runs(scene.id, label="Buy button"))
    assert [r.id for r in buy] == [second.id, first.id]
    assert all(r.first_responder.id == "buyButton" and r.action_count == 1 for r in buy)
    assert buy[0].actions[0].action == "buyTapped:"
    assert buy[0].created_at >= buy[1].created_at
    assert list(taptrace.runs(scene, label="nobody")) == []


def test_replay_after_a_new_version(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    by_element = taptrace.tap(scene, "buyButton", label="Buy by element")
    by_point = taptrace.dispatch(scene, POINT_TAP, label="Buy by point")
    assert by_point.first_responder.id == "buyButton"

    # Version 2 moves the button right: the old point now lands on the card.
    v2 = taptrace.put_version(scene, examples / "checkout-v2.scene.json", if_match=1)
    assert (v2.id, v2.version, v2.latest_version) == (scene.id, 2, 2)
    assert v2.content_hash != scene.content_hash

    report = taptrace.replay(scene, 1, 2)
    assert (report.from_version, report.to_version, report.count) == (1, 2, 2)
    assert report.changed_count == 1
    # A tap by element follows the button; a tap by point does not.
    assert not report.run("Buy by element").changed
    moved = report.run("Buy by point")
    assert moved.original == by_point.id and moved.changed
    assert moved.outcome_before == by_point.outcome != moved.outcome_after
    first = moved.differences[0]
    assert (first.field, first.before, first.after) == (
        "firstResponder", "buyButton (CheckoutButton)", "card (ProductCardView)")
    assert [r.label for r in report.changed] == ["Buy by point"]

    # The replayed runs are stored against version 2 and keep their labels.
    replayed = taptrace.run(moved.replayed)
    assert (replayed.scene_version, replayed.label) == (2, "Buy by point")
    assert replayed.action_names == ["cardTapped:"]
    assert taptrace.run(report.run("Buy by element").replayed).outcome == by_element.outcome


def test_a_stale_version_is_a_conflict(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    taptrace.put_version(scene, examples / "checkout-v2.scene.json", if_match=1)
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.put_version(scene, examples / "checkout-v2.scene.json", if_match=1)
    assert caught.value.status == 409 and caught.value.kind == "conflict"
    assert "is at version 2" in caught.value.detail
    assert taptrace.scene(scene).latest_version == 2
    assert taptrace.scene(scene, version=1).document["windows"][0]["id"] == "W"


def test_compare_two_versions_of_a_tap(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    before = taptrace.dispatch(scene, POINT_TAP, label="Buy")
    taptrace.put_version(scene, examples / "checkout-v2.scene.json")
    after = taptrace.dispatch(scene, POINT_TAP, label="Buy")
    assert (before.scene_version, after.scene_version) == (1, 2)

    comparison = taptrace.compare(before, after.id)
    assert (comparison.a.id, comparison.b.id) == (before.id, after.id)
    assert comparison.b.label == "Buy"
    assert comparison.outcome_changed and not comparison.identical
    assert comparison.outcome_a == before.outcome and comparison.outcome_b == after.outcome
    assert comparison.fields[:3] == ["firstResponder", "responderChain", "touches[T1].hitTestView"]
    actions = [d for d in comparison.differences if d.field == "actions"]
    assert [d.text for d in actions] == [
        "actions: no longer buyTapped: from buyButton to checkoutVC (target) at t=0.080",
        "actions: now cardTapped: from cardTap to checkoutVC (recognizer) at t=0.080"]
    assert comparison.trace.a_entries == len(before.trace)
    assert comparison.trace.b_entries == len(after.trace)
    assert comparison.trace.inserted and comparison.trace.removed

    same = taptrace.compare(before, before)
    assert same.identical and not same.outcome_changed and same.differences == []


def test_unknown_run_is_not_found(taptrace):
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.run("run_aaaaaaaaaaaa")
    assert caught.value.status == 404 and caught.value.kind == "not-found"
    assert "run_aaaaaaaaaaaa" in str(caught.value)
