"""The fake apps: mail, calendar, sheets and chat, each a site with state, a UI and a JSON API.

Each app module exports ``SITE`` (served at ``<name>.proctor.test``), builds its
state from the scenario's ``world.apps.<name>`` seed (models in
``proctor.scenario._apps``), and snapshots its end state into
``EndState.apps[<name>]`` for the app-state checks (``mail_sent``,
``draft_exists``, ``nothing_sent``, ``mail_in_folder``, ``message_labels``,
``mail_rule_exists``, ``event_exists``, ``event_moved``,
``event_deleted``, ``sheet_cells``, ``chat_posted``). Each module's docstring
lists its pages, JSON API and snapshot.
"""

from proctor.world.apps import calendar, chat, mail, sheets
from proctor.world.apps._arrivals import arrive
from proctor.world.apps.mail import deliver, mailbox

APPS = (mail.SITE, calendar.SITE, sheets.SITE, chat.SITE)
"""The apps' sites, in the order they are listed."""

__all__ = ["APPS", "arrive", "calendar", "chat", "deliver", "mail", "mailbox", "sheets"]
