"""Runs inside an older official SDK's own virtualenv (.build/venv-authsignal-VERSION, made by `make test-deps`) and
calls its `authsignal.Client` for test_older_sdks.py: one JSON request per stdin line, `{"method": ..., "args": [...]}`,
one JSON answer per stdout line, `{"result": ...}` or `{"error": ..., "status": ...}`.

Usage: python older_sdk_driver.py BASE_URL SECRET_KEY   (BASE_URL without /v1, as these versions take it)
"""
import json
import re
import sys

from authsignal.version import VERSION
from authsignal.client import ApiException, Client


def main():
    client = Client(api_key=sys.argv[2], api_url=sys.argv[1], timeout=30)
    print(json.dumps({"result": {"version": VERSION}}), flush=True)
    for line in sys.stdin:
        call = json.loads(line)
        try:
            answer = {"result": getattr(client, call["method"])(*call.get("args", []))}
        except ApiException as e:
            # 3.x carries the status; 2.x only says it in the message ("404 Client Error: ...").
            status = getattr(e, "http_status_code", None)
            if status is None:
                found = re.search(r"\b([45]\d\d) (Client|Server) Error", str(e))
                status = int(found.group(1)) if found else None
            answer = {"error": str(e), "status": status}
        except Exception as e:  # noqa: BLE001 - reported to the test, which fails on it
            answer = {"error": f"{type(e).__name__}: {e}", "status": None}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
