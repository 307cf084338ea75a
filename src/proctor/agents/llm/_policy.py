"""The model policy: one tool call per decision, plugged into the reference loop.

The conversation is the brief with the first observation, then for each
decision the model's tool call and, once the loop has acted, the new
observation as that call's result.

A reply is read the way the providers' own agent loops read it:

- several tool calls run in order, each a counted step; the next request
  answers every call id (a call never reached is answered as not run);
- text beside a call is kept in the record (the trace and the decision's note);
- a call with malformed or refused arguments gets a repair turn: its error goes
  back as that call's result, and the model is asked again;
- with ``+text_calls``, a reply with no tool call whose text is one JSON call, or
  JSON lines of calls, of offered tools (``_text_calls``) is taken as those calls:
  run as parallel calls are, replayed to the model as the tool calls they are, and
  recorded as ``parsed_from_text``;
- a reply with no call (text only, or empty: whitespace is empty, and is not kept
  as a turn) is answered with the ``nudge`` prompt file, which states how to call,
  never suggests stopping and never repeats the one before word for word, so the
  re-ask is never the identical request.

Each unusable call or reply is counted (``Ledger.invalid_calls``). Only
``MAX_INVALID`` unusable replies in a row end the run, as ``planner_error``.

With the provider's native computer tool (``+computer``, ``_native``) the model
sees a screenshot and the url instead of the aria snapshot, and its ``computer``
calls are translated into proctor's actions; a reply that only asks for a
screenshot is answered with one (counted as the agent's tool call, as the MCP
lane's ``screenshot`` is) and the model is asked again.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from proctor.agents._boundaries import controls
from proctor.agents._guards import Turn
from proctor.agents.llm._call import Answered, Ledger, Tracer
from proctor.agents.llm._config import ModelConfig
from proctor.agents.llm._messages import (
    AssistantTurn,
    Message,
    Reply,
    ToolCall,
    ToolResults,
    UserText,
)
from proctor.agents.llm._native import (
    COMPUTER,
    LOOK,
    Look,
    Native,
    NativeTool,
    Screenshots,
    Shot,
    scaled,
    translate,
)
from proctor.agents.llm._planning import make_plan
from proctor.agents.llm._render import Prompts, render_observation, render_result
from proctor.agents.llm._text_calls import text_calls
from proctor.agents.llm._tools import (
    ToolCallError,
    ToolSpec,
    action_tools,
    computer_functions,
    parse_action,
    parse_call,
)
from proctor.agents.llm._wire import Request, Wire
from proctor.agents.loop import Decision
from proctor.computer.actions import ACTION_TYPES, TIMELINE_OPS, USER_OPS, Action
from proctor.computer.observation import USER_NOTE, Observation
from proctor.errors import PlannerError
from proctor.records import Step
from proctor.vocab import Surface

MAX_INVALID = 3
"""Unusable replies in a row (each given a repair turn) before the run stops as a planner
error."""
NOT_RUN = "not run: one action per reply; this call was ignored"

Screenshot = Callable[[], Awaitable[bytes | None]]


@dataclass
class LLMPolicy:
    """Asks the model for the next action; counts every call in ``ledger``."""

    config: ModelConfig
    wire: Wire
    prompts: Prompts
    ledger: Ledger
    brief: str
    trace: Tracer
    screenshot: Screenshot | None = None
    last_step: Callable[[], Step | None] = field(default=lambda: None)
    offer_user: bool = False
    offer_timeline: bool = False
    surface: Surface = "browser"
    plan: list[str] | None = None
    closing: asyncio.Event = field(default_factory=asyncio.Event)
    messages: list[Message] = field(default_factory=list)
    _pending: tuple[ToolCall, ...] = ()
    _queue: list[tuple[ToolCall, Native | ToolCallError]] = field(default_factory=list)
    """The calls of the last reply not run yet, in order (parallel tool calls)."""
    _results: list[tuple[str, str]] = field(default_factory=list)
    """(call id, result) of the last reply's calls run so far."""
    _running: ToolCall | None = None
    """The call whose action the loop is running now."""
    screen: Screenshots | None = None
    """The computer's screen, for the native computer tool (``config.computer``)."""
    _shot: Shot | None = None
    """The screenshot the model saw last (its coordinates are in that screen)."""
    _said: tuple[str, ...] = ()
    """What the user said since the last turn, sent as the user's own turn."""
    _nudges: int = 0
    """Nudges sent so far: each one's words differ from the one before."""
    offered: frozenset[str] | None = None
    """The action tools the scenario's world needs (``offered_tools``); None: every one the
    computer allows."""

    @property
    def native(self) -> bool:
        return self.config.computer is not None

    @property
    def tools(self) -> list[ToolSpec]:
        if self.native:
            return computer_functions(user=self.offer_user, offered=self.offered)
        return action_tools(
            user=self.offer_user,
            surface=self.surface,
            timeline=self.offer_timeline,
            offered=self.offered,
        )

    async def _screen(self, *, look: bool = False) -> bytes | None:
        """A screenshot scaled for the provider (``look``: the model asked for it, counted)."""
        if self.screen is None:
            raise PlannerError(
                "+computer acts by pixels on a browser's viewport; this computer has none"
            )
        capture = await (self.screen.look() if look else self.screen.capture())
        if capture is None:
            return None
        self._shot = scaled(capture, self.config.wire)
        return self._shot.png

    async def decide(self, observation: Observation, history: Sequence[Turn]) -> Decision:
        said = tuple(n for n in observation.notes if n.startswith(USER_NOTE))
        if said:  # the user's words are the user's turn, not part of the page
            notes = tuple(n for n in observation.notes if not n.startswith(USER_NOTE))
            observation = dataclasses.replace(observation, notes=notes)
        self._said = said
        if self.native:
            text = observation.render(outline=False)
            image = await self._screen()
        else:
            text = render_observation(observation)
            image = await self.screenshot() if self.screenshot else None
        if not self.messages:
            if self.config.planning:
                self.plan = await make_plan(
                    self.wire, self.config, self.prompts, self.ledger, self.brief, text,
                    trace=self.trace, closing=self.closing,
                )  # fmt: skip
            task = self.prompts.render(
                "task", brief=self.brief, plan=self.plan or [], observation=text, obs=observation
            )
            said, self._said = self._said, ()
            self.messages.append(UserText("\n\n".join((task, *said)), image))
        else:
            step = self.last_step()
            ran = self._running
            if ran is not None and self._queue:
                # Parallel calls: the next one runs now; the model hears every result at once.
                self._results.append((ran.id, render_result(step)))
                decision = self._pop()
                if decision is not None:
                    return decision
                self._running = ran  # only bad calls were left: the last result is its
            result = self.prompts.render(
                "observation", result=render_result(step), observation=text, obs=observation
            )
            self._answer(result, image)
        return await self._next(observation)

    def _pop(self) -> Decision | None:
        """The next queued call's action; a call with bad arguments is answered with its error."""
        self._running = None
        while self._queue:
            call, item = self._queue.pop(0)
            if isinstance(item, ToolCallError):
                self._results.append((call.id, f"error: {item}. Nothing was done."))
                continue
            if isinstance(item, Look):
                self._results.append((call.id, "screenshot: the screen after the last call"))
                continue
            self._running = call
            return Decision(item)
        return None

    def _answer(self, text: str, image: bytes | None = None) -> None:
        """Answer every pending tool call: the results gathered so far, ``text`` for the one
        that ran last (or the first), and any the run never reached as not run."""
        if not self._pending:
            said, self._said = self._said, ()
            self.messages.append(UserText("\n\n".join((*said, text)), image))
            return
        answered = dict(self._results)
        last = self._running.id if self._running is not None else self._pending[0].id
        answered[last] = text
        results = tuple((c.id, answered.get(c.id, NOT_RUN)) for c in self._pending)
        said, self._said = self._said, ()
        self.messages.append(ToolResults(results, image, said))
        self._pending, self._results, self._queue, self._running = (), [], [], None

    async def _ask(self) -> Answered:
        native: NativeTool | None = None
        tools = self.tools
        if self.native:
            system = self.prompts.render("computer")
            if self._shot is None:
                raise PlannerError("+computer: the browser's viewport could not be captured")
            version = self.config.computer or ""
            native = NativeTool(self.config.wire, version, self._shot.screen)
        else:
            names = [t.name for t in tools]
            system = self.prompts.render("system", surface=self.surface, tools=names)
        request = Request(system, tuple(self.messages), tools, native=native)
        return await self.ledger.ask(
            self.wire, request, self.config, trace=self.trace, closing=self.closing
        )

    async def _next(self, observation: Observation) -> Decision:
        invalid = 0
        while True:
            answered = await self._ask()
            reply = answered.reply
            said = reply.text.strip()
            read = self._text_calls(reply)
            if read:  # the calls it wrote: replayed as the calls they are
                reply = dataclasses.replace(reply, calls=read)
                answered = dataclasses.replace(answered, reply=reply)
                self.messages.append(AssistantTurn("", read))
            elif said or reply.calls:  # an empty message is not replayable: ask again
                self.messages.append(reply.turn())
            self._pending = reply.calls
            if not reply.calls:
                error = "the reply called no tool" if said else "the reply was empty"
                self._planner_error(answered, "no_tool", None, error, reply.text)
                self.ledger.invalid_calls += 1
                invalid += 1
                if invalid >= MAX_INVALID:
                    raise PlannerError(f"{invalid} replies in a row were not one valid tool call")
                # The re-ask differs from the request that got nothing (a deterministic
                # server would answer an identical one the same way), and from every
                # nudge before it (a model at temperature 0 echoed a repeated one).
                self._nudges += 1
                as_text = self.config.text_calls and not self.native
                nudge = self.prompts.render(
                    "nudge", empty=not said, text_calls=as_text, n=self._nudges
                )
                self.messages.append(UserText(nudge))
                continue
            parsed = [(call, self._parse(call)) for call in reply.calls]
            valid = [(c, a) for c, a in parsed if not isinstance(a, ToolCallError)]
            self.ledger.invalid_calls += len(parsed) - len(valid)
            if reply.raw.get("safety_checks"):
                self.trace("safety_checks", checks=reply.raw["safety_checks"])
            if valid and all(a is LOOK for _, a in valid):
                await self._look(answered, parsed, reply.text)
                invalid = 0
                continue
            if not valid:
                call, exc = parsed[0]
                self._planner_error(
                    answered, "tool_error", call.name, str(exc), reply.text, from_text=bool(read)
                )
                invalid += 1
                if invalid >= MAX_INVALID:
                    raise PlannerError(
                        f"{invalid} replies in a row were not one valid tool call; last: {exc}"
                    ) from None
                self._results = [(c.id, f"error: {e}. Nothing was done.") for c, e in parsed[1:]]
                self._answer(f"error: {exc}. Nothing was done; call one tool with valid arguments.")
                continue
            call, action = next((c, a) for c, a in valid if a is not LOOK)
            assert not isinstance(action, ToolCallError) and action is not LOOK
            record = self.ledger.add(
                answered, purpose="act", tool=call.name, parsed_from_text=bool(read)
            )
            native = {}
            if call.name == COMPUTER and self._shot is not None:
                native = {"native": _json(call.arguments), **self._shot.screen.facts()}
            self.trace(
                "planner_call",
                **self.ledger.facts(record),
                action=action.model_dump(exclude_none=True),  # type: ignore[union-attr]
                resolved=resolve_target(observation, action),  # type: ignore[arg-type]
                text=reply.text[:2000],
                calls=len(reply.calls),
                **native,
            )
            self._queue = parsed
            decision = self._pop()
            assert decision is not None  # a valid call is queued
            return Decision(decision.action, note=reply.text[:500])

    def _parse(self, call: ToolCall) -> Native | ToolCallError:
        """The call's action (or, with the native tool, a screenshot request), or why it is
        not one."""
        try:
            if call.name in USER_OPS and not self.offer_user:
                raise ToolCallError(f"{call.name}: no user is reachable in this task")
            if call.name in TIMELINE_OPS and not self.offer_timeline:
                raise ToolCallError(f"{call.name}: nothing happens later in this task")
            if not self.native:
                return parse_action(call, self.surface)
            if call.name == COMPUTER:
                if self._shot is None:
                    raise ToolCallError("computer: no screenshot was taken yet")
                return translate(self.config.wire, call.arguments, self._shot.screen)
            allowed = {t.name: ACTION_TYPES[t.name] for t in self.tools}
            return parse_call(call, allowed)  # type: ignore[return-value]
        except ToolCallError as exc:
            return exc

    async def _look(
        self, answered: Answered, parsed: list[tuple[ToolCall, Native | ToolCallError]], text: str
    ) -> None:
        """Answer a reply that only asks for a screenshot with one (a counted tool call)."""
        record = self.ledger.add(answered, purpose="act", tool=COMPUTER)
        self.trace(
            "planner_call", **self.ledger.facts(record), action={"op": "screenshot"},
            text=text[:2000], calls=len(parsed),
        )  # fmt: skip
        image = await self._screen(look=True)
        said = "screenshot: the screen now" if image else "screenshot: the screen is not capturable"
        self._results = [
            (c.id, f"error: {a}. Nothing was done." if isinstance(a, ToolCallError) else said)
            for c, a in parsed[:-1]
        ]
        last, item = parsed[-1]
        self._running = last
        result = f"error: {item}. Nothing was done." if isinstance(item, ToolCallError) else said
        self._answer(result, image)

    def _text_calls(self, reply: Reply) -> tuple[ToolCall, ...]:
        """With ``+text_calls``, the calls a reply without tool calls wrote in its text (never
        with the native computer tool: a provider that chains its turns knows only its ids)."""
        if reply.calls or not self.config.text_calls or self.native:
            return ()
        prefix = f"text_{len(self.ledger.calls) + 1}"
        return text_calls(reply.text, [t.name for t in self.tools], prefix=prefix)

    def _planner_error(
        self,
        answered: Answered,
        status: Any,
        tool: str | None,
        error: str,
        text: str,
        *,
        from_text: bool = False,
    ) -> None:
        record = self.ledger.add(
            answered,
            purpose="act",
            status=status,
            tool=tool,
            error=error,
            parsed_from_text=from_text,
        )
        self.trace("planner_error", **self.ledger.facts(record), text=text[:2000])


def resolve_target(observation: Observation, action: Action) -> dict[str, str] | None:
    """The role and accessible name of a ref target, read from the snapshot it was chosen on."""
    aimed = action.aimed_at()
    ref = aimed.ref if aimed is not None else None
    if ref is None:
        return None
    for control in controls(observation):
        if control.ref == ref:
            return {"role": control.role, "name": control.name}
    return None


def _json(text: str) -> Any:
    try:
        return json.loads(text or "{}")
    except ValueError:
        return text
