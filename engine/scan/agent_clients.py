"""Coding agents the project configures to talk to an OpenAI-compatible server: OpenCode
(`opencode.json`/`opencode.jsonc`: a provider whose `options.baseURL` names the server) and Crush
(`crush.json`/`.crush.json`: a provider with a `base_url`). Both send their tools with every chat
request and no tool_choice, which vLLM reads as "auto" (the ChatCompletionRequest validator: 0.27.1
vllm/entrypoints/openai/chat_completion/protocol.py:892), so the server they reach answers HTTP 400
unless it was started with --enable-auto-tool-choice and a --tool-call-parser. A provider that names
a public API (OpenAI, OpenRouter, …) is no vLLM server of the project; OpenCode's `"tool_call": false`
on every model of a provider turns its tools off."""
from __future__ import annotations

import json
import re

_FILES = {"opencode.json": "baseURL", "opencode.jsonc": "baseURL", "crush.json": "base_url", ".crush.json": "base_url"}
_PUBLIC = re.compile(r"(?:^|\.)(?:openai\.com|openrouter\.ai|anthropic\.com|groq\.com|together\.(?:xyz|ai)|deepseek\.com|"
                     r"googleapis\.com|azure\.com|mistral\.ai|fireworks\.ai|x\.ai|cerebras\.ai|moonshot\.(?:cn|ai)|"
                     r"dashscope\.aliyuncs\.com|bigmodel\.cn|siliconflow\.cn)$", re.I)
# scheme://[user@]host[:port]: the server a client's URL names (engine/check/endpoints.py pairs by it)
URL = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*)://(?:[^@/]*@)?(?P<host>\[[^\]]*\]|[^:/?#]+)(?::(?P<port>\d+))?", re.I)


def _jsonc(text: str):
    """JSON with comments and trailing commas (what OpenCode and Crush accept), or None."""
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            out.append(c)
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    try:
        return json.loads(re.sub(r",(\s*[}\]])", r"\1", "".join(out)))
    except ValueError:
        return None


def served_elsewhere(url: str) -> bool:
    """The URL names a public API (OpenAI, OpenRouter …), never a server of the project."""
    m = URL.match(url.strip())
    return bool(m and public(m.group("host")))


def public(host: str) -> bool:
    """A public API's host name (OpenAI, OpenRouter …)."""
    return _PUBLIC.search(host) is not None


def _providers(doc: dict, key: str):
    """(base URL, tools on) of each provider the config declares."""
    provs = doc.get("provider") if key == "baseURL" else doc.get("providers")
    for p in (provs or {}).values() if isinstance(provs, dict) else []:
        if not isinstance(p, dict):
            continue
        url = (p.get("options") or {}).get("baseURL") if key == "baseURL" else p.get("base_url")
        models = p.get("models")
        rows = list(models.values()) if isinstance(models, dict) else models if isinstance(models, list) else []
        tools = not rows or any(not (isinstance(m, dict) and m.get("tool_call") is False) for m in rows)
        if isinstance(url, str) and url.strip():
            yield url, tools


def agent_clients(read, files: list[str]) -> list[str]:
    """file:line of each agent provider that sends tools to a server the project may run."""
    return [where for where, _url in agent_client_urls(read, files)]


def agent_client_urls(read, files: list[str]) -> list[tuple[str, str]]:
    """(file:line, base URL) of each agent provider that sends tools to a server the project may run."""
    out = []
    for rel in files:  # a project path's last part: the name PurePosixPath gives, without building one per file
        key = _FILES.get(rel.rpartition("/")[2])
        if key is None:
            continue
        text = read(rel) or ""
        doc = _jsonc(text)
        if not isinstance(doc, dict):
            continue
        for url, tools in _providers(doc, key):
            if not tools or served_elsewhere(url):
                continue
            at = text.find(url)
            out.append((f"{rel}:{text.count(chr(10), 0, at) + 1 if at >= 0 else 1}", url))
    return out
