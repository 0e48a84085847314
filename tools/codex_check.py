#!/usr/bin/env python3
"""Have Codex itself read vllm-kb's Codex files: its app server (`codex app-server`, JSON-RPC on
stdio, works offline and signed out) answers `plugin/read` for the plugin (.codex-plugin/ with its
skill, MCP server and hooks/codex-hooks.json, listed by a throwaway local marketplace) and
`hooks/list` for a project whose .codex/hooks.json `vllm-kb skill install --agent codex --hooks`
merged into. Everything happens under a temporary CODEX_HOME; the user's is never read.

    python tools/codex_check.py CODEX_EXE [--vllm-kb EXE]     # exit 0 when Codex reads both as expected

.ci/agents-check runs it with the npm @openai/codex CLI; tests/test_agent_plugins.py too when one
is installed."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLUGIN_PARTS = (".codex-plugin", "hooks", "skill")
OTHER_HOOKS = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}


def ask(exe: str, home: Path, requests: list[dict]) -> list[dict]:
    """Start the app server, initialize, send `requests` (method, params) and return their results."""
    env = dict(os.environ, HOME=str(home), CODEX_HOME=str(home / ".codex"))
    p = subprocess.Popen([exe, "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, env=env, cwd=home, start_new_session=True)

    def send(obj: dict) -> None:
        p.stdin.write(json.dumps(obj) + "\n")
        p.stdin.flush()

    def answer(want: int) -> dict:
        for line in p.stdout:
            msg = json.loads(line)
            if msg.get("id") == want:
                if "error" in msg:
                    raise RuntimeError(f"codex app-server: {msg['error']}")
                return msg["result"]
        raise RuntimeError("codex app-server ended without answering")

    try:
        send({"id": 0, "method": "initialize", "params": {"clientInfo": {"name": "vllm-kb-ci", "version": "0"}}})
        answer(0)
        send({"method": "initialized"})
        out = []
        for i, req in enumerate(requests, 1):
            send({"id": i, **req})
            out.append(answer(i))
        return out
    finally:
        p.stdin.close()  # end of input: the server exits, and the npm wrapper with it
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)  # the wrapper's native child is in the same group
            p.wait()


def check(exe: str, vllm_kb: str, work: Path) -> list[str]:
    """What is wrong (nothing: an empty list)."""
    home = work / "home"
    (home / ".codex").mkdir(parents=True)
    market = work / "market"
    plugin = market / "plugins" / "vllm-kb"
    plugin.mkdir(parents=True)
    for part in PLUGIN_PARTS:
        shutil.copytree(ROOT / part, plugin / part, ignore=shutil.ignore_patterns("__pycache__"))
    (market / ".agents" / "plugins").mkdir(parents=True)
    (market / ".agents" / "plugins" / "marketplace.json").write_text(json.dumps({
        "name": "vllm-kb-ci", "plugins": [{"name": "vllm-kb", "source": {"source": "local", "path": "./plugins/vllm-kb"},
                                            "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"}}]}))
    project = work / "project"
    (project / ".codex").mkdir(parents=True)
    (project / ".codex" / "hooks.json").write_text(json.dumps(OTHER_HOOKS, indent=2) + "\n")
    subprocess.run([vllm_kb, "skill", "install", "--agent", "codex", "--hooks", "--yes"], cwd=project, check=True,
                   capture_output=True, env=dict(os.environ, HOME=str(home)))
    # Codex reads a project's .codex/ only when the project is trusted
    (home / ".codex" / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    read, listed = ask(exe, home, [
        {"method": "plugin/read", "params": {"marketplacePath": str(market / ".agents" / "plugins" / "marketplace.json"),
                                             "pluginName": "vllm-kb"}},
        {"method": "hooks/list", "params": {"cwds": [str(project)]}},
    ])
    problems = []
    p = read["plugin"]
    if [s["name"] for s in p["skills"]] != ["vllm-kb:vllm-optimization"]:
        problems.append(f"plugin skills: {p['skills']}")
    if p["mcpServers"] != ["vllm-kb"]:
        problems.append(f"plugin MCP servers: {p['mcpServers']}")
    hooks = sorted((h["eventName"], h["key"].split(":")[1]) for h in p["hooks"])
    if hooks != [("postToolUse", "hooks/codex-hooks.json"), ("sessionStart", "hooks/codex-hooks.json")]:
        problems.append(f"plugin hooks: {p['hooks']}")
    data, = listed["data"]
    if data["warnings"] or data["errors"]:
        problems.append(f"project hooks: warnings {data['warnings']}, errors {data['errors']}")
    ours = "vllm-kb hook --agent codex"
    got = sorted((h["eventName"], h["matcher"], h["timeoutSec"] if ours in h["command"] else None, ours in h["command"])
                 for h in data["hooks"])
    want = sorted([("preToolUse", "Bash", None, False), ("postToolUse", "apply_patch", 15, True), ("sessionStart", None, 15, True)])
    if got != want:
        problems.append(f"project hooks: {got}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("codex", help="the codex executable")
    ap.add_argument("--vllm-kb", default=str(Path(sys.executable).with_name("vllm-kb")), help="the vllm-kb executable")
    ns = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="vllm-kb-codex-") as tmp:
        problems = check(ns.codex, ns.vllm_kb, Path(tmp))
    for p in problems:
        print(f"codex_check: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
