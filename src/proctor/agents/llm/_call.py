"""One model call with retries, and the ledger that counts calls, tokens, $ and latency."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from proctor._inject import count as inject_count
from proctor._inject import due as inject_due
from proctor.agents.llm._admission import Admissions, estimate, request_tokens
from proctor.agents.llm._config import ModelConfig
from proctor.agents.llm._messages import Reply
from proctor.agents.llm._prices import PriceTable
from proctor.agents.llm._wire import CallFailed, Request, Wire
from proctor.errors import ProviderFault
from proctor.records import PlannerCall
from proctor.vocab import PlannerStatus

MAX_BACKOFF = 30.0

Tracer = Callable[..., None]
"""``trace(kind, **data)``: adds an event to the attempt's trace."""


@dataclass
class ProviderWaits:
    """Time lost to a failing provider: infra time, never the model's.

    Attributes:
        infra_ms: Milliseconds spent in tries that failed (a 429, 5xx, timeout or
            dropped connection) and in the backoff before each retry.
        failing: A decision's call has failed and is being retried now: a wall
            limit reached meanwhile falls inside an infra wait.
    """

    infra_ms: float = 0.0
    failing: bool = False


@dataclass(frozen=True)
class Answered:
    """A reply and how long it took to get it."""

    reply: Reply
    started_at: float
    latency_ms: float
    wait_ms: float
    retries: int
    prompt_estimate: int | None = None
    """The request's prompt tokens as ``request_tokens`` estimates them."""


async def call_model(
    wire: Wire,
    request: Request,
    config: ModelConfig,
    *,
    trace: Tracer,
    closing: asyncio.Event | None = None,
    waits: ProviderWaits | None = None,
) -> Answered:
    """Ask once; retry a 429, 5xx, timeout or dropped connection with backoff.

    Retries stop at ``config.retries`` or when the next one would end past
    ``config.deadline`` seconds from the first try. A timed-out request's
    connection is closed before the retry is sent (the SDKs' HTTP client drops a
    connection whose response did not arrive), so a server that notices the
    hang-up can stop computing. The failed tries and the backoff are counted in
    ``waits`` as infra time.

    Raises:
        ProviderFault: when no try returned a message: an infra fault, never scored.
    """
    closing = closing or asyncio.Event()
    waits = waits if waits is not None else ProviderWaits()
    loop = asyncio.get_running_loop()
    first = loop.time()
    deadline = first + config.deadline
    retries = 0
    call_number = inject_count("provider")
    while True:
        started_at = time.time()
        t0 = loop.time()
        try:
            if inject_due("provider", call_number):
                raise CallFailed(
                    "HTTP 500: injected provider fault (PROCTOR_INJECT)", retryable=True
                )
            reply = await wire.complete(request)
        except CallFailed as exc:
            exc.message = redact(exc.message, config)
            waits.failing = True
            waits.infra_ms += (loop.time() - t0) * 1000
            delay = min(
                exc.retry_after if exc.retry_after is not None else config.backoff * 2**retries,
                MAX_BACKOFF,
            )
            trace(
                "provider_error",
                try_number=retries + 1,
                error=exc.message,
                retryable=exc.retryable,
                latency_ms=round((loop.time() - t0) * 1000, 2),
            )
            left = deadline - loop.time()
            if not exc.retryable or retries >= config.retries or delay + config.timeout > left:
                tries = retries + 1
                raise ProviderFault(
                    f"{config.provider} model {config.model}: {exc.message} "
                    f"(after {tries} {'try' if tries == 1 else 'tries'}); an infra fault, "
                    "not counted against the model"
                ) from None
            retries += 1
            if delay > 0:
                slept = loop.time()
                try:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(closing.wait(), delay)
                finally:
                    waits.infra_ms += (loop.time() - slept) * 1000
            if closing.is_set():
                raise ProviderFault(f"{config.provider} model {config.model}: closed") from None
            continue
        now = loop.time()
        waits.failing = False
        return Answered(
            reply=reply,
            started_at=started_at,
            latency_ms=round((now - t0) * 1000, 2),
            wait_ms=round((now - first) * 1000, 2),
            retries=retries,
            prompt_estimate=request_tokens(request),
        )


