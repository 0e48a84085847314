"""`vllm-kb mcp`: serve the knowledge base and the audit to coding agents over MCP.

    vllm-kb mcp                                   stdio (what Claude Code, Cursor, Codex … spawn)
    vllm-kb mcp --transport http --port 8765      streamable HTTP at http://127.0.0.1:8765/mcp

Registered by cli/main.py with `mcp_cmd.add_parser(sub)`; the arguments and the run live in
mcp_server/command.py, which `python -m vllm_kb.mcp_server` runs without the rest of the CLI."""
from __future__ import annotations

import argparse

from vllm_kb.mcp_server.command import add_arguments
from vllm_kb.mcp_server.command import run as _run


def run(ns) -> int:
    return _run(ns)


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("mcp", help="run the MCP server (stdio or streamable HTTP)",
                              description="Serve vllm-kb's tools, resources and prompts over the Model Context Protocol.")
    add_arguments(p)
    p.set_defaults(func=run)
    return p
