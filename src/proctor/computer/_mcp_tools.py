"""The MCP toolset, generated from the action models (one source of truth).

Tools are exactly: one per action op of the attempt's surface (``ops_on``), plus
``observe``, ``screenshot`` and ``batch``. A tool's description is its model's docstring; its
input schema is the model's JSON schema without the ``op`` field (both from ``tool_schema``,
the builder the LLM agents' tools use too). What the lane serves is plain text: no RST
markup, and every enum field says what each of its values means (a test walks them).

What is counted (the numbers in attempt.json):
- ``tool_calls``: every ``tools/call`` the agent sends counts once, valid or
  not, except ``batch``, which counts once per member it runs. ``observe`` and
  ``screenshot`` are observations the agent asked for: one tool call each, not
  actions (no Step, not against the step limit), not inputs. Listing tools and
  the protocol handshake are not tool calls.
- ``inputs``: every run action whose op sends input to the page
  (``INPUT_OPS``), batch members included.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from proctor.computer.actions import ACTION_TYPES, Action, ops_on
from proctor.computer.tool_schema import tool_description, tool_parameters
from proctor.records import Step
from proctor.vocab import Surface

BATCH_MAX = 50
"""Most actions one batch may hold."""


class Observe(BaseModel):
    """Observe the active tab: url, title, open tabs, focused element, last error, and the aria snapshot whose [ref=eN] refs the other tools accept. Counts as one tool call."""  # noqa: E501

    model_config = ConfigDict(extra="forbid", frozen=True)
    surface_doc: ClassVar[dict[Surface, str]] = {
        "desktop": "Observe the app you drive: its active window's accessibility outline, "
        "whose [ref=dN] refs the other tools accept, the window title, the open windows, "
        "the focused control and the last error. Counts as one tool call."
    }


class Screenshot(BaseModel):
    """See the page as pixels: a PNG of the active tab's viewport, and the viewport's size in CSS pixels. The x,y of click, hover, drag and scroll are CSS pixels of that viewport, measured from its top-left corner; the result says how many PNG pixels make one CSS pixel (1 unless the display is scaled). Counts as one tool call."""  # noqa: E501

    model_config = ConfigDict(extra="forbid", frozen=True)
    surface_doc: ClassVar[dict[Surface, str]] = {
        "desktop": "See the screen as pixels: a PNG of the whole desktop, and its size in "
        "pixels. The desktop tools act on controls by ref (from observe), not at "
        "coordinates. Counts as one tool call."
    }


class Batch(BaseModel):
    """Run several actions in order, each as if called on its own tool: every member run counts as one tool call (and as one input when its op sends input). The batch stops after a member that fails or is refused, after done, and when a message from the user arrives; members not run are not counted."""  # noqa: E501

    model_config = ConfigDict(extra="forbid", frozen=True)

    actions: list[Action] = Field(
        min_length=1,
        max_length=BATCH_MAX,
        description="The actions, each with its op, e.g. {op: fill, role: textbox, "
        "name: Email, value: dana@example.test}.",
    )


class UserMessages(BaseModel):
    """Read the messages the user sent since you last heard from them (each is also added to the result of your next tool call, and sent as a log notification). Counts as one tool call."""  # noqa: E501

    model_config = ConfigDict(extra="forbid", frozen=True)


OWN_TOOLS: dict[str, type[BaseModel]] = {
    "observe": Observe,
    "screenshot": Screenshot,
    "batch": Batch,
    "user_messages": UserMessages,
}
"""The lane's tools that are not actions, in the order they are listed (after the actions)."""

TOOL_MODELS: dict[str, type[BaseModel]] = {**ACTION_TYPES, **OWN_TOOLS}
"""Every tool a lane may expose, by name (a lane exposes those of its surface)."""

if len(TOOL_MODELS) != len(ACTION_TYPES) + len(OWN_TOOLS):  # an op would shadow a tool
    raise RuntimeError("an action op collides with the observe, screenshot or batch tool")

_ACTION = TypeAdapter(Action)


def tool_models(
    surface: Surface = "browser", *, screenshot: bool = True, timeline: bool = False
) -> dict[str, type[BaseModel]]:
    """The tools of a lane on ``surface``: its actions, then observe, screenshot and batch.

    ``screenshot`` is left out when false (a computer that cannot take one);
    ``schedule`` and ``user_messages`` are there only with a ``timeline``.
    """
    own = {
        n: m
        for n, m in OWN_TOOLS.items()
        if (screenshot or n != "screenshot") and (timeline or n != "user_messages")
    }
    ops = {op: m for op, m in ops_on(surface).items() if timeline or not m.timeline_op}
    return {**ops, **own}


def description(name: str, surface: Surface = "browser") -> str:
    """A tool's description: its model's docstring (or its text for ``surface``)."""
    return tool_description(TOOL_MODELS[name], surface=surface)


def input_schema(name: str, surface: Surface = "browser") -> dict[str, Any]:
    """A tool's input schema: its model's JSON schema, without ``op`` (the tool name says it)."""
    return tool_parameters(TOOL_MODELS[name], surface=surface)


class BadCall(ValueError):
    """A tool call the toolset cannot run: an unknown tool or invalid arguments."""


def parse(
    name: str,
    arguments: dict[str, Any] | None,
    surface: Surface = "browser",
    *,
    screenshot: bool = True,
    timeline: bool = False,
) -> Action | Observe | Screenshot | Batch | UserMessages:
    """What a tool call stands for: an action of ``surface``, ``Observe``, ``Screenshot``
    or ``Batch`` (``screenshot``: whether the lane offers that tool).

    Raises:
        BadCall: naming the tool and what is wrong with its arguments.
    """
    args = dict(arguments or {})
    offered = tool_models(surface, screenshot=screenshot, timeline=timeline)
    try:
        if name == "observe":
            return Observe.model_validate(args)
        if name == "user_messages" and name in offered:
            return UserMessages.model_validate(args)
        if name == "screenshot" and name in offered:
            return Screenshot.model_validate(args)
        if name == "batch":
            batch = Batch.model_validate(args)
            strange = [a.op for a in batch.actions if a.op not in offered]
            if strange:
                raise BadCall(
                    f"batch: {', '.join(strange)} is not a tool on a {surface}; "
                    f"the tools are: {', '.join(offered)}"
                )
            return batch
        if name in offered:
            return _ACTION.validate_python({**args, "op": name})
    except ValidationError as exc:
        raise BadCall(f"{name}: {_problems(exc, name)}") from exc
    raise BadCall(f"there is no tool {name!r}; the tools are: {', '.join(offered)}")


def _problems(exc: ValidationError, name: str) -> str:
    parts = []
    for err in exc.errors(include_url=False):
        path = list(err["loc"])
        if path and path[0] == name:  # the union's tag, not a field the agent gave
            path = path[1:]
        where = ".".join(str(p) for p in path)
        parts.append(f"{where}: {err['msg']}" if where else str(err["msg"]))
    return "; ".join(parts)


def step_result(step: Step) -> tuple[str, dict[str, Any]]:
    """A step as the agent reads it: a text line or two, and the structured form."""
    if step.status == "ok":
        lines = [f"ok: {step.output}"]
    else:
        why = step.error or step.output
        lines = [why if why.startswith(f"{step.status}:") else f"{step.status}: {why}"]
    if step.data is not None:
        data = json.dumps(step.data, ensure_ascii=False, default=str)
        lines.append(f"data: {data}")
    structured = step.model_dump(
        mode="json", include={"index", "op", "target", "status", "output", "error", "data", "facts"}
    )
    return "\n".join(lines), structured
