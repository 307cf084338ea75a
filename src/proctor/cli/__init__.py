"""The ``proctor`` command line: a typer app; one module per command."""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape

from proctor.cli import (
    calibrate,
    compare,
    diagnose,
    doctor,
    gate,
    lease,
    list_cmd,
    mcp_bridge,
    promote,
    refs,
    regrade,
    report,
    run,
    runs,
    schema,
    validate,
    verify,
)
from proctor.errors import ProctorError

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
app.command("run")(run.run)
app.command("verify")(verify.verify)
app.command("calibrate")(calibrate.calibrate)
app.command("doctor")(doctor.doctor)
app.command("report")(report.report)
app.command("runs")(runs.runs)
app.command("compare")(compare.compare)
app.command("diagnose")(diagnose.diagnose)
app.command("regrade")(regrade.regrade)
app.command("mcp-bridge")(mcp_bridge.mcp_bridge)
app.command("gate")(gate.gate)
app.command("promote")(promote.promote_run)
app.command("refs")(refs.refs)
app.add_typer(lease.app, name="lease")


def main() -> None:
    """Entry point: user-facing errors print without a traceback; Ctrl-C exits 130."""
    try:
        code = app(standalone_mode=False)
    except ProctorError as exc:
        Console(stderr=True, soft_wrap=True).print(
            f"[red]error:[/] {escape(str(exc))}", highlight=False, markup=True
        )
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:  # click's usage errors
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        if isinstance(exc, click.exceptions.Abort):
            sys.exit(130)
        raise
    sys.exit(code if isinstance(code, int) else 0)


__all__ = ["app", "main"]
