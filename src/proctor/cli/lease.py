"""proctor lease revoke: the owner takes control back from a running attempt."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import httpx
import typer

from proctor._text import console
from proctor.cli._common import ResultsOpt
from proctor.errors import RunError
from proctor.records import ControlFile, check_label

app = typer.Typer(help="The control lease of running attempts.", no_args_is_help=True)


def _control_files(results: Path, label: str | None) -> list[Path]:
    pattern = f"{label}/control-*.json" if label else "*/control-*.json"
    return sorted(results.glob(pattern))


@app.command("revoke")
def revoke(
    attempt: Annotated[str, typer.Argument(help="Attempt id: <scenario>/<arm>-<n>.")],
    results: ResultsOpt = Path("results"),
    label: Annotated[str | None, typer.Option("--label", help="Only this run.")] = None,
    reason: Annotated[str, typer.Option("--reason")] = "the owner took control back",
) -> None:
    """Revoke an attempt's control lease: every later input is refused with a receipt."""
    if label is not None:
        check_label(label)
    files = _control_files(results, label)
    if not files:
        raise RunError(f"no running proctor worker found under {results}/ (no control-*.json)")
    revoked: list[str] = []
    for path in files:
        try:
            control = ControlFile.model_validate_json(path.read_bytes())
            answer = httpx.post(
                control.url,
                json={"attempt": attempt, "token": control.token, "reason": reason},
                timeout=5.0,
            )
        except (OSError, ValueError, httpx.HTTPError):  # ValidationError is a ValueError
            continue  # a stale file from a worker that is gone
        if answer.status_code == 200:
            revoked.extend(answer.json().get("revoked", []))
    if not revoked:
        raise RunError(f"attempt {attempt!r} is not running in any worker under {results}/")
    console().print(f"revoked the lease of {', '.join(map(str, revoked))}", markup=False)
