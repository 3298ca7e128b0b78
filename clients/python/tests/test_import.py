"""Scenes from dumps of a running app."""
import pytest

from taptrace import TapTraceProblem


def test_import_a_recursive_description_and_tap_it(taptrace, examples):
    imported = taptrace.import_dump(examples / "detail.dump.txt")
    assert imported.format == "recursive-description"
    assert imported.stored is None
    assert imported.scene["format"] == "taptrace/scene@1"
    assert any(w.startswith("top views that are not windows were put in a synthesized UIWindow")
               for w in imported.warnings)

    stored = taptrace.import_dump((examples / "detail.dump.txt").read_text(), store=True,
                                  name="Detail")
    assert stored.stored is not None
    assert (stored.stored.name, stored.stored.version) == ("Detail", 1)
    assert stored.scene["name"] == "Detail"
    assert {**stored.scene, "name": None} == {**imported.scene, "name": None}
    run = taptrace.dispatch(stored.stored.id, [{"tap": [187, 333]}], label="Detail tap")
    assert run.first_responder is not None
    assert run.chain_ids[0] == run.first_responder.id

    # The next build's capture of the same screen as version 2: a tap does the same.
    nxt = taptrace.import_dump(examples / "detail-next-build.dump.txt",
                               scene=stored.stored, if_match=1)
    assert (nxt.stored.id, nxt.stored.version) == (stored.stored.id, 2)
    assert taptrace.replay(stored.stored, 1, 2).changed_count == 0


def test_import_an_appium_page_source(taptrace, examples):
    auto = taptrace.import_dump(examples / "settings.page-source.xml")
    assert auto.format == "appium"
    assert auto.warnings[0].startswith("This is the accessibility tree (XCUITest)")
    named = taptrace.import_dump((examples / "settings.page-source.xml").read_bytes(),
                                 format="appium")
    assert named.scene == auto.scene


def test_a_dump_in_the_wrong_format_is_a_problem_with_its_position(taptrace, examples):
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.import_dump(examples / "settings.page-source.xml",
                             format="recursive-description")
    problem = caught.value
    assert problem.status == 422 and problem.kind == "import-syntax"
    assert (problem.line, problem.column) == (1, 7)
    assert "This looks like an Appium page source" in problem.detail

    with pytest.raises(TapTraceProblem) as caught:
        taptrace.import_dump("hello world")
    assert (caught.value.line, caught.value.column) == (1, 1)
    assert "cannot tell which dump this is" in caught.value.detail


def test_an_unknown_format_is_refused_before_sending(taptrace):
    with pytest.raises(ValueError, match="format must be one of auto, recursive-description"):
        taptrace.import_dump("x", format="uikit")
