"""A recording HTTP relay for A2A: listens on 127.0.0.1:PORT, forwards every
request to UPSTREAM unchanged and its response back (an event stream event by
event), and writes (a) recorded lines {"from": "client"|"server", "message": ...}
to LINES (the agent card as a bare line) and (b) a HAR 1.2 file of the session
to HAR (request and response bodies, an event stream's text as sent).
usage: a2a_relay.py PORT UPSTREAM LINES HAR  (stops on SIGTERM, writing HAR)"""

import asyncio
import json
import signal
import sys

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

port, upstream, lines_path, har_path = int(sys.argv[1]), sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4]
lines = open(lines_path, "w", encoding="utf-8")
entries = []
http = httpx.AsyncClient(timeout=30)
HOP = {"host", "content-length", "transfer-encoding", "connection"}


def record(side: str, body: bytes) -> None:
    text = body.decode("utf-8").strip()
    if not text:
        return
    value = json.loads(text)
    line = value if "skills" in value else {"from": side, "message": value}
    lines.write(json.dumps(line, separators=(",", ":")) + "\n")
    lines.flush()


def headers(h) -> list:
    return [{"name": k, "value": v} for k, v in h.items()]


def entry(request: Request, body: bytes, status: int, rheaders, mime: str, text: str) -> dict:
    req = {
        "method": request.method,
        "url": str(request.url),
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": headers(request.headers),
        "queryString": [],
        "headersSize": -1,
        "bodySize": len(body),
    }
    if body:
        req["postData"] = {"mimeType": request.headers.get("content-type", ""), "text": body.decode("utf-8")}
    return {
        "startedDateTime": "2026-01-01T00:00:00.000Z",
        "time": 0,
        "request": req,
        "response": {
            "status": status,
            "statusText": "",
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": headers(rheaders),
            "content": {"size": len(text.encode("utf-8")), "mimeType": mime, "text": text},
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": -1,
        },
        "cache": {},
        "timings": {"send": 0, "wait": 0, "receive": 0},
    }


async def relay(request: Request) -> Response:
    body = await request.body()
    if body:
        record("client", body)
    fwd = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
    target = upstream + request.url.path
    up = http.build_request(request.method, target, headers=fwd, content=body)
    response = await http.send(up, stream=True)
    mime = response.headers.get("content-type", "")
    back = {k: v for k, v in response.headers.items() if k.lower() not in HOP}
    if mime.startswith("text/event-stream"):
        at = len(entries)
        entries.append(None)
        sent = []

        async def stream():
            buffer = b""
            async for chunk in response.aiter_raw():
                sent.append(chunk)
                buffer += chunk.replace(b"\r", b"")
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    data = b"\n".join(l[5:].lstrip() for l in event.split(b"\n") if l.startswith(b"data:"))
                    record("server", data)
                yield chunk
            await response.aclose()
            text = b"".join(sent).decode("utf-8")
            entries[at] = entry(request, body, response.status_code, response.headers, mime, text)

        return StreamingResponse(stream(), status_code=response.status_code, headers=back)
    data = await response.aread()
    await response.aclose()
    record("server", data)
    entries.append(entry(request, body, response.status_code, response.headers, mime, data.decode("utf-8")))
    return Response(data, status_code=response.status_code, headers=back)


def write_har() -> None:
    har = {"log": {"version": "1.2", "creator": {"name": "a2a_relay.py", "version": "1"}, "entries": [e for e in entries if e]}}
    with open(har_path, "w", encoding="utf-8") as f:
        json.dump(har, f, indent=1)


app = Starlette(routes=[Route("/{path:path}", relay, methods=["GET", "POST"])])
config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
server = uvicorn.Server(config)


async def main() -> None:
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: setattr(server, "should_exit", True))
    await server.serve()
    write_har()


asyncio.run(main())
