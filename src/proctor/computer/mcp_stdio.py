"""The stdio bridge: ``python -m proctor.computer.mcp_stdio URL``.

Speaks MCP on stdin/stdout and relays every tool listing and tool call to an
attempt's streamable HTTP endpoint (``PROCTOR_MCP_URL``), one call for one
call, so counting and limits are the lane's. For agents that only speak stdio;
``PROCTOR_MCP_STDIO`` holds this command line, ready to use.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp import Client
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from proctor import __version__


async def bridge(url: str) -> None:
    """Serve MCP on this process's stdio, relaying to the HTTP endpoint at ``url``."""
    async with Client(url, cache=None) as upstream:

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


def main(argv: list[str] | None = None) -> int:
    """Run the bridge; the URL is the first argument, else ``PROCTOR_MCP_URL``."""
    args = sys.argv[1:] if argv is None else argv
    url = args[0] if args else os.environ.get("PROCTOR_MCP_URL", "")
    if not url:
        print(
            "usage: python -m proctor.computer.mcp_stdio URL "
            "(or set PROCTOR_MCP_URL to the attempt's MCP endpoint)",
            file=sys.stderr,
        )
        return 2
    anyio.run(bridge, url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
