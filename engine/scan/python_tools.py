"""Python APIs beyond vLLM's own classes that start a vLLM engine: Ray Serve LLM's `LLMConfig`
(model_loading_config + engine_kwargs), Ray Data's `vLLMEngineProcessorConfig`, LLaMA-Factory's
`ChatModel(args)`, vLLM's OpenAI server run in-process from an argument namespace
(`build_async_engine_client(args)`, `run_server(args)` — BentoML's pattern), and subprocesses
whose argv launches vLLM (engine/scan/python_argv.py). Each call becomes a site with the engine
settings it carries; the deployment facts around it come from engine/scan/python_facts.py."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from vllm_kb.engine.scan import container_env, container_spec, docker_sdk, framework_site, job_sdk, python_argv, sagemaker, xinference_defaults, xinference_engine, xinference_rest
from vllm_kb.engine.scan.python_facts import bound_env, facts  # noqa: F401 — re-exported for python_calls
from vllm_kb.engine.scan.python_flow import Flow, TrackedDict
from vllm_kb.engine.scan.python_scope import dotted as _dotted
from vllm_kb.engine.scan.python_settings import place, place_item, place_items, setting
from vllm_kb.engine.scan.site import Setting, Site

# (module prefix, name) → target
_NAMES = {
    ("ray.serve.llm", "LLMConfig"): "LLMConfig",
    ("ray.llm", "LLMConfig"): "LLMConfig",
    ("ray.data.llm", "vLLMEngineProcessorConfig"): "vLLMEngineProcessorConfig",
    ("llamafactory.chat", "ChatModel"): "ChatModel",
    ("llamafactory", "ChatModel"): "ChatModel",
    ("llmtuner", "ChatModel"): "ChatModel",
    ("llmtuner.chat", "ChatModel"): "ChatModel",
    ("vllm.entrypoints.openai.api_server", "build_async_engine_client"): "openai-server",
    ("vllm.entrypoints.openai.api_server", "run_server"): "openai-server",
}
_SERVER_FUNCS = {"build_async_engine_client", "run_server"}
# Vertex AI's `aiplatform.Model.upload(...)`: the serving container's argv (google-cloud-aiplatform
# models.py Model.upload; the vLLM notebooks of GoogleCloudPlatform/vertex-ai-samples pass both)
_VERTEX_ARGV = ("serving_container_command", "serving_container_args")
# the names of the callees the scanner looks at (a call by any other name is none of these)
CALLEES = frozenset({name for _, name in _NAMES} | _SERVER_FUNCS | {"launch_model", "upload", "post", *docker_sdk.CALLEES, *job_sdk.CALLEES, *container_spec.CALLEES} | python_argv.SPAWN_NAMES
                    | {"Model", "HuggingFaceModel", "JumpStartModel", "create_model"})
# words one of those calls, or BentoML's `__command__`, spells in a file that holds it
WORDS = ("LLMConfig", "vLLMEngineProcessorConfig", "ChatModel", "build_async_engine_client", "run_server", "launch_model", "model_engine",
         "serving_container_args", sagemaker.PREFIX,
         "__command__", "subprocess", "Popen", "system(", "popen(", "execv", "spawnv", "create_subprocess", *docker_sdk.WORDS, *job_sdk.WORDS)


@dataclass
class Tools:
    names: dict[str, str] = field(default_factory=dict)  # local name → target
    modules: dict[str, str] = field(default_factory=dict)  # local alias → module path
    subprocess: python_argv.Spawners = field(default_factory=python_argv.Spawners)
    docker: dict[str, str] = field(default_factory=dict)  # Docker client libraries (engine/scan/docker_sdk.py)
    jobs: dict[str, str] = field(default_factory=dict)  # cluster job APIs (engine/scan/job_sdk.py)

    def any(self) -> bool:
        return bool(self.names or self.subprocess.any() or self.docker or self.jobs
                    or any(m.startswith(("ray.serve.llm", "ray.data.llm", "google.cloud.aiplatform", "sagemaker", "boto3", "xinference"))
                           for m in self.modules.values()))

    def target(self, call: ast.Call) -> str | None:
        f = call.func
        if isinstance(f, ast.Name) and f.id in self.names:
            return self.names[f.id]
        if isinstance(f, ast.Attribute):
            base = _dotted(f.value)
            mod = self.modules.get(base.split(".")[0])
            full = (mod + base[len(base.split(".")[0]):]) if mod else base
            for (prefix, name), target in _NAMES.items():
                if f.attr == name and full.startswith(prefix.split(".")[0]) and (full == prefix or full.startswith(prefix)):
                    return target
            if f.attr in _SERVER_FUNCS and full.startswith("vllm"):
                return "openai-server"
        if isinstance(f, ast.Attribute) and f.attr == "launch_model" and any(k.arg in ("model_engine", "model_name") for k in call.keywords):
            return "xinference"
        if isinstance(f, ast.Attribute) and f.attr == "post" and rest_body(call) is not None:
            return "xinference-rest"
        if isinstance(f, ast.Attribute) and f.attr == "upload" and any(k.arg in _VERTEX_ARGV for k in call.keywords):
            return "vertex-upload"
        if sagemaker.is_call(call):  # the SageMaker SDK's Model(image_uri=, env=), boto3's create_model
            return "sagemaker"
        if self.subprocess.spawns(call):
            return "subprocess"
        return docker_sdk.library(call, self.docker) or job_sdk.target(call, self.jobs) or container_spec.target(call)


def imports(imported: list) -> Tools:
    """The tools a module imports (`imported`: its Import/ImportFrom nodes)."""
    t = Tools()
    for node in imported:
        if isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                if f"{node.module}.{a.name}" == "google.cloud.aiplatform":
                    t.modules[a.asname or a.name] = "google.cloud.aiplatform"
                if node.module.split(".")[0] in ("sagemaker", "xinference"):  # `from sagemaker.model import Model`
                    t.modules.setdefault(node.module.split(".")[0], node.module.split(".")[0])
                for (prefix, name), target in _NAMES.items():
                    if node.module == prefix and a.name == name:
                        t.names[a.asname or a.name] = target
        elif isinstance(node, ast.Import):
            for a in node.names:
                t.modules[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
    t.subprocess = python_argv.spawners(imported)
    t.docker = docker_sdk.imports(imported)
    t.jobs = job_sdk.imports(imported)
    return t


def site(ctx, rel: str, text: str, version: str, f, tree: ast.Module) -> Site | list[Site] | None:
    call, r = f.call, f.resolver
    if f.target == "LLMConfig":
        return _llm_config(ctx, rel, text, version, call, r, "ray.serve.llm LLMConfig", "framework_integrated", "ray-serve")
    if f.target == "vLLMEngineProcessorConfig":
        return _llm_config(ctx, rel, text, version, call, r, "ray.data.llm vLLMEngineProcessorConfig", "standalone_offline", "ray-data")
    if f.target == "ChatModel":
        return _chat_model(ctx, rel, text, call, r)
    if f.target == "openai-server":
        return _openai_server(ctx, rel, text, version, call, r)
    if f.target == "subprocess":
        return python_argv.site(ctx, rel, text, call, r)
    if f.target in docker_sdk.TARGETS:
        return docker_sdk.site(ctx, rel, text, call, r, f.target)
    if f.target == container_spec.TARGET:
        return container_spec.site(ctx, rel, text, call, r)
    if f.target in job_sdk.TARGETS:
        return job_sdk.site(ctx, rel, text, call, r, f.target, tree)
    if f.target == "argv-list":  # a vLLM argv whose spawn is out of sight (argv_lists.py)
        return python_argv.list_site(ctx, rel, text, call, r, "python subprocess")
    if f.target == "bentoml-command":
        return python_argv.list_site(ctx, rel, text, call, r, "bentoml")
    if f.target == "xinference":
        return _xinference(ctx, rel, text, version, call, r)
    if f.target == "xinference-rest":
        return _xinference_rest(ctx, rel, text, version, call, r)
    if f.target == "sagemaker":
        return sagemaker.site(ctx, rel, text, call, r)
    if f.target == "vertex-upload":
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        got = python_argv.container_site(ctx, rel, text, call, r, kw.get("serving_container_command"),
                                         kw.get("serving_container_args"), r.value_or(kw.get("serving_container_image_uri")), "vertex-ai")
        if got is not None:
            got.env = {**container_env.env_of(r, kw.get("serving_container_environment_variables"), rel, call.lineno, "vertex-ai"),
                       **got.env}
        return got
    return None


def _xinference(ctx, rel, text, version, call, r) -> Site | None:
    """`client.launch_model(model_name=…, model_engine="vllm", n_gpu=2, gpu_memory_utilization=0.9)`:
    keywords that are not Xinference's own go to the engine."""
    from vllm_kb.engine.kb import deploy_tools
    from vllm_kb.engine.scan import tool_launch

    kw = {k.arg: k for k in call.keywords if k.arg}
    for k in call.keywords:  # `**{"limit-mm-per-prompt": …}`: launch_model takes each entry as a keyword, as written
        if k.arg is None and isinstance(k.value, ast.Dict):
            for key, v in zip(k.value.keys, k.value.values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    kw.setdefault(key.value, ast.keyword(arg=key.value, value=v, lineno=key.lineno, col_offset=key.col_offset,
                                                         end_lineno=v.end_lineno, end_col_offset=v.end_col_offset))

    def value(*keys):  # the first of these keywords the call writes, as a plain value
        got = next((setting(r, k, kw[k].value, rel, text, k) for k in keys if k in kw), None)
        return got.value if got is not None and got.resolved else None
    by_itself = None
    if "model_engine" not in kw:  # before 0.11.0 Xinference chose the engine itself
        if "xinference" not in text:
            return None
        by_itself = xinference_engine.auto_vllm(ctx, rel, version, value("model_name"), value("model_format"), value("quantization"),
                                                "peft_model_config" in kw or "peft_model_path" in kw, value("model_type"))
        if by_itself is None:
            return None
    else:
        engine = setting(r, "model_engine", kw["model_engine"].value, rel, text, "model_engine")
        if not (engine.resolved and str(engine.value).lower() == "vllm"):
            return None
    know = deploy_tools.load("xinference")
    site = Site(file=rel, line=call.lineno, syntax="python-call", kind="xinference launch_model()", mode="framework_integrated",
                mode_evidence=f"{rel}:{call.lineno}", end_line=call.end_lineno or call.lineno)
    site.tool = "xinference"
    if by_itself:
        site.launch["engine_by"] = by_itself
    for name, k in kw.items():
        if name not in know["python_keys"]:
            place(ctx, site, setting(r, name, k.value, rel, text, name, (k, k)), version)
    if "model_path" in kw:
        site.model = setting(r, "model", kw["model_path"].value, rel, text, "model_path")
    else:
        name = setting(r, "model_name", kw["model_name"].value, rel, text, "model_name") if "model_name" in kw else None
        site.model = tool_launch.registry_model(name.value if name is not None and name.resolved else None,
                                                value("model_size_in_billions", "size_in_billions"), value("model_format"),
                                                value("quantization"), rel, call.lineno, "model_name", name.raw if name else "",
                                                "python-call", ctx)
    n_gpu, gpu_idx = (setting(r, k, kw[k].value, rel, text, k) if k in kw else None for k in ("n_gpu", "gpu_idx"))
    n_gpu_v, gpu_idx_v = ((s.value if s.resolved else xinference_engine.UNREAD) if s is not None else None for s in (n_gpu, gpu_idx))
    gpus, by = xinference_engine.gpus_given(n_gpu_v, gpu_idx_v, "replica_config" in kw)
    nw = setting(r, "n_worker", kw["n_worker"].value, rel, text, "n_worker").value if "n_worker" in kw else None
    xinference_engine.place_gpus(site, gpus, by, rel, call.lineno, "n_gpu", multi_worker=isinstance(nw, int) and nw > 1)
    xinference_engine.note_gpu_ids(site, gpu_idx_v, None)
    if "model_type" in kw:  # which of its engine classes Xinference builds (LLM, embedding, rerank)
        mt = setting(r, "model_type", kw["model_type"].value, rel, text, "model_type")
        if mt.resolved and isinstance(mt.value, str):
            site.launch["model_type"] = mt.value
    site.framework_defaults = xinference_defaults.engine_defaults(ctx, rel, {}, {k: v for k, v in know["defaults"].items()
                                                                              if k not in site.settings})
    site.source = {"call": call, "text": text, "target": "xinference", "func": r.lines.segment(call.func)}
    return site


def rest_body(call: ast.Call) -> ast.Dict | None:
    """The literal JSON body of `requests.post(url, json={…})` (or `data=json.dumps({…})`) when it names a
    model_engine: a launch over Xinference's REST API (engine/scan/xinference_rest.py)."""
    for k in call.keywords:
        node = k.value
        if k.arg == "data" and isinstance(node, ast.Call) and _dotted(node.func).endswith("dumps") and node.args:
            node = node.args[0]
        elif k.arg != "json":
            continue
        if isinstance(node, ast.Dict) and any(isinstance(x, ast.Constant) and x.value == "model_engine" for x in node.keys):
            return node
    return None


def _xinference_rest(ctx, rel, text, version, call, r) -> Site | None:
    """`requests.post(url + "/v1/models", json={"model_engine": "vllm", …})`: the server hands the body to
    launch_model as keywords, so the body is read as that call; its entries are not keywords a fix can add to."""
    d = rest_body(call)
    if d is None:
        return None
    kws = [ast.keyword(arg=k.value, value=v, lineno=k.lineno, col_offset=k.col_offset, end_lineno=v.end_lineno,
                       end_col_offset=v.end_col_offset) for k, v in zip(d.keys, d.values) if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    as_call = ast.copy_location(ast.Call(func=call.func, args=[], keywords=kws), call)
    as_call.end_lineno, as_call.end_col_offset = call.end_lineno, call.end_col_offset
    site = _xinference(ctx, rel, text, version, as_call, r)
    if site is not None:
        site.kind = xinference_rest.KIND
        site.source = {**(site.source or {}), "target": "xinference-rest"}
    return site


def _mapping(r, node) -> TrackedDict | None:
    if node is None:
        return None
    flow = r.flow if r.flow is not None else Flow([], r)
    got = flow._container(node)
    return got if isinstance(got, TrackedDict) else None


def _kw(call: ast.Call, name: str):
    return next((k.value for k in call.keywords if k.arg == name), None)


def _llm_config(ctx, rel, text, version, call, r, kind, mode, tool) -> Site:
    site = Site(file=rel, line=call.lineno, syntax="python-call", kind=kind, mode=mode, mode_evidence=f"{rel}:{call.lineno}",
                end_line=call.end_lineno or call.lineno)
    site.tool = tool
    mlc = _mapping(r, _kw(call, "model_loading_config"))
    src = None
    if mlc is not None:
        src = mlc.items.get("model_source") or mlc.items.get("model_id")
    elif _kw(call, "model_source") is not None:
        node = _kw(call, "model_source")
        site.model = setting(r, "model", node, rel, text, "model_source")
    if src is not None and src.node is not None:
        site.model = setting(r, "model", src.node, rel, text,
                             "model_source" if mlc is not None and "model_source" in mlc.items else "model_id")
    kwargs = _kw(call, "engine_kwargs")
    tracked = _mapping(r, kwargs)
    if tracked is not None:
        place_items(ctx, site, r, tracked, rel, text, version, kwargs.lineno)
    elif kwargs is not None:
        site.opaque.append({"code": "spread", "what": "engine_kwargs=" + ast.unparse(kwargs), "where": f"{rel}:{kwargs.lineno}"})
    site.env = _runtime_env(r, _kw(call, "runtime_env"), rel)
    site.gpu_types = _other_accelerator(r, _kw(call, "accelerator_type"))
    tp, pp = (site.settings.get(k) for k in ("tensor_parallel_size", "pipeline_parallel_size"))
    if tp is None or tp.resolved:
        tpv = tp.value if tp is not None else 1
        ppv = pp.value if pp is not None and pp.resolved else (1 if pp is None else None)
        if isinstance(tpv, int) and isinstance(ppv, int):
            site.gpu_request = tpv * ppv
    site.source = {"call": call, "text": text, "target": kind, "func": r.lines.segment(call.func) or kind}
    return site


def _other_accelerator(r, node) -> list[str]:
    """LLMConfig(accelerator_type="TPU-V6E"): Ray places the engine's workers only on nodes of that
    accelerator (ray.util.accelerators names TPUs, Gaudi, AMD Instinct, Ascend, Intel GPUs beside NVIDIA's).
    Only another platform's name is kept: an NVIDIA one leaves the GPU to --gpu as before."""
    from vllm_kb.engine.scan.gpu_types import other_platform
    from vllm_kb.engine.scan.python_scope import Unresolved

    try:
        name = r.value(node) if node is not None else None
    except (Unresolved, RecursionError):
        return []
    return [name.strip()] if isinstance(name, str) and other_platform(name) else []


def _runtime_env(r, node, rel: str) -> dict[str, Setting]:
    """`runtime_env=dict(env_vars={…})` of an LLMConfig: the variables Ray sets where vLLM runs."""
    from vllm_kb.engine.scan.python_scope import Unresolved

    rt = _mapping(r, node)
    it = rt.items.get("env_vars") if rt is not None else None
    if it is None or it.node is None or it.uncertain:
        return {}
    try:
        got = r.value(it.node)
    except (Unresolved, RecursionError):
        return {}
    return {str(k): Setting(str(k), str(v), True, rel, it.node.lineno, str(k), str(v), "python-call")
            for k, v in (got.items() if isinstance(got, dict) else ()) if isinstance(v, (str, int, float))}


def _chat_model(ctx, rel, text, call, r) -> Site | None:
    """`ChatModel(dict(model_name_or_path=…, infer_backend="vllm", vllm_maxlen=…))`: the keys of
    LLaMA-Factory's inference arguments (knowledge/frameworks/llamafactory.yaml)."""
    from vllm_kb.engine.kb import frameworks

    fw = frameworks.get("llamafactory")
    node = call.args[0] if call.args else _kw(call, "args")
    d = _mapping(r, node)
    if d is None:
        return None
    entries = []
    for key, it in d.items.items():
        if it.uncertain or it.node is None:
            continue
        entries.append(framework_site.Entry(key, setting(r, key, it.node, rel, text, key, it.span)))
    s = framework_site.build_site(fw, entries, file=rel, line=call.lineno, end_line=call.end_lineno or call.lineno,
                                  syntax="python-call", kind="llamafactory ChatModel()",
                                  version=ctx.framework_version(rel, fw.package), command="chat",
                                  source={"call": call, "text": text, "target": "ChatModel", "func": r.lines.segment(call.func)})
    return s


def _openai_server(ctx, rel, text, version, call, r) -> Site | None:
    """vLLM's OpenAI server started in-process from a namespace: `make_arg_parser(…).parse_args([])`
    gives vLLM's defaults, and the attributes the code sets are the settings."""
    if not call.args or not isinstance(call.args[0], ast.Name) or r.flow is None:
        return None
    ns = r.flow.get(call.args[0].id)
    if not isinstance(ns, TrackedDict):
        return None
    site = Site(file=rel, line=call.lineno, syntax="python-call", kind="vllm serve (in-process)", mode="standalone_serve",
                mode_evidence=f"{rel}:{call.lineno}", end_line=call.end_lineno or call.lineno)
    for key, it in ns.items.items():
        place_item(ctx, site, r, key, it, rel, text, version, call.lineno)
    for what in ns.unknown:
        site.opaque.append({"code": "spread", "what": what, "where": f"{rel}:{call.lineno}"})
    if ns.namespace == "command-line":
        site.opaque.append({"code": "command-line", "what": call.args[0].id,
                            "where": f"{rel}:{call.lineno}"})
    if site.model is None:
        site.model = Setting("model", None, False, rel, call.lineno, "model", "", "python-call", "not set in the code")
    site.source = {"call": call, "text": text, "target": "openai-server", "func": r.lines.segment(call.func)}
    return site
