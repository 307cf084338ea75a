"""A small external agent for the command agent's tests; it runs as its own process.

    python mcp_agent.py solve http|stdio   drive manual-selectors to a pass over MCP
    python mcp_agent.py spam PIDFILE       call observe until the harness stops it
    python mcp_agent.py sleep PIDFILE      spawn a child, ignore SIGTERM, never finish

``solve`` prints ``SENT tool_calls=N inputs=M``: what it sent, by the lane's
definition (a batch counts its members; ``done`` is a call, not an input).
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
from typing import Any

INPUT_OPS = {"click", "fill", "select", "check", "press", "type", "drag", "upload"}

FORM_INPUTS: list[dict[str, Any]] = [
    {"op": "fill", "role": "textbox", "name": "Full name", "value": "Dana Whitfield"},
    {
        "op": "fill",
        "role": "textbox",
        "name": "Email address",
        "value": "dana.whitfield@example.test",
    },
    {"op": "select", "role": "combobox", "name": "Topic", "label": "Billing question"},
    {"op": "check", "role": "radio", "name": "By phone"},
    {"op": "check", "role": "checkbox", "name": "Send me a copy"},
    {
        "op": "fill",
        "role": "textbox",
        "name": "Message",
        "value": "Invoice INV-2291 was charged twice.",
    },
]
SEND = {"op": "click", "role": "button", "name": "Send message"}


def plan(transport: str) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls ``solve`` sends, in order."""
    if transport == "stdio":  # shorter: everything but the observations in one batch
        return [
            ("observe", {}),
            ("batch", {"actions": [*FORM_INPUTS, SEND]}),
            ("done", {}),
        ]
    one = [(step["op"], {k: v for k, v in step.items() if k != "op"}) for step in FORM_INPUTS]
    return [
        ("observe", {}),
        one[0],
        one[1],
        ("batch", {"actions": FORM_INPUTS[2:5]}),
        one[5],
        (SEND["op"], {k: v for k, v in SEND.items() if k != "op"}),
        ("observe", {}),
        ("done", {}),
    ]


def tally(calls: list[tuple[str, dict[str, Any]]]) -> tuple[int, int]:
    """(tool calls, inputs) by the lane's definition."""
    ops: list[str] = []
    for name, args in calls:
        if name == "batch":
            ops.extend(a["op"] for a in args["actions"])
        else:
            ops.append(name)
    return len(ops), sum(op in INPUT_OPS for op in ops)


def client(transport: str) -> Any:
    from mcp import Client, StdioServerParameters

    if transport == "http":
        return Client(os.environ["PROCTOR_MCP_URL"])
    command, *args = shlex.split(os.environ["PROCTOR_MCP_STDIO"])
    return Client(StdioServerParameters(command=command, args=args, env=dict(os.environ)))


async def solve(transport: str) -> int:
    brief = sys.stdin.read().strip()
    if brief != os.environ["PROCTOR_BRIEF"].strip() or "Dana Whitfield" not in brief:
        print(f"unexpected brief: {brief!r}", file=sys.stderr)
        return 4
    limits = json.loads(os.environ["PROCTOR_LIMITS"])
    print(f"limits tool_calls={limits['tool_calls']} scratch={os.environ['PROCTOR_SCRATCH']}")
    calls = plan(transport)
    async with client(transport) as mcp:
        listed = await mcp.list_tools()
        print("tools:", " ".join(t.name for t in listed.tools), flush=True)
        for name, args in calls:
            result = await mcp.call_tool(name, args)
            text = "".join(getattr(c, "text", "") for c in result.content)
            print(f"{name}: {text.splitlines()[0] if text else ''}", flush=True)
            if result.is_error:
                print(f"tool {name} failed: {text}", file=sys.stderr)
                return 3
    tool_calls, inputs = tally(calls)
    print(f"SENT tool_calls={tool_calls} inputs={inputs}", flush=True)
    return 0


async def spam(_unused: str) -> int:
    # The jail lets an agent write nowhere but its scratch folder: it tells on stdout.
    pids = {"self": os.getpid(), "ns": os.readlink("/proc/self/ns/pid")}
    print("PIDS " + json.dumps(pids), flush=True)
    async with client("http") as mcp:
        while True:  # past the limit too: the harness, not this agent, must end it
            try:
                result = await mcp.call_tool("observe", {})
            except Exception as exc:
                print(f"call failed: {exc}", flush=True)
                continue
            text = "".join(getattr(c, "text", "") for c in result.content)
            print(("ERROR " if result.is_error else "ok ") + text.splitlines()[0], flush=True)


def sleep(_unused: str) -> int:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the child inherits the ignored signal
    child = subprocess.Popen([sys.executable, "-c", "import threading; threading.Event().wait()"])
    pids = {"self": os.getpid(), "child": child.pid, "ns": os.readlink("/proc/self/ns/pid")}
    print("PIDS " + json.dumps(pids), flush=True)
    print(f"sleeping; child {child.pid}", flush=True)
    threading.Event().wait()
    return 0


def main() -> int:
    mode, arg = sys.argv[1], sys.argv[2]
    if mode == "solve":
        return asyncio.run(solve(arg))
    if mode == "spam":
        return asyncio.run(spam(arg))
    return sleep(arg)


if __name__ == "__main__":
    sys.exit(main())
