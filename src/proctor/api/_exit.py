"""A run's exit code: which tiers' failures fail it, and when nothing could be scored."""

from __future__ import annotations

from collections.abc import Sequence

from proctor.records import AttemptRecord
from proctor.vocab import Tier

SCORED_TIERS: tuple[Tier, ...] = ("local", "model", "desktop")
"""Tiers whose failures fail the run (exit 1); under ``strict``, the live tier's too."""
EXIT_FAILED = 1
EXIT_UNSCORED = 3


def scored_tiers(strict: bool = False) -> tuple[Tier, ...]:
    """The tiers whose attempts decide the exit code: the live tier's only under ``strict``
    (public sites change and go down; a live failure is news, not a broken build)."""
    return (*SCORED_TIERS, "live") if strict else SCORED_TIERS


def exit_code(records: Sequence[AttemptRecord], failed: bool, *, strict: bool = False) -> int:
    """The exit code of a run: 1 when a scored scenario ``failed``, 3 when nothing was scored.

    Nothing scored means no attempt passed or failed and at least one ended in
    an infra error: the harness, not the agent, decided the run. A run whose
    attempts were all skipped (a model arm without its key, a live scenario
    offline) exits 0. The live tier's attempts count only under ``strict``.
    """
    if failed:
        return EXIT_FAILED
    counted = [r for r in records if strict or r.tier != "live"]
    scored = any(r.result in ("passed", "failed") for r in counted)
    if counted and not scored and any(r.result == "error" for r in counted):
        return EXIT_UNSCORED
    return 0
