"""An external agent for the timeline's tests: it plays a plan of tool calls over MCP.

    python timeline_agent.py PLAN.json

PLAN.json is ``{"instances": [[call, ...], ...]}``; each call is ``[tool, {args}]``.
The Nth process started in one attempt (counted by the files it leaves in
``$PROCTOR_AGENT_HOME``) plays the Nth list, so a reset's new agent goes on where
the old one was stopped. Each process:

- records its pid, process group and PID namespace in ``$PROCTOR_AGENT_HOME/agent-N.json``
  (and in ``$TIMELINE_OUT/agent-N.json`` when set, outside the jail's view);
- prints ``HOME <names>`` (what it finds in its persistent folder) and, when
  ``memory.txt`` is there, ``REMEMBERED <its text>``;
- on ``["remember", {"text": ...}]`` writes ``memory.txt`` (no tool call);
- prints ``<tool>: <result text, one line per content item>`` for every call and
  ``NOTE <text>`` for every log notification from the lane;
- after its list, waits (bounded) for the harness to end it when the list ends
  with ``["linger", {}]``.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any


async def play(plan_path: str) -> int:
    from mcp import Client

    home = Path(os.environ["PROCTOR_AGENT_HOME"])
    n = len(list(home.glob("agent-*.json")))
    me = {"pid": os.getpid(), "pgid": os.getpgid(0), "ns": os.readlink("/proc/self/ns/pid")}
    (home / f"agent-{n}.json").write_text(json.dumps(me))
    # The jail lets an agent write only its home and scratch: it tells who it is on stdout.
    print(f"AGENT {n} " + json.dumps(me), flush=True)
    print("HOME " + " ".join(sorted(p.name for p in home.iterdir())), flush=True)
    memory = home / "memory.txt"
    if memory.exists():
        print("REMEMBERED " + memory.read_text(), flush=True)
    print("BRIEF " + os.environ["PROCTOR_BRIEF"].replace("\n", " | "), flush=True)
    # The plan comes inline: the jail hides the test's own folders.
    calls: list[list[Any]] = json.loads(plan_path)["instances"][n]

    async def on_log(params: Any) -> None:
        data = getattr(params, "data", params)
        text = data.get("text") if isinstance(data, dict) else str(data)
        print(f"NOTE {text}", flush=True)

    async with Client(
        os.environ["PROCTOR_MCP_URL"], logging_callback=on_log, log_level="info"
    ) as mcp:
        for name, args in calls:
            if name == "remember":
                memory.write_text(args["text"])
                continue
            if name == "linger":
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    await asyncio.sleep(0.2)
                return 0
            result = await mcp.call_tool(name, args)
            texts = [getattr(c, "text", "") for c in result.content]
            print(f"{name}: " + " || ".join(t.replace("\n", " | ") for t in texts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(play(sys.argv[1])))
