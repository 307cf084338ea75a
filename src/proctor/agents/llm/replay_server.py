"""The replay provider as its own process (``python -m proctor.agents.llm.replay_server``).

Tests that must meet a model server over a real socket in another process
(timeouts, hang-ups, retries, slow replies) start it; the request log is read
over HTTP at ``LOG_PATH``.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from proctor.agents.llm._replay import ReplayProvider, Transcript


async def _serve_until_stdin_closes(
    transcript: Transcript, key: str | None, port_file: Path
) -> None:
    async with ReplayProvider(transcript, key=key) as replay:
        tmp = port_file.with_name(port_file.name + ".tmp")
        tmp.write_text(str(replay.port))
        tmp.replace(port_file)  # whole or absent: the parent never reads half a port
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


def main(argv: list[str] | None = None) -> int:
    """``python -m proctor.agents.llm.replay_server TRANSCRIPT PORT_FILE [--key ENV]``.

    The replay provider as its own process, for tests that must meet a model
    server over a real socket in another process (timeouts, hang-ups, retries).
    It writes its port to PORT_FILE and serves until its stdin closes, so it
    never outlives the process that started it.
    """
    import argparse

    parser = argparse.ArgumentParser(prog="python -m proctor.agents.llm.replay_server")
    parser.add_argument("transcript", type=Path)
    parser.add_argument("port_file", type=Path)
    parser.add_argument("--key", help="environment variable holding the key to require")
    args = parser.parse_args(argv)
    transcript = Transcript.load(args.transcript)
    key = os.environ.get(args.key) if args.key else None
    asyncio.run(_serve_until_stdin_closes(transcript, key, args.port_file))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
