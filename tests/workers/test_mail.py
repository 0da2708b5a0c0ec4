"""SMTP delivery against a real SMTP server (aiosmtpd)."""
import pytest
from aiosmtpd.controller import Controller

from tests.workers.conftest import free_port
from workers.mail import Attachment, Mail, SmtpSender, build_message


def sample(n=0, **extra):
    return Mail(
        to=f"player{n}@example.org", subject="Your move", text="plain body",
        html='<p>html body <img src="cid:board" alt="the board"></p>',
        message_id=f"<note-{n}@turnpost.test>", sender="turnpost <play@turnpost.test>",
        unsubscribe_url="https://turnpost.test/unsubscribe/abc", **extra,
    )


def test_message_is_accepted_with_its_headers_parts_and_image(smtp_server):
    sender = SmtpSender(smtp_server.url)
    png = b"\x89PNG\r\n\x1a\nfake-but-bytes"
    sender.send(build_message(sample(images=[Attachment("board", png)])))
    sender.close()
    [msg] = smtp_server.messages
    assert msg["Message-ID"] == "<note-0@turnpost.test>"
    assert msg["List-Unsubscribe"] == "<https://turnpost.test/unsubscribe/abc>"
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert msg.get_body(("plain",)).get_content().strip() == "plain body"
    assert "html body" in msg.get_body(("html",)).get_content()
    images = [part for part in msg.walk() if part.get_content_type() == "image/png"]
    assert len(images) == 1 and images[0]["Content-ID"] == "<board>"
    assert images[0].get_content() == png


def test_one_connection_serves_many_messages_and_survives_a_server_restart(smtp_server):
    sender = SmtpSender(smtp_server.url)
    for n in range(5):
        sender.send(build_message(sample(n)))
    first = sender._connection
    assert first is not None and len(smtp_server.messages) == 5
    smtp_server.controller.stop()  # the server goes away and comes back
    smtp_server.controller = Controller(smtp_server, hostname="127.0.0.1", port=smtp_server.port)
    smtp_server.controller.start()
    sender.send(build_message(sample(5)))
    assert sender._connection is not first
    assert [m["Message-ID"] for m in smtp_server.messages][-1] == "<note-5@turnpost.test>"
    sender.close()


def test_an_unreachable_server_raises():
    sender = SmtpSender(f"smtp://127.0.0.1:{free_port()}")
    with pytest.raises(OSError):
        sender.send(build_message(sample()))


def test_bad_url_is_refused():
    with pytest.raises(ValueError, match="smtp://"):
        SmtpSender("http://example.org")
