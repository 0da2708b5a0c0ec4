"""SMTP relays as providers run them, for the outbound tests: aiosmtpd with a certificate
made here (a private CA and a server certificate signed by it), requiring STARTTLS and
a login, or TLS from the start; and a DKIM key pair with its DNS record."""
from __future__ import annotations

import base64
import ipaddress
import ssl
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from tests.workers.conftest import free_port

USER, PASSWORD = "turnpost", "relay-password"


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


@dataclass
class PrivateCa:
    """A certificate authority of our own: its certificate goes in SMTP_CA_FILE."""

    directory: Path
    key: rsa.RSAPrivateKey = field(default_factory=lambda: rsa.generate_private_key(65537, 2048))

    def __post_init__(self):
        now = datetime.now(UTC)
        self.certificate = (
            x509.CertificateBuilder().subject_name(_name("turnpost test CA")).issuer_name(_name("turnpost test CA"))
            .public_key(self.key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(hours=1)).not_valid_after(now + timedelta(days=2))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(
                digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
                key_encipherment=False, data_encipherment=False, key_agreement=False, encipher_only=False,
                decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(self.key.public_key()), critical=False)
            .sign(self.key, hashes.SHA256()))
        self.ca_file = self.directory / "ca.pem"
        self.ca_file.write_bytes(self.certificate.public_bytes(serialization.Encoding.PEM))

    def server_context(self, *names: str) -> ssl.SSLContext:
        """A server's TLS context with a certificate for `names` (host names or IP
        addresses) signed by this CA."""
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        now = datetime.now(UTC)
        alternative = [x509.IPAddress(ipaddress.ip_address(name)) if name[0].isdigit() else x509.DNSName(name)
                       for name in names]
        certificate = (
            x509.CertificateBuilder().subject_name(_name(names[0])).issuer_name(self.certificate.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(hours=1)).not_valid_after(now + timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()), critical=False)
            .sign(self.key, hashes.SHA256()))
        stem = self.directory / f"server-{names[0]}"
        stem.with_suffix(".crt").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        stem.with_suffix(".key").write_bytes(key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()))
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(stem.with_suffix(".crt"), stem.with_suffix(".key"))
        return context


class RelayInbox:
    """Keeps each accepted message's bytes as they arrived, and how its session went."""

    def __init__(self):
        self.received: list[tuple[bytes, bool, bool]] = []  # (bytes, over TLS, logged in)

    async def handle_DATA(self, server, session, envelope):
        tls = session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None
        self.received.append((envelope.original_content, tls, bool(session.authenticated)))
        return "250 Message accepted for delivery"


def check_login(server, session, envelope, mechanism, auth_data) -> AuthResult:
    success = (auth_data.login, auth_data.password) == (USER.encode(), PASSWORD.encode())
    return AuthResult(success=success, handled=False)  # not handled: aiosmtpd answers 535 itself


def start_relay(context: ssl.SSLContext | None, implicit_tls: bool = False,
                **smtp_options) -> tuple[Controller, RelayInbox]:
    """A relay on 127.0.0.1: with `context`, STARTTLS required before anything (or TLS
    from the start with `implicit_tls`) and a login required; without, plain SMTP."""
    inbox = RelayInbox()
    options: dict[str, Any] = {"authenticator": check_login, "auth_required": True}
    if context is not None and not implicit_tls:
        options.update(tls_context=context, require_starttls=True)
    if implicit_tls:  # aiosmtpd sees TLS only when it came by STARTTLS; this connection is all TLS
        options.update(auth_require_tls=False)
    options.update(smtp_options)
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(),
                            ssl_context=context if implicit_tls else None, **options)
    controller.start()
    return controller, inbox


@dataclass
class DkimKey:
    """An RSA key for DKIM, its file, and the TXT record published for it in DNS."""

    directory: Path
    selector: str = "s2026"
    domain: str = "turnpost.test"

    def __post_init__(self):
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.key_file = self.directory / "dkim.key"
        self.key_file.write_bytes(key.private_bytes(  # PKCS#8, as `openssl genrsa` writes it (docs/email.md)
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        public = key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        self.txt_record = b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)

    def dns(self, name: bytes, timeout: float = 5) -> bytes | None:
        """dkimpy's `dnsfunc`: this key's record at <selector>._domainkey.<domain>, nothing elsewhere."""
        return self.txt_record if name.rstrip(b".") == f"{self.selector}._domainkey.{self.domain}".encode() else None
