"""The pytest plugin and TapTraceServer: starting, failing clearly, stopping."""
import os
import signal
import socket
import stat
import urllib.parse

import pytest

from taptrace import TapTrace, TapTraceServer, TapTraceServerError, find_binary


@pytest.fixture
def binary(request):
    """The binary this session's server runs (the same option and variable as the plugin)."""
    return find_binary(request.config.getoption("taptrace_bin"))


def script(directory, text):
    """An executable shell script standing in for taptrace."""
    path = directory / "fake-taptrace"
    path.write_text("#!/bin/sh\n" + text + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def run_pytest(pytester, monkeypatch):
    """pytest in a subprocess with only this plugin. Other installed plugins (schemathesis and
    hypothesis in the CI venv) take seconds to import in every run; the entry point that loads
    this one is exercised by this very session, whose fixtures come from it."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return lambda *args: pytester.runpytest_subprocess("-p", "taptrace.pytest_plugin", *args)


def accepts(url):
    parts = urllib.parse.urlsplit(url)
    try:
        socket.create_connection((parts.hostname, parts.port), timeout=1).close()
        return True
    except OSError:
        return False


def test_the_fixture_starts_a_server_and_stops_it_after_the_session(run_pytest, pytester, binary):
    pytester.makepyfile("""
        def test_server(taptrace_server, taptrace):
            assert taptrace_server.startswith("http://127.0.0.1:")
            assert taptrace.base_url == taptrace_server
            assert taptrace.health()["status"] == "ok"
            open("url.txt", "w").write(taptrace_server)
    """)
    result = run_pytest(f"--taptrace-bin={binary}")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"taptrace: {binary}"])
    url = (pytester.path / "url.txt").read_text()
    assert not accepts(url), f"the server at {url} still accepts connections"


def test_a_missing_binary_fails_with_a_clear_message(run_pytest, pytester, monkeypatch):
    monkeypatch.setenv("TAPTRACE_BIN", "/nonexistent/taptrace")
    pytester.makepyfile("def test_a(taptrace): pass\ndef test_b(taptrace): pass\n")
    result = run_pytest()
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        ["*taptrace binary '/nonexistent/taptrace' (TAPTRACE_BIN) does not exist*"])


def test_no_binary_anywhere_says_how_to_give_one(run_pytest, pytester, monkeypatch, tmp_path):
    monkeypatch.delenv("TAPTRACE_BIN", raising=False)
    monkeypatch.delenv("TAPTRACE_URL", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no taptrace there
    pytester.makepyfile("def test_a(taptrace_server): pass\n")
    result = run_pytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*no taptrace binary: pass --taptrace-bin PATH to pytest, "
                                 "set TAPTRACE_BIN, or put taptrace on the PATH*"])


def test_a_server_that_dies_at_start_shows_its_stderr(run_pytest, pytester, tmp_path):
    fake = script(tmp_path, 'echo "taptrace: cannot open database at $5" >&2; exit 3')
    pytester.makepyfile("def test_a(taptrace): pass\n")
    result = run_pytest(f"--taptrace-bin={fake}")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*taptrace serve exited with status 3 before announcing its address*",
                                 "*taptrace: cannot open database at *taptrace.sqlite*"])


def test_an_existing_server_by_url(run_pytest, pytester, taptrace_server):
    pytester.makepyfile(f"""
        def test_a(taptrace_server, taptrace):
            assert taptrace_server == {taptrace_server!r}
            assert taptrace.health()["status"] == "ok"
    """)
    result = run_pytest(f"--taptrace-url={taptrace_server}/")
    result.assert_outcomes(passed=1)


def test_server_start_and_stop(binary, tmp_path):
    server = TapTraceServer(binary, db=tmp_path / "t.sqlite")
    with server:
        assert TapTrace(server.url).health()["database"]["ok"] is True
        pid = server.process.pid
    assert server.process is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert "GET /health 200 " in server.stderr()  # its request log
    assert (tmp_path / "t.sqlite").exists()


def test_a_temporary_database_is_removed(binary):
    server = TapTraceServer(binary)
    server.start()
    directory = os.path.dirname(server.db)
    assert os.path.exists(server.db)
    assert server.stop() == 0
    assert not os.path.exists(directory)


def test_a_server_that_dies_during_the_tests_is_reported(binary, tmp_path):
    server = TapTraceServer(binary, db=tmp_path / "t.sqlite")
    server.start()
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait()
    with pytest.raises(TapTraceServerError, match="died during the tests"):
        server.stop()


def test_a_silent_server_times_out(tmp_path):
    fake = script(tmp_path, "echo starting >&2; exec sleep 30")
    server = TapTraceServer(fake, db=tmp_path / "t.sqlite", start_timeout=0.3, stop_timeout=2)
    with pytest.raises(TapTraceServerError,
                       match=r"did not announce its address within 0.3 s(.|\n)*starting"):
        server.start()
    assert server.process is None
