"""The Buy button check of README's "From a test", with the Python client's pytest plugin.

    python3 -m venv .venv && .venv/bin/pip install ./clients/python pytest
    .venv/bin/pytest --taptrace-bin .build/debug/taptrace examples/pytest

The `taptrace` fixture is a client of a `taptrace serve` the plugin starts for the session on a
free port with a temporary database.
"""
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent


def test_buy_button_buys(taptrace):
    scene = taptrace.upload(EXAMPLES / "checkout.scene.json")
    run = taptrace.tap(scene, "buyButton", label="Buy button")   # by id, accessibilityIdentifier or label

    assert run.element().hittable                          # XCUITest's isHittable
    assert run.first_responder.id == "buyButton"
    assert run.action_names == ["buyTapped:"]
    assert run.recognizer("cardTap").outcome == "failed"   # the button keeps the tap (X1)


def test_checkout_screen_is_tappable(taptrace):
    report = taptrace.audit(EXAMPLES / "checkout.scene.json")
    assert report.ok, report.summary()
