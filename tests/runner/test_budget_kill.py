"""The budget holds across kill -9 and resume: a killed attempt's model spend is counted.

A fake model provider runs on a thread of the test: it bills every request it
receives (a fixed price, written to billed.jsonl before it answers) and answers
``five_words``'s five fills and ``done``, so each attempt costs 6 calls.
It holds one call (the last of the second attempt) until the test lets go. The
test kills ``proctor run --budget`` with SIGKILL while that call is held, resumes
the run, and then sums what the provider billed: it must stay within the cap plus
one call's estimate (the admission the ledger holds for the call in flight).

Without the ledger the resumed leg would count only the first attempt's record,
redo the second attempt, and bill $0.36 against a $0.25 cap.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from executor_support import not_a_subreaper

from cli_support import WORDS, five_words, write_scenario
from proctor.agents.llm import openai_reply
from proctor.records import AttemptRecord

pytestmark = pytest.mark.browser

PROCTOR = Path(sys.executable).parent / "proctor"
SID = "words"
MODEL = "budget-fake"
PRICES = f'[models."{MODEL}"]\ninput = 0.0\noutput = 500.0\n'
"""Output tokens only, so both a reply's cost and a call's estimate are known exactly."""
USAGE = (1000, 40, 0, 0)
"""Prompt and completion tokens of every reply: 40 x $500/M = $0.02."""
COST = 0.02
MAX_TOKENS = 50
ESTIMATE = MAX_TOKENS * 500.0 / 1e6
"""A call's admission: its whole max_tokens of output, $0.025."""
CALLS = 6
"""Per attempt: five fills, then done."""
CAP = 0.25
"""Two attempts fit ($0.24), a third does not."""
HELD = 2 * CALLS
"""The call held in flight when the run is killed: the second attempt's last."""
WAIT = 240.0


class FakeProvider:
    """Chat completions on 127.0.0.1: bills each request, holds call ``HELD``."""

    def __init__(self, billed: Path) -> None:
        self.billed = billed
        self.calls = 0
        self.held = threading.Event()
        self.release = threading.Event()
        self.lock = threading.Lock()
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with provider.lock:
                    provider.calls += 1
                    number = provider.calls
                    with provider.billed.open("a") as log:
                        log.write(json.dumps({"call": number, "usd": COST}) + "\n")
                if number == HELD:
                    provider.held.set()
                    provider.release.wait(WAIT)  # bounded: the test sets it once it killed
                said = sum(m.get("role") == "assistant" for m in body["messages"])
                reply = (
                    openai_reply("fill", {"role": "textbox", "name": "Word", "value": WORDS[said]},
                                 usage=USAGE, model=MODEL, call_id=f"call_{said}")
                    if said < len(WORDS)
                    else openai_reply("done", {}, usage=USAGE, model=MODEL, call_id="call_done")
                )  # fmt: skip
                data = json.dumps(reply).encode()
                with contextlib.suppress(OSError):  # the killed client is gone
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def total(self) -> float:
        lines = self.billed.read_text().splitlines()
        return float(sum(json.loads(line)["usd"] for line in lines))

    def __enter__(self) -> FakeProvider:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


@pytest.fixture(autouse=True)
def _not_a_subreaper() -> Iterator[None]:
    with not_a_subreaper():
        yield


def command(tmp: Path, url: str, extra: list[str], resume: bool = False) -> list[str]:
    arm = (
        f"fake=openai-compatible:{MODEL}@{url}+max_tokens={MAX_TOKENS}+prices={tmp / 'prices.toml'}"
    )
    args = [str(PROCTOR), "run", "--scenarios", str(tmp / "scenarios"), "--only", SID]
    args += ["--arm", arm, "--repeat", "3"]
    args += ["--budget", str(CAP), "--results", str(tmp / "results"), "--label", "capped"]
    args += ["--retry-delays", "0", "--time-scale", "5", *extra]
    return args + (["--resume"] if resume else [])


def env() -> dict[str, str]:
    return {**os.environ, "COLUMNS": "200", "PROCTOR_CLOCK": "2026-11-02T09:30:00+00:00"}


def killed_while_held(provider: FakeProvider, args: list[str]) -> None:
    """Run ``args``; SIGKILL it once the provider holds call ``HELD``."""
    process = subprocess.Popen(
        args, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    said = ""
    try:
        deadline = time.monotonic() + WAIT
        while not provider.held.wait(0.1) and process.poll() is None:
            assert time.monotonic() < deadline, "the run never reached the held call"
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.wait(30)
        if process.stderr is not None:
            said = process.stderr.read()
            process.stderr.close()
    assert process.returncode == -signal.SIGKILL, f"the run ended before the kill: {said!r}"


def admitted(run_dir: Path) -> list[float]:
    """The dollars of every admission in the run's spend ledger (the cut line left out)."""
    path = run_dir / "spend.jsonl"
    found = []
    for raw in path.read_bytes().splitlines() if path.is_file() else []:
        with contextlib.suppress(ValueError):
            line = json.loads(raw)
            if line["kind"] == "admit":
                found.append(float(line["usd"]))
    return found


def budget_holds(tmp: Path, extra: list[str]) -> None:
    (tmp / "prices.toml").write_text(PRICES)
    write_scenario(tmp / "scenarios", five_words(SID))
    run_dir = tmp / "results" / "capped"
    with FakeProvider(tmp / "billed.jsonl") as provider:
        first = command(tmp, provider.url, extra)
        again = command(tmp, provider.url, extra, resume=True)
        killed_while_held(provider, first)
        provider.release.set()  # the killed client is gone: the held call may end
        billed_at_kill = provider.total()
        with (run_dir / "spend.jsonl").open("ab") as ledger:
            ledger.write(b'{"kind": "settle", "att')  # as if the kill came mid-write
        done = subprocess.run(again, env=env(), capture_output=True, text=True, timeout=600)
        billed = provider.total()
    assert done.returncode in (0, 1), done.stderr
    assert billed_at_kill == pytest.approx(HELD * COST)
    estimates = admitted(run_dir)
    assert billed <= CAP + ESTIMATE + 1e-9, (billed, CAP, ESTIMATE)
    assert estimates == [pytest.approx(ESTIMATE)] * HELD  # one a call, the held one included
    said = " ".join(done.stdout.split())
    assert f"spend.jsonl: line {2 * HELD} not a spend line (a write cut short by a kill)" in said
    records = {
        p.parent.name: AttemptRecord.model_validate_json(p.read_bytes())
        for p in run_dir.glob("attempts/*/*/attempt.json")
    }
    assert {name: (r.result, r.not_run) for name, r in records.items()} == {
        "fake-1": ("passed", None),
        "fake-2": ("skipped", "budget"),
        "fake-3": ("skipped", "budget"),
    }
    assert records["fake-1"].cost_usd == pytest.approx(CALLS * COST)


@pytest.mark.slow
def test_the_budget_holds_across_kill_and_resume_inline(tmp_path: Path) -> None:
    budget_holds(tmp_path, [])


@pytest.mark.slow
def test_the_budget_holds_across_kill_and_resume_in_a_pool(tmp_path: Path) -> None:
    budget_holds(tmp_path, ["--executor", "pool", "--workers", "1"])
