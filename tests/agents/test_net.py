"""A jailed command agent's network: its MCP lane and its provider, nothing else of the machine.

Watched from outside: the test's own listeners count who connected, the trace
records what the proxy refused, and the run passes through the MCP lane.

The "provider" is honest about the proxy's rule (no address of this machine): it
listens in a network namespace the test makes, on a veth pair's far end
(198.18.0.0/15, the benchmarking range), so the proxy reaches it as it would a
remote host, and the near end (an address of this machine) is refused like
loopback. Deleting the namespace deletes the pair.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

import pytest

from proctor._netns import SealedNetwork
from proctor.agents._jail import available
from proctor.agents._net import refusal
from proctor.errors import ComputerError
from proctor.runner import PlanItem, Worker, attempt_folder, parse_arm, run_attempt
from proctor.scenario import LoadedScenario

pytestmark = pytest.mark.browser

Reader = asyncio.StreamReader
Writer = asyncio.StreamWriter

AGENT = Path(__file__).parent / "agents_fixtures" / "mcp_agent.py"

PROBE = r"""
import json, os, socket, subprocess, sys, urllib.request
t = json.loads(sys.argv[1])
for name, port in t["ports"].items():
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        print("CONNECT", name, "open", flush=True)
    except OSError as exc:
        print("CONNECT", name, type(exc).__name__, flush=True)
host, port = t["provider"]
try:
    socket.create_connection((host, port), timeout=5).close()
    print("DIRECT provider open", flush=True)
except OSError as exc:
    print("DIRECT provider", exc.errno, flush=True)
from urllib.parse import urlsplit
proxy = urlsplit(os.environ["HTTPS_PROXY"])

def tunnel(target):
    s = socket.create_connection((proxy.hostname, proxy.port), timeout=10)
    s.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    return s, head.split(b"\r\n")[0].decode()

for target in t["refused"]:
    s, status = tunnel(target)
    s.close()
    print("TUNNEL", target, status.split(" ")[1] if " " in status else status, flush=True)
s, status = tunnel(f"{host}:{port}")
s.sendall(b"GET /tunnel HTTP/1.1\r\nHost: provider\r\nConnection: close\r\n\r\n")
reply = b""
while chunk := s.recv(4096):
    reply += chunk
print("TUNNEL provider", status.split(" ")[1], reply.split(b"\r\n\r\n", 1)[1].decode(), flush=True)
with urllib.request.urlopen(f"http://{host}:{port}/plain", timeout=10) as r:
    print("PLAIN provider", r.status, r.read().decode(), flush=True)
code = subprocess.run([sys.executable, t["agent"], "solve", "http"]).returncode
print("SOLVED", code, flush=True)
"""


class Provider(NamedTuple):
    near: str
    """The host's end of the pair: an address of this machine."""
    far: str
    """The provider's address, in its own namespace."""
    namespace: SealedNetwork


@contextlib.contextmanager
def provider_namespace() -> Iterator[Provider]:
    """A namespace joined to this one by a veth pair; both go with the namespace."""
    if shutil.which("ip") is None:
        pytest.skip("ip (iproute2) is not installed")
    try:
        namespace = SealedNetwork.create()
    except ComputerError as exc:
        pytest.skip(str(exc))
    block = random.randrange(1 << 15) * 4  # one /30 of 198.18.0.0/15
    base = f"198.{18 + (block >> 16)}.{(block >> 8) & 255}.{block & 255}"
    prefix = base.rsplit(".", 1)[0]
    last = int(base.rsplit(".", 1)[1])
    near, far = f"{prefix}.{last + 1}", f"{prefix}.{last + 2}"
    host_end, far_end = f"pxn{block % 100000}", f"pxf{block % 100000}"
    enter = ["nsenter", f"--net={namespace.path}"]
    commands = [
        [*enter, "ip", "link", "add", far_end, "type", "veth", "peer", "name", host_end],
        [*enter, "ip", "link", "set", host_end, "netns", str(os.getpid())],
        [*enter, "ip", "addr", "add", f"{far}/30", "dev", far_end],
        [*enter, "ip", "link", "set", far_end, "up"],
        ["ip", "addr", "add", f"{near}/30", "dev", host_end],
        ["ip", "link", "set", host_end, "up"],
    ]
    try:
        for argv in commands:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
            if done.returncode != 0:
                pytest.skip(f"no veth pair here: {shlex.join(argv)}: {done.stderr.strip()}")
        yield Provider(near=near, far=far, namespace=namespace)
    finally:
        subprocess.run(["ip", "link", "del", host_end], capture_output=True, timeout=10)
        namespace.close()


def test_the_proxy_refuses_the_machine_and_not_a_remote_host() -> None:
    assert refusal("127.0.0.53") == "loopback"
    assert refusal("::ffff:127.0.0.1") == "loopback"
    assert refusal("169.254.169.254") == "link-local"
    assert refusal("0.0.0.0") == "not a host address"
    addresses = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    for own in addresses:  # every address of this machine's interfaces
        assert refusal(own) is not None, own
    assert refusal("203.0.113.7") is None  # TEST-NET-3: someone else's


