"""The fixture sites, by name. A plain dict: no registration by import side effect."""

from __future__ import annotations

from proctor.world._site import Site
from proctor.world.apps import calendar, chat, mail, sheets
from proctor.world.sites import canary, forms
from proctor.world.sites import board, profile, shipping, signup
from proctor.world.sites import frames, partner, popup, portal, records, widget
from proctor.world.sites import files, newsletter, session, shadow
from proctor.world.sites import account, articles, autosave, bank2, checkout, collector
from proctor.world.sites import feed, gate, injected, keypad
from proctor.world.sites import approve
from proctor.world.sites import headers, search
from proctor.world.sites import bank, booking, metrics, subscription, twosign
from proctor.world.sites import exfil, issuer, pay, shop


def all_sites() -> dict[str, Site]:
    """Every fixture site, by name."""
    sites = [canary.SITE, forms.SITE]
    sites += [board.SITE, profile.SITE, signup.SITE, shipping.SITE]
    sites += [records.SITE, frames.SITE, widget.SITE, popup.SITE, portal.SITE, partner.SITE]
    sites += [session.SITE, shadow.SITE, files.SITE, newsletter.SITE]
    sites += [feed.SITE, keypad.SITE, gate.SITE, articles.SITE, account.SITE, checkout.SITE]
    sites += [bank2.SITE, injected.SITE, collector.SITE, autosave.SITE]
    sites += [mail.SITE, calendar.SITE, sheets.SITE, chat.SITE]
    sites += [approve.SITE]
    sites += [headers.SITE, search.SITE]
    sites += [bank.SITE, booking.SITE, metrics.SITE, subscription.SITE, twosign.SITE]
    sites += [shop.SITE, pay.SITE, issuer.SITE, exfil.SITE]
    return {site.name: site for site in sites}


__all__ = ["all_sites"]
