#!/usr/bin/env python3
"""A test certificate authority for Assent's attestation verifiers: writes the fixtures of
Tests/Vectors/attestation/test-authority/ that the Swift tests (Tests/AssentAttestationTests) read.

Real App Attest objects and Android chains cannot be changed without breaking their signatures, so the refusals
that need another chain (a development aaguid, a software-level key, an unlocked bootloader, another package) use
chains from this authority, trusted only as an operator root (AttestationTrustAnchors.adding(pemBundle:)).

Every structure follows Apple's and Google's specifications (see /work/shared/TESTING.md "Device attestation in
tests"): CBOR and DER are written by hand here, so no CBOR package is needed. Certificates are valid 2025-01-01 to
2045-01-01; the tests verify at 2026-06-01. ECDSA signatures are randomized, so each run writes new bytes: commit the
output of one run.

Usage: .build/venv/bin/python Tests/tools/attestation_test_authority.py [OUT_DIR]   (needs `cryptography`)
Imported, `Authority` makes attestations bound to any challenge and key (the end-to-end tests use it).
"""
import base64
import datetime
import hashlib
import json
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

DEFAULT_OUT = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Vectors", "attestation", "test-authority")
NOT_BEFORE = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
NOT_AFTER = datetime.datetime(2045, 1, 1, tzinfo=datetime.timezone.utc)
VERIFY_AT_MS = 1780272000000  # 2026-06-01T00:00:00Z

APP_ID = "TESTTEAM01.dev.assent.example"
PACKAGE = "dev.assent.example"
SIGNING_DIGEST = hashlib.sha256(b"assent test signing certificate").digest()


def b64(data):
    return base64.b64encode(data).decode()


def binding_hash(challenge, public_key):
    return hashlib.sha256(f"assent-attest-v1|{challenge}|{public_key}".encode()).digest()


# --- minimal DER ---------------------------------------------------------------------------------------------------
def der_length(n):
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def tlv(tag, content):
    return tag + der_length(len(content)) + content


def der_int(n, tag=b"\x02"):
    body = n.to_bytes(max(1, (n.bit_length() + 8) // 8), "big", signed=True)
    return tlv(tag, body)


def der_enum(n):
    return der_int(n, b"\x0a")


def der_octets(data):
    return tlv(b"\x04", data)


def der_bool(value):
    return tlv(b"\x01", b"\xff" if value else b"\x00")


def der_seq(*items):
    return tlv(b"\x30", b"".join(items))


def der_set(*items):
    return tlv(b"\x31", b"".join(sorted(items)))


def explicit(number, content):
    """A context-specific constructed tag [number], high-tag-number form above 30."""
    if number < 31:
        tag = bytes([0xa0 | number])
    else:
        digits = []
        while True:
            digits.insert(0, number & 0x7f)
            number >>= 7
            if not number:
                break
        tag = bytes([0xbf]) + bytes([d | 0x80 for d in digits[:-1]] + [digits[-1]])
    return tlv(tag, content)


# --- minimal CBOR --------------------------------------------------------------------------------------------------
def cbor_head(major, n):
    if n < 24:
        return bytes([major << 5 | n])
    for info, width in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * width):
            return bytes([major << 5 | info]) + n.to_bytes(width, "big")
    raise ValueError(n)


def cbor(value):
    if isinstance(value, bool):
        raise TypeError("no booleans in App Attest")
    if isinstance(value, int):
        return cbor_head(0, value) if value >= 0 else cbor_head(1, -1 - value)
    if isinstance(value, bytes):
        return cbor_head(2, len(value)) + value
    if isinstance(value, str):
        raw = value.encode()
        return cbor_head(3, len(raw)) + raw
    if isinstance(value, list):
        return cbor_head(4, len(value)) + b"".join(cbor(v) for v in value)
    if isinstance(value, dict):
        return cbor_head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())
    raise TypeError(type(value))


# --- certificates --------------------------------------------------------------------------------------------------
def name(common_name):
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Assent test authority"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def certificate(subject, subject_key, issuer, issuer_key, ca, extensions=()):
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
               .public_key(subject_key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if ca:
        builder = builder.add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    for oid, value in extensions:
        builder = builder.add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier(oid), value), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def der(cert):
    return cert.public_bytes(serialization.Encoding.DER)


def uncompressed(key):
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def spki(key):
    return key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


