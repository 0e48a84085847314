"""The MCP server's own command line (`--transport`, `--host`, `--port`, `--path`, `--root`,
`--log-level`): `vllm-kb mcp` (cli/mcp_cmd.py) and `python -m vllm_kb.mcp_server` both run it."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vllm_kb.engine.kb.errors import EXIT_CLEAN, UsageError

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                   help="stdio (default; the client starts the server) or streamable HTTP")
    p.add_argument("--host", default="127.0.0.1", help="HTTP: address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="HTTP: port (default 8000)")
    p.add_argument("--path", default="/mcp", help="HTTP: endpoint path (default /mcp)")
    p.add_argument("--root", action="append", metavar="DIR",
                   help="folder tools may read when the client declares no roots (repeatable; default: "
                        "the working directory)")
    p.add_argument("--log-level", choices=("DEBUG", "INFO", "WARNING", "ERROR"), default="WARNING",
                   help="server log level, on stderr (default WARNING)")


def _roots(given: list[str] | None) -> list[Path]:
    roots = [Path(r).expanduser() for r in (given or [])] or [Path.cwd()]
    for r in roots:
        if not r.is_dir():
            raise UsageError(f"--root {r}: not a folder")
    return roots


def run(ns) -> int:
    from vllm_kb.mcp_server.server import build_server

    if not 0 < ns.port < 65536:
        raise UsageError(f"--port {ns.port}: not a port number")
    server = build_server(_roots(ns.root), log_level=ns.log_level)
    if ns.transport == "stdio":
        server.run("stdio")
        return EXIT_CLEAN
    if ns.host not in LOCAL_HOSTS:
        # The SDK turns on DNS-rebinding protection for loopback hosts only, and there is no auth.
        print(f"vllm-kb mcp: listening on {ns.host}:{ns.port} without authentication; anyone who can reach it "
              "can read the files under its roots", file=sys.stderr)
    print(f"vllm-kb mcp: streamable HTTP on http://{ns.host}:{ns.port}{ns.path}", file=sys.stderr)
    server.run("streamable-http", host=ns.host, port=ns.port, streamable_http_path=ns.path)
    return EXIT_CLEAN
