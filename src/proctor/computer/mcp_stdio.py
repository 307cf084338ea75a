"""The stdio bridge: ``python -m proctor.computer.mcp_stdio URL``.

Speaks MCP on stdin/stdout and relays every tool listing and tool call to an
attempt's streamable HTTP endpoint (``PROCTOR_MCP_URL``), one call for one
call, so counting and limits are the lane's. For agents that only speak stdio;
``PROCTOR_MCP_STDIO`` holds this command line, ready to use.

A failure of the lane (nothing listens, the server does not speak MCP, the
session drops) is one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

import anyio
import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import StreamableHTTPError
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from proctor import __version__
from proctor.errors import ComputerError

LANE_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    httpx2.HTTPError,
    httpx2.InvalidURL,
    MCPError,
    StreamableHTTPError,
    ValidationError,
    anyio.BrokenResourceError,
    anyio.ClosedResourceError,
    anyio.EndOfStream,
)
"""What a lane that is down, gone or not MCP raises once the session is up; anything else
then is a bug in the relay and keeps its traceback."""


def root_cause(exc: BaseException) -> BaseException:
    """The exception under ``exc``'s task-group wrappers: the first leaf that is not a
    cancellation (a task group cancels the other tasks when one fails)."""
    cancelled = anyio.get_cancelled_exc_class()
    while isinstance(exc, BaseExceptionGroup):
        leaves = [e for e in exc.exceptions if not isinstance(e, cancelled)]
        exc = (leaves or list(exc.exceptions))[0]
    return exc


def _os_error(exc: BaseException) -> OSError | None:
    """The first OSError with an errno down ``exc``'s chain of causes (httpx wraps them)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        current = root_cause(current)
        if isinstance(current, OSError) and current.errno is not None:
            return current
        current = current.__cause__ or current.__context__
    return None


def reason(exc: BaseException) -> str:
    """A short account of a lane failure: ``connection refused``, ``timed out``, the MCP error."""
    cause = root_cause(exc)
    found = _os_error(cause)
    if found is not None and found.errno is not None:
        return os.strerror(found.errno).lower()
    if isinstance(cause, httpx2.TimeoutException):
        return "timed out"
    if isinstance(cause, MCPError):
        return f"{cause.message} (MCP error {cause.code})"
    text = " ".join(str(cause).split()) or type(cause).__name__
    return text[:300]


async def bridge(url: str) -> None:
    """Serve MCP on this process's stdio, relaying to the HTTP endpoint at ``url``.

    Raises:
        ComputerError: one line naming ``url`` and the root cause, when the endpoint
            cannot be reached, does not answer as MCP, or the session drops.
    """
    connected = False
    try:
        async with Client(url, cache=None) as upstream:
            connected = True
            await _serve(upstream)
    except Exception as exc:
        cause = root_cause(exc)
        # Before the session is up, whatever fails is the lane's handshake; after, only
        # the lane's own failures are one line, so a bug in the relay keeps its traceback.
        if connected and not isinstance(cause, LANE_ERRORS):
            raise
        if connected:
            message = f"lost the MCP session with {url}: {reason(cause)}"
        elif not isinstance(cause, (OSError, httpx2.HTTPError, httpx2.InvalidURL)):
            message = f"{url} does not answer as an MCP endpoint: {reason(cause)}"
        else:
            message = f"cannot reach {url}: {reason(cause)}"
        raise ComputerError(message) from exc


async def _serve(upstream: Client) -> None:
    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        listed = await upstream.list_tools(cursor=params.cursor if params else None)
        return types.ListToolsResult(tools=listed.tools, next_cursor=listed.next_cursor)

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        result = await upstream.call_tool(params.name, params.arguments)
        return types.CallToolResult(
            content=result.content,
            structured_content=result.structured_content,
            is_error=result.is_error,
        )

    server = Server(
        "proctor",
        version=__version__,
        instructions=upstream.instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main(argv: list[str] | None = None, *, prog: str = "proctor.computer.mcp_stdio") -> int:
    """Run the bridge; the URL is the first argument, else ``PROCTOR_MCP_URL``.

    Returns 0 when stdin closes, 2 on a usage error or a lane failure (printed as
    ``PROG: what failed`` on one line of stderr).
    """
    args = sys.argv[1:] if argv is None else argv
    url = args[0] if args else os.environ.get("PROCTOR_MCP_URL", "")
    if not url:
        print(
            "usage: python -m proctor.computer.mcp_stdio URL "
            "(or set PROCTOR_MCP_URL to the attempt's MCP endpoint)",
            file=sys.stderr,
        )
        return 2
    # The SDK logs each failed response too; the one line below says it, once.
    logging.getLogger("mcp").addHandler(logging.NullHandler())
    try:
        anyio.run(bridge, url)
    except ComputerError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