class Authority:
    """A root and an intermediate (P-256), and attestations under them bound to a given challenge and credential key.
    The end-to-end tests (Tests/e2e/test_attestation.py) import it; `main` writes the Swift tests' fixtures with it."""

    def __init__(self, label="Assent Test Attestation"):
        """`label` begins the certificates' common names (another authority that a server does not trust may take
        the trusted one's names, or its own)."""
        self.root_key = ec.generate_private_key(ec.SECP256R1())
        self.root_name = name(f"{label} Root")
        self.root = certificate(self.root_name, self.root_key, self.root_name, self.root_key, ca=True)
        self.intermediate_key = ec.generate_private_key(ec.SECP256R1())
        self.intermediate_name = name(f"{label} Intermediate")
        self.intermediate = certificate(self.intermediate_name, self.intermediate_key, self.root_name, self.root_key, ca=True)

    def root_pem(self):
        return self.root.public_bytes(serialization.Encoding.PEM)

    def write_root(self, directory):
        """The root as a PEM file `roots.pem` in `directory`, for `assentd --attestation-roots`: its path."""
        path = os.path.join(directory, "roots.pem")
        with open(path, "wb") as handle:
            handle.write(self.root_pem())
        return path

    def app_attest(self, challenge, credential, app_id=APP_ID, aaguid=b"appattestdevelop", counter=0):
        """An App Attest attestation of a new key, bound to `challenge` and `credential` (the publicKey as sent):
        (key, key id, attestation object). `counter` is the authenticator data's sign count (0 for a new key)."""
        key = ec.generate_private_key(ec.SECP256R1())
        key_id = hashlib.sha256(uncompressed(key)).digest()
        client_data_hash = binding_hash(challenge, credential)
        point = key.public_key().public_numbers()
        cose = cbor({1: 2, 3: -7, -1: 1, -2: point.x.to_bytes(32, "big"), -3: point.y.to_bytes(32, "big")})
        rp_id_hash = hashlib.sha256(app_id.encode()).digest()
        auth_data = (rp_id_hash + b"\x40" + counter.to_bytes(4, "big") + aaguid + len(key_id).to_bytes(2, "big")
                     + key_id + cose)
        nonce = hashlib.sha256(auth_data + client_data_hash).digest()
        leaf = certificate(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, key_id.hex())]), key,
                           self.intermediate_name, self.intermediate_key, ca=False,
                           extensions=[("1.2.840.113635.100.8.2", der_seq(explicit(1, der_octets(nonce))))])
        attestation = cbor({"fmt": "apple-appattest",
                            "attStmt": {"x5c": [der(leaf), der(self.intermediate)], "receipt": b"test receipt"},
                            "authData": auth_data})
        return key, key_id, attestation

    @staticmethod
    def assertion(key, client_data_hash, counter, app_id=APP_ID):
        """An App Attest assertion by `key` (the attested key app_attest returned): CBOR {signature, authenticatorData}
        with the given counter, signed over SHA-256(authenticatorData || client_data_hash)."""
        auth_data = hashlib.sha256(app_id.encode()).digest() + b"\x00" + counter.to_bytes(4, "big")
        signature = key.sign(hashlib.sha256(auth_data + client_data_hash).digest(), ec.ECDSA(hashes.SHA256()))
        return cbor({"signature": signature, "authenticatorData": auth_data})

    def android(self, challenge, credential, key, level=1, state=0, locked=True, package=PACKAGE):
        """An Android key attestation chain (DER, leaf first) for `key` (a private key: its public key is the leaf's),
        bound to `challenge` and `credential` (the publicKey as sent)."""
        application_id = der_seq(der_set(der_seq(der_octets(package.encode()), der_int(7))),
                                 der_set(der_octets(SIGNING_DIGEST)))
        software = der_seq(explicit(709, der_octets(application_id)))
        root_of_trust = der_seq(der_octets(b"\x11" * 32), der_bool(locked), der_enum(state), der_octets(b"\x22" * 32))
        hardware = der_seq(explicit(1, der_set(der_int(2))), explicit(2, der_int(3)), explicit(704, root_of_trust),
                           explicit(705, der_int(160000)), explicit(706, der_int(202606)))
        description = der_seq(der_int(300), der_enum(level), der_int(300), der_enum(level),
                              der_octets(binding_hash(challenge, credential)), der_octets(b""), software, hardware)
        leaf = certificate(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Android Keystore Key")]), key,
                           self.intermediate_name, self.intermediate_key, ca=False,
                           extensions=[("1.3.6.1.4.1.11129.2.1.17", description)])
        return [der(leaf), der(self.intermediate), der(self.root)]


def main():
    OUT = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    os.makedirs(OUT, exist_ok=True)
    authority = Authority()
    with open(os.path.join(OUT, "root.pem"), "wb") as handle:
        handle.write(authority.root_pem())

    # App Attest: a development-environment attestation and one assertion by the same key.
    challenge, credential = "appattest-challenge", "BCredentialPublicKeyAsSent"
    client_data_hash = binding_hash(challenge, credential)
    key, key_id, attestation = authority.app_attest(challenge, credential)
    assertion_client_data_hash = hashlib.sha256(b"a bound decision message").digest()
    assertion = authority.assertion(key, assertion_client_data_hash, 1)
    with open(os.path.join(OUT, "appattest-development.json"), "w") as handle:
        json.dump({"appId": APP_ID, "challenge": challenge, "publicKey": credential, "keyId": b64(key_id),
                   "clientDataHash": b64(client_data_hash), "attestationObject": b64(attestation),
                   "assertion": b64(assertion), "assertionClientDataHash": b64(assertion_client_data_hash),
                   "assertionCounter": 1, "verifyAtMilliseconds": VERIFY_AT_MS}, handle, indent=1)

    # Android: one good chain and one per refusal that needs another chain.
    variants = {
        "good": dict(level=1, state=0, locked=True, package=PACKAGE),
        "software": dict(level=0, state=0, locked=True, package=PACKAGE),
        "unlocked": dict(level=1, state=2, locked=False, package=PACKAGE),
        "other-package": dict(level=1, state=0, locked=True, package="com.example.other"),
    }
    for variant, v in variants.items():
        key = ec.generate_private_key(ec.SECP256R1())
        credential = b64(uncompressed(key))
        challenge = f"android-challenge-{variant}"
        chain = authority.android(challenge, credential, key, **v)
        with open(os.path.join(OUT, f"android-{variant}.json"), "w") as handle:
            json.dump({"challenge": challenge, "publicKey": credential, "packageName": PACKAGE,
                       "signingCertificateSha256": SIGNING_DIGEST.hex(),
                       "certificateChain": [b64(c) for c in chain],
                       "verifyAtMilliseconds": VERIFY_AT_MS}, handle, indent=1)


if __name__ == "__main__":
    main()
