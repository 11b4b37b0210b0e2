"""A device in Python that speaks the client API the way each official SDK does (iOS, Android, browser)."""
import base64
import math
import time

import requests
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data):
    return base64.b64encode(data).decode()


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class Device:
    """One P-256 key and the encodings a given SDK uses. style: 'ios' or 'android'."""

    def __init__(self, server, tenant_id, style="ios", key=None):
        self.server = server
        self.tenant_id = tenant_id
        self.style = style
        self.key = key or ec.generate_private_key(ec.SECP256R1())
        spki = self.key.public_key().public_bytes(serialization.Encoding.DER,
                                                  serialization.PublicFormat.SubjectPublicKeyInfo)
        self.public_key = b64(spki)
        self.session = requests.Session()

    def sign(self, message):
        return b64(self.key.sign(message.encode(), ec.ECDSA(hashes.SHA256())))

    @property
    def basic(self):
        raw = (self.tenant_id + ":").encode()
        encoded = b64url(raw) if self.style == "ios" else b64(raw)
        return {"Authorization": "Basic " + encoded}

    @property
    def query(self):
        raw = self.public_key.encode()
        # iOS: base64url without padding; Android: standard base64, raw in the URL (a '+' may arrive as a space).
        return b64url(raw) if self.style == "ios" else b64(raw)

    def url(self, path):
        return f"{self.server.api}/client/user-authenticators/{path}"

    def add(self, token, kind="push", **extra):
        body = {"publicKey": self.public_key, "deviceName": "pytest", "devicePlatform": self.style, **extra}
        return self.session.post(self.url(kind), json=body, headers={"Authorization": "Bearer " + token})

    def get(self, kind="push"):
        return self.session.get(self.url(kind) + "?publicKey=" + self.query, headers=self.basic)

    def remove(self, kind="push", at=None):
        window = math.floor((at or time.time()) / 600)
        body = {"publicKey": self.public_key, "signature": self.sign(f"{float(window)}")}
        return self.session.post(self.url(kind + "/remove"), json=body, headers=self.basic)

    def challenge(self, signed=True):
        headers = dict(self.basic)
        if signed:
            r = self.session.post(self.url("push/challenge/sign") + "?publicKey=" + self.query, headers=self.basic)
            assert r.status_code == 200, r.text
            headers["X-Authsignal-Signature"] = self.sign(r.json()["message"])
        return self.session.get(self.url("push/challenge") + "?publicKey=" + self.query, headers=headers)

    def answer(self, challenge_id, approved=True, code=None, signed_id=None, bound=False, null_code=False):
        body = {"challengeId": challenge_id, "publicKey": self.public_key, "approved": approved,
                "signature": self.sign(signed_id or challenge_id)}
        if code is not None or null_code:
            body["verificationCode"] = code
        if bound:
            body["boundSignature"] = self.sign("\n".join(
                ["assent-decision-v1", challenge_id, "approve" if approved else "deny", code or ""]))
        return self.session.post(self.url("push/challenge"), json=body, headers=self.basic)

    def update(self, push_token=None, reset_expiry=None):
        r = self.session.post(self.url("push/sign") + "?publicKey=" + self.query, headers=self.basic)
        assert r.status_code == 200, r.text
        nonce = r.json()
        body = {"challengeId": nonce["challengeId"], "publicKey": self.public_key, "signature": self.sign(nonce["message"])}
        if push_token is not None:
            body["pushToken"] = push_token
        if reset_expiry is not None:
            body["resetExpiry"] = reset_expiry
        return self.session.patch(self.url("push"), json=body, headers=self.basic), nonce, body
