"""Live servers for the tests, forked from one process that has imported the app once.

`python -m medivisit serve` spends about two seconds of CPU importing the app (SQLAlchemy's and pydantic's
models, FastAPI, ReactPy) before it serves anything, and a test run starts some sixty servers. Each test
process therefore starts one forker (`python -m tests.server_forker`) that imports the app and then, for
each server a test asks for, forks a child that takes the server's environment and runs the same command
line (`medivisit.cli.main(["serve", …])`): the same code from the same entry point, ready in a fraction of
the time. The forker also reads the `zipcodes` library's data, which every server would read on first use. Nothing at import reads the settings or the environment (the forker checks), so a child serves
with its own settings only.

The protocol is one JSON line per server on the forker's stdin (argv, env, cwd, log path), answered with the
child's process id; `ForkedProcess` gives the test the part of `subprocess.Popen` it uses (poll, terminate,
wait, kill), through a pidfd since the child is the forker's, not the test's.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import traceback
from pathlib import Path


def _serve_child(request: dict) -> None:
    """In the forked child: become the server the request describes; never returns."""
    code = 1
    try:
        os.setsid()  # its own process group, like a spawned server: signals to the forker don't reach it
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the server's own subprocesses are waited for
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        from app.settings import get_settings
        from medivisit.cli import main

        get_settings.cache_clear()
        code = main(request["argv"])
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # noqa: BLE001 - anything goes to the server's log
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def forker_main() -> None:
    """The forker: import the app, then fork one server per request line until stdin closes."""
    import zipcodes

    import medivisit.main  # noqa: F401 - the import every server would otherwise repeat
    from app.settings import get_settings

    zipcodes.list_all()  # the library's 42,789 ZIP codes, read once here (0.8 s) rather than in each server

    if get_settings.cache_info().currsize:
        raise SystemExit("the settings were read while importing the app: a forked server would keep them")
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the servers when they end
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _serve_child(request)
        sys.stdout.write(f"{pid}\n")
        sys.stdout.flush()


class ForkedProcess:
    """A forked server, as far as the tests use `subprocess.Popen`: poll, terminate, wait, kill."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        try:
            self._fd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:  # it has ended already (and the forker has reaped it)
            self._fd, self.returncode = None, 1

    def _ended(self, timeout: float) -> bool:
        if self.returncode is None and self._fd is not None and select.select([self._fd], [], [], timeout)[0]:
            os.close(self._fd)
            self._fd, self.returncode = None, -signal.SIGTERM  # the forker reaped it: the code is not known
        return self.returncode is not None

    def poll(self) -> int | None:
        self._ended(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended(timeout if timeout is not None else 1e6):
            raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0)
        assert self.returncode is not None  # _ended() set it
        return self.returncode

    def _signal(self, number: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, number)

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)


class Forker:
    """This test process's forker, started on first use."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def start(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> ForkedProcess:
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = subprocess.Popen(
                    [sys.executable, "-m", "tests.server_forker"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    cwd=cwd,
                    env={**os.environ, **env},
                    text=True,
                )
            request = {"argv": argv, "env": env, "cwd": str(cwd), "log": str(log)}
            stdin, stdout = self._process.stdin, self._process.stdout
            assert stdin is not None and stdout is not None  # both piped above
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
            answer = stdout.readline()
            if not answer:
                raise RuntimeError("the server forker ended: see the test output for its error")
            return ForkedProcess(int(answer))

    def close(self) -> None:
        if self._process is not None and self._process.stdin is not None:
            self._process.stdin.close()  # its loop ends; servers still running are stopped by their tests
            self._process.wait(timeout=10)


if __name__ == "__main__":
    forker_main()
