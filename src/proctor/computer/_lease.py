"""The control lease: while an attempt holds it, the agent may send input.

The owner can take control back at any moment (the fixture server, the CLI, or
a loopback HTTP call); from then on every input is refused with a receipt. An
input already in flight when the lease is revoked may complete.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from proctor.records import Step
from proctor.vocab import StepTool

if TYPE_CHECKING:
    from proctor.computer.actions import Action


@dataclass
class Lease:
    """A revocable lease, safe to revoke from any thread."""

    attempt: str
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    revoked_at: float | None = None
    revoked_by: str | None = None
    reason: str | None = None
    receipts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def revoked(self) -> bool:
        with self._lock:
            return self.revoked_at is not None

    def revoke(self, by: str, reason: str = "the owner took control back") -> bool:
        """Revoke once; True when this call revoked it, False when it already was."""
        with self._lock:
            if self.revoked_at is not None:
                return False
            self.revoked_at = time.time()
            self.revoked_by = by
            self.reason = reason
            return True

    def refuse(self, op: str, target: str | None) -> dict[str, Any]:
        """Record and return the receipt of one refused input."""
        with self._lock:
            receipt = {
                "receipt": len(self.receipts) + 1,
                "attempt": self.attempt,
                "op": op,
                "target": target,
                "time": time.time(),
                "revoked_at": self.revoked_at,
                "revoked_by": self.revoked_by,
                "reason": self.reason,
            }
            self.receipts.append(receipt)
            return receipt


def refused_step(lease: Lease, action: Action, target: str | None, index: int,
                 tool: StepTool = "browser") -> Step:  # fmt: skip
    """The Step of an input refused because the owner took control back, its receipt taken."""
    op = action.op
    receipt = lease.refuse(op, target)
    return Step(
        index=index,
        tool=tool,
        op=op,
        target=target,
        input=action.model_dump(exclude_none=True),
        output="refused",
        facts={"receipt": receipt},
        status="refused",
        error=f"refused: the control lease was revoked by {lease.revoked_by} ({lease.reason})",
        started_at=time.time(),
        latency_ms=0.0,
    )
