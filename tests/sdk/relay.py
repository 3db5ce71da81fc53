"""A recording relay: runs the server command given after the output path,
passes every stdio line between the client (our stdin/stdout) and the
server untouched, and appends each as a recorded line
{"from": "client"|"server", "message": ...} to the output file."""

import json
import subprocess
import sys
import threading

out_path, command = sys.argv[1], sys.argv[2:]
server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
lock = threading.Lock()
out = open(out_path, "a", encoding="utf-8")


def record(side, line):
    text = line.decode("utf-8").strip()
    if not text:
        return
    with lock:
        out.write(json.dumps({"from": side, "message": json.loads(text)}, separators=(",", ":")) + "\n")
        out.flush()


def server_to_client():
    for line in server.stdout:
        record("server", line)
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()


threading.Thread(target=server_to_client, daemon=True).start()
for line in sys.stdin.buffer:
    record("client", line)
    server.stdin.write(line)
    server.stdin.flush()
server.stdin.close()
server.wait(timeout=10)
