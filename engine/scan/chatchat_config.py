"""Langchain-Chatchat 0.2.x: `python startup.py` starts one FastChat model worker per local model of
`configs/model_config.py` (LLM_MODEL, from 0.2.6 LLM_MODELS), and a worker whose
`configs/server_config.py` FSCHAT_MODEL_WORKERS entry (the model's own over "default") says
`"infer_turbo": "vllm"` builds vLLM's engine itself, for a model listed in VLLM_MODEL_DICT
(startup.py create_model_worker_app, read at v0.2.5 … v0.2.10): `AsyncEngineArgs.from_cli_args`
of its own defaults — dtype auto, trust_remote_code True, gpu_memory_utilization 0.90,
tensor_parallel_size 1, max_num_seqs 256, swap_space 4, block_size 16 — with every key of the
worker's config set over them afterwards (so its num_gpus never reaches the tensor-parallel size).
max_num_batched_tokens was 2560 in 0.2.5, 16384 in 0.2.6 and None from 0.2.7: unset, it is unknown.
The worker's model path is MODEL_PATH["llm_model"][name] (or the MODEL_ROOT_PATH folder of that name,
which only the machine knows). The project holds no vLLM call: these files are the site."""
from __future__ import annotations

import ast
from pathlib import PurePosixPath

from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.kwargs_sites import mapping_site
from vllm_kb.engine.scan.site import Setting, Site

_UNKNOWN = object()
DEFAULTS = {"dtype": "auto", "trust_remote_code": True, "gpu_memory_utilization": 0.9, "tensor_parallel_size": 1,
            "max_num_seqs": 256, "swap_space": 4, "block_size": 16, "seed": 0, "load_format": "auto", "tokenizer_mode": "auto"}
_VARYING = {"max_num_batched_tokens": "Langchain-Chatchat's own default (2560 in 0.2.5, 16384 in 0.2.6, vLLM's from 0.2.7)"}


def is_server_config(rel: str, text: str) -> bool:
    return rel.endswith("server_config.py") and "FSCHAT_MODEL_WORKERS" in text and "infer_turbo" in text


def _value(node: ast.AST, names: dict):
    """A literal, with names defined above and the Linux side of `… if sys.platform… else …`."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Dict):
        return {k.value: _value(v, names) for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)}
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(e, names) for e in node.elts]
    if isinstance(node, ast.Name):
        return names.get(node.id, _UNKNOWN)
    if isinstance(node, ast.IfExp) and "platform" in ast.unparse(node.test) and "linux" in ast.unparse(node.test):
        return _value(node.body, names)  # the GPU servers an audit is about run Linux
    return _UNKNOWN


def _module(text: str | None) -> tuple[dict, dict[str, ast.AST]]:
    names: dict = {}
    nodes: dict[str, ast.AST] = {}
    try:
        tree = ast.parse(text or "")
    except (SyntaxError, ValueError, RecursionError):
        return names, nodes
    for st in tree.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            names[st.targets[0].id] = _value(st.value, names)
            nodes[st.targets[0].id] = st.value
    return names, nodes


def _key_line(node: ast.AST | None, *path: str) -> int | None:
    """The line of `path`'s key inside a dict literal."""
    for key in path:
        if not isinstance(node, ast.Dict):
            return None
        hit = next(((k, v) for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value == key), None)
        if hit is None:
            return None
        line, node = hit[0].lineno, hit[1]
    return line if path else None


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    server, server_nodes = _module(text)
    model_rel = PurePosixPath(PurePosixPath(rel).parent, "model_config.py").as_posix()
    models, model_nodes = _module(ctx.read(model_rel))
    workers = server.get("FSCHAT_MODEL_WORKERS")
    if not isinstance(workers, dict):
        return []
    listed = models.get("LLM_MODELS")
    names: list = listed if isinstance(listed, list) else [models.get("LLM_MODEL")]
    paths = (models.get("MODEL_PATH") or {}).get("llm_model") if isinstance(models.get("MODEL_PATH"), dict) else None
    vllm_dict = models.get("VLLM_MODEL_DICT")
    out = []
    for name in (n for n in names if isinstance(n, str)):
        base, own = workers.get("default"), workers.get(name)
        conf = {**(base if isinstance(base, dict) else {}), **(own if isinstance(own, dict) else {})}
        where = (name,) if isinstance(own, dict) and "infer_turbo" in own else ("default",)
        if conf.get("infer_turbo") != "vllm" or isinstance(vllm_dict, dict) and name not in vllm_dict:
            continue  # FastChat's own model worker, or an online API
        site = _site(ctx, rel, conf, server_nodes.get("FSCHAT_MODEL_WORKERS"), where)
        path = paths.get(name) if isinstance(paths, dict) else None
        if not isinstance(path, str) and isinstance(vllm_dict, dict):
            path = vllm_dict.get(name)
        line = _key_line(model_nodes.get("MODEL_PATH"), "llm_model", name) or 1
        site.model = Setting("model", path if isinstance(path, str) else None, isinstance(path, str), model_rel, line,
                             "MODEL_PATH", str(path), "python-dict", None if isinstance(path, str) else f"the path of {name}")
        site.launch["app_server"] = "Langchain-Chatchat"
        out.append(site)
    return out


def _site(ctx: ScanContext, rel: str, conf: dict, node: ast.AST | None, where: tuple) -> Site:
    version = ctx.version_for(rel)
    # from_cli_args reads only the release's own fields: FastChat's `device` and the like never reach it
    given = {k: v for k, v in conf.items() if k != "model" and (e := ctx.catalog.arg(k)) is not None and e.exists(version)}
    lines = {k: _key_line(node, where[0], k) or _key_line(node, "default", k) or 1 for k in given}
    turbo = _key_line(node, *where, "infer_turbo") or 1
    site = mapping_site(ctx, rel, {k: (None if v is _UNKNOWN else v) for k, v in given.items()}, lines, line=turbo,
                        kind="Langchain-Chatchat vllm worker", mode="standalone_serve", tool="langchain-chatchat",
                        syntax="python-dict")
    for k, v in given.items():
        if v is _UNKNOWN and k in site.settings:
            site.settings[k].resolved = False
    for k, why in _VARYING.items():
        if k not in site.settings:
            site.settings[k] = Setting(k, None, False, rel, turbo, k, "", "python-dict", why)
    site.framework_defaults = {k: v for k, v in DEFAULTS.items() if k not in site.settings}
    return site
