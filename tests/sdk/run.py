"""The real-SDK check: a real MCP client and server (the official `mcp`
package) talk over stdio through the recording relay, with server-to-client
requests (sampling, elicitation, roots) whose ids collide with the client's;
then `traffic` judges the recording, and one-change mutants of each message
are judged by `traffic` and by python `jsonschema` on the vendored official
schema, which must agree. Then a real A2A client and server (the official
`a2a-sdk`) talk over HTTP on loopback through the recording HTTP relay, in
A2A 1.0 and 0.3, a plain and a streaming send each (`a2a_run.py`): `traffic`
passes both recordings and both HAR files, a HAR whose stream carries one
changed event fails on that event, and the 0.3 mutants fail exactly where
`jsonschema` on the vendored 0.3 schema fails them (1.0 publishes no JSON
Schema). Prints each failed check and `N passed, N failed`; exits 1 on any
failure.

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
    a2a()
    for f in failed:
        print(f"FAILED: {f}")
    print(f"{passed} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


# The 0.3 schema's definitions of each method's request and success response.
A2A_03 = {
    "message/send": ("SendMessageRequest", "SendMessageSuccessResponse"),
    "message/stream": ("SendStreamingMessageRequest", "SendStreamingMessageSuccessResponse"),
}


def a2a():
    """The A2A half: both versions recorded, judged, a stream event broken,
    the 0.3 mutants held to the official schema."""
    done = subprocess.run([sys.executable, os.path.join(HERE, "a2a_run.py"), WORK], capture_output=True, text=True,
                          timeout=90)
    if done.returncode != 0:
        sys.exit(f"the A2A sessions failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    for version, revision, methods in [("1.0", "1.0.1", ("SendMessage", "SendStreamingMessage")),
                                       ("0.3", "0.3.0", ("message/send", "message/stream"))]:
        lines = [json.loads(line) for line in open(os.path.join(WORK, f"a2a-{version}.jsonl"), encoding="utf-8")]
        check("skills" in lines[0] and [l["message"].get("method") for l in lines[1:] if "method" in l["message"]]
              == list(methods), f"a2a {version}: the card, then {methods}")
        check(sum(1 for l in lines if l.get("from") == "server") >= 4, f"a2a {version}: a stream of events")
        for capture in (f"a2a-{version}.jsonl", f"a2a-{version}.har"):
            out = traffic(os.path.join(WORK, capture))
            n = len(lines)
            check(out.returncode == 0 and f"traffic a2a@{revision}: {n} messages, {n} passed, 0 failed\n" in out.stdout,
                  f"{capture} passes every message:\n{out.stdout}{out.stderr}")
        har = json.load(open(os.path.join(WORK, f"a2a-{version}.har"), encoding="utf-8"))
        entries = har["log"]["entries"]
        check(entries[0]["request"]["method"] == "GET"
              and entries[0]["request"]["url"].endswith("/.well-known/agent-card.json"), f"{version}: HAR card GET")
        streams = [i for i, e in enumerate(entries) if e["response"]["content"]["mimeType"].startswith("text/event-stream")]
        check(len(streams) == 1, f"{version}: one event stream in the HAR")
        if len(streams) != 1:
            continue
        # One event of the stream changed: traffic fails exactly it.
        entry = entries[streams[0]]
        events = entry["response"]["content"]["text"].replace("\r", "").split("\n\n")
        k = next(i for i, e in enumerate(events) if e.startswith("data:") and i > 0)
        data = json.loads(events[k][5:])
        events[k] = "data: " + json.dumps(mutant(data))
        entry["response"]["content"]["text"] = "\n\n".join(events)
        bad = os.path.join(WORK, f"a2a-{version}-bad-event.har")
        json.dump(har, open(bad, "w", encoding="utf-8"))
        out = traffic(bad)
        label = f"a2a-{version}-bad-event.har#{streams[0] + 1}[event {k + 1}]"
        fails = [l for l in out.stdout.splitlines() if l.startswith("[FAIL]")]
        check(out.returncode == 1 and len(fails) == 1 and fails[0].endswith(label),
              f"{version}: the changed event fails, alone ({label}):\n{out.stdout}")
    # The 0.3 mutants against the vendored official schema.
    schema = json.load(open(os.path.join(ROOT, "protocols/vendor/a2a/0.3.0/a2a.json"), encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)

    def valid(name, instance):
        return cls({"definitions": schema["definitions"], "$ref": f"#/definitions/{name}"}).is_valid(instance)

    lines = [json.loads(line) for line in open(os.path.join(WORK, "a2a-0.3.jsonl"), encoding="utf-8")]
    pending, judged = {}, []
    for n, line in enumerate(lines, 1):
        if "skills" in line:
            judged.append((n, line, lambda m: valid("AgentCard", m)))
            continue
        m = line["message"]
        if "method" in m:
            pending[m["id"]] = m["method"]
            judged.append((n, m, lambda x, d=A2A_03[m["method"]][0]: valid(d, x)))
        else:
            judged.append((n, m, lambda x, d=A2A_03[pending[m["id"]]][1]: valid(d, x)))
    for n, message, judge in judged:
        check(judge(message), f"the official 0.3 schema accepts a2a-0.3.jsonl:{n}")
    mutants = 0
    for n, message, judge in judged:
        changed = mutant(message) if "skills" not in message else {**message, "name": 7}
        if changed is None:
            continue
        mutants += 1
        path = os.path.join(WORK, f"a2a-mutant-{n}.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for k, other in enumerate(lines, 1):
                if k == n:
                    other = changed if "skills" in other else {**other, "message": changed}
                f.write(json.dumps(other) + "\n")
        out = traffic(path, "--protocol", "a2a@0.3.0", "--format", "json")
        ours = json.loads(out.stdout)["results"][n - 1]["status"] == "fail"
        theirs = not judge(changed)
        check(ours == theirs, f"a2a 0.3 mutant of line {n} ({json.dumps(changed)[:160]}): traffic "
                              f"{'fails' if ours else 'passes'} it, the official schema "
                              f"{'fails' if theirs else 'passes'} it")
    check(mutants == len(lines), f"a2a: {mutants} mutants of {len(lines)} messages")


main()
