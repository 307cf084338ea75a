"""The replay provider in its own process: a model server met over a real socket.

``replay_process(responses, tmp)`` starts ``python -m
proctor.agents.llm.replay_server`` on a loopback port and yields a handle:
``load()`` gives it another transcript (one process serves many tests),
``requests()`` reads what it received. On the way out it closes the server's
stdin (its signal to stop) and reaps it, killing it by PID if it lingers.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proctor.agents.llm import Recorded, Transcript

START_TIMEOUT = 120.0


@dataclass
class ReplayServer:
    """A running replay server process."""

    port: int
    process: subprocess.Popen[bytes]

    def base_url(self, wire: str) -> str:
        root = f"http://127.0.0.1:{self.port}"
        return root if wire == "anthropic" else f"{root}/v1"

    def log(self) -> dict[str, Any]:
        url = f"http://127.0.0.1:{self.port}/_replay/requests"
        with urllib.request.urlopen(url, timeout=10) as response:
            data: dict[str, Any] = json.loads(response.read())
        return data

    def load(self, responses: list[Recorded], label: str = "test") -> None:
        """Serve ``responses`` from now on, with an empty request log."""
        body = Transcript(label=label, responses=responses).model_dump_json().encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/_replay/transcript", data=body, method="POST"
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()

    def requests(self) -> list[dict[str, Any]]:
        requests: list[dict[str, Any]] = self.log()["requests"]
        return requests


@contextlib.contextmanager
def replay_process(
    responses: list[Recorded], tmp: Path, *, key_env: str | None = None, label: str = "test"
) -> Iterator[ReplayServer]:
    """Serve ``responses`` from a separate process until the block ends."""
    transcript = tmp / "transcript.json"
    transcript.write_text(Transcript(label=label, responses=responses).model_dump_json())
    port_file = tmp / "replay.port"
    port_file.unlink(missing_ok=True)
    command = [
        sys.executable,
        "-m",
        "proctor.agents.llm.replay_server",
        str(transcript),
        str(port_file),
    ]
    if key_env:
        command += ["--key", key_env]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, env=dict(os.environ))
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not port_file.exists():
            if process.poll() is not None:
                raise RuntimeError(f"the replay server exited with {process.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the replay server wrote no port in {START_TIMEOUT:g}s")
            time.sleep(0.05)
        yield ReplayServer(int(port_file.read_text()), process)
    finally:
        assert process.stdin is not None
        process.stdin.close()  # the server's signal to stop
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
