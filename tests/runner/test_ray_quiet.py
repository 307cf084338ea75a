"""Ray is quiet: a ``--executor ray`` run sends nothing off the box, observed from outside.

``proctor run --executor ray`` runs under ``strace -f``, which follows the driver, the
local Ray it starts (GCS, raylet, agents, the actor) and the actor's sealed Chromium.
Every connect and send that went out must target loopback or a unix socket, none may be
a DNS query, and no payload may name a cloud metadata host or Ray's usage-stats server.

Left alone, Ray's API server (started even with ``include_dashboard=False``) asks
169.254.169.254 and metadata.google.internal which cloud this is as it starts. A Ray
with usage stats on also reports to usage-stats.ray.io a minute after start, then
hourly: the test brings that first report forward (``RAY_USAGE_STATS_REPORT_INTERVAL_S``)
and clears what the environment or ``~/.ray/config.json`` says about usage stats, so
proctor has to turn them off itself.
"""

from __future__ import annotations

import contextlib
import importlib.util
import ipaddress
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import NamedTuple

import pytest

from proctor.api import EXIT_FAILED

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None, reason="Ray is an extra: bootstrap installs it"
    ),
]

PROCTOR = Path(sys.executable).parent / "proctor"
SCENARIO = "harness-canary"
MARK_ENV = "PROCTOR_TEST_RAY_QUIET"
"""Carried by everything the traced run starts, so what outlives it can be found."""

CALL = re.compile(r"^(\d+) +(connect|sendto|sendmsg|sendmmsg)\((.*)$")
RESUMED = re.compile(r"^(\d+) +<\.\.\. (\w+) resumed>(.*)$")
EXEC = re.compile(r'^(\d+) +execve\("([^"]*)"')
DEST = re.compile(
    r"sa_family=AF_INET6?, sin6?_port=htons\((\d+)\),"
    r".*?(?:inet_addr\(\"([^\"]+)\"\)|inet_pton\(AF_INET6, \"([^\"]+)\")"
)
RESULT = re.compile(r"\)\s+= (-?\d+)(?: (E[A-Z]+))?(?: \([^)]*\))?$")
NAMED = re.compile(r"metadata(?:\.|\\\d+)google|usage-stats(?:\.|\\\d+)ray|169\.254\.169\.254")
"""A cloud metadata host or Ray's usage-stats server, as text or in DNS wire format."""


class NetCall(NamedTuple):
    pid: int
    call: str
    address: str
    port: int
    went_out: bool
    """Whether anything may have left: success, or a connect under way."""


def calls(trace: str) -> list[NetCall]:
    """Every IP destination in the trace, joining calls strace split across threads."""
    pending: dict[str, tuple[str, str]] = {}
    whole: list[tuple[str, str, str]] = []
    for line in trace.splitlines():
        if match := CALL.match(line):
            tid, call, rest = match.groups()
            if rest.endswith("<unfinished ...>"):
                pending[tid] = (call, rest)
            else:
                whole.append((tid, call, rest))
        elif (match := RESUMED.match(line)) and match.group(1) in pending:
            call, head = pending.pop(match.group(1))
            whole.append((match.group(1), call, head + match.group(3)))
    found = []
    for tid, call, text in whole:
        result = RESULT.search(text)
        went_out = result is not None and (
            int(result.group(1)) >= 0 or result.group(2) == "EINPROGRESS"
        )
        for dest in DEST.finditer(text):
            port, v4, v6 = dest.groups()
            found.append(NetCall(int(tid), call, v4 or v6, int(port), went_out))
    return found


def on_the_box(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def programs(trace: str) -> dict[int, str]:
    """Which program each traced process exec'd, by pid (threads are not listed)."""
    found = (EXEC.match(line) for line in trace.splitlines())
    return {int(m.group(1)): Path(m.group(2)).name for m in found if m}


def marked(value: str) -> list[int]:
    """Processes still running (not zombies) with ``MARK_ENV=value`` in their environment."""
    wanted = f"{MARK_ENV}={value}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z" and wanted in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
    return found


def test_a_ray_run_sends_nothing_off_the_box(tmp_path: Path) -> None:
    if shutil.which("strace") is None:
        pytest.fail("strace is missing: scripts/bootstrap installs it (apt-get install strace)")
    mark = uuid.uuid4().hex
    env = {**os.environ, "COLUMNS": "200", MARK_ENV: mark}
    env.pop("RAY_USAGE_STATS_ENABLED", None)  # proctor must turn usage stats off itself
    env["RAY_USAGE_STATS_CONFIG_PATH"] = str(tmp_path / "no-ray-config.json")
    env["RAY_USAGE_STATS_REPORT_INTERVAL_S"] = "1"  # the first report a second after start
    out = tmp_path / "net.trace"
    # --seccomp-bpf: only the traced calls stop a process, so the traced browser keeps up
    strace = ["strace", "-f", "--seccomp-bpf", "-qq", "-s", "256", "-o", str(out)]
    strace += ["-e", "trace=connect,sendto,sendmsg,sendmmsg,execve"]
    run = [str(PROCTOR), "run", "--only", SCENARIO, "--arm", "oracle=scripted"]
    run += ["--executor", "ray", "--workers", "1", "--results", str(tmp_path / "results")]
    run += ["--label", "quiet", "--time-scale", "5"]  # a loaded machine is no timeout here
    trace = ""
    try:
        done = subprocess.run(strace + run, env=env, capture_output=True, text=True, timeout=600)
        # ray.shutdown ends Ray's processes; give a loaded machine time to reap them
        deadline = time.monotonic() + 60
        while (left := marked(mark)) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        left = marked(mark)
        for pid in left:  # only what this test's run started carries the mark
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if out.exists():  # the payloads hold Ray's auth token: the trace kept does not
            trace = re.sub(r"Bearer [\w.-]+", "Bearer <token>", out.read_text(errors="replace"))
            out.write_text(trace)
    # Traced, the browser is slow and a step may time out: whether the attempt passed is
    # not in question here, only that it ran on a Ray actor and came back.
    said = done.stdout[-2000:] + done.stderr[-2000:]
    assert done.returncode in (0, EXIT_FAILED), said
    run_dir = tmp_path / "results" / "quiet"
    assert len(list((run_dir / "attempts").glob("*/*/attempt.json"))) == 1, said
    assert json.loads((run_dir / "run.json").read_text())["config"]["executor"] == "ray"
    assert left == [], f"the run left processes behind: {left}"

    names = programs(trace)
    assert {"gcs_server", "raylet"} <= set(names.values()), "the trace saw no local Ray start"
    seen = calls(trace)
    assert any(c.went_out and on_the_box(c.address) for c in seen), "the trace saw no traffic"

    def who(call: NetCall) -> str:
        return f"{call.call} to {call.address}:{call.port} by {names.get(call.pid, call.pid)}"

    off = [who(c) for c in seen if c.went_out and not on_the_box(c.address)]
    dns = [who(c) for c in seen if c.went_out and c.port == 53]
    named = sorted({m.group(0) for m in NAMED.finditer(trace)})
    assert (off, dns, named) == ([], [], []), (off, dns, named)
