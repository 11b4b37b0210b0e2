"""Plain-HTTP fakes on 127.0.0.1: Google's OAuth token endpoint + FCM HTTP v1, and a push.created webhook receiver.

Each records what it receives and answers from a script; each is stopped by the test that started it.
"""
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Recorder:
    def __init__(self):
        self.requests = []
        self.cond = threading.Condition()

    def add(self, entry):
        with self.cond:
            self.requests.append(entry)
            self.cond.notify_all()

    def wait_for(self, count, timeout=20, where=lambda r: True):
        deadline = time.time() + timeout
        with self.cond:
            while len([r for r in self.requests if where(r)]) < count:
                left = deadline - time.time()
                if left <= 0:
                    raise AssertionError(f"{type(self).__name__} got {len(self.requests)} requests, wanted {count}")
                self.cond.wait(left)
            return [r for r in self.requests if where(r)]


class _Server(_Recorder):
    def __init__(self):
        super().__init__()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                status, answer, *extra = owner.handle(self.path, dict(self.headers.items()), body)
                data = json.dumps(answer).encode() if answer is not None else b""
                self.send_response(status)
                for name, value in (extra[0] if extra else {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class FakeFCM(_Server):
    """`POST /token` (OAuth2 JWT bearer grant) and `POST /v1/projects/<p>/messages:send`.
    `script[token] = [(status, fcm_error_code_or_None[, retry_after]), ...]` answers sends for that device token, then
    200."""

    def __init__(self):
        self.script = {}
        self.tokens_issued = 0
        super().__init__()

    def handle(self, path, headers, body):
        if path == "/token":
            form = dict(urllib.parse.parse_qsl(body.decode()))
            self.tokens_issued += 1
            token = f"ya29.fake-{self.tokens_issued}"
            self.add({"kind": "token", "path": path, "headers": headers, "form": form, "issued": token})
            return 200, {"access_token": token, "expires_in": 3600, "token_type": "Bearer"}
        message = json.loads(body or b"null")
        device = ((message or {}).get("message") or {}).get("token")
        answers = self.script.get(device)
        status, code, *retry_after = answers.pop(0) if answers else (200, None)
        self.add({"kind": "send", "path": path, "headers": headers, "body": message, "status": status})
        if status == 200:
            return 200, {"name": f"{path.split(':')[0]}/messages/0:{len(self.requests)}"}
        statuses = {400: "INVALID_ARGUMENT", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE"}
        details = [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code}] if code else []
        headers = {"Retry-After": str(retry_after[0])} if retry_after else {}
        return status, {"error": {"code": status, "message": "fake", "status": statuses.get(status, "INTERNAL"),
                                  "details": details}}, headers


class WebhookReceiver(_Server):
    """Records push.created calls; answers `status` (or the next of `script`)."""

    def __init__(self, status=200):
        self.status = status
        self.script = []
        self.delay = 0
        super().__init__()

    def handle(self, path, headers, body):
        if self.delay:
            time.sleep(self.delay)
        status = self.script.pop(0) if self.script else self.status
        self.add({"path": path, "headers": headers, "body": json.loads(body or b"null"), "raw": body, "status": status})
        return status, {"ok": status < 300}
