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


KINDS = {"push": "PUSH", "qr-code": "DEVICE"}


def bound_message(purpose, credential_id, *fields):
    """Assent's bound message (SignedMessage.bound): purpose and credential id, then the purpose's fields."""
    return "\n".join(["assent-bound-v1", purpose, credential_id, *fields])


class Device:
    """One P-256 key and the encodings a given SDK uses. style: 'ios' or 'android'. bound: enrol as Assent's SDK does
    (signatureScheme "bound") and sign Assent's bound messages; otherwise Authsignal's, as the official SDKs do."""

    def __init__(self, server, tenant_id, style="ios", key=None, bound=False):
        self.server = server
        self.tenant_id = tenant_id
        self.style = style
        self.key = key or ec.generate_private_key(ec.SECP256R1())
        spki = self.key.public_key().public_bytes(serialization.Encoding.DER,
                                                  serialization.PublicFormat.SubjectPublicKeyInfo)
        self.public_key = b64(spki)
        self.session = requests.Session()
        self.bound = bound
        self.credential_ids = {}

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
        if self.bound:
            body.setdefault("signatureScheme", "bound")
        # As the official SDKs do, the device names its tenant; it must be the token's (else 403 tenant_mismatch).
        r = self.session.post(self.url(kind), json=body,
                              headers={"Authorization": "Bearer " + token, "X-Authsignal-Tenant-ID": self.tenant_id})
        if r.status_code == 200:
            self.credential_ids[kind] = r.json()["userAuthenticatorId"]
        return r

    def removal_message(self, kind="push", at=None):
        window = f"{float(math.floor((at or time.time()) / 600))}"
        return bound_message("remove", self.credential_ids[kind], KINDS[kind], window) if self.bound else window

    def claim_message(self, challenge_id):
        return bound_message("claim", self.credential_ids["qr-code"], challenge_id) if self.bound else challenge_id

    def decision_message(self, challenge_id, approved, code=None, kind="push", report_fraud=False):
        """The bound decision message (for a compatible credential, what its boundSignature covers); a fraud report
        ("this wasn't me") adds a last field."""
        return bound_message("approve" if approved else "deny", self.credential_ids[kind], challenge_id, code or "",
                             *(["report-fraud"] if report_fraud else []))

    def get(self, kind="push"):
        return self.session.get(self.url(kind) + "?publicKey=" + self.query, headers=self.basic)

    def remove(self, kind="push", at=None):
        body = {"publicKey": self.public_key, "signature": self.sign(self.removal_message(kind, at))}
        return self.session.post(self.url(kind + "/remove"), json=body, headers=self.basic)

    def claim(self, challenge_id):
        body = {"challengeId": challenge_id, "publicKey": self.public_key, "signature": self.sign(self.claim_message(challenge_id))}
        return self.session.post(self.url("qr-code/challenge/claim"), json=body, headers=self.basic)

    def challenge(self, signed=True):
        headers = dict(self.basic)
        if signed:
            r = self.session.post(self.url("push/challenge/sign") + "?publicKey=" + self.query, headers=self.basic)
            assert r.status_code == 200, r.text
            headers["X-Authsignal-Signature"] = self.sign(r.json()["message"])
        return self.session.get(self.url("push/challenge") + "?publicKey=" + self.query, headers=headers)

    def answer(self, challenge_id, approved=True, code=None, signed_id=None, bound=False, null_code=False, kind="push"):
        """A bound device signs the decision message once and sends it as both signature and boundSignature."""
        decision = self.sign(self.decision_message(challenge_id, approved, code, kind)) if bound or self.bound else None
        body = {"challengeId": challenge_id, "publicKey": self.public_key, "approved": approved,
                "signature": decision if self.bound and not signed_id else self.sign(signed_id or challenge_id)}
        if code is not None or null_code:
            body["verificationCode"] = code
        if decision:
            body["boundSignature"] = decision
        return self.session.post(self.url(kind + "/challenge"), json=body, headers=self.basic)

    def update(self, push_token=None, reset_expiry=None):
        r = self.session.post(self.url("push/sign") + "?publicKey=" + self.query, headers=self.basic)
        assert r.status_code == 200, r.text
        nonce = r.json()
        message = bound_message("update", self.credential_ids["push"], nonce["message"]) if self.bound else nonce["message"]
        body = {"challengeId": nonce["challengeId"], "publicKey": self.public_key, "signature": self.sign(message)}
        if push_token is not None:
            body["pushToken"] = push_token
        if reset_expiry is not None:
            body["resetExpiry"] = reset_expiry
        return self.session.patch(self.url("push"), json=body, headers=self.basic), nonce, body
