"""The pytest plugin (entry point ``pytest11``, loaded when this package is installed).

Fixtures:

- ``taptrace_server`` (session): the base URL of a ``taptrace serve --port 0`` started once for
  the test session on a fresh database in pytest's temporary directory, stopped with SIGTERM
  at the end. The binary is ``--taptrace-bin``, else ``$TAPTRACE_BIN``, else ``taptrace`` on
  the ``PATH``. With ``--taptrace-url`` (or ``$TAPTRACE_URL``) no server is started: the
  fixture gives that URL.
- ``taptrace_token`` (session): the bearer token of that server: ``$TAPTRACE_TOKEN`` when set,
  else (for a server the fixture starts) a fresh random one, which the server is started with
  (``--auth-token-file``), so that the tests run as a deployed server would be used.
- ``taptrace``: a ``TapTrace`` client of that server, with that token.
"""
from __future__ import annotations

import os
import secrets
from typing import Iterator, Optional

import pytest

from .client import TapTrace
from .errors import TapTraceServerError
from .server import TapTraceServer, find_binary


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("taptrace")
    group.addoption("--taptrace-bin", metavar="PATH", default=None,
                    help="the taptrace binary the taptrace_server fixture starts "
                         "(default: $TAPTRACE_BIN, else taptrace on the PATH)")
    group.addoption("--taptrace-url", metavar="URL", default=None,
                    help="use this running taptrace serve instead of starting one "
                         "(default: $TAPTRACE_URL)")


def _url(config: pytest.Config) -> Optional[str]:
    return config.getoption("taptrace_url") or os.environ.get("TAPTRACE_URL") or None


def pytest_report_header(config: pytest.Config) -> str:
    url = _url(config)
    if url:
        return f"taptrace: {url}"
    try:
        return f"taptrace: {find_binary(config.getoption('taptrace_bin'))}"
    except TapTraceServerError as error:
        return f"taptrace: {error}"


@pytest.fixture(scope="session")
def taptrace_token(request: pytest.FixtureRequest) -> Optional[str]:
    """The session server's bearer token (None for a ``--taptrace-url`` server without
    ``$TAPTRACE_TOKEN``)."""
    token = os.environ.get("TAPTRACE_TOKEN", "").strip()
    if token:
        return token
    return None if _url(request.config) else secrets.token_urlsafe(32)


@pytest.fixture(scope="session")
def taptrace_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                    taptrace_token: Optional[str]) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT``) of the session's ``taptrace serve``."""
    url = _url(request.config)
    if url:
        yield url.rstrip("/")
        return
    # One server for the session: starting one takes a fraction of a second, but each test
    # stores its own scenes (fresh ids), so tests do not see each other's data anyway.
    directory = tmp_path_factory.mktemp("taptrace")
    try:
        server = TapTraceServer(request.config.getoption("taptrace_bin"),
                                db=directory / "taptrace.sqlite", token=taptrace_token)
        server.start()
    except TapTraceServerError as error:
        pytest.fail(str(error), pytrace=False)
    yield server.url
    # Raises (a teardown error) when the server died during the session or did not stop
    # cleanly; its log stays in the directory beside the database.
    server.stop()


@pytest.fixture
def taptrace(taptrace_server: str, taptrace_token: Optional[str]) -> TapTrace:
    """A ``TapTrace`` client of the session's server, with its token."""
    return TapTrace(taptrace_server, token=taptrace_token)
