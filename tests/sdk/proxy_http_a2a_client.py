"""A real A2A client (the official `a2a-sdk`'s client, JSON-RPC transport)
that reads the agent card, sends a streamed message and reads the task back.
It prints one JSON line per event it received, then the task's final state,
so a run through the proxy can be compared with a direct one.

Usage: proxy_http_a2a_client.py URL"""

import asyncio
import json
import sys

from a2a.client import create_client
from a2a.helpers.proto_helpers import new_text_message
from a2a.types.a2a_pb2 import GetTaskRequest, Role, SendMessageRequest
from google.protobuf.json_format import MessageToDict


async def main(url):
    client = await create_client(url)
    request = SendMessageRequest(message=new_text_message("hello proxy", role=Role.ROLE_USER))
    task_id = None
    async for event in client.send_message(request):
        kind = event.WhichOneof("payload")
        body = MessageToDict(getattr(event, kind))
        task_id = task_id or body.get("id") or body.get("taskId")
        print(json.dumps({"event": kind, "state": body.get("status", {}).get("state")}, sort_keys=True))
    task = await client.get_task(GetTaskRequest(id=task_id))
    text = "".join(part.text for artifact in task.artifacts for part in artifact.parts)
    print(json.dumps({"task": MessageToDict(task)["status"]["state"], "artifact": text}, sort_keys=True))
    await client.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
