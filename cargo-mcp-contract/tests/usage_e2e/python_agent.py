"""A client on the official MCP Python SDK: starts the server command given
after the arguments over stdio, introduces itself with the given clientInfo,
calls one tool and prints the result as one JSON object.

usage: python_agent.py NAME VERSION TOOL ARGS_JSON -- SERVER [ARG...]
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client


async def main(argv):
    name, version, tool, args = argv[1], argv[2], argv[3], json.loads(argv[4])
    if argv[5] != "--":
        raise SystemExit("usage: python_agent.py NAME VERSION TOOL ARGS_JSON -- SERVER [ARG...]")
    server = StdioServerParameters(command=argv[6], args=argv[7:], env=dict(os.environ))
    async with stdio_client(server) as (read, write):
        info = types.Implementation(name=name, version=version)
        async with ClientSession(read, write, client_info=info) as session:
            await session.initialize()
            result = await session.call_tool(tool, args)
            print(json.dumps(result.model_dump(mode="json", by_alias=True, exclude_none=True)))


asyncio.run(main(sys.argv))
