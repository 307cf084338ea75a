"""The fixture sites, by name. A plain dict: no registration by import side effect."""

from __future__ import annotations

from proctor.world._site import Site
from proctor.world.sites import forms


def all_sites() -> dict[str, Site]:
    """Every fixture site, by name."""
    sites = [forms.SITE]
    return {site.name: site for site in sites}


__all__ = ["all_sites"]
