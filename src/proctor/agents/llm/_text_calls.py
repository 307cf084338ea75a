"""Tool calls written as text (``+text_calls``): what small models send instead of ``tool_calls``.

A small model served without a tool-call parser (or one that ignores the chat
template's) answers with the call in its text: one JSON object, or one per line
(JSON lines), each ``{"name": TOOL, "arguments": {...}}`` (``parameters`` is read
as ``arguments``, and arguments given as a JSON string are read too), possibly in
a code fence or the ``<tool_call>`` tags of Qwen's and Hermes' templates.

A text is read as calls only when all of it is calls and every call names an
offered tool; anything else (prose, a call to a tool not offered) is no call, and
the policy answers it with the nudge as before.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from typing import Any

from proctor.agents.llm._messages import ToolCall

_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n(?P<body>.*?)\n?```$", re.DOTALL)
_TAGS = re.compile(r"</?tool_call>")


def text_calls(text: str, tools: Collection[str], *, prefix: str) -> tuple[ToolCall, ...]:
    """The calls ``text`` holds, each naming one of ``tools``, with ids ``PREFIX_k``; empty
    when the text is not wholly calls of those tools."""
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced is not None:
        body = fenced.group("body").strip()
    body = _TAGS.sub("\n", body).strip()
    if not body:
        return ()
    whole = _call(body)
    if whole is not None:
        found = [whole]
    else:
        found = []
        for line in body.splitlines():
            if not line.strip():
                continue
            call = _call(line.strip())
            if call is None:
                return ()
            found.append(call)
    if not all(name in tools for name, _ in found):
        return ()
    return tuple(ToolCall(f"{prefix}_{k}", name, args) for k, (name, args) in enumerate(found))


def _call(text: str) -> tuple[str, str] | None:
    """``(name, arguments as JSON text)`` of one JSON call, or None."""
    try:
        value: Any = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    if set(value) - {"name", "arguments", "parameters"}:
        return None
    args = value.get("arguments", value.get("parameters", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args or "{}")
        except json.JSONDecodeError:
            return None
    if not isinstance(args, dict):
        return None
    return value["name"], json.dumps(args)
