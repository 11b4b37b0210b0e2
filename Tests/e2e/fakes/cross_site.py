"""A page on another origin (its own port on 127.0.0.1) whose script posts a form to the console at once: what a
cross-site request forgery looks like to the browser."""
import contextlib
import http.server
import threading


@contextlib.contextmanager
def cross_site_page(page):
    """Serves `page` (HTML) at the yielded URL until the block ends."""
    body = page.encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    # Threaded, with a read timeout: Chromium opens spare connections that send nothing, and a single-threaded server
    # stuck reading one kept the page waiting and the block's end (shutdown) waiting for a minute.
    Page.timeout = 5
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
