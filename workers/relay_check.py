"""The mailer's check of its SMTP relay at start.

A relay that cannot be used as configured (a login it would get unencrypted, a login it
does not offer or refuses or requires, a certificate that does not verify, a DKIM key
that cannot sign) stops the mailer at once with the reason, reported once; the emails wait in the
outbox, none is tried and retried against it. A relay that is merely unreachable now is
only logged: that passes, and each email is retried as usual.
"""
from __future__ import annotations

import logging

from service.reply_address import bounce_address
from workers.delivery import transport_for
from workers.mail import RelayUnusable

log = logging.getLogger(__name__)


def relay_problem(settings) -> str | None:
    """Why the settings' mail transport cannot be used, or None."""
    transport = None
    try:
        transport = transport_for(settings)
        if hasattr(transport, "check"):  # with an envelope sender as an email's: a bounce address
            transport.check(bounce_address(settings.secret_key, settings.mail_domain, 0))
    except (RelayUnusable, ValueError) as err:
        return str(err)
    except OSError as err:
        log.warning("the SMTP relay could not be reached at start (%s); emails are retried until it can", err)
    finally:
        if transport is not None:
            transport.close()
    return None


def exit_unless_relay_usable(settings) -> None:
    """End the process, saying why, when its relay cannot be used."""
    problem = relay_problem(settings)
    if problem:
        log.critical("turnpost cannot send email: %s", problem)
        raise SystemExit(f"turnpost cannot send email: {problem}")
