"""Device attestation refusals over the wire that need no status list: an attestation over 16 KiB decoded is refused
`too large` before any parsing (random bytes a parser would call `malformed`), App Attest objects from the test
authority refused at each of Apple's steps (app id, environment, key id, counter, an unknown root), and the
attestation challenge's rate limits (`429 rate_limited`, per user and per client address). Every refusal stores
nothing. Servers trust a fresh test authority's root (`--attestation-roots`) and run on 127.0.0.1 only."""
import base64
import hashlib
import os
import shutil
import tempfile
import uuid

import requests

from conftest import Server
from device import Device
from test_attestation import (AttestingTenant, android_statement, apple_statement, ask, attesting,  # noqa: F401
                              refused, test_authority)


def b64(data):
    return base64.b64encode(data).decode()


def unchanged(server, before):
    after = server.snapshot()
    after.pop("attestation_challenges"), before.pop("attestation_challenges")
    assert after == before


def test_an_attestation_over_16_kib_decoded_is_refused_as_too_large_before_it_is_parsed(attesting):
    server, authority = attesting
    tenant = AttestingTenant(server, "require")
    tenant.authority = authority
    user = "large-" + uuid.uuid4().hex[:8]
    token = tenant.token(user)
    device = Device(server, tenant.id)
    challenge = tenant.challenge(token)
    before = server.snapshot()

    # Random bytes are no CBOR: parsed, they would be `malformed`. 17 KiB is refused by size alone.
    blob = os.urandom(17 * 1024)
    statement = {"format": "apple-appattest", "challenge": challenge, "keyId": b64(os.urandom(32)),
                 "attestationObject": b64(blob)}
    description = refused(device.add(token, attestation=statement), 400, "attestation_invalid")
    assert "too large" in description and "malformed" not in description
    # The same kind of bytes under the limit are parsed, and refused as what they are.
    statement["attestationObject"] = b64(os.urandom(1024))
    assert "malformed" in refused(device.add(token, attestation=statement), 400, "attestation_invalid")

    # Android: the chain's certificates together, each small enough for the wire.
    chain = {"format": "android-key", "challenge": challenge, "certificateChain": [b64(os.urandom(9 * 1024))] * 2}
    description = refused(device.add(token, attestation=chain), 400, "attestation_invalid")
    assert "too large" in description and "malformed" not in description
    chain["certificateChain"] = [b64(os.urandom(2 * 1024))] * 2
    assert "malformed" in refused(device.add(token, attestation=chain), 400, "attestation_invalid")
    unchanged(server, before)

    # A refusal spends nothing: the same challenge still serves a good attestation.
    r = device.add(token, attestation=android_statement(authority, device, challenge))
    assert r.status_code == 200, r.text


def test_app_attest_objects_are_refused_at_each_of_apples_steps(attesting):
    server, authority = attesting
    tenant = AttestingTenant(server, "require")
    tenant.authority = authority
    r = requests.patch(f"{server.api}/tenant/settings", headers={"Authorization": tenant.auth},
                       json={"appleAttestationEnvironment": "production"})
    assert r.status_code == 200, r.text
    user = "apple-" + uuid.uuid4().hex[:8]
    token = tenant.token(user)
    before = server.snapshot()

    def attempt(make):
        device = Device(server, tenant.id)
        return refused(device.add(token, attestation=make(device, tenant.challenge(token))), 400, "attestation_invalid")

    # Another app than the tenant's.
    assert "app id" in attempt(lambda d, c: apple_statement(authority, d, c, app_id="OTHERTEAM1.other.app",
                                                            aaguid=b"appattest" + bytes(7)))
    # A development key under a tenant that accepts production only.
    assert "environment" in attempt(lambda d, c: apple_statement(authority, d, c))

    # A key id that is not the attested key's.
    def wrong_key_id(device, challenge):
        statement = apple_statement(authority, device, challenge, aaguid=b"appattest" + bytes(7))
        statement["keyId"] = b64(hashlib.sha256(os.urandom(65)).digest())
        return statement
    assert "key id" in attempt(wrong_key_id)
    # A counter other than 0: not a new key.
    assert "counter" in attempt(lambda d, c: apple_statement(authority, d, c, aaguid=b"appattest" + bytes(7), counter=1))
    # A chain from an authority the server does not trust: no trusted root names its issuer.
    stranger = test_authority.Authority("Stranger Attestation")
    assert "root" in attempt(lambda d, c: apple_statement(stranger, d, c, aaguid=b"appattest" + bytes(7)))
    # One that copies the trusted authority's names: the trusted root's signature does not verify on it.
    impostor = test_authority.Authority()
    assert "chain" in attempt(lambda d, c: apple_statement(impostor, d, c, aaguid=b"appattest" + bytes(7)))
    unchanged(server, before)

    # The same tenant accepts a production attestation of its app.
    device = Device(server, tenant.id)
    r = device.add(token, attestation=apple_statement(authority, device, tenant.challenge(token),
                                                      aaguid=b"appattest" + bytes(7)))
    assert r.status_code == 200, r.text
    [read] = tenant.authenticators(user)
    assert (read["attestation"]["environment"], read["attestation"]["app"]) == ("production", test_authority.APP_ID)


def test_attestation_challenges_are_rate_limited_per_user_and_per_address(store):
    directory = tempfile.mkdtemp(prefix="assent-attest-limits-")
    server = Server(directory)
    server.start("--rate-limits", "on",
                 "--rate-limit", "attestation-challenge-user=3/1m,attestation-challenge-address=8/1m")
    try:
        tenant = AttestingTenant(server, "record")
        alice, bob = tenant.token("alice-" + uuid.uuid4().hex[:6]), tenant.token("bob-" + uuid.uuid4().hex[:6])
        for _ in range(3):
            assert ask(server, alice).status_code == 200
        before = server.snapshot()
        limited = ask(server, alice)
        assert limited.status_code == 429, limited.text
        body = limited.json()
        assert body["error"] == body["errorCode"] == "rate_limited"
        assert "attestation-challenge-user" in body["errorDescription"]
        assert int(limited.headers["Retry-After"]) >= 1
        assert server.snapshot() == before, "a refused request stores no challenge"
        # Another user of the tenant is not limited by alice's bucket.
        assert ask(server, bob).status_code == 200
        # The address bucket (8) counts every request from 127.0.0.1, refused ones and tokens that do not verify
        # included: 5 so far, then a bad token, then bob's second and third.
        assert ask(server, "not-a-token").status_code == 401
        assert ask(server, bob).status_code == 200
        assert ask(server, bob).status_code == 200
        limited = ask(server, bob)
        assert limited.status_code == 429, limited.text
        assert "attestation-challenge-address" in limited.json()["errorDescription"]
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)
