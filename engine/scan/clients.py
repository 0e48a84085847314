"""Code in the project that calls an OpenAI-compatible server with tools: `…chat.completions
.create(…, tools=…)` or `tool_choice="auto"`, read with `ast`. vLLM answers an "auto" tool
choice (what `tools` without a tool_choice means) with HTTP 400 unless the server was started
with --enable-auto-tool-choice and a --tool-call-parser."""
from __future__ import annotations

import ast
import re
from typing import NamedTuple

from vllm_kb.engine.scan.agent_clients import agent_client_urls
from vllm_kb.engine.scan.client_urls import FileURLs, is_completion_call
from vllm_kb.engine.scan.context import ScanContext, parse_python
from vllm_kb.engine.scan.python_scope import walk

_KEYWORD = re.compile(r"tool(?:s|_choice)(?:[ \t\f\r\n]|\\|#[^\n]*(?![^\n]))*=(?!=)")


def _nfkc(text: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", text)


def _auto_tools(call: ast.Call) -> bool:
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    choice = kw.get("tool_choice")
    if isinstance(choice, ast.Constant):
        return choice.value == "auto"
    if choice is not None:
        return True  # a variable: "auto" by default in every client that passes one through
    tools = kw.get("tools")
    return tools is not None and not (isinstance(tools, ast.Constant) and tools.value is None)


class Client(NamedTuple):
    """A place that asks a server for automatic tool choice, and the server URL it is written to
    reach (None: not written where the audit reads it)."""
    where: str
    url: str | None


def tool_clients(ctx: ScanContext, files: list[str]) -> list[str]:
    """file:line of each chat-completions call that asks for automatic tool choice, and of each
    coding agent's provider configured in the project (engine/scan/agent_clients.py)."""
    return [c.where for c in tool_client_urls(ctx, files)]


def tool_client_urls(ctx: ScanContext, files: list[str]) -> list[Client]:
    """tool_clients, each with the URL of the server it calls (engine/scan/client_urls.py)."""
    out = [Client(w, u) for w, u in agent_client_urls(ctx.read, files)]
    for rel in files:
        if not rel.endswith(".py"):
            continue
        text = ctx.read(rel) or ""
        if "tools" not in text and "tool_choice" not in text:
            continue
        if "bind_tools" in text or ("Agent(" in text and "agents" in text):
            out += _agent_frameworks(rel, text)
        # the call's target names `completions` (as Python reads the text): most files that say
        # "tools" are not parsed (vLLM's own tree: thousands)
        if "completions" not in text and (text.isascii() or "completions" not in _nfkc(text)):
            continue
        # …and passes `tools=` or `tool_choice=` as a keyword (a comment or a line break may stand
        # before the `=`): half of the files left (vLLM's own tree) name tools in other ways
        if not _KEYWORD.search(text) and (text.isascii() or not _KEYWORD.search(_nfkc(text))):
            continue
        try:
            tree = parse_python(text, rel)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        urls = FileURLs(tree)
        for node in walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_completion_call(node.func) \
                    and _auto_tools(node):
                out.append(Client(f"{rel}:{node.lineno}", urls.of(node.func.value)))
    return out


def _agent_frameworks(rel: str, text: str) -> list[Client]:
    """Agent libraries that send their tools with no tool_choice ("auto" to vLLM): LangChain's
    `model.bind_tools([...])` and the OpenAI Agents SDK's `Agent(tools=[...])` (`from agents import
    Agent`; its chat-completions model passes tool_choice only when model_settings sets one)."""
    try:
        tree = parse_python(text, rel)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    agent = {a.asname or a.name for n in walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "agents"
             for a in n.names if a.name == "Agent"}
    urls = FileURLs(tree)
    out = []
    for node in walk(tree):
        if not isinstance(node, ast.Call):
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if isinstance(node.func, ast.Attribute) and node.func.attr == "bind_tools" and (node.args or "tools" in kw):
            choice = kw.get("tool_choice")
            if choice is None or (isinstance(choice, ast.Constant) and choice.value == "auto"):
                out.append(Client(f"{rel}:{node.lineno}", urls.of(node.func.value)))
        elif isinstance(node.func, ast.Name) and node.func.id in agent and "model_settings" not in kw:
            tools = kw.get("tools")
            if isinstance(tools, (ast.List, ast.Tuple)) and tools.elts:
                out.append(Client(f"{rel}:{node.lineno}", urls.only))
    return out
