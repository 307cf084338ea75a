"""The Playwright browser driver (imports Playwright; import it only where a browser runs)."""

from proctor._netns import SealedNetwork
from proctor.computer._browser import BrowserComputer
from proctor.computer._chromium import (
    FIX,
    LAUNCH_FLAGS,
    BrowserHost,
    chromium_version,
    find_chromium,
    launch,
    public_resolver_rules,
    resolver_rules,
)
from proctor.computer._lease import Lease
from proctor.computer._recorder import Recorder
from proctor.computer._routing import BlockedHook, BrowserOptions, offline_pattern, scheme_of
from proctor.computer._sched import renderers
from proctor.errors import BrowserFault, SetupFault

__all__ = [
    "FIX",
    "LAUNCH_FLAGS",
    "BlockedHook",
    "BrowserComputer",
    "BrowserFault",
    "BrowserHost",
    "BrowserOptions",
    "Lease",
    "Recorder",
    "SealedNetwork",
    "SetupFault",
    "chromium_version",
    "find_chromium",
    "launch",
    "offline_pattern",
    "public_resolver_rules",
    "renderers",
    "resolver_rules",
    "scheme_of",
]
