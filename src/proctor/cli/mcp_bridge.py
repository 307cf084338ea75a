"""proctor mcp-bridge: serve an attempt's MCP tools on stdio."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from proctor.errors import AgentError


def mcp_bridge(
    url: Annotated[
        str | None,
        typer.Argument(
            help="The attempt's MCP endpoint; default: $PROCTOR_MCP_URL.", show_default=False
        ),
    ] = None,
) -> None:
    """Relay MCP on stdin/stdout to an attempt's endpoint, for agents that only speak stdio.

    An endpoint that cannot be reached, does not answer as MCP, or drops the
    session is one line on stderr (``proctor mcp-bridge: cannot reach URL:
    connection refused``) and exit code 2.
    """
    target = url or os.environ.get("PROCTOR_MCP_URL")
    if not target:
        raise AgentError(
            "no MCP endpoint to bridge to: give the URL, or run inside a command agent, "
            "which sets PROCTOR_MCP_URL"
        )
    # Imported here: the MCP SDK takes seconds to import, and only this command needs it.
    from proctor.computer.mcp_stdio import main

    raise typer.Exit(main([target], prog="proctor mcp-bridge"))
