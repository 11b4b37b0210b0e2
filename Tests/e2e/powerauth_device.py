"""A PowerAuth 3.x device written independently of Assent's Swift code (only the `cryptography` package), so the
end-to-end tests check assentd against a second implementation of the reference (docs/powerauth.md)."""
import base64
import hashlib
import hmac
import os

import requests
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

b64 = lambda raw: base64.b64encode(raw).decode()
unb64 = base64.b64decode


def fold(x):
    """convert32Bto16B."""
    return bytes(a ^ b for a, b in zip(x[:16], x[16:32]))


def kdf(key, index):
    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return encryptor.update(bytes(8) + index.to_bytes(8, "big")) + encryptor.finalize()


def mac(key, message):
    return hmac.new(key, message, hashlib.sha256).digest()


def next_counter(counter):
    return fold(hashlib.sha256(counter).digest())


VAULT_UNLOCK_BODY = b'{"reason":"ADD_BIOMETRY"}'

FACTORS = {
    "possession": ["possession"], "knowledge": ["knowledge"], "biometry": ["biometry"],
    "possession_knowledge": ["possession", "knowledge"], "possession_biometry": ["possession", "biometry"],
    "possession_knowledge_biometry": ["possession", "knowledge", "biometry"],
}


def components(keys, counter, data):
    """The 32-byte HMAC component per factor key, in chain order (possession first)."""
    out = []
    for i in range(len(keys)):
        derived = mac(keys[i], counter)
        for j in range(i):
            derived = mac(mac(keys[j + 1], counter), derived)
        out.append(mac(derived, data))
    return out


def signature(keys, counter, data, version="3.3"):
    """Base64 format (3.1+): last 16 bytes of each component; decimal (3.0): 8 digits per component."""
    parts = components(keys, counter, data)
    if version == "3.0":
        return "-".join("%08d" % ((int.from_bytes(c[-4:], "big") & 0x7FFFFFFF) % 10**8) for c in parts)
    return b64(b"".join(c[16:] for c in parts))


class PowerAuthDevice:
    def __init__(self, api, master_public_key, tenant_id):
        self.api = api
        # Device calls name their tenant (Basic, Android style: standard Base64 of "tenant:").
        self.tenant_id = tenant_id
        self.basic = {"Authorization": "Basic " + b64((tenant_id + ":").encode())}
        self.master_public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(master_public_key))
        self.private_key = ec.generate_private_key(ec.SECP256R1())

    def public_key(self):
        return self.private_key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)

    def activate(self, token, name="e2e phone"):
        device_public = b64(self.public_key())
        r = requests.post(self.api + "/client/activations", json={"devicePublicKey": device_public, "activationName": name},
                          headers={"Authorization": "Bearer " + token, "X-Authsignal-Tenant-ID": self.tenant_id},
                          timeout=10)
        assert r.status_code == 200, r.text
        answer = r.json()
        message = "\n".join(["assent-activation-v1", answer["activationId"], device_public, answer["serverPublicKey"],
                             answer["ctrData"], answer["applicationKey"], answer["applicationSecret"]]).encode()
        # Raises InvalidSignature unless the tenant's pinned master key signed exactly this.
        self.master_public_key.verify(unb64(answer["activationSignature"]), message, ec.ECDSA(hashes.SHA256()))
        server_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(answer["serverPublicKey"]))
        master = fold(self.private_key.exchange(ec.ECDH(), server_key))
        self.keys = {"possession": kdf(master, 1), "knowledge": kdf(master, 2), "biometry": kdf(master, 3)}
        self.transport, self.vault = kdf(master, 1000), kdf(master, 2000)
        self.activation_id = answer["activationId"]
        self.application_key, self.application_secret = answer["applicationKey"], answer["applicationSecret"]
        self.counter = unb64(answer["ctrData"])
        self.fingerprint_x = (self.public_key()[1:33].lstrip(b"\0"), server_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)[1:33].lstrip(b"\0"))
        return answer

    def header(self, method, uri_id, body, signature_type, knowledge_key=None, version="3.3"):
        """The X-PowerAuth-Authorization value for a request; advances the counter, as a real device does."""
        nonce = b64(os.urandom(16))
        data = "&".join([method.upper(), b64(uri_id.encode()), nonce, b64(body), self.application_secret]).encode()
        keys = dict(self.keys)
        if knowledge_key is not None:
            keys["knowledge"] = knowledge_key
        value = signature([keys[f] for f in FACTORS[signature_type]], self.counter, data, version)
        self.counter = next_counter(self.counter)
        return (f'PowerAuth pa_version="{version}", pa_activation_id="{self.activation_id}", '
                f'pa_application_key="{self.application_key}", pa_nonce="{nonce}", '
                f'pa_signature_type="{signature_type}", pa_signature="{value}"')

    def status(self):
        """Decrypts the status blob: (status, counter byte, failed, max failed, look-ahead, counter hash matches mine)."""
        challenge = os.urandom(16)
        r = requests.post(self.api + "/client/activations/status",
                          json={"activationId": self.activation_id, "challenge": b64(challenge)}, headers=self.basic, timeout=10)
        assert r.status_code == 200, r.text
        nonce = unb64(r.json()["nonce"])
        iv = fold(mac(kdf(self.transport, 3000), challenge + nonce))
        decryptor = Cipher(algorithms.AES(self.transport), modes.CBC(iv)).decryptor()
        blob = decryptor.update(unb64(r.json()["encryptedStatusBlob"])) + decryptor.finalize()
        assert blob[:4] == bytes.fromhex("DEC0DED1"), blob.hex()
        counter_hash_matches = blob[16:32] == fold(mac(kdf(self.transport, 4000), self.counter))
        return {"status": blob[4], "ctrByte": blob[12], "failed": blob[13], "maxFailed": blob[14], "lookAhead": blob[15],
                "inSync": counter_hash_matches}

    def unlock_vault(self, header, body=VAULT_UNLOCK_BODY):
        """POST /v1/client/vault/unlock with a header made by `header` (over uriId /pa/vault/unlock and `body`)."""
        return requests.post(self.api + "/client/vault/unlock", data=body,
                             headers=dict(self.basic, **{"Content-Type": "application/json",
                                                         "X-PowerAuth-Authorization": header}), timeout=10)

    def vault_header(self, knowledge_key=None, signature_type="possession_knowledge", version="3.3"):
        """A vault-unlock header, signed with the right PIN or with `knowledge_key` (a wrong one)."""
        return self.header("POST", "/pa/vault/unlock", VAULT_UNLOCK_BODY, signature_type, knowledge_key, version)
