"""Bearer tokens: the client sends one (argument or $TAPTRACE_TOKEN), TapTraceServer starts the
server with a token file, and the plugin's session server requires its token."""
import os
import stat
import time
import urllib.error
import urllib.request

import pytest

from taptrace import TapTrace, TapTraceProblem, TapTraceServer, find_binary


@pytest.fixture
def binary(request):
    """The binary this session's server runs (the same option and variable as the plugin)."""
    return find_binary(request.config.getoption("taptrace_bin"))


@pytest.fixture
def guarded(binary, tmp_path):
    """A server of its own that requires the token "pytest-token-1"."""
    with TapTraceServer(binary, db=tmp_path / "taptrace.sqlite", token="pytest-token-1") as server:
        yield server


def test_a_token_is_required_and_sent(guarded, monkeypatch):
    monkeypatch.delenv("TAPTRACE_TOKEN", raising=False)
    with pytest.raises(TapTraceProblem) as refused:
        list(TapTrace(guarded.url).scenes())
    assert refused.value.status == 401
    with pytest.raises(TapTraceProblem) as wrong:
        list(TapTrace(guarded.url, token="pytest-token-2").scenes())
    assert wrong.value.status == 401
    assert "pytest-token-2" not in str(wrong.value)
    assert list(TapTrace(guarded.url, token="pytest-token-1").scenes()) == []
    # /health stays open: the client needs no token for it.
    assert TapTrace(guarded.url).health()["status"] == "ok"


def test_the_token_comes_from_the_environment(guarded, monkeypatch):
    monkeypatch.setenv("TAPTRACE_TOKEN", "pytest-token-1")
    assert list(TapTrace(guarded.url).scenes()) == []
    # An explicit token wins over the variable.
    with pytest.raises(TapTraceProblem):
        list(TapTrace(guarded.url, token="other-token").scenes())


def test_the_token_stays_out_of_repr_and_the_log(guarded):
    client = TapTrace(guarded.url, token="pytest-token-1")
    list(client.scenes())
    assert "pytest-token-1" not in repr(client)
    # The server writes its log in batches (every 10 ms at most).
    deadline = time.monotonic() + 5
    while "GET /v1/scenes 200" not in guarded.stderr() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert "GET /v1/scenes 200" in guarded.stderr()
    assert "pytest-token-1" not in guarded.stderr()
    mode = stat.S_IMODE(os.stat(guarded.tokens_path).st_mode)
    assert mode == 0o600, oct(mode)


def test_tokens_that_cannot_be_sent_are_refused():
    for bad in ["two words", "comma,token", "", "tök"]:
        with pytest.raises(ValueError):
            TapTrace("http://127.0.0.1:9", token=bad)


def test_the_session_server_requires_the_session_token(taptrace_server, taptrace_token, taptrace):
    assert taptrace_token
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.build_opener(urllib.request.ProxyHandler({})).open(taptrace_server + "/v1/scenes", timeout=10)
    assert refused.value.code == 401
    assert refused.value.headers["Content-Type"] == "application/problem+json"
    assert isinstance(list(taptrace.scenes()), list)
