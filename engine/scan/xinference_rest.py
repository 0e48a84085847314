"""Xinference launches over its REST API: `curl -X POST http://host:9997/v1/models -d '{"model_engine": "vllm", …}'`
in a script (the JSON inline, or `-d @launch.json` from the project) — what the web UI and every client send.
The server's `launch_model` handler reads its own keys (model_name, model_engine, n_gpu, gpu_idx …) from the
body and hands every other key to the engine as a keyword, like `Client.launch_model(**kwargs)`
(engine/scan/python_tools.py reads `requests.post(url, json={…})` through that call). Only a body whose
model_engine is vllm (any case) is a site: without it the server picks no engine (0.11.0+)."""
from __future__ import annotations

import json
import posixpath
import re
from typing import Any

from vllm_kb.engine.kb import deploy_tools
from vllm_kb.engine.scan import xinference_defaults, xinference_engine
from vllm_kb.engine.scan.python_settings import place
from vllm_kb.engine.scan.site import Setting, Site

SYNTAX = "kwargs-json"  # as Triton's model.json: engine arguments as JSON keys, values as JSON gives them
KIND = "xinference POST /v1/models"
_URL = re.compile(r"/v1/models/?(?:[?#].*)?$")
_DATA = ("-d", "--data", "--data-raw", "--data-binary", "--json")


def _text(w) -> str:
    return w.value if w.value is not None else (w.text or w.raw or "")


def curl_body(ctx, rel: str, words: list) -> tuple[dict, str, str, int] | None:
    """(body, its text, the file and line it starts at) of a `curl` POST to /v1/models, or None."""
    start = next((i for i, w in enumerate(words) if posixpath.basename(w.value or "") == "curl"), None)
    if start is None:
        return None
    data, url, method = None, False, None
    for i in range(start + 1, len(words)):
        t = _text(words[i])
        name, eq, inline = t.partition("=")
        if t in _DATA and i + 1 < len(words):
            data = words[i + 1]
        elif eq and name in _DATA[1:]:
            data = words[i]
            data = type(data)(raw=data.raw, line=data.line, value=inline)
        elif t.startswith("-d") and len(t) > 2 and not t.startswith("--"):
            data = type(words[i])(raw=words[i].raw, line=words[i].line, value=t[2:])
        elif t in ("-X", "--request") and i + 1 < len(words):
            method = _text(words[i + 1]).upper()
        elif _URL.search(t.split("://", 1)[-1]):
            url = True
    if not url or data is None or data.value is None or (method and method != "POST"):
        return None
    text, line = data.value, data.line
    if text.startswith("@"):
        path = text[1:]
        for cand in (posixpath.normpath(posixpath.join(posixpath.dirname(rel), path)), posixpath.normpath(path.lstrip("/"))):
            got = ctx.read(cand) if cand and not cand.startswith("..") else None
            if got is not None:
                return _parsed(got, cand, 1)
        return None
    return _parsed(text, rel, line)


def _parsed(text: str, file: str, line: int) -> tuple[dict, str, str, int] | None:
    try:
        body = json.loads(text)
    except ValueError:
        return None
    if not isinstance(body, dict) or str(body.get("model_engine") or "").lower() != "vllm":
        return None
    return body, text, file, line


def site(ctx, rel: str, version: str, cmd, found: tuple[dict, str, str, int], env: dict) -> Site:
    """The site a JSON launch body describes: Xinference's own keys read as its launch options, the rest as
    vLLM engine arguments, the model from the registry, the GPUs from n_gpu / gpu_idx."""
    body, text, file, line = found
    know = deploy_tools.load("xinference")
    own = set(know["python_keys"])
    s = Site(file=rel, line=cmd.line, syntax=SYNTAX, kind=KIND, mode="framework_integrated",
             mode_evidence=f"{rel}:{cmd.line}", end_line=cmd.end_line)
    s.tool = "xinference"
    s.env = dict(env)

    def at(key: str) -> int:  # the line of the key in the body (a JSON file's own lines)
        found_at = text.find(f'"{key}"')
        return line + (text.count("\n", 0, found_at) if found_at >= 0 else 0)
    for key, value in body.items():
        if key not in own:
            place(ctx, s, Setting(key, value, value is not None, file, at(key), key, json.dumps(value), SYNTAX), version)
    get: Any = body.get
    if get("model_path"):
        s.model = Setting("model", get("model_path"), True, file, at("model_path"), "model_path", json.dumps(get("model_path")), SYNTAX)
    else:
        from vllm_kb.engine.scan import tool_launch

        name = get("model_name")
        s.model = tool_launch.registry_model(name if isinstance(name, str) else None, get("model_size_in_billions", get("size_in_billions")),
                                             get("model_format"), get("quantization"), file, at("model_name"), "model_name",
                                             json.dumps(name) if name is not None else "", SYNTAX, ctx)
    gpus, by = xinference_engine.gpus_given(get("n_gpu"), get("gpu_idx"), "replica_config" in body)
    nw = get("n_worker")
    xinference_engine.place_gpus(s, gpus, by, file, at("n_gpu") if "n_gpu" in body else line, "n_gpu",
                                 multi_worker=isinstance(nw, int) and nw > 1)
    xinference_engine.note_gpu_ids(s, get("gpu_idx"), None)
    if isinstance(get("model_type"), str):
        s.launch["model_type"] = get("model_type")
    s.framework_defaults = xinference_defaults.engine_defaults(ctx, rel, env, {k: v for k, v in know["defaults"].items()
                                                                               if k not in s.settings})
    return s
