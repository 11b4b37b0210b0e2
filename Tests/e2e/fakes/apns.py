"""A fake APNs: TLS (a self-signed P-256 certificate made with openssl) + HTTP/2 (the `h2` package) on 127.0.0.1.

It records every request (path, headers, JSON body, which connection carried it) and answers each device token from
a script: `fake.script[token] = [(status, reason), ...]` is consumed one answer per request, then 200. `fake.refuse()`
closes the listening socket (connection refused) until `fake.start()` again. Stopped by the test that started it.
"""
import json
import os
import socket
import ssl
import subprocess
import threading
import time
import uuid

import h2.config
import h2.connection
import h2.events


def make_certificate(directory):
    cert, key = os.path.join(directory, "apns-cert.pem"), os.path.join(directory, "apns-key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True, timeout=30)
    return cert, key


class FakeAPNs:
    def __init__(self, directory, port=None):
        self.cert, self.key = make_certificate(directory)
        self.ca_file = self.cert
        self.port = port or _free_port()
        self.url = f"https://127.0.0.1:{self.port}"
        self.requests = []
        self.connections = 0
        self.script = {}
        self.lock = threading.Lock()
        self.cond = threading.Condition(self.lock)
        self.listener = None
        self.threads = []
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(self.cert, self.key)
        self.context.set_alpn_protocols(["h2"])
        self.record = True

    def start(self):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        thread = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        thread.start()
        self.threads.append(thread)
        return self

    def refuse(self):
        """Stop listening: new connections are refused. Open connections are closed too."""
        if self.listener:
            listener, self.listener = self.listener, None
            try:
                listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            listener.close()
        with self.lock:
            for sock in getattr(self, "open_sockets", []):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                    sock.close()
                except OSError:
                    pass
            self.open_sockets = []

    stop = refuse

    def wait_for(self, count, timeout=20):
        deadline = time.time() + timeout
        with self.cond:
            while len(self.requests) < count:
                left = deadline - time.time()
                if left <= 0:
                    raise AssertionError(f"fake APNs got {len(self.requests)} requests, wanted {count}")
                self.cond.wait(left)
            return list(self.requests)

    def _accept(self, listener):
        while True:
            try:
                raw, _ = listener.accept()
            except OSError:
                return
            raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                self.connections += 1
                number = self.connections
                self.open_sockets = getattr(self, "open_sockets", []) + [raw]
            threading.Thread(target=self._serve, args=(raw, number), daemon=True).start()

    def _answer(self, token):
        with self.lock:
            answers = self.script.get(token)
            if answers:
                return answers.pop(0)
        return (200, None)

    def _serve(self, raw, number):
        try:
            sock = self.context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            raw.close()
            return
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        conn.initiate_connection()
        conn.update_settings({h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: 1000})
        streams = {}
        try:
            sock.sendall(conn.data_to_send())
            while True:
                data = sock.recv(65535)
                if not data:
                    return
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        streams[event.stream_id] = {"headers": dict(event.headers), "body": b""}
                    elif isinstance(event, h2.events.DataReceived):
                        streams[event.stream_id]["body"] += event.data
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        request = streams.pop(event.stream_id)
                        path = request["headers"].get(":path", "")
                        token = path.rsplit("/", 1)[-1]
                        status, reason = self._answer(token)
                        if self.record:
                            entry = {"path": path, "headers": request["headers"], "connection": number,
                                     "body": json.loads(request["body"] or b"null"), "status": status}
                        else:
                            entry = {"connection": number}
                        with self.cond:
                            self.requests.append(entry)
                            self.cond.notify_all()
                        headers = [(":status", str(status)), ("apns-id", str(uuid.uuid4()))]
                        if reason:
                            body = json.dumps({"reason": reason}).encode()
                            conn.send_headers(event.stream_id, headers + [("content-type", "application/json"),
                                                                        ("content-length", str(len(body)))])
                            conn.send_data(event.stream_id, body, end_stream=True)
                        else:
                            conn.send_headers(event.stream_id, headers, end_stream=True)
                    elif isinstance(event, h2.events.ConnectionTerminated):
                        return
                sock.sendall(conn.data_to_send())
        except (OSError, ssl.SSLError, h2.exceptions.ProtocolError):
            return
        finally:
            try:
                sock.close()
            except OSError:
                pass


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
