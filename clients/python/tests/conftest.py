"""Shared helpers of the client's tests. The `taptrace` and `taptrace_server` fixtures come from
the installed package's pytest plugin (entry point pytest11), which these tests exercise."""
import copy
import json
import pathlib

import pytest

# pytester runs pytest in a subprocess to test the plugin's failure messages (test_plugin.py).
pytest_plugins = ["pytester"]

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / "examples"


@pytest.fixture
def examples() -> pathlib.Path:
    """The repository's examples/ folder."""
    return EXAMPLES


def load(name: str) -> dict:
    """A fresh copy of an example's JSON document, for tests that edit it."""
    return copy.deepcopy(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))


def views(scene: dict):
    """Every view node of a scene document, depth first."""
    stack = list(reversed(scene["windows"]))
    while stack:
        view = stack.pop()
        yield view
        stack.extend(reversed(view.get("subviews", [])))
