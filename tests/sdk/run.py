"""The real-SDK check: a real MCP client and server (the official `mcp`
package) talk over stdio through the recording relay, with server-to-client
requests (sampling, elicitation, roots) whose ids collide with the client's;
then `traffic` judges the recording, and one-change mutants of each message
are judged by `traffic` and by python `jsonschema` on the vendored official
schema, which must agree. Prints each failed check and `N passed, N failed`;
exits 1 on any failure.

Usage: python run.py CARGO_PROTOCOLARC_BINARY REPO_ROOT WORK_DIR
"""

import copy
import json
import os
import subprocess
import sys

import jsonschema

BIN, ROOT, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
HERE = os.path.dirname(os.path.abspath(__file__))
REVISION = "2025-11-25"
passed, failed = 0, []


def check(ok, what):
    global passed
    if ok:
        passed += 1
    else:
        failed.append(what)


def traffic(path, *more):
    cmd = [BIN, "protocolarc", "traffic", path, "--catalog", os.path.join(ROOT, "protocols"), *more]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def record_mcp(path):
    if os.path.exists(path):
        os.remove(path)
    cmd = [sys.executable, os.path.join(HERE, "mcp_client.py"), os.path.join(HERE, "relay.py"), path,
           os.path.join(HERE, "mcp_server.py")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        sys.exit(f"the MCP session failed (exit {done.returncode}):\n{done.stderr}")
    return [json.loads(line) for line in open(path, encoding="utf-8")]


# The result each request's response carries, as the official schema names it.
RESULTS = {
    "initialize": "InitializeResult", "tools/list": "ListToolsResult", "tools/call": "CallToolResult",
    "sampling/createMessage": "CreateMessageResult", "elicitation/create": "ElicitResult",
    "roots/list": "ListRootsResult",
}


def official(schema):
    """A judge of one message by the official schema: a request or
    notification by the definition whose method it names, a result by its
    request's method's result definition."""
    defs = schema["$defs"]
    by_method = {d["properties"]["method"]["const"]: name for name, d in defs.items()
                 if isinstance(d.get("properties", {}).get("method"), dict) and "const" in d["properties"]["method"]
                 and name.endswith(("Request", "Notification"))}
    cls = jsonschema.validators.validator_for(schema)

    def valid(name, instance):
        return cls({"$defs": defs, "$ref": f"#/$defs/{name}"}).is_valid(instance)

    def judge(message, method):
        if "method" in message:
            return valid(by_method[message["method"]], message)
        if "result" in message:
            return valid("JSONRPCResultResponse", message) and valid(RESULTS[method], message["result"])
        return valid("JSONRPCErrorResponse", message)

    return judge


def mutant(message):
    """One change: the first string inside params or result becomes 7."""
    m = copy.deepcopy(message)
    top = "params" if "params" in m else "result" if "result" in m else None
    if top is None:
        return None
    stack = [(m, top)]
    while stack:
        holder, key = stack.pop(0)
        value = holder[key]
        if isinstance(value, str):
            holder[key] = 7
            return m
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        stack.extend((value, k) for k, _ in items)
    return None


def main():
    os.makedirs(WORK, exist_ok=True)
    recorded = os.path.join(WORK, "mcp-recorded.jsonl")
    lines = record_mcp(recorded)
    methods, pending = [], {}
    for line in lines:
        m = line["message"]
        side = line["from"]
        if "method" in m and "id" in m:
            pending[(side, m["id"])] = m["method"]
        methods.append(pending.pop(("server" if side == "client" else "client", m.get("id")), None)
                       if "method" not in m else m["method"])
    ids = {}
    for line in lines:
        if "method" in line["message"] and "id" in line["message"]:
            ids.setdefault(line["message"]["id"], set()).add(line["from"])
    check(any(len(sides) == 2 for sides in ids.values()), "the session has ids both sides use")
    for method in ["sampling/createMessage", "elicitation/create", "roots/list", "tools/call"]:
        check(method in methods, f"the session has {method}")
    # Recorded with directions: every message passes, no ambiguity.
    out = traffic(recorded)
    check(out.returncode == 0 and f"{len(lines)} messages, {len(lines)} passed, 0 failed\n" in out.stdout
          and "route.ambiguous" not in out.stdout, f"the recorded session passes:\n{out.stdout}{out.stderr}")
    # The same session raw: ambiguous warnings, no failure.
    raw = os.path.join(WORK, "mcp-raw.jsonl")
    with open(raw, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(line["message"]) + "\n" for line in lines)
    out = traffic(raw)
    check(out.returncode == 0 and " 0 failed; route.ambiguous " in out.stdout,
          f"the raw session passes with route.ambiguous warnings:\n{out.stdout[-400:]}{out.stderr}")
    # The official schema accepts every message as recorded.
    judge = official(json.load(open(os.path.join(ROOT, "protocols/vendor/mcp", REVISION, "schema.json"))))
    for n, (line, method) in enumerate(zip(lines, methods), 1):
        check(judge(line["message"], method), f"the official schema accepts line {n}")
    # One-change mutants: traffic fails exactly those the official schema fails.
    mutants = 0
    for n, (line, method) in enumerate(zip(lines, methods), 1):
        changed = mutant(line["message"])
        if changed is None:
            continue
        mutants += 1
        path = os.path.join(WORK, f"mcp-mutant-{n}.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for k, other in enumerate(lines, 1):
                f.write(json.dumps({**other, "message": changed} if k == n else other) + "\n")
        out = traffic(path, "--protocol", f"mcp@{REVISION}", "--format", "json")
        results = json.loads(out.stdout)["results"]
        ours = results[n - 1]["status"] == "fail"
        theirs = not judge(changed, method)
        check(ours == theirs, f"mutant of line {n} ({json.dumps(changed)[:160]}): traffic "
                              f"{'fails' if ours else 'passes'} it, the official schema "
                              f"{'fails' if theirs else 'passes'} it")
    check(mutants >= 20, f"{mutants} mutants")
    for f in failed:
        print(f"FAILED: {f}")
    print(f"{passed} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


main()