def redact(text: str, config: ModelConfig) -> str:
    """``text`` without the key, should a provider or a library ever echo it."""
    key = config.key()
    return text.replace(key, "[key]") if key and len(key) >= 8 else text


@dataclass
class Ledger:
    """Every planner call of one agent: one assistant message is one call."""

    model: str
    prices: PriceTable
    calls: list[PlannerCall] = field(default_factory=list)
    recording: str | None = None
    waits: ProviderWaits = field(default_factory=ProviderWaits)
    invalid_calls: int = 0
    """Tool calls (or replies with none) that were not a usable action, each given a
    repair turn: the error went back to the model as the call's result."""
    admissions: Admissions | None = None
    """The run's spend ledger for this try; None outside a run."""

    async def ask(
        self,
        wire: Wire,
        request: Request,
        config: ModelConfig,
        *,
        trace: Tracer,
        closing: asyncio.Event | None = None,
    ) -> Answered:
        """``call_model``, its spend admitted in the run's ledger before and settled after.

        The settlement is the priced reply (the estimate when the reply reports no
        usage), or 0 when no try returned a reply (a ``ProviderFault``: providers
        bill no failed request). A call cancelled in flight (a wall limit) stays
        admitted at its estimate: whether it was billed is unknown.

        Raises:
            ProviderFault: as ``call_model``.
            StorageError: the ledger cannot be written (the call is then not made).
        """
        if self.admissions is None:
            return await call_model(
                wire, request, config, trace=trace, closing=closing, waits=self.waits
            )
        admitted = estimate(request, config, self.prices)
        call = await self.admissions.admit(admitted)
        try:
            answered = await call_model(
                wire, request, config, trace=trace, closing=closing, waits=self.waits
            )
        except ProviderFault:
            await self.admissions.settle(call, 0.0)
            raise
        usage = answered.reply.usage
        cost = self.prices.cost(self.model, usage) if usage is not None else None
        await self.admissions.settle(call, admitted if cost is None else cost)
        return answered

    def add(
        self,
        answered: Answered,
        *,
        purpose: str,
        status: PlannerStatus = "ok",
        tool: str | None = None,
        error: str | None = None,
        parsed_from_text: bool = False,
    ) -> PlannerCall:
        reply = answered.reply
        usage = reply.usage
        cost = self.prices.cost(self.model, usage) if usage is not None else None
        if reply.recording:
            self.recording = reply.recording
        call = PlannerCall(
            index=len(self.calls) + 1,
            purpose=purpose,
            started_at=answered.started_at,
            latency_ms=answered.latency_ms,
            wait_ms=answered.wait_ms,
            retries=answered.retries,
            tokens=usage.as_dict() if usage is not None else {},
            prompt_estimate=answered.prompt_estimate,
            cost_usd=cost,
            model=reply.model,
            status=status,
            tool=tool,
            error=error,
            reply_text=reply.text,
            parsed_from_text=parsed_from_text,
            recorded=reply.recording is not None,
        )
        self.calls.append(call)
        return call

    @property
    def tokens(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for call in self.calls:
            for kind, n in call.tokens.items():
                total[kind] = total.get(kind, 0) + n
        return total

    @property
    def cost_usd(self) -> float | None:
        """The sum; None when any call's cost is unknown (never a partial sum)."""
        costs = [c.cost_usd for c in self.calls]
        if any(c is None for c in costs):
            return None
        return round(sum(c for c in costs if c is not None), 10)

    def facts(self, call: PlannerCall) -> dict[str, Any]:
        """The call as a trace event's data."""
        return call.model_dump(exclude={"started_at"})
