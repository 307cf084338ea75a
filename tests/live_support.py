"""What the live tier's tests share: a stand-in probe, a live scenario, the CLI in-process.

The probe is replaced through ``proctor.runner.use_probe``, so no test touches a
network; the one live site a test reaches is a loopback server it starts itself.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from proctor.cli import main
from proctor.runner import use_probe


class StubProbe:
    """Says every host answered (``online``), or none did; records what it was asked."""

    def __init__(self, *, online: bool) -> None:
        self.online = online
        self.asked: list[list[str]] = []

    def __call__(self, hosts: Sequence[str]) -> Mapping[str, str]:
        self.asked.append(list(hosts))
        return {} if self.online else {h: "[Errno 101] Network is unreachable" for h in hosts}


def stub_probe(online: bool) -> Iterator[StubProbe]:
    """Install a stand-in probe for one test, then the real one again."""
    probe = StubProbe(online=online)
    use_probe(probe)
    try:
        yield probe
    finally:
        use_probe(None)


def live_scenario(sid: str, host: str, **fields: Any) -> dict[str, Any]:
    """A live scenario on ``host`` (``host`` or ``host:port``): answer the page's value."""
    url = f"http://{host}/"
    return {
        "id": sid,
        "title": "Read the value a live page shows",
        "brief": f"Open {url} and answer with the value it shows, the number alone.",
        "tier": "live",
        "category": "capability",
        "limits": {"seconds": 30, "tool_calls": 10, "steps": 5},
        "world": {"live": {"hosts": [host]}, "browser": {"start": url}},
        "checks": [
            {
                "live_read": {
                    "name": "value",
                    "url": url,
                    "pattern": r"Value: (\d+)",
                    "first": 1,
                    "stable": {"reads": 3, "seconds": 10, "interval": 0},
                    "answer": "equals",
                }
            }
        ],
        "solution": [{"op": "extract", "kind": "text"}, {"op": "done", "answer": "42"}],
        "decoys": [
            {"name": "wrong", "steps": [{"op": "done", "answer": "41"}], "fails": ["value"]}
        ],
        **fields,
    }


def proctor(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str]:
    """``proctor ARGS`` in this process (so the stand-in probe holds): exit code and output."""
    argv = sys.argv
    sys.argv = ["proctor", *map(str, args)]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = argv
    out, err = capsys.readouterr()
    return code, " ".join((out + err).split())


@dataclass
class Seen:
    """What a loopback site was asked: (method, path, user agent) per request."""

    requests: list[tuple[str, str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def serve(body: str, status: int = 200) -> tuple[ThreadingHTTPServer, Seen]:
    """A loopback HTTP site answering every GET and HEAD with ``body``, on a thread; the
    caller shuts it down."""
    seen = Seen()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self, with_body: bool) -> None:
            with seen.lock:
                seen.requests.append((self.command, self.path, self.headers.get("user-agent", "")))
            data = body.encode()
            self.send_response(status)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            if with_body:
                self.wfile.write(data)

        def do_GET(self) -> None:
            self._answer(True)

        def do_HEAD(self) -> None:
            self._answer(False)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen
