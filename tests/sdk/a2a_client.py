"""A real A2A client (the official a2a-sdk): resolves the agent card at URL,
then on its JSON-RPC interface of VERSION (1.0 or 0.3) sends one message
plainly and one streaming. usage: a2a_client.py URL VERSION"""

import asyncio
import sys

import httpx

from a2a.client import ClientConfig, ClientFactory
from a2a.client.card_resolver import A2ACardResolver
from a2a.types.a2a_pb2 import AgentCard, Message, Part, Role, SendMessageRequest

url, version = sys.argv[1], sys.argv[2]


async def session(card: AgentCard, version: str, http: httpx.AsyncClient) -> None:
    one = AgentCard()
    one.CopyFrom(card)
    del one.supported_interfaces[:]
    one.supported_interfaces.extend(i for i in card.supported_interfaces if i.protocol_version == version)
    for streaming in (False, True):
        client = ClientFactory(ClientConfig(streaming=streaming, httpx_client=http)).create(one)
        text = f"hello {version} {'stream' if streaming else 'send'}"
        request = SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=f"m-{version}-{streaming}", parts=[Part(text=text)]))
        events = [event async for event in client.send_message(request)]
        assert events, f"{version} streaming={streaming}: no answer"


async def main() -> None:
    async with httpx.AsyncClient(timeout=20) as http:
        card = await A2ACardResolver(http, url).get_agent_card()
        await session(card, version, http)


asyncio.run(main())
