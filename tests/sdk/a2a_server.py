"""A real A2A server (the official a2a-sdk): a streaming agent that answers a
message with a working status, an artifact and a completed status, on the
JSON-RPC binding at /, speaking A2A 1.0 and (compat) 0.3, its agent card at
/.well-known/agent-card.json, which names PUBLIC_URL (the recording relay's).
usage: a2a_server.py PORT PUBLIC_URL"""

import sys

import uvicorn
from starlette.applications import Starlette

from a2a.helpers.proto_helpers import new_task
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events.event_queue_v2 import EventQueue
from a2a.server.request_handlers import DefaultRequestHandlerV2
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks.inmemory_task_store import InMemoryTaskStore
from a2a.server.tasks.task_updater import TaskUpdater
from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    Part,
    TaskState,
)

port = int(sys.argv[1])
url = sys.argv[2]


class Echo(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        if not context.current_task:
            await event_queue.enqueue_event(
                new_task(context.task_id, context.context_id, TaskState.TASK_STATE_SUBMITTED, history=[context.message])
            )
        await updater.start_work()
        text = context.get_user_input()
        await updater.add_artifact([Part(text=f"echo: {text}")], name="echo")
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).update_status(
            TaskState.TASK_STATE_CANCELED
        )


card = AgentCard(
    name="echo",
    description="Echoes a message back, streaming its progress.",
    version="1.0.0",
    supported_interfaces=[
        AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0"),
        AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="0.3"),
    ],
    capabilities=AgentCapabilities(streaming=True),
    default_input_modes=["text/plain"],
    default_output_modes=["text/plain"],
    skills=[AgentSkill(id="echo", name="Echo", description="Echoes the message.", tags=["echo"])],
)
handler = DefaultRequestHandlerV2(agent_executor=Echo(), task_store=InMemoryTaskStore(), agent_card=card)
routes = create_agent_card_routes(card) + create_jsonrpc_routes(handler, "/", enable_v0_3_compat=True)
uvicorn.run(Starlette(routes=routes), host="127.0.0.1", port=port, log_level="warning")
