"""Python files written inside YAML — a Kubernetes ConfigMap's `data: {serve.py: |…}` that a pod mounts
and runs (awslabs/ai-on-eks's Ray Serve DeepSeek blueprint), a chart's values block under a `.py` key —
read by the Python scanner on the YAML file's own lines and columns: the block stays where it is written,
every other line is blanked and the key's line becomes `if 1:` (engine/scan/context.parse_python reads a
module that is one `if 1:` as that block's body), so lines, offsets and `--fix` edits are the YAML file's.

The file's environment is what runs it: the `env:` of the containers that mount the ConfigMap (values
written in the manifest), under the runtime_env of a RayService application whose import_path names the
file (engine/scan/python_facts.py binds it); the GPUs those containers (or the deployment's
ray_actor_options) ask for are the site's."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import python_calls
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.kubernetes import resource_gpus
from vllm_kb.engine.scan.site import Site

_TARGET = re.compile(r"\b(?:LLM|EngineArgs|AsyncEngineArgs|AsyncLLMEngine|LLMEngine|vllm)\b")
_PY_BLOCK = re.compile(r"\.py['\"]?[ \t]*:[ \t]*\|")  # `serve.py: |`, the key a file is written under


def scan(ctx: ScanContext, rel: str, text: str, docs: list) -> list[Site]:
    if ".py" not in text or not _PY_BLOCK.search(text) or not _TARGET.search(text):
        return []
    try:
        where = yamlio.positions(text)
    except yamlio.YamlError:
        return []  # a stream the position reader cannot follow: its blocks have no place to map to
    out: list[Site] = []
    for doc in docs:
        if doc.index >= len(where):
            continue
        for path, node in where[doc.index].nodes.items():
            if not (path and isinstance(path[-1], str) and path[-1].endswith(".py") and node.kind == "scalar"
                    and node.style == "|" and isinstance(node.value, str) and _TARGET.search(node.value)):
                continue
            padded = padded_block(text, node.start, node.end)
            if padded is None:
                continue
            env, gpus = _mounted(docs, doc.data, path)
            for site in python_calls.scan(ctx, rel, padded, mounted=env):
                if gpus and site.gpu_request is None:
                    site.gpu_request = gpus
                out.append(site)
    return out


def padded_block(text: str, start: int, end: int) -> str | None:
    """The text with only the block scalar whose indicator (`|`) is at `start` and whose content ends
    at `end` left as written; the indicator's line is `if 1:` padded to its length, every other line
    blanks of its length (None when that line is too short to hold `if 1:`)."""
    head, last = text.count("\n", 0, start), text.count("\n", 0, end)
    if last <= head:
        return None  # the block holds no line of its own
    out = []
    for i, ln in enumerate(text.split("\n")):  # by "\n" alone, as the line numbers are counted
        body = ln[:-1] if ln.endswith("\r") else ln
        if i == head:
            if len(body) < 5:
                return None
            out.append("if 1:" + " " * (len(body) - 5) + ln[len(body):])
        elif head < i <= last:
            out.append(ln)
        else:
            out.append(" " * len(body) + ln[len(body):])
    return "\n".join(out)


def _mounted(docs: list, holder, path: tuple) -> tuple[dict[str, str], int | None]:
    """(env, GPUs) of the containers of the file's documents that mount the ConfigMap holding the block:
    a value they disagree on is left out; GPUs only when those that ask for any ask for one count."""
    meta = holder.get("metadata") if isinstance(holder, dict) else None
    name = meta.get("name") if isinstance(meta, dict) else None
    if not (isinstance(holder, dict) and holder.get("kind") == "ConfigMap" and isinstance(name, str)):
        return {}, None
    envs: list[dict[str, str]] = []
    gpus: set[int] = set()
    for doc in docs:
        for pod in _pod_specs(doc.data):
            vols = {v.get("name") for v in pod.get("volumes") or [] if isinstance(v, dict)
                    and isinstance(v.get("configMap"), dict) and v["configMap"].get("name") == name}
            for c in pod.get("containers") or []:
                if not isinstance(c, dict) or not any(isinstance(m, dict) and m.get("name") in vols for m in c.get("volumeMounts") or []):
                    continue
                envs.append({str(e["name"]): str(e["value"]) for e in c.get("env") or []
                             if isinstance(e, dict) and "name" in e and isinstance(e.get("value"), (str, int, float))})
                if (n := resource_gpus(c.get("resources"))):
                    gpus.add(n)
    env = {k: v for k, v in envs[0].items() if all(e.get(k) == v for e in envs[1:])} if envs else {}
    return env, (next(iter(gpus)) if len(gpus) == 1 else None)


def _pod_specs(data) -> list[dict]:
    """Every pod spec (a mapping with `containers`) in a Kubernetes object, wherever its template sits."""
    out, stack = [], [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("containers"), list):
                out.append(node)
            stack += [v for v in node.values() if isinstance(v, (dict, list))]
        elif isinstance(node, list):
            stack += [v for v in node if isinstance(v, (dict, list))]
    return out
