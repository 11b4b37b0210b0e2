"""QR challenges watched over the WebSocket (`/v1/ws-v1-challenge`, subprotocol authsignal-ws): state changes are
pushed the moment a device claims and answers; bad handshakes and bad frames are refused with the right codes."""
import base64
import json
import os
import socket
import struct
import time
import uuid

import pytest
import websocket

from test_qr import QRTenant, answer, claim


def connect(server, *protocols):
    ws = websocket.create_connection(f"ws://127.0.0.1:{server.port}/v1/ws-v1-challenge",
                                     subprotocols=list(protocols), timeout=10)
    assert ws.getsubprotocol() == "authsignal-ws"
    return ws


def receive(ws):
    return json.loads(ws.recv())


@pytest.fixture(scope="module")
def tenant(server):
    return QRTenant(server)


def test_anonymous_challenge_over_websocket_gets_every_state_pushed(tenant, server):
    device = tenant.enrol(f"ws-{uuid.uuid4().hex[:6]}")
    ws = connect(server, "authsignal-ws", f"x.authsignal.tenant.{tenant.id}")
    try:
        ws.send(json.dumps({"type": "CREATE_CHALLENGE", "data": {"challengeType": "QR_CODE", "actionCode": "signIn"}}))
        created = receive(ws)
        assert created["type"] == "CHALLENGE_CREATED"
        data = created["data"]
        assert data["state"] == "unclaimed" and data["challengeType"] == "QR_CODE" and data["expiresAt"]
        challenge_id = data["challengeId"]

        started = time.time()
        assert claim(device, challenge_id).status_code == 200
        assert receive(ws) == {"type": "STATE_CHANGE", "data": {"challengeId": challenge_id, "state": "claimed"}}
        assert answer(device, challenge_id).status_code == 200
        approved = receive(ws)
        assert time.time() - started < 2, "pushed at once, not polled"
        assert approved["type"] == "STATE_CHANGE" and approved["data"]["state"] == "approved"
        token = approved["data"]["accessToken"]
        assert tenant.sdk.validate_challenge({"token": token})["is_valid"] is True
    finally:
        ws.close()


def test_token_bound_challenge_decline_and_refresh_on_the_same_socket(tenant, server):
    user = f"ws-{uuid.uuid4().hex[:6]}"
    device = tenant.enrol(user)
    tracked = tenant.sdk.track(user, "signIn")
    ws = connect(server, "authsignal-ws", f"x.authsignal.token.{tracked['token']}")
    try:
        ws.send(json.dumps({"type": "CREATE_CHALLENGE", "data": {"challengeType": "QR_CODE"}}))
        first = receive(ws)["data"]["challengeId"]
        # The page refreshes before expiry: a new challenge replaces the watched one.
        ws.send(json.dumps({"type": "CREATE_CHALLENGE", "data": {"challengeType": "QR_CODE"}}))
        second = receive(ws)["data"]["challengeId"]
        assert second != first
        assert claim(device, first).status_code == 200  # the old one changes; the socket no longer watches it
        assert claim(device, second).status_code == 200
        assert receive(ws)["data"] == {"challengeId": second, "state": "claimed"}
        assert answer(device, second, approved=False).status_code == 200
        assert receive(ws)["data"] == {"challengeId": second, "state": "rejected"}
    finally:
        ws.close()


def test_bad_messages_get_an_error_message(tenant, server):
    ws = connect(server, "authsignal-ws", f"x.authsignal.tenant.{tenant.id}")
    try:
        ws.send("not json")
        assert receive(ws)["type"] == "ERROR"
        ws.send(json.dumps({"type": "CREATE_CHALLENGE", "data": {"challengeType": "QR_CODE"}}))
        error = receive(ws)
        assert error["type"] == "ERROR" and error["data"]["errorCode"] == "invalid_request"
    finally:
        ws.close()


SEND = 'Send {"type":"CREATE_CHALLENGE","data":{...}}.'


