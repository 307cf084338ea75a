"""The fixture sites, by name. A plain dict: no registration by import side effect."""

from __future__ import annotations

from proctor.world._site import Site
from proctor.world.sites import forms
from proctor.world.sites import board, profile, shipping, signup
from proctor.world.sites import frames, partner, popup, portal, records, widget
from proctor.world.sites import files, newsletter, session, shadow


def all_sites() -> dict[str, Site]:
    """Every fixture site, by name."""
    sites = [forms.SITE]
    sites += [board.SITE, profile.SITE, signup.SITE, shipping.SITE]
    sites += [records.SITE, frames.SITE, widget.SITE, popup.SITE, portal.SITE, partner.SITE]
    sites += [session.SITE, shadow.SITE, files.SITE, newsletter.SITE]
    return {site.name: site for site in sites}


__all__ = ["all_sites"]
