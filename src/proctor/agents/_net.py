"""A jailed agent's network: a private namespace holding its MCP lane and a guarded proxy.

A ``command:`` agent on the host's network could connect to every listener of the
machine: the fixture server's control lane, Ray's GCS and raylet, other attempts'
MCP lanes. So the jail runs in a network namespace of its own (``_netns``: only
``lo``, no route anywhere), and this process puts two listeners on that loopback,
bound from inside it, served by asyncio tasks here, on the host's side:

- the attempt's MCP lane, on ``127.0.0.1:<the lane's port>``: every connection is
  copied to the real lane, so ``PROCTOR_MCP_URL`` is unchanged;
- an HTTP proxy (``CONNECT host:port``, and plain ``http://`` requests), for the
  model provider. It resolves the destination itself and refuses it when any of
  its addresses is loopback, link-local (169.254/16: cloud metadata), not a host
  address, or an address of this machine (one a socket here can bind, or that
  routes back to itself); it then connects to the address it checked, so a name
  cannot change between check and use. The agent finds it through
  ``HTTPS_PROXY``/``HTTP_PROXY``/``ALL_PROXY`` (``NO_PROXY`` names only the
  namespace's own loopback, where nothing else listens).

Nothing else is in the namespace: no other port of the machine exists for the agent.
Each wait here has a deadline; every connection ends when the attempt does.

A destination the proxy may reach but cannot (it does not resolve, refuses the
connection, or does not answer within ``CONNECT_TIMEOUT``) is answered ``502`` or
``504`` and kept in ``JailNetwork.faults`` (and traced as ``proxy_fault``): the
model provider, or the network to it, failed, and an agent that then ends without
``done`` is not scored (``command.CommandAgent`` raises ``ProviderFault``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from proctor._netns import SealedNetwork
from proctor.errors import AgentError, ProctorError, ProxyUnreachable

HEAD_TIMEOUT = 60.0
"""Seconds a client has to send a proxy request's head (it only frees a stuck connection:
a loaded machine may be slow to send it)."""
HEAD_MAX = 65536
"""Bytes a proxy request's head may take."""
RESOLVE_TIMEOUT = 10.0
"""Seconds to resolve a proxy destination."""
CONNECT_TIMEOUT = 15.0
"""Seconds to connect to the lane or a proxy destination."""
CLOSE_TIMEOUT = 2.0
"""Seconds to let the connections end when the attempt does."""
CHUNK = 65536
REASONS = {403: "Forbidden", 502: "Bad Gateway", 504: "Gateway Timeout"}

PROXY_VARS = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY")
"""The proxy variables set for the agent (and their lower-case twins)."""

Trace = Callable[..., None]


def refusal(address: str) -> str | None:
    """Why the proxy must not connect to ``address`` (an IP), or None when it may."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "not an IP address"
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour
        if inner is not None:
            return refusal(str(inner))
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link-local"
    if ip.is_unspecified or ip.is_multicast or ip.is_reserved:
        return "not a host address"
    if isinstance(ip, ipaddress.IPv4Address) and ip == ipaddress.IPv4Address("255.255.255.255"):
        return "not a host address"
    if _is_local(ip):
        return "an address of this machine"
    return None


def _is_local(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``ip`` is this machine's: a socket can bind it, or the route to it leaves
    from it (no packet is sent: a UDP socket only picks its route)."""
    family = socket.AF_INET if ip.version == 4 else socket.AF_INET6
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((str(ip), 0))
            return True
        except OSError:
            pass
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect((str(ip), 9))
        except OSError:
            return False  # no route: nothing to reach
        return bool(ipaddress.ip_address(probe.getsockname()[0]) == ip)