def error_text(description, code="invalid_request"):
    """The ERROR message byte for byte as the web SDK has always been sent it: sorted keys, no spaces."""
    return json.dumps({"data": {"errorCode": code, "errorDescription": description}, "type": "ERROR"},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_each_bad_message_gets_the_error_answer_and_starts_nothing(tenant, server):
    start = {"challengeType": "QR_CODE", "actionCode": "signIn"}
    cases = [
        ("not json", SEND),
        ("[1,2]", SEND),
        ('"CREATE_CHALLENGE"', SEND),
        ('{"type":"CREATE_CHALLENGE","type":"CREATE_CHALLENGE"}', SEND),  # a key twice: the strict reader refuses it
        (json.dumps({"data": start}), SEND),
        (json.dumps({"type": "PING", "data": start}), SEND),
        (json.dumps({"type": "CREATE_CHALLENGE", "data": 5}), "data must be a JSON object."),
        (json.dumps({"type": "CREATE_CHALLENGE", "data": ["signIn"]}), "data must be a JSON object."),
        (json.dumps({"type": "CREATE_CHALLENGE", "data": {**start, "challengeType": "PUSH"}}), "challengeType must be QR_CODE."),
        (json.dumps({"type": "CREATE_CHALLENGE", "data": {**start, "actionCode": 7}}), "action must be a string."),
        (json.dumps({"type": "CREATE_CHALLENGE", "data": {**start, "actionCode": "a" * 101}}), "action must be at most 100 bytes."),
        (json.dumps({"type": "CREATE_CHALLENGE", "data": {**start, "custom": {"note": "x" * 5000}}}),
         "custom must be at most 4096 bytes of JSON."),
    ]
    ws = connect(server, "authsignal-ws", f"x.authsignal.tenant.{tenant.id}")
    try:
        before = server.snapshot()
        for message, description in cases:
            ws.send(message)
            assert ws.recv() == error_text(description), message
        assert server.snapshot() == before, "a refused message started nothing"
        # The socket still works: a good message after them all starts a challenge, written as it always was.
        ws.send(json.dumps({"type": "CREATE_CHALLENGE", "data": start}))
        created = ws.recv()
        assert json.loads(created)["type"] == "CHALLENGE_CREATED"
        assert created == json.dumps(json.loads(created), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert "\\/" not in created and "assent://qr?" in created, "slashes are not escaped"
    finally:
        ws.close()


def test_handshakes_without_a_valid_tenant_or_token_are_refused(tenant, server):
    for protocols in [["authsignal-ws", "x.authsignal.tenant.nope"], ["authsignal-ws", "x.authsignal.token.a.b.c"],
                      ["authsignal-ws"], [f"x.authsignal.tenant.{tenant.id}"]]:
        with pytest.raises(websocket.WebSocketBadStatusException) as e:
            websocket.create_connection(f"ws://127.0.0.1:{server.port}/v1/ws-v1-challenge", subprotocols=protocols, timeout=10)
        assert e.value.status_code in (400, 401), protocols


def raw_socket(server, tenant):
    """A hand-made handshake, so frames can be sent exactly as a broken client would."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /v1/ws-v1-challenge HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"Sec-WebSocket-Protocol: authsignal-ws, x.authsignal.tenant.{tenant.id}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def close_code(s):
    data = b""
    while len(data) < 4:
        chunk = s.recv(64)
        if not chunk:
            break
        data += chunk
    assert data[0] & 0x0F == 0x8, data  # a close frame
    return struct.unpack("!H", data[2:4])[0]


def test_unmasked_oversized_and_malformed_frames_are_closed_with_the_right_code(tenant, server):
    s = raw_socket(server, tenant)
    s.sendall(b"\x81\x05hello")  # unmasked text frame
    assert close_code(s) == 1002
    s.close()

    s = raw_socket(server, tenant)
    mask = os.urandom(4)
    payload = b"x" * (70 * 1024)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    s.sendall(b"\x81\xff" + struct.pack("!Q", len(payload)) + mask + masked)  # over the 64 KiB message cap
    assert close_code(s) == 1009
    s.close()

    s = raw_socket(server, tenant)
    mask = os.urandom(4)
    bad = bytes(b ^ mask[i % 4] for i, b in enumerate(b"\xff\xfe"))
    s.sendall(b"\x81\x82" + mask + bad)  # invalid UTF-8 in a text frame
    assert close_code(s) == 1007
    s.close()
