"""The SMTP server that receives replies (aiosmtpd). It takes mail only for our
signed reply and bounce addresses (an unsigned or altered one is refused at RCPT,
before any data), at most `MAX_RECIPIENTS` of them per transaction, stores each
message once before answering 250 (a database fault answers 451, so the sending
server tries again later), and hands the stored ids on for processing."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from aiosmtpd.controller import Controller

from service.inbound_store import store_message
from service.reply_address import read_bounce_address, read_reply_address
from workers.reply_reading import NULL_SENDER

log = logging.getLogger(__name__)
# Recipients per transaction, as MTAs limit them (Postfix: 1,000; RFC 5321 asks at
# least 100 be taken): past it, 452 asks the sender to send the rest in another one.
MAX_RECIPIENTS = 100


class InboundHandler:
    def __init__(self, settings, engine, on_stored: Callable[[int], None]):
        self.settings, self.engine, self.on_stored = settings, engine, on_stored

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return f"452 4.5.3 too many recipients: at most {MAX_RECIPIENTS} in one transaction"
        if not self._signed(address):
            return (f"550 5.1.1 <{address}>: no such mailbox here (replies go to the play+...@"
                    f"{self.settings.mail_domain} address of the email answered, unaltered)")
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    def _signed(self, address: str) -> bool:
        """Whether `address` is a reply or bounce address we signed (checked here, so
        mail for a made-up one is never received, stored or read)."""
        secret, domain = self.settings.secret_key, self.settings.mail_domain
        return read_reply_address(secret, domain, address) is not None \
            or read_bounce_address(secret, domain, address) is not None

    async def handle_DATA(self, server, session, envelope):
        loop = asyncio.get_running_loop()
        try:
            ids = await loop.run_in_executor(None, self._store, envelope)
        except Exception:  # the database is away: the sender keeps the message and retries
            log.exception("an inbound message could not be stored")
            return "451 4.3.0 the message could not be stored now; please try again later"
        for inbound_id in ids:
            try:
                self.on_stored(inbound_id)
            except Exception:  # stored: the sweep processes it later
                log.exception("inbound message %s stored but not handed on", inbound_id)
        return "250 2.0.0 message accepted"

    def _store(self, envelope) -> list[int]:
        # aiosmtpd keeps the data as one bytes object (content and original_content
        # are the same object without decode_data); it is stored as it is, once.
        raw = envelope.original_content or envelope.content
        return store_message(self.engine, raw, envelope.rcpt_tos, envelope.mail_from or NULL_SENDER)


def start_inbound_smtp(settings, engine, on_stored: Callable[[int], None], host: str, port: int) -> Controller:
    """Start the server in a thread of this process; `.stop()` ends it."""
    controller = Controller(
        InboundHandler(settings, engine, on_stored), hostname=host, port=port,
        data_size_limit=settings.inbound_max_bytes, server_hostname=settings.mail_domain,
    )
    controller.start()
    return controller
