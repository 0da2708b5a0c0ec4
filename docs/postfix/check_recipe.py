"""Runs the recipe in this folder with a real Postfix and OpenDKIM and checks what
docs/email.md says of it. Needs root and Debian's `postfix` and `opendkim` packages:

    make postfix-recipe     # installs Debian's postfix and opendkim when missing, then runs this

Postfix runs as an instance of its own (a configuration and queue in a temporary
folder) on loopback ports, so it touches no other mail system on the machine; a stand-in
for turnpost's inbound server (aiosmtpd) receives what it relays. Both daemons are
stopped by their process ids at the end. Prints each check; exits 1 at the first failure.
"""
from __future__ import annotations

import base64
import os
import re
import signal
import smtplib
import socket
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

import dkim
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

RECIPE = Path(__file__).resolve().parent
DOMAIN, MX = "play.example.org", "mx.example.org"
# How long Postfix may take to hand a message on: its queue manager delivers at once,
# this only bounds the wait when something is wrong.
DELIVERY_SECONDS = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Inbox:
    """The stand-in for turnpost's inbound server: keeps what Postfix relays."""

    def __init__(self):
        self.messages: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope.original_content)
        return "250 stored"


def wait_for(condition, what: str, seconds: float = DELIVERY_SECONDS):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s: {what}")


class Recipe:
    """The recipe's files made into a Postfix instance and an OpenDKIM in `root`."""

    def __init__(self, root: Path, inbound_port: int):
        self.root, self.conf = root, root / "conf"
        self.conf.mkdir()
        self.smtp_port, self.milter_port = free_port(), free_port()
        self.dkim_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.pids: dict[str, int] = {}
        main = (RECIPE / "main.cf").read_text()
        main = main.replace("/etc/postfix/", f"{self.conf}/")
        main = main.replace("inet:127.0.0.1:8891", f"inet:127.0.0.1:{self.milter_port}")
        own = {"queue_directory": root / "queue", "data_directory": root / "data", "inet_interfaces": "127.0.0.1",
               "inet_protocols": "ipv4", "maillog_file": root / "maillog", "maillog_file_prefixes": root}
        main = "".join(line for line in main.splitlines(keepends=True) if line.split(" =")[0] not in own)
        main += "# The check's own instance:\n" + "".join(f"{name} = {value}\n" for name, value in own.items())
        (self.conf / "main.cf").write_text(main)
        (self.conf / "master.cf").write_text(self._master_cf())
        (self.conf / "transport").write_text((RECIPE / "transport").read_text().replace(":2525", f":{inbound_port}"))
        (self.conf / "relay_recipients").write_text((RECIPE / "relay_recipients").read_text())
        opendkim = (RECIPE / "opendkim.conf").read_text().replace("inet:8891@", f"inet:{self.milter_port}@")
        opendkim += f"TestPublicKeys {root / 'keys'}\nPidFile {root / 'opendkim.pid'}\nUserID opendkim\n"
        (root / "opendkim.conf").write_text(opendkim)
        public = self.dkim_key.public_key().public_bytes(serialization.Encoding.DER,
                                                         serialization.PublicFormat.SubjectPublicKeyInfo)
        (root / "keys").write_text(f"s1._domainkey.example.net v=DKIM1; k=rsa; p={base64.b64encode(public).decode()}\n")

    def _master_cf(self) -> str:
        """Debian's master.cf with smtpd on a loopback port of its own, nothing chrooted."""
        lines = []
        for line in Path("/etc/postfix/master.cf").read_text().splitlines():
            fields = line.split()
            if line and not line[0].isspace() and not line.startswith("#") and len(fields) >= 8:
                if fields[1] == "inet":
                    continue  # only the one listener below
                fields[4] = "n"
                line = " ".join(fields)
            lines.append(line)
        lines.append(f"127.0.0.1:{self.smtp_port} inet n - n - - smtpd")
        return "\n".join(lines) + "\n"

    def start(self) -> None:
        (self.root / "queue").mkdir()
        (self.root / "data").mkdir()
        os.chown(self.root / "data", *_ids("postfix"))
        subprocess.run(["postmap", "-c", str(self.conf), f"hash:{self.conf / 'transport'}"], check=True)
        self.start_opendkim()
        subprocess.run(["postfix", "-c", str(self.conf), "start"], check=True)
        pid_file = self.root / "queue" / "pid" / "master.pid"
        master_pid = wait_for(lambda: pid_file.exists() and pid_file.read_text().strip(), "postfix started")
        self.pids["postfix"] = int(master_pid)
        wait_for(lambda: _listening(self.smtp_port), "postfix listening")

    def start_opendkim(self) -> None:
        daemon = subprocess.Popen(["opendkim", "-f", "-x", str(self.root / "opendkim.conf")])
        self.pids["opendkim"] = daemon.pid
        wait_for(lambda: _listening(self.milter_port), "opendkim listening")

    def stop(self, name: str) -> None:
        pid = self.pids.pop(name, None)
        if pid is not None:
            os.kill(pid, signal.SIGTERM)
            wait_for(lambda: not _alive(pid), f"{name} stopped")

    def signed(self, body: str, **headers: str) -> bytes:
        message = EmailMessage()
        message["From"] = "ann@example.net"
        message["To"] = f"play+abc.def123@{DOMAIN}"
        message["Subject"] = "Re: your decision"
        for name, value in headers.items():
            message[name.replace("_", "-")] = value
        message.set_content(body)
        data = message.as_bytes(policy=message.policy.clone(linesep="\r\n"))
        key = self.dkim_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                          serialization.NoEncryption())
        return dkim.sign(data, b"s1", b"example.net", key) + data


