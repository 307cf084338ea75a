"""The fixture sites, by name. A plain dict: no registration by import side effect."""

from __future__ import annotations

from proctor.world._site import Site
from proctor.world.apps import calendar, chat, mail, sheets
from proctor.world.sites import (
    account,
    approve,
    articles,
    autosave,
    bank,
    bank2,
    board,
    booking,
    canary,
    checkout,
    collector,
    exfil,
    feed,
    files,
    forms,
    frames,
    gate,
    headers,
    injected,
    issuer,
    keypad,
    metrics,
    miniwob,
    newsletter,
    partner,
    pay,
    popup,
    portal,
    profile,
    records,
    search,
    session,
    shadow,
    shipping,
    shop,
    signup,
    subscription,
    twosign,
    widget,
)


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
    sites += [miniwob.SITE]
    return {site.name: site for site in sites}


__all__ = ["all_sites"]
