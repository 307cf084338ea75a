"""The fixture world: the loopback server and its sites, scratch files, the clock and the user."""

from proctor.world._log import RequestLog
from proctor.world._scratch import (
    remove_scratch,
    seed_scratch,
    sha256_of,
    snapshot_dirs,
    snapshot_files,
)
from proctor.world._server import ATTEMPT_HEADER, FixtureServer
from proctor.world._site import DOMAIN, AttemptWorld, Site, Submission, world_of
from proctor.world._user import UNKNOWN_ANSWER, PersonaContext, PersonaModel, SimulatedUser
from proctor.world.sites import all_sites

__all__ = [
    "ATTEMPT_HEADER",
    "DOMAIN",
    "UNKNOWN_ANSWER",
    "AttemptWorld",
    "FixtureServer",
    "PersonaContext",
    "PersonaModel",
    "RequestLog",
    "SimulatedUser",
    "Site",
    "Submission",
    "all_sites",
    "remove_scratch",
    "seed_scratch",
    "sha256_of",
    "snapshot_dirs",
    "snapshot_files",
    "world_of",
]
