"""Bad input: problems raised with the server's document, and misuse caught before sending."""
import pytest
from conftest import load, views

from taptrace import TapTrace, TapTraceError, TapTraceProblem


def test_a_typo_in_a_scene_is_a_problem_with_its_pointer(taptrace):
    scene = load("checkout.scene.json")
    button = next(v for v in views(scene) if v["id"] == "buyButton")
    button["userInteractionEnable"] = False  # the typo the contract warns about
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.upload(scene)
    problem = caught.value
    assert problem.status == 422
    assert problem.type == "https://taptrace.dev/problems/validation"
    assert problem.title == "Invalid document"
    pointer = "/windows/0/subviews/0/subviews/0/subviews/0/subviews/1/userInteractionEnable"
    assert problem.pointers == [pointer]
    assert 'did you mean "userInteractionEnabled"?' in problem.issues[0].detail
    assert problem.problem["errors"][0]["pointer"] == pointer  # the document as sent
    text = str(problem)
    assert text.startswith(f"POST {taptrace.base_url}/v1/scenes: 422 Invalid document: ")
    assert f"\n  {pointer}: unknown key" in text


def test_every_issue_is_listed(taptrace, examples):
    request = load("checkout.request.json")
    gestures = [{"tap": 5}, {"tap": [1, 2], "duration": 0}, {"tap": [1, 2], "tapp": 1}]
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.dispatch(request["scene"], gestures)
    assert caught.value.pointers == ["/touches/gestures/0/tap", "/touches/gestures/1/duration",
                                     "/touches/gestures/2/tapp"]
    assert caught.value.detail.startswith("3 problems found")
    assert str(caught.value).count("\n  /touches/gestures/") == 3


def test_a_bad_case_is_a_problem_under_its_index(taptrace):
    case = load("checkout.case.json")
    case["expect"]["firstResponders"] = "buyButton"
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.check([load("checkout.case.json"), case])
    assert caught.value.pointers == ["/cases/1/expect/firstResponders"]


def test_misuse_is_caught_before_sending(taptrace, examples):
    with pytest.raises(TypeError, match="label and version apply to a stored scene"):
        taptrace.tap(examples / "checkout.scene.json", "buyButton", label="x")
    with pytest.raises(TypeError, match="a list of gestures"):
        taptrace.dispatch("scn_x", "tap buyButton")
    with pytest.raises(TypeError, match=r"pass pathlib.Path\('examples/checkout.scene.json'\)"):
        taptrace.tap("examples/checkout.scene.json", "buyButton")
    with pytest.raises(ValueError, match="http"):
        TapTrace("127.0.0.1:8080")


def test_an_unreachable_server_is_a_taptrace_error():
    client = TapTrace("http://127.0.0.1:9", timeout=2)  # the discard port: nothing listens
    with pytest.raises(TapTraceError, match="cannot reach taptrace at http://127.0.0.1:9"):
        client.health()
