"""A real A2A agent (the official `a2a-sdk`'s request handler and Starlette
routes) over JSON-RPC on HTTP, with a streaming agent: a task, a working
status, two artifact chunks and the completed status, each one SSE event.

Usage: proxy_http_a2a_server.py PORT PUBLIC_URL
PUBLIC_URL is where clients reach the agent (the proxy, when one is in
front), written into the agent card's interface, so a client that read the
card sends its JSON-RPC through the proxy too."""

import sys

import uvicorn
from a2a.helpers.proto_helpers import new_task_from_user_message, new_text_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types.a2a_pb2 import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from starlette.applications import Starlette


class Echo(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task or new_task_from_user_message(context.message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.start_work(new_text_message("working", context_id=task.context_id, task_id=task.id))
        text = context.get_user_input()
        for n, chunk in enumerate([text[: len(text) // 2], text[len(text) // 2 :]]):
            await updater.add_artifact(
                [new_text_part(chunk)], artifact_id="echo", name="echo", append=n > 0, last_chunk=n == 1
            )
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError


def main(port, public_url):
    card = AgentCard(
        name="sdk-echo-agent",
        description="Echoes the message back as a streamed artifact.",
        version="1.0.0",
        supported_interfaces=[AgentInterface(protocol_binding="JSONRPC", url=public_url, protocol_version="1.0")],
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="echo", name="echo", description="Echo the text.", tags=["echo"])],
    )
    handler = DefaultRequestHandler(agent_executor=Echo(), task_store=InMemoryTaskStore(), agent_card=card)
    app = Starlette(routes=create_agent_card_routes(card) + create_jsonrpc_routes(handler, rpc_url="/"))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
