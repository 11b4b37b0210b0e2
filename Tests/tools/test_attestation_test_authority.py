"""Tests/tools/attestation_test_authority.py, the test authority whose output Tests/Vectors/attestation/test-authority/
holds: a fresh run writes every fixture the Swift tests read, with the structures Apple and Google define (checked
here with `cryptography`, independently of Assent's own readers)."""

import base64
import hashlib
import json
import pathlib
import subprocess
import sys

from cryptography import x509
from cryptography.hazmat.primitives import serialization

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "Tests" / "tools" / "attestation_test_authority.py"
COMMITTED = ROOT / "Tests" / "Vectors" / "attestation" / "test-authority"


def test_a_run_writes_the_committed_set_of_fixtures(tmp_path):
    subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], check=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in COMMITTED.iterdir())


def test_each_android_leaf_carries_the_binding_hash_and_chains_to_the_root(tmp_path):
    subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], check=True)
    root = x509.load_pem_x509_certificate((tmp_path / "root.pem").read_bytes())
    for variant in ("good", "software", "unlocked", "other-package"):
        fixture = json.loads((tmp_path / f"android-{variant}.json").read_text())
        leaf, intermediate, last = (x509.load_der_x509_certificate(base64.b64decode(c)) for c in fixture["certificateChain"])
        assert last == root
        leaf.verify_directly_issued_by(intermediate)
        intermediate.verify_directly_issued_by(root)
        binding = hashlib.sha256(f"assent-attest-v1|{fixture['challenge']}|{fixture['publicKey']}".encode()).digest()
        description = leaf.extensions.get_extension_for_oid(x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.1.17")).value.value
        assert binding in description
        point = leaf.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        assert base64.b64decode(fixture["publicKey"]) == point


def test_the_app_attest_leaf_commits_to_auth_data_and_client_data_hash(tmp_path):
    subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], check=True)
    fixture = json.loads((tmp_path / "appattest-development.json").read_text())
    obj = base64.b64decode(fixture["attestationObject"])
    # authData is the last map value: a byte string whose 37..53 bytes are the development aaguid.
    assert b"appattestdevelop" in obj
    start = obj.index(hashlib.sha256(fixture["appId"].encode()).digest())
    auth_data = obj[start:]
    nonce = hashlib.sha256(auth_data + base64.b64decode(fixture["clientDataHash"])).digest()
    leaf_der = obj[obj.index(b"\x30\x82"):]
    leaf = x509.load_der_x509_certificate(leaf_der[:4 + int.from_bytes(leaf_der[2:4], "big")])
    value = leaf.extensions.get_extension_for_oid(x509.ObjectIdentifier("1.2.840.113635.100.8.2")).value.value
    assert value == bytes.fromhex("3024a1220420") + nonce
