"""Opt-in: the model tier through a local model server (``make model-smoke``).

- The served tiny model: ``make model-smoke`` sets ``PROCTOR_MODEL_SMOKE=1``, installs the
  engine (``scripts/local-model/install``) and the ``gguf`` package, and this module builds
  a tiny random-weight GGUF (``tiny_gguf.py``), serves it with ``scripts/local-model/server.mjs``
  on loopback and runs one model scenario through it. Its replies are nonsense: the test
  proves the serving path (loading, the tool schemas there and the calls back, the
  accounting), held against the server's own log, never what the model did.
- A real model of yours: with ``PROCTOR_LOCAL_MODEL_URL`` set to an OpenAI-compatible base URL
  (``make model-server``, llama.cpp's server, Ollama, vLLM) and ``PROCTOR_LOCAL_MODEL`` to
  its model name, one more test sends a scenario there and checks that the model's work is
  recorded (planner calls, tokens, latency, the stop reason), never whether it passed.
"""

from __future__ import annotations

import dataclasses
import os
import queue
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import LoadedScenario
from proctor.vocab import STOP_REASONS

URL = os.environ.get("PROCTOR_LOCAL_MODEL_URL")
MODEL = os.environ.get("PROCTOR_LOCAL_MODEL", "local")
SCALE = float(os.environ.get("PROCTOR_LOCAL_TIME_SCALE", "10"))
"""Wall limits for a model on CPU: 10x unless PROCTOR_LOCAL_TIME_SCALE says otherwise."""
SMOKE = os.environ.get("PROCTOR_MODEL_SMOKE") == "1"

ENGINE = Path(__file__).resolve().parents[3] / "scripts" / "local-model"
STARTUP_S = 120.0
"""Loading the engine and the tiny model takes about a second; a loaded machine, far more."""
LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+/v1) \(model (\S+)\)")
SERVED = re.compile(
    r"POST /v1/chat/completions 200 prompt=(\d+) cached=(\d+) completion=(\d+) calls=(\S+)"
)

pytestmark = pytest.mark.browser


@dataclass(frozen=True)
class Served:
    """One 200 line of the server's log: what it counted and which tools the reply called."""

    prompt: int
    cached: int
    completion: int
    calls: tuple[str, ...]


@dataclass
class TinyServer:
    url: str
    model: str
    log: Path

    def served(self) -> list[Served]:
        return [
            Served(int(m[1]), int(m[2]), int(m[3]), tuple(c for c in m[4].split(",") if c != "-"))
            for m in SERVED.finditer(self.log.read_text())
        ]


def listening_line(proc: subprocess.Popen[str], log: Path) -> re.Match[str]:
    """The server's ``listening on`` line, read within ``STARTUP_S``."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put("")  # end of output: the server exited

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + STARTUP_S
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        if match := LISTENING.search(line):
            return match
        if not line:
            proc.wait(timeout=10)
            pytest.fail(f"the model server exited {proc.returncode}: {log.read_text()[-2000:]}")
    pytest.fail(f"the model server printed no listening line in {STARTUP_S:g} s")


@pytest.fixture(scope="module")
def tiny_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TinyServer]:
    """The tiny random-weight model served on loopback by scripts/local-model/server.mjs."""
    node = shutil.which("node")
    if node is None or not (ENGINE / "node_modules" / "node-llama-cpp").is_dir():
        pytest.fail("the local-model engine is not installed: run scripts/local-model/install")
    from tiny_gguf import build

    folder = tmp_path_factory.mktemp("tiny-model")
    model = build(folder / "tiny.gguf")
    log = folder / "server.log"
    with log.open("w") as err:
        # One thread: the model is tiny, and on a shared 2-core machine spinning threads wait
        # on each other far longer than one thread computes.
        argv = [node, str(ENGINE / "server.mjs"), "--model", str(model), "--port", "0"]
        proc = subprocess.Popen(
            [*argv, "--threads", "1", "--ctx", "32768"],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    try:
        match = listening_line(proc, log)
        yield TinyServer(match[1], match[2], log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


async def scaled_attempt(
    worker: Worker, loaded: LoadedScenario, spec: str, scale: float
) -> AttemptRecord:
    options = worker.options
    worker.options = dataclasses.replace(options, time_scale=scale)
    try:
        return await run_attempt(worker, PlanItem(loaded, parse_arm(spec), 1))
    finally:
        worker.options = options


@pytest.mark.skipif(
    not SMOKE, reason="opt-in: make model-smoke (installs the engine, sets PROCTOR_MODEL_SMOKE=1)"
)
async def test_the_served_tiny_model_is_recorded_as_the_server_counted_it(
    worker: Worker, suite: dict[str, LoadedScenario], tiny_server: TinyServer
) -> None:
    loaded = suite["header-enumeration"]
    # tool_choice=required: the server starts each reply inside the call syntax, so even
    # random weights call a tool, under a grammar made from its schema.
    spec = (
        f"tiny=openai-compatible:{tiny_server.model}@{tiny_server.url}"
        "+tool_choice=required+temperature=0+timeout=300+deadline=600+retries=0"
    )
    record = await scaled_attempt(worker, loaded, spec, scale=5.0)
    served = tiny_server.served()

    assert record.model == tiny_server.model
    assert record.planner_calls >= 1 and len(record.planner) == record.planner_calls
    # Every planner call is one request the server answered, counted as the server counted it.
    assert len(served) == record.planner_calls, tiny_server.log.read_text()
    for call, seen in zip(record.planner, served, strict=True):
        assert call.tokens.get("input") == seen.prompt
        assert call.tokens.get("output") == seen.completion
        assert call.tokens.get("cached", 0) == seen.cached
        assert seen.prompt > 0 and seen.completion > 0
        assert call.latency_ms > 0
        # The tool schema round trip: the call the grammar produced is the call proctor took.
        assert len(seen.calls) >= 1, "tool_choice=required and yet no call"
        assert call.tool == seen.calls[0]
    # The conversation grows on the server's cache: the second request reuses the first's prompt.
    if len(served) >= 2:
        assert served[1].cached >= served[0].prompt
    assert record.tokens["input"] == sum(s.prompt for s in served)
    assert record.tokens["output"] == sum(s.completion for s in served)
    assert record.stop_reason in STOP_REASONS


@pytest.mark.skipif(
    not URL, reason="PROCTOR_LOCAL_MODEL_URL is not set (an OpenAI-compatible base URL)"
)
async def test_a_local_model_run_is_recorded(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    spec = f"local=openai-compatible:{MODEL}@{URL}+timeout=900+deadline=1800+retries=1"
    record = await scaled_attempt(worker, suite["header-enumeration"], spec, SCALE)
    assert record.result in ("passed", "failed", "error")
    assert record.stop_reason in STOP_REASONS
    if record.result != "error":
        assert record.planner_calls >= 1 and len(record.planner) == record.planner_calls
        assert all(c.latency_ms > 0 for c in record.planner)
        assert record.tokens.get("total", 0) > 0 or any(not c.tokens for c in record.planner)
        assert record.model is not None
