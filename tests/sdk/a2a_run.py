"""Runs a real A2A session per protocol version (1.0, 0.3): the a2a-sdk server
(a2a_server.py) behind the recording relay (a2a_relay.py), the a2a-sdk client
(a2a_client.py) against the relay. Writes OUT/a2a-VERSION.jsonl (recorded
lines, the agent card first) and OUT/a2a-VERSION.har. Loopback only, free
ports, every process stopped, bounded in time. usage: a2a_run.py OUT"""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
python = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{url}: the process exited with {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{url}: not up within 20 s")


def listening(port: int, process: subprocess.Popen) -> None:
    """Waits until `port` accepts a connection (a request through the relay
    would be recorded)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"port {port}: the process exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"port {port}: not listening within 20 s")


for version in ("1.0", "0.3"):
    server_port, relay_port = free_port(), free_port()
    relay_url = f"http://127.0.0.1:{relay_port}/"
    card_path = ".well-known/agent-card.json"
    server = subprocess.Popen([python, f"{here}/a2a_server.py", str(server_port), relay_url])
    relay = None
    try:
        wait_for(f"http://127.0.0.1:{server_port}/{card_path}", server)
        lines, har = f"{out}/a2a-{version}.jsonl", f"{out}/a2a-{version}.har"
        upstream = f"http://127.0.0.1:{server_port}"
        relay = subprocess.Popen([python, f"{here}/a2a_relay.py", str(relay_port), upstream, lines, har])
        listening(relay_port, relay)
        subprocess.run([python, f"{here}/a2a_client.py", relay_url, version], check=True, timeout=60)
    finally:
        if relay is not None:
            relay.send_signal(signal.SIGTERM)
            relay.wait(timeout=20)
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    print(f"a2a {version}: recorded")
