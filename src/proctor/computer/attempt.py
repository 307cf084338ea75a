"""What a computer tells its agent about the attempt it serves (plain data, no driver)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

AGENT_HOME = "agent-home"
"""The agent's persistent folder in the scratch folder (scenarios with a timeline): it
outlives an agent reset, so a restarted agent finds what the old one kept."""


@dataclass(frozen=True)
class AttemptInfo:
    """The attempt a computer serves.

    Attributes:
        attempt: The attempt's id (the ``x-proctor-attempt`` tag), e.g. ``shop/oracle-1#1``.
        scratch: The attempt's scratch folder: the only files an agent may upload.
        private: Folders no agent may read; an external agent runs with them hidden.
        spend: The run's spend ledger (spend.jsonl), where a model agent admits each
            call's estimated spend before sending it; None outside a run.
    """

    attempt: str
    scratch: Path
    private: tuple[Path, ...] = ()
    spend: Path | None = None


class CallCounter(Protocol):
    """The attempt's call counter (the recorder): every call counts against its limits."""

    def count_call(self, op: str | None = None) -> None:
        """Count one call; ``op`` is set for actions. Raises LimitReached past a limit."""
        ...

    def next_index(self) -> int:
        """The index the next Step will have."""
        ...
