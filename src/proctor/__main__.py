"""``python -m proctor``: the same command line as the ``proctor`` script."""

from proctor.cli import main

main()
