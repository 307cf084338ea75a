"""The ``proctor`` command line: a typer app; one module per command."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

import typer

from proctor._text import console, markup
from proctor.cli import (
    _usage,
    calibrate,
    cleanup,
    compare,
    diagnose,
    doctor,
    gate,
    inspect_cmd,
    lease,
    list_cmd,
    manual,
    mcp_bridge,
    models_cmd,
    promote,
    refs,
    regrade,
    rejudge,
    report,
    review,
    run,
    runs,
    schema,
    show,
    tail,
    validate,
    verify,
)
from proctor.errors import ProctorError
from proctor.records import storage_error

STORAGE_ERRNOS = frozenset(
    {
        errno.ENOSPC,
        errno.EDQUOT,
        errno.EROFS,
        errno.EACCES,
        errno.EPERM,
        errno.ENOTDIR,
        errno.EEXIST,
        errno.EISDIR,
        errno.ENAMETOOLONG,
        errno.EFBIG,
    }
)
"""OS errors that say the disk or a folder refused a write, not that proctor has a bug."""

app = typer.Typer(
    name="proctor",
    help="Measure what computer-use and browser agents actually do, graded from the end state.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("list")(list_cmd.list_scenarios)
app.command("validate")(validate.validate)
app.command("schema")(schema.schema)
app.command("inspect")(inspect_cmd.inspect)
app.command("run")(run.run)
app.command("verify")(verify.verify)
app.command("calibrate")(calibrate.calibrate)
app.command("doctor")(doctor.doctor)
app.command("report")(report.report)
app.command("runs")(runs.runs)
app.command("compare")(compare.compare)
app.command("models")(models_cmd.models)
app.command("diagnose")(diagnose.diagnose)
app.command("regrade")(regrade.regrade)
app.command("rejudge")(rejudge.rejudge)
app.command("review")(review.review)
app.command("show")(show.show)
app.command("tail")(tail.tail)
app.command("mcp-bridge")(mcp_bridge.mcp_bridge)
app.command("gate")(gate.gate)
app.command("promote")(promote.promote_run)
app.command("refs")(refs.refs)
app.command("cleanup")(cleanup.cleanup)
app.add_typer(lease.app, name="lease")
app.add_typer(manual.app, name="manual")


def _print_error(message: str) -> None:
    console(stderr=True, soft_wrap=True).print(
        f"[red]error:[/] {markup(message, newlines=True)}", highlight=False, markup=True
    )


def main() -> None:
    """Entry point: user-facing errors print without a traceback; Ctrl-C exits 130.

    A ``ProctorError``, and an OS error of the disk (full, read-only, a file
    where a folder should be, a name too long) raised where no code translated
    it, print as one line and exit 2.
    """
    try:
        code = app(standalone_mode=False)
    except ProctorError as exc:
        _print_error(str(exc))
        sys.exit(2)
    except OSError as exc:
        if exc.errno not in STORAGE_ERRNOS:
            raise
        where = Path(exc.filename) if exc.filename else Path("the results folder")
        _print_error(str(storage_error(exc, where)))
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.exit(130)
    except Exception as exc:
        usage = _usage.usage_of(exc)
        if usage is None:
            if type(exc).__name__ == "Abort":  # click's own Abort (Ctrl-C at a prompt)
                sys.exit(130)
            raise
        if usage.help_text is not None:
            sys.stdout.write(usage.help_text + "\n")
        _print_error(usage.line)
        sys.exit(usage.exit_code)
    sys.exit(code if isinstance(code, int) else 0)


__all__ = ["app", "main"]