@dataclass
class JailNetwork:
    """One jailed attempt's network namespace and the listeners in it.

    Attributes:
        sealed: The namespace (``nsenter --net=`` its ``path``).
        lane_port: The MCP lane's port, on both sides.
        proxy_port: The proxy's port inside the namespace.
        trace: Where refusals and proxied destinations are recorded.
    """

    sealed: SealedNetwork
    lane_port: int
    trace: Trace
    proxy_port: int = 0
    faults: list[str] = field(default_factory=list)
    """Destinations the proxy was allowed to reach and could not, each as a sentence."""
    servers: list[asyncio.Server] = field(default_factory=list)
    links: set[asyncio.Task[Any]] = field(default_factory=set)

    @classmethod
    async def open(cls, lane_port: int, trace: Trace) -> JailNetwork:
        """A new namespace with the lane's forwarder and the proxy listening in it.

        Raises:
            ProctorError: when the machine refuses a network namespace (the caller
                runs the jail on the host's network and records ``net_sealed: false``).
        """
        if shutil.which("nsenter") is None:
            raise AgentError("nsenter (util-linux) is not installed")
        sealed = SealedNetwork.create()
        net = cls(sealed=sealed, lane_port=lane_port, trace=trace)
        try:
            lane = sealed.listen(lane_port)
            proxy = sealed.listen(0)
            net.proxy_port = int(proxy.getsockname()[1])
            net.servers.append(await asyncio.start_server(net._forward, sock=lane))
            net.servers.append(await asyncio.start_server(net._proxy, sock=proxy, limit=HEAD_MAX))
        except BaseException:
            await net.close()
            raise
        return net

    def argv(self) -> list[str]:
        """The prefix that runs a command inside the namespace."""
        return [shutil.which("nsenter") or "nsenter", f"--net={self.sealed.path}", "--"]

    def env(self) -> dict[str, str]:
        """The proxy variables an agent's HTTP clients follow (both cases)."""
        proxy = f"http://127.0.0.1:{self.proxy_port}"
        values = {
            "HTTPS_PROXY": proxy,
            "HTTP_PROXY": proxy,
            "ALL_PROXY": proxy,
            "NO_PROXY": "127.0.0.1,localhost,::1",
        }
        return {**values, **{k.lower(): v for k, v in values.items()}}

    async def close(self) -> None:
        """End every connection, stop the listeners and free the namespace."""
        for server in self.servers:
            server.close()
        for task in list(self.links):
            task.cancel()
        if self.links:
            await asyncio.wait(list(self.links), timeout=CLOSE_TIMEOUT)
        for server in self.servers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(server.wait_closed(), CLOSE_TIMEOUT)
        self.servers.clear()
        self.sealed.close()

    def _track(self) -> None:
        task = asyncio.current_task()
        if task is not None:
            self.links.add(task)
            task.add_done_callback(self.links.discard)

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One agent connection to the MCP lane, copied to the real lane on the host."""
        self._track()
        try:
            up_reader, up_writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", self.lane_port), CONNECT_TIMEOUT
            )
        except (OSError, TimeoutError):
            _close(writer)
            return
        await _splice(reader, writer, up_reader, up_writer)

    async def _proxy(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One proxy request: checked, then connected and copied both ways."""
        self._track()
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, OSError):
            _close(writer)
            return
        try:
            target = _target(head)
            upstream = await self._connect(target)
        except ProxyUnreachable as exc:
            await _answer(writer, 504 if exc.timed_out else 502, str(exc))
            return
        except ProctorError as exc:
            await _answer(writer, 403, str(exc))
            return
        up_reader, up_writer = upstream
        if target.tunnel:
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        else:
            up_writer.write(target.head)
        await _splice(reader, writer, up_reader, up_writer)

    async def _connect(self, target: _Target) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        where = f"{target.host}:{target.port}"
        loop = asyncio.get_running_loop()
        try:
            found = await asyncio.wait_for(
                loop.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM),
                RESOLVE_TIMEOUT,
            )
        except (OSError, TimeoutError) as exc:
            raise self._unreachable(target, "does not resolve", exc) from exc
        addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
        for address in addresses:
            why = refusal(address)
            if why is not None:
                self.trace(
                    "proxy_refused", host=target.host, port=target.port, address=address, why=why
                )
                raise AgentError(f"proctor proxy: {where} is refused ({address}: {why})")
        last: BaseException | None = None
        for address in addresses:
            try:
                opened = await asyncio.wait_for(
                    asyncio.open_connection(address, target.port), CONNECT_TIMEOUT
                )
            except (OSError, TimeoutError) as exc:
                last = exc
                continue
            self.trace("proxy", host=target.host, port=target.port, address=address)
            return opened
        raise self._unreachable(target, "could not be reached", last)

    def _unreachable(
        self, target: _Target, what: str, exc: BaseException | None
    ) -> ProxyUnreachable:
        """Keep and trace a destination that failed, and the error that answers it."""
        why = "no answer in time" if isinstance(exc, TimeoutError) else str(exc)
        fault = f"{target.host}:{target.port} {what} ({why})"
        self.faults.append(fault)
        self.trace("proxy_fault", host=target.host, port=target.port, why=f"{what}: {why}")
        return ProxyUnreachable(f"proctor proxy: {fault}", timed_out=isinstance(exc, TimeoutError))


@dataclass(frozen=True)
class _Target:
    host: str
    port: int
    tunnel: bool
    head: bytes = b""
    """For a plain request: the head to send, in origin form, with ``Connection: close``."""


def _target(head: bytes) -> _Target:
    """The destination of a proxy request's head (CONNECT, or an absolute http URL)."""
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        raise AgentError("proctor proxy: a request line must be METHOD TARGET VERSION")
    method, where, version = parts
    if method.upper() == "CONNECT":
        url = urlsplit(f"//{where}")
        if not url.hostname or url.port is None:
            raise AgentError(f"proctor proxy: CONNECT needs host:port, not {where!r}")
        return _Target(url.hostname, url.port, tunnel=True)
    url = urlsplit(where)
    if url.scheme != "http" or not url.hostname:
        raise AgentError(f"proctor proxy: {where!r} is not an absolute http:// URL")
    path = (url.path or "/") + (f"?{url.query}" if url.query else "")
    kept = [
        line
        for line in lines[1:]
        if line and line.split(":", 1)[0].strip().lower() not in _HOP_HEADERS
    ]
    request = "\r\n".join([f"{method} {path} {version}", *kept, "Connection: close", "", ""])
    return _Target(url.hostname, url.port or 80, tunnel=False, head=request.encode("latin-1"))


_HOP_HEADERS = frozenset({"connection", "proxy-connection", "proxy-authorization", "keep-alive"})


async def _answer(writer: asyncio.StreamWriter, status: int, text: str) -> None:
    body = (text + "\n").encode("utf-8", errors="replace")
    writer.write(
        f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    with contextlib.suppress(OSError, TimeoutError):
        await asyncio.wait_for(writer.drain(), CLOSE_TIMEOUT)
    _close(writer)


async def _splice(
    a_reader: asyncio.StreamReader,
    a_writer: asyncio.StreamWriter,
    b_reader: asyncio.StreamReader,
    b_writer: asyncio.StreamWriter,
) -> None:
    """Copy both ways until both sides end (the attempt's end cancels it)."""
    try:
        await asyncio.gather(_copy(a_reader, b_writer), _copy(b_reader, a_writer))
    finally:
        _close(a_writer)
        _close(b_writer)


async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while chunk := await reader.read(CHUNK):
            writer.write(chunk)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except OSError:
        _close(writer)


def _close(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError, RuntimeError):
        writer.close()
