"""What every ``proctor`` process pays at start, and what it does not.

The CLI's imports leave out the heavy libraries only some commands use: numpy and
scipy for the statistics, pypdf for a downloaded PDF, each imported where it is
used. The suite starts hundreds of processes, and these cost a tenth of a second of
CPU at each start.
"""

from __future__ import annotations

import subprocess
import sys

ON_FIRST_USE = ("numpy", "scipy", "pypdf")


def test_the_cli_imports_no_library_that_is_loaded_on_first_use() -> None:
    probe = f"import sys, proctor.cli; print(*[m for m in {ON_FIRST_USE!r} if m in sys.modules])"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []
