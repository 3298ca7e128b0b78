"""The tappability audit (docs/audit.md)."""
from conftest import load, views

from taptrace import AuditReport


def test_tab_bar_under_a_sheet_fails_the_audit(taptrace, examples):
    report = taptrace.audit(examples / "tabbar.scene.json")
    assert isinstance(report, AuditReport)
    assert not report.ok
    assert (report.count, report.hittable, report.unreachable) == (4, 0, 4)
    assert [e.id for e in report.unreachable_elements] == ["tabHome", "tabSearch", "tabProfile",
                                                          "dimming"]
    home = report.element("tabHome")
    assert (home.status, home.hittable) == ("unreachable", False)
    assert home.hit_test_view.id == "sheet"
    assert home.reachable_fraction == 0
    assert (home.reasons[0].rule, home.reasons[0].kind) == ("H1", "covered")
    assert "sheet" in [v.id for v in home.reasons[0].views]
    assert report.scene_id is None
    summary = report.summary()
    assert summary.startswith("FAIL tabHome (TabItemControl) at (65, 802): unreachable; "
                              "the centre goes to sheet")
    assert summary.endswith("4 unreachable; 0 smaller than 44 × 44 pt")


def test_a_stored_scene_passes_the_audit(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    report = taptrace.audit(scene)
    assert report.ok, report.summary()
    assert (report.scene_id, report.scene_version) == (scene.id, 1)
    assert [e.id for e in report.elements] == ["card", "buyButton"]
    assert report.element("buyButton").interactions == ["control", "targets"]
    assert all(e.hittable for e in report.elements)


def test_knobs_of_a_document_audit(taptrace):
    # alphaThreshold above the button's alpha prunes it (H3), so the audit then fails.
    document = load("overlay.scene.json")
    next(v for v in views(document) if v["id"] == "playButton")["alpha"] = 0.5
    assert taptrace.audit(document).ok
    report = taptrace.audit(document, knobs={"alphaThreshold": 0.6})
    assert not report.ok
    assert report.element("playButton").reasons[0].rule == "H3"
