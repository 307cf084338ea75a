"""The fixture world: the loopback server and its sites, scratch files, the clock and the user;
and the live tier's world, read independently over HTTP."""

from proctor.world._extract import extract, headings_of, visible_text
from proctor.world._live import Fetched, Fetcher, fetch_page, live_checks, read_live, read_page
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
from proctor.world._timeline import Hooks as TimelineHooks
from proctor.world._user import UNKNOWN_ANSWER, PersonaContext, PersonaModel, SimulatedUser
from proctor.world.sitedata import DataTable, site_data
from proctor.world.sites import all_sites

__all__ = [
    "ATTEMPT_HEADER",
    "DOMAIN",
    "UNKNOWN_ANSWER",
    "AttemptWorld",
    "DataTable",
    "Fetched",
    "Fetcher",
    "FixtureServer",
    "PersonaContext",
    "PersonaModel",
    "RequestLog",
    "SimulatedUser",
    "Site",
    "Submission",
    "TimelineHooks",
    "all_sites",
    "extract",
    "fetch_page",
    "headings_of",
    "live_checks",
    "read_live",
    "read_page",
    "remove_scratch",
    "seed_scratch",
    "sha256_of",
    "site_data",
    "snapshot_dirs",
    "snapshot_files",
    "visible_text",
    "world_of",
]
