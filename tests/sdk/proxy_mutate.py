"""Stands between the proxy and the real server (the server command the
proxy runs): relays both ways unchanged, except that the result of every
`tools/call` of `add` gets `content` as a string, not a list: an invalid
CallToolResult from an otherwise real server.

Usage: python proxy_mutate.py SERVER_CMD [ARGS...]"""

import json
import subprocess
import sys
import threading

server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
calls = set()


def up():
    for line in sys.stdin.buffer:
        try:
            m = json.loads(line)
            if m.get("method") == "tools/call" and m["params"]["name"] == "add":
                calls.add(json.dumps(m["id"]))
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
        server.stdin.write(line)
        server.stdin.flush()
    server.stdin.close()


threading.Thread(target=up, daemon=True).start()
for line in server.stdout:
    try:
        m = json.loads(line)
        if "result" in m and json.dumps(m.get("id")) in calls:
            m["result"]["content"] = "five"
            line = (json.dumps(m) + "\n").encode()
    except (ValueError, KeyError, TypeError):
        pass
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
sys.exit(server.wait())