def _ids(user: str) -> tuple[int, int]:
    import pwd

    entry = pwd.getpwnam(user)
    return entry.pw_uid, entry.pw_gid


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a child of ours that exited stays until it is reaped
        return os.waitpid(pid, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return True


def refusal(port: int, recipient: str, size: int | None = None) -> tuple[int, str]:
    """The answer to MAIL and RCPT for `recipient` (and a declared SIZE)."""
    with smtplib.SMTP("127.0.0.1", port, timeout=DELIVERY_SECONDS) as client:
        client.ehlo("client.example.net")
        code, text = client.mail("ann@example.net", [f"SIZE={size}"] if size else [])
        if code >= 400:
            return code, text.decode()
        code, text = client.rcpt(recipient)
        return code, text.decode()


def send(port: int, data: bytes, recipient: str = f"play+abc.def123@{DOMAIN}") -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=DELIVERY_SECONDS) as client:
        client.ehlo("client.example.net")
        client.sendmail("ann@example.net", [recipient], data)


def check(what: str, ok: bool, detail: object = "") -> None:
    print(("ok    " if ok else "FAILED ") + what + (f": {detail}" if detail and not ok else ""))
    if not ok:
        raise SystemExit(1)


def authentication_results(raw: bytes) -> list[str]:
    return [" ".join(value.split()) for value in re.findall(rb"^Authentication-Results:(.*(?:\r?\n[ \t].*)*)", raw,
                                                             re.MULTILINE | re.IGNORECASE)
            for value in [value.decode()]]


def main() -> None:
    inbox, inbound_port = Inbox(), free_port()
    inbound = Controller(inbox, hostname="127.0.0.1", port=inbound_port)
    inbound.start()
    with tempfile.TemporaryDirectory(prefix="turnpost-postfix-") as folder:
        os.chmod(folder, 0o755)  # the daemons' own users read their files here
        recipe = Recipe(Path(folder), inbound_port)
        try:
            recipe.start()
            run_checks(recipe, inbox)
        finally:
            for name in list(recipe.pids):
                recipe.stop(name)
            inbound.stop()
    print("the recipe behaves as docs/email.md says")


def run_checks(recipe: Recipe, inbox: Inbox) -> None:
    port = recipe.smtp_port
    send(port, recipe.signed("tile red F7\n", Authentication_Results=f"{MX}; dkim=pass header.d=example.net"))
    [relayed] = wait_for(lambda: inbox.messages[:1], "a reply relayed to the inbound server")
    results = authentication_results(relayed)
    check("a signed reply is relayed with OpenDKIM's result", any(
        r.startswith(f"{MX};") and "dkim=pass" in r and "header.d=example.net" in r for r in results), results)
    check("the Authentication-Results the sender wrote under our name is removed", len(results) == 1, results)
    tampered = recipe.signed("tile red F7\n").replace(b"tile red F7", b"tile blue A1")
    send(port, tampered)
    relayed = wait_for(lambda: inbox.messages[1:2], "a tampered reply relayed")[0]
    check("a tampered signature is relayed marked dkim=fail",
          any("dkim=fail" in r for r in authentication_results(relayed)), authentication_results(relayed))
    code, text = refusal(port, f"someone@{DOMAIN}")
    check("another address at the reply domain is refused at RCPT (no backscatter)",
          code == 550 and "User unknown in relay recipient table" in text, (code, text))
    code, text = refusal(port, "someone@elsewhere.example")
    check("another domain is refused: no open relay",
          code == 554 and "5.7.1" in text and "Relay access denied" in text, (code, text))
    code, text = refusal(port, f"play+abc@{DOMAIN}", size=26214400 + 1)
    check("a message above message_size_limit is refused",
          code == 552 and "Message size exceeds fixed limit" in text, (code, text))
    code, _ = refusal(port, f"bounce+abc.def@{DOMAIN}")
    check("bounce addresses are accepted", code == 250, code)
    recipe.stop("opendkim")
    try:
        send(port, recipe.signed("tile red F7\n"))
        outcome: str | tuple[int, str] = "accepted"
    except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as err:  # at MAIL or at DATA
        error = err.smtp_error
        outcome = (err.smtp_code, error.decode() if isinstance(error, bytes) else error)
    check("with OpenDKIM down, mail is deferred (451), not passed unchecked",
          isinstance(outcome, tuple) and outcome[0] == 451 and len(inbox.messages) == 2, outcome)


if __name__ == "__main__":
    if os.geteuid() != 0:
        sys.exit("run as root: Postfix starts as root and drops to its own user")
    main()
