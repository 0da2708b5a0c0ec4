"""`turnpost serve` without BASE_URL writes links to the host and port it serves, so
an emailed sign-in link leads back to the running service."""
import json
import mailbox
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from service.config import served_base_url

TURNPOST = Path(sys.executable).with_name("turnpost")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(check, what: str, tries: int = 300):
    """Polls `check` (every 0.1 s) until it returns something; fails saying `what`."""
    for _ in range(tries):
        found = check()
        if found:
            return found
        time.sleep(0.1)
    pytest.fail(f"no {what}")


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def served(tmp_path):
    """`turnpost serve --port <free>` on its own SQLite file and Maildir, no BASE_URL."""
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("BASE_URL", "DATABASE_URL", "REDIS_URL", "SMTP_URL", "TURNPOST_MAILDIR")}
    env.update(TURNPOST_INSTANCE=str(tmp_path), INBOUND_SMTP_PORT=str(free_port()))
    server = subprocess.Popen([str(TURNPOST), "serve", "--port", str(port)], env=env, cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: listening(port) or server.poll() is not None, "server listening")
        assert server.poll() is None, "turnpost serve stopped"
        yield port, tmp_path / "mail"
    finally:
        server.terminate()
        server.wait()


def test_emailed_links_use_the_served_port(served):
    port, maildir = served
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/sign-in", method="POST",
                                     data=json.dumps({"email": "ann@example.org"}).encode(),
                                     headers={"Content-Type": "application/json"})
    assert urllib.request.urlopen(request).status == 202
    mail = wait_for(lambda: maildir.exists() and list(mailbox.Maildir(str(maildir), create=False)), "email")
    text = mail[0].get_payload()[0].get_payload(decode=True).decode()
    links = re.findall(r"http://[^\s\"<>]+", text)
    assert links and all(link.startswith(f"http://127.0.0.1:{port}/") for link in links), links


def test_a_wildcard_host_is_reached_through_the_loopback_address():
    assert served_base_url("0.0.0.0", 5077) == "http://127.0.0.1:5077"
    assert served_base_url("::", 5077) == "http://[::1]:5077"
    assert served_base_url("turnpost.example", 80) == "http://turnpost.example:80"
