"""`proctor mcp-bridge` to an endpoint that is down or not MCP: one line on stderr, exit 2."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from cli_support import PROCTOR

TIMEOUT = 60


def bridge(*command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The bridge with nothing on stdin: a lane failure ends it before stdin matters."""
    return subprocess.run(
        list(command),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=cwd,
        check=False,
    )


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port that refuses connections: bound, never listening, so nobody takes it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


class WebPage(BaseHTTPRequestHandler):
    """Answers every request with a plain web page, as a server that is not MCP would."""

    seen: ClassVar[list[tuple[str, str, bytes]]] = []

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        WebPage.seen.append((self.command, self.path, self.rfile.read(length)))
        body = b"<html><body>not an MCP server</body></html>"
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_DELETE = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def web_page() -> Iterator[str]:
    """The MCP URL of a loopback HTTP server that answers a web page, not MCP."""
    WebPage.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), WebPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_a_closed_port_is_one_line_and_exit_2(closed_port: int, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port}/mcp"
    done = bridge(str(PROCTOR), "mcp-bridge", url, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == f"proctor mcp-bridge: cannot reach {url}: connection refused\n"


def test_the_module_form_says_the_same_under_its_own_name(closed_port: int, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port}/mcp"
    done = bridge(sys.executable, "-m", "proctor.computer.mcp_stdio", url, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == f"proctor.computer.mcp_stdio: cannot reach {url}: connection refused\n"


def test_a_server_that_is_not_mcp_is_one_line_and_exit_2(web_page: str, tmp_path: Path) -> None:
    done = bridge(str(PROCTOR), "mcp-bridge", web_page, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == (
        f"proctor mcp-bridge: {web_page} does not answer as an MCP endpoint: "
        "Unexpected content type: text/html (MCP error -32600)\n"
    )
    method, path, body = WebPage.seen[0]
    assert (method, path) == ("POST", "/mcp")
    assert b'"jsonrpc":"2.0"' in body.replace(b" ", b"")  # it spoke MCP to a web page
