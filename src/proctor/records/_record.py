"""The base of every record on disk, and the records' schema version.

Every model carries ``version`` so that readers can refuse what they do not
understand. Field docstrings are the reference documentation of the files.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

SCHEMA_VERSION = 2
"""2: check results carry ``safety``; stop reasons, fault kinds, crossings, tiers and
categories are closed vocabularies (``proctor.vocab``). Version 1 records still load."""


class Record(BaseModel):
    """A record on disk: a field it does not know is refused."""

    model_config = ConfigDict(extra="forbid")
