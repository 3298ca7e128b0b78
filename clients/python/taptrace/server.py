"""Starting and stopping ``taptrace serve`` for tests (the pytest fixture uses this; any other
harness can too)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional, Sequence, Union

from .errors import TapTraceServerError

# The first stdout line of `taptrace serve` names the address:
# "taptrace 0.1.0 listening on http://127.0.0.1:34977 (database …)".
_ADDRESS = re.compile(r"https?://\S+?:\d+")

StrPath = Union[str, "os.PathLike[str]"]


def find_binary(binary: Optional[StrPath] = None) -> str:
    """The ``taptrace`` executable: ``binary`` if given, else ``$TAPTRACE_BIN``, else
    ``taptrace`` on the ``PATH``. Raises ``TapTraceServerError`` saying what was tried."""
    if binary is not None:
        source = "given"
    elif os.environ.get("TAPTRACE_BIN"):
        binary, source = os.environ["TAPTRACE_BIN"], "TAPTRACE_BIN"
    else:
        found = shutil.which("taptrace")
        if found is None:
            raise TapTraceServerError(
                "no taptrace binary: pass --taptrace-bin PATH to pytest, set TAPTRACE_BIN, or "
                "put taptrace on the PATH (built by `swift build` at .build/debug/taptrace)")
        return found
    path = Path(binary)
    if not path.is_file():
        raise TapTraceServerError(f"taptrace binary {str(binary)!r} ({source}) does not exist")
    if not os.access(path, os.X_OK):
        raise TapTraceServerError(f"taptrace binary {str(binary)!r} ({source}) is not executable")
    return str(path.resolve())


class TapTraceServer:
    """``taptrace serve --port 0`` on a free loopback port with its own database.

    >>> with TapTraceServer(db="/tmp/t/taptrace.sqlite") as server:
    ...     TapTrace(server.url).health()

    ``start()`` waits up to ``start_timeout`` seconds for the address the server announces on
    its first stdout line; if the server exits first or stays silent, it raises
    ``TapTraceServerError`` with the server's stderr. ``stop()`` sends SIGTERM (the server
    answers the requests in flight and exits) and kills it after ``stop_timeout`` seconds.

    Without ``db``, the database and the logs go to a temporary directory that ``stop()``
    removes; with ``db``, the logs (``taptrace.stdout``, ``taptrace.stderr``: one line per
    request) are written beside it and kept. ``args`` are further ``serve`` arguments.

    With ``token``, the server requires it on every ``/v1`` request: it is written to a token
    file readable by the owner only (``taptrace.tokens`` beside the logs) and passed with
    ``--auth-token-file``; give the same ``token`` to ``TapTrace``.
    """

    def __init__(self, binary: Optional[StrPath] = None, db: Optional[StrPath] = None, *,
                 args: Sequence[str] = (), start_timeout: float = 10.0,
                 stop_timeout: float = 5.0, token: Optional[str] = None):
        self.binary = find_binary(binary)
        self.token = token
        self._temporary: Optional[str] = None
        if db is None:
            self._temporary = tempfile.mkdtemp(prefix="taptrace-")
            db = os.path.join(self._temporary, "taptrace.sqlite")
        self.db = str(db)
        directory = os.path.dirname(os.path.abspath(self.db))
        self.stdout_path = os.path.join(directory, "taptrace.stdout")
        self.stderr_path = os.path.join(directory, "taptrace.stderr")
        self.tokens_path = os.path.join(directory, "taptrace.tokens")
        self.args = list(args)
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.url: Optional[str] = None
        self.process: Optional[subprocess.Popen] = None

    def __enter__(self) -> "TapTraceServer":
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def start(self) -> str:
        """Starts the server and returns its base URL (also in ``url``)."""
        if self.process is not None:
            raise TapTraceServerError("this server was already started")
        # The tests talk to it over loopback; an inherited TAPTRACE_HOST must not move it.
        host = [] if "--host" in self.args else ["--host", "127.0.0.1"]
        command = [self.binary, "serve", "--port", "0", "--db", self.db, *host, *self.args]
        if self.token is not None:
            # A file, not TAPTRACE_AUTH_TOKENS or an argument: other users can read a process's
            # command line, and its environment is inherited by whatever it starts.
            descriptor = os.open(self.tokens_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w") as tokens:
                tokens.write(self.token + "\n")
            command += ["--auth-token-file", self.tokens_path]
        # Files rather than pipes: the server logs every request to stderr, and a pipe nobody
        # reads would block it once full.
        with open(self.stdout_path, "wb") as stdout, open(self.stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=stdout,
                                            stderr=stderr)
        deadline = time.monotonic() + self.start_timeout
        while True:
            match = _ADDRESS.search(self._read(self.stdout_path).split("\n", 1)[0])
            if match:
                self.url = match.group(0)
                return self.url
            if self.process.poll() is not None:
                self._failed_start(f"exited with status {self.process.returncode} before "
                                   f"announcing its address", command)
            if time.monotonic() > deadline:
                self._terminate()
                self._failed_start(f"did not announce its address within "
                                   f"{self.start_timeout:g} s", command)
            time.sleep(0.02)

    def _failed_start(self, what: str, command: Sequence[str]) -> None:
        log = self.stderr(tail=40)
        self.process = None
        self._cleanup()
        raise TapTraceServerError(f"taptrace serve {what} ({' '.join(command)}); "
                                  f"its stderr:\n{log or '(empty)'}")

    def stop(self) -> int:
        """Stops the server with SIGTERM (SIGKILL after ``stop_timeout`` s) and returns its exit
        status. Raises ``TapTraceServerError`` if it had already died, exited with an error, or
        had to be killed: the tests ran against a server that misbehaved."""
        if self.process is None:
            return 0
        died = self.process.poll()
        killed = False
        if died is None:
            killed = self._terminate()
        status = self.process.returncode
        self.process = None
        problem = None
        if died is not None:
            problem = f"taptrace serve died during the tests (exit status {died})"
        elif killed:
            problem = f"taptrace serve did not stop within {self.stop_timeout:g} s of SIGTERM and was killed"
        elif status != 0:
            problem = f"taptrace serve exited with status {status} on SIGTERM"
        log = self.stderr(tail=40) if problem else ""
        self._cleanup()
        if problem:
            raise TapTraceServerError(f"{problem}; the end of its stderr:\n{log}")
        return status

    def stderr(self, tail: Optional[int] = None) -> str:
        """What the server wrote to stderr (its request log), or the last ``tail`` lines."""
        text = self._read(self.stderr_path)
        if tail is not None:
            text = "\n".join(text.splitlines()[-tail:])
        return text

    def _terminate(self) -> bool:
        """SIGTERM, then SIGKILL after the timeout; True when it had to be killed."""
        assert self.process is not None
        self.process.terminate()
        try:
            self.process.wait(timeout=self.stop_timeout)
            return False
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return True

    def _cleanup(self) -> None:
        if self._temporary is not None:
            shutil.rmtree(self._temporary, ignore_errors=True)
            self._temporary = None

    @staticmethod
    def _read(path: str) -> str:
        try:
            with open(path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""
