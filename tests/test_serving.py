"""TCP_NODELAY on every accepted connection, in both async modes (see partyhost/serving.py)."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
import threading

from partyhost.serving import NoDelayWSGIServer


def test_threading_server_turns_nagle_off_on_accepted_sockets():
    server = NoDelayWSGIServer("127.0.0.1", 0, lambda environ, start: [])
    port = server.server_address[1]
    accepted = {}

    def accept_one():
        conn, _ = server.get_request()
        accepted["nodelay"] = conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        conn.close()

    t = threading.Thread(target=accept_one)
    t.start()
    with socket.create_connection(("127.0.0.1", port)):
        t.join(5)
    server.server_close()
    assert accepted["nodelay"] != 0


def test_eventlet_listener_turns_nagle_off_on_accepted_sockets():
    # eventlet is only ever imported by the entry point, so this runs in its own process.
    script = textwrap.dedent("""
        import eventlet
        eventlet.monkey_patch()
        import socket
        import partyhost.serving as serving
        captured = {}
        def fake_server(listener, app, **options):
            port = listener.getsockname()[1]
            client = eventlet.connect(("127.0.0.1", port))
            conn, _ = listener.accept()
            captured["v"] = conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            captured["options"] = options
        import eventlet.wsgi
        eventlet.wsgi.server = fake_server
        serving.serve(None, serving.listen("127.0.0.1", 0, "eventlet"), "eventlet")
        opts = captured["options"]
        # no tracebacks in 500 pages; idle and I/O timeouts (partyhost/limits.py)
        assert opts["debug"] is False, opts
        from partyhost import limits
        assert opts["keepalive"] == limits.IDLE_TIMEOUT and opts["socket_timeout"] == limits.IO_TIMEOUT, opts
        print("NODELAY", captured["v"])
    """)
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", script], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "NODELAY" in out.stdout and out.stdout.split()[-1] != "0"