async def test_jailed_agent_reaches_its_lane_and_provider_and_no_other_listener(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    if available() is not None:
        pytest.skip(f"no jail on this machine: {available()}")
    accepted: dict[str, list[str]] = {"plain": [], "near": [], "provider": []}

    def serve(name: str, body: bytes = b"") -> Callable[[Reader, Writer], Awaitable[None]]:
        async def handle(reader: Reader, writer: Writer) -> None:
            with contextlib.suppress(asyncio.IncompleteReadError, OSError):
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
                accepted[name].append(head.split(b" ")[1].decode())
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                    % (len(body), body)
                )
                await writer.drain()
            writer.close()

        return handle

    with provider_namespace() as provider:
        plain = await asyncio.start_server(serve("plain"), "127.0.0.1", 0)
        near = await asyncio.start_server(serve("near"), provider.near, 0)
        far_sock = provider.namespace.listen(0, host=provider.far)
        far = await asyncio.start_server(serve("provider", b"provider says hi"), sock=far_sock)
        try:
            plain_port = plain.sockets[0].getsockname()[1]
            near_port = near.sockets[0].getsockname()[1]
            far_port = far_sock.getsockname()[1]
            control = json.loads(worker.control_file.read_text())
            targets = {
                "ports": {
                    "fixture": worker.server.port,
                    "control": urlsplit(control["url"]).port,
                    "plain": plain_port,
                },
                "provider": [provider.far, far_port],
                "refused": [
                    f"127.0.0.1:{worker.server.port}",
                    f"localhost:{plain_port}",
                    f"[::1]:{plain_port}",
                    "169.254.169.254:80",
                    f"{provider.near}:{near_port}",
                ],
                "agent": str(AGENT),
            }
            # Inline: the jail hides the test's temporary folders.
            args = [sys.executable, "-c", PROBE, json.dumps(targets)]
            arm = parse_arm(f"net=command:{shlex.join(args)}")
            loaded = suite["manual-selectors"]
            record = await run_attempt(worker, PlanItem(loaded, arm, 1), write=True)
        finally:
            for server in (plain, near, far):
                server.close()
    folder = attempt_folder(worker.run_dir, PlanItem(loaded, arm, 1))
    trace = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    out = [e["line"] for e in trace if e["kind"] == "stdout"]
    err = [e["line"] for e in trace if e["kind"] == "stderr"]
    started = [e for e in trace if e["kind"] == "command"]
    assert started[0]["jailed"] is True and started[0]["net_sealed"] is True
    probe = [line for line in out if line.split()[0] in {"CONNECT", "DIRECT", "TUNNEL", "PLAIN"}]
    assert probe == [
        "CONNECT fixture ConnectionRefusedError",
        "CONNECT control ConnectionRefusedError",
        "CONNECT plain ConnectionRefusedError",
        "DIRECT provider 101",  # ENETUNREACH: no route out but the proxy
        *[f"TUNNEL {target} 403" for target in targets["refused"]],
        "TUNNEL provider 200 provider says hi",
        "PLAIN provider 200 provider says hi",
    ], (out, err[-20:])
    # From outside: only the provider was reached, once per way in.
    assert accepted == {"plain": [], "near": [], "provider": ["/tunnel", "/plain"]}
    whys = [e["why"] for e in trace if e["kind"] == "proxy_refused"]
    assert whys == ["loopback", "loopback", "loopback", "link-local", "an address of this machine"]
    # And its MCP lane still works, to a pass.
    assert "SOLVED 0" in out, err[-20:]
    assert record.result == "passed", (record.failed_checks, record.error, err[-20:])


FAILING_PROVIDER = r"""
import json, os, socket, subprocess, sys
from urllib.parse import urlsplit
t = json.loads(sys.argv[1])
proxy = urlsplit(os.environ["HTTPS_PROXY"])
s = socket.create_connection((proxy.hostname, proxy.port), timeout=30)
s.sendall(f"CONNECT {t['provider']} HTTP/1.1\r\nHost: {t['provider']}\r\n\r\n".encode())
print("PROVIDER", s.recv(4096).split(b"\r\n")[0].decode(), flush=True)
s.close()
if t["then"] == "solve":
    sys.exit(subprocess.run([sys.executable, t["agent"], "solve", "http"]).returncode)
sys.exit(1)  # no model, no plan: the agent gives up
"""


@pytest.mark.parametrize("then", ["gives-up", "solve"])
async def test_a_provider_the_proxy_cannot_reach_is_infra_unless_the_agent_finished(
    worker: Worker, suite: dict[str, LoadedScenario], then: str
) -> None:
    """The provider's host answers, but nothing listens on its port: the proxy says 502
    and keeps the fault. An agent that then gives up is the provider's casualty (infra,
    retried, never scored); one that finishes the task anyway is graded as usual."""
    if available() is not None:
        pytest.skip(f"no jail on this machine: {available()}")
    with provider_namespace() as provider:
        closed = provider.namespace.listen(0, host=provider.far)
        port = closed.getsockname()[1]
        closed.close()  # bound once, now nothing listens there
        targets = {"provider": f"{provider.far}:{port}", "then": then, "agent": str(AGENT)}
        args = [sys.executable, "-c", FAILING_PROVIDER, json.dumps(targets)]
        arm = parse_arm(f"failing=command:{shlex.join(args)}")
        loaded = suite["manual-selectors"]
        record = await run_attempt(worker, PlanItem(loaded, arm, 1), write=True)
    if then == "gives-up":
        assert record.result == "error" and record.stop_reason == "infra"
        assert [f.kind for f in record.infra_faults] == ["provider"] * 3
        message = record.infra_faults[0].message
        assert f"could not reach {provider.far}:{port} could not be reached" in message, message
        return
    folder = attempt_folder(worker.run_dir, PlanItem(loaded, arm, 1))
    trace = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    out = [e["line"] for e in trace if e["kind"] == "stdout"]
    assert "PROVIDER HTTP/1.1 502 Bad Gateway" in out, out
    faults = [e for e in trace if e["kind"] == "proxy_fault"]
    assert [f["port"] for f in faults] == [port], faults
    assert record.infra_faults == []
    assert record.result == "passed", (record.failed_checks, record.error)
