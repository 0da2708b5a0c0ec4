"""The SMTP server that receives replies (aiosmtpd). It takes mail only for our
reply and bounce addresses, stores each message before answering 250 (a database
fault answers 451, so the sending server tries again later), and hands the stored
ids on for processing."""
from __future__ import annotations

import asyncio
import logging
from typing import Callable

from aiosmtpd.controller import Controller

from service.reply_address import is_our_address
from service.inbound_store import store

log = logging.getLogger(__name__)


class InboundHandler:
    def __init__(self, settings, engine, on_stored: Callable[[int], None]):
        self.settings, self.engine, self.on_stored = settings, engine, on_stored

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if not is_our_address(self.settings.mail_domain, address):
            return f"550 5.1.1 <{address}>: no such mailbox here (replies go to play+...@{self.settings.mail_domain})"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

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
        raw = envelope.original_content or envelope.content
        ids = [store(self.engine, raw, recipient, envelope.mail_from or "") for recipient in envelope.rcpt_tos]
        return [inbound_id for inbound_id in ids if inbound_id is not None]


def start_inbound_smtp(settings, engine, on_stored: Callable[[int], None], host: str, port: int) -> Controller:
    """Start the server in a thread of this process; `.stop()` ends it."""
    controller = Controller(
        InboundHandler(settings, engine, on_stored), hostname=host, port=port,
        data_size_limit=settings.inbound_max_bytes, server_hostname=settings.mail_domain,
    )
    controller.start()
    return controller
