"""`python -m vllm_kb.mcp_server [--transport …]`: the `vllm-kb mcp` command on its own, for
clients configured with a Python interpreter rather than the console script."""
from __future__ import annotations

import argparse
import sys

from vllm_kb.mcp_server import command as mcp_cmd
from vllm_kb.engine.kb.errors import VllmKbError


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vllm_kb.mcp_server", description="The vllm-kb MCP server.")
    mcp_cmd.add_arguments(p)
    ns = p.parse_args(argv)
    try:
        return mcp_cmd.run(ns)
    except VllmKbError as e:
        print(f"vllm-kb mcp: error: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
