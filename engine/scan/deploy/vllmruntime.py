"""production-stack's operator: a `production-stack.vllm.ai/v1alpha1 VLLMRuntime` becomes the
Deployment whose container runs `/opt/venv/bin/vllm serve <model.modelURL> --host 0.0.0.0 --port
<vllmConfig.port>` and the flags its fields ask for (operator/internal/controller/vllmruntime_controller.go,
deploymentForVLLMRuntime, unchanged from the CRD's restructure ff533f81 to a6c01db05; the fields in
operator/api/v1alpha1/vllmruntime_types.go). Two things the operator writes whatever the resource
says: `--no-enable-chunked-prefill` / `--no-enable-prefix-caching` unless the key is true, and
`VLLM_USE_V1=0` unless `vllmConfig.v1` is true.

The CRD's first schema (5b7af2b1, before that restructure) kept every field at the top of `spec`
(`spec.image`, `spec.v1`, `spec.extraArgs`, `spec.resources`) and ran `python3 -m
vllm.entrypoints.openai.api_server --model <modelURL>`; a resource written for it (production-stack's
own gateway sample, image lmcache/vllm-openai:2025-05-05-v1) is read by that schema: the image it
names, not the project's pins, holds the release."""
from __future__ import annotations

import json
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.common import int_gpus, launch_site, plain_yaml, yaml_word
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Setting, Site

# (section, key, flag, switch) in the order the controller appends them; gpu_memory_utilization and
# max_loras in the spelling it writes
FLAGS = (("model", "enableLoRA", "--enable-lora", True), ("model", "enableTool", "--enable-auto-tool-choice", True),
         ("model", "toolCallParser", "--tool-call-parser", False))
SIZES = (("model", "maxModelLen", "--max-model-len"), ("model", "dtype", "--dtype"),
         ("vllmConfig", "tensorParallelSize", "--tensor-parallel-size"), ("model", "maxNumSeqs", "--max-num-seqs"),
         ("vllmConfig", "gpuMemoryUtilization", "--gpu_memory_utilization"), ("vllmConfig", "maxLoras", "--max_loras"))
# where a fix writes an engine argument the resource has a field for (deploy_edits.py); the rest go
# to vllmConfig.extraArgs
KEYS = {"max_model_len": ("model", "maxModelLen"), "dtype": ("model", "dtype"), "max_num_seqs": ("model", "maxNumSeqs"),
        "tensor_parallel_size": ("vllmConfig", "tensorParallelSize"),
        "gpu_memory_utilization": ("vllmConfig", "gpuMemoryUtilization"), "max_loras": ("vllmConfig", "maxLoras"),
        "enable_chunked_prefill": ("vllmConfig", "enableChunkedPrefill"),
        "enable_prefix_caching": ("vllmConfig", "enablePrefixCaching")}


def crd_value(target: str, value: Any) -> Any:
    """A value as the CRD types it: gpuMemoryUtilization is a string field."""
    return str(value) if target == "gpu_memory_utilization" else value


def is_vllmruntime(data: Any) -> bool:
    return (isinstance(data, dict) and data.get("kind") == "VLLMRuntime"
            and str(data.get("apiVersion", "")).startswith("production-stack.vllm.ai/") and isinstance(data.get("spec"), dict))


def _map(data: dict, key: str) -> dict:
    got = data.get(key)
    return got if isinstance(got, dict) else {}


def scan_vllmruntime(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    spec = doc.data["spec"]
    flat = _flat(spec)
    model, cfg = _map(spec, "model"), spec if flat else _map(spec, "vllmConfig")
    if not model.get("modelURL"):
        return []
    ex = Expander()
    start = doc.line_of(("spec", "model", "modelURL"))
    head = ("python3", "-m", "vllm.entrypoints.openai.api_server", "--model") if flat else ("/opt/venv/bin/vllm", "serve")
    words = [yaml_word(t, start, ex) for t in (*head, str(model["modelURL"]), "--host", "0.0.0.0")]
    at = ("spec",) if flat else ("spec", "vllmConfig")  # where the engine's fields sit
    argv_pos: list = [None] * len(words)
    written: dict[int, tuple[str, object]] = {}
    implied: dict[str, str] = {}

    def add(tokens: list[str], path: tuple | None, value: Any = None) -> None:
        ln = doc.line_of(path) if path else doc.line_of(at) if cfg and not flat else start
        words.extend(yaml_word(t, ln, ex) for t in tokens)
        pos = dict(doc.pos(path), ps_key=path[-1]) if path else None
        argv_pos.extend([pos] * len(tokens))
        if path:
            written[ln] = (".".join(path[1:]), value)

    port = cfg.get("port", 8000)  # the CRD's default
    add(["--port", plain_yaml(port)], (*at, "port") if "port" in cfg else None, port)
    for section, key, flag, switch in FLAGS:
        value = (model if section == "model" else cfg).get(key)
        if value not in (None, False, ""):
            add([flag] if switch else [flag, plain_yaml(value)], ("spec", section, key) if section == "model" else (*at, key), value)
    for key, flag in (("enableChunkedPrefill", "--enable-chunked-prefill"), ("enablePrefixCaching", "--enable-prefix-caching")):
        on = cfg.get(key) is True
        add([flag if on else "--no-" + flag[2:]], (*at, key) if key in cfg else None, cfg.get(key))
        implied[flag[2:].replace("-", "_")] = key
    for section, key, flag in SIZES:
        value = (model if section == "model" else cfg).get(key)
        if value not in (None, "", 0):
            add([flag, plain_yaml(value)], ("spec", section, key) if section == "model" else (*at, key), value)
    extra = cfg["extraArgs"] if isinstance(cfg.get("extraArgs"), list) else []
    for j, item in enumerate(extra):
        words.append(yaml_word(str(item), doc.line_of((*at, "extraArgs", j)), ex))
        argv_pos.append(doc.pos((*at, "extraArgs", j)))
    if model.get("chatTemplate"):
        add(["--chat-template", "/etc/chat-template.json"], None)
    if _map(spec, "lmCacheConfig").get("enabled") is True:
        conn = {"kv_connector": "LMCacheConnectorV1" if cfg.get("v1") is True else "LMCacheConnector", "kv_role": "kv_both"}
        ln = doc.line_of(("spec", "lmCacheConfig", "enabled"))
        words += [yaml_word("--kv-transfer-config", ln, ex), yaml_word(json.dumps(conn, separators=(",", ":")), ln, ex)]
        argv_pos += [None, None]
    env = _env(rel, doc, spec, model, cfg, at)
    deploy = spec if flat else _map(spec, "deploymentConfig")
    image = _map(deploy, "image")
    ref = f"{image['registry']}/{image['name']}" if image.get("registry") and image.get("name") else None
    site = launch_site(ctx, rel, words, start, max(w.line for w in words), "helm-values", "vllmruntime", env, ref,
                       # a field the first schema lacks is never written into it (deploy_edits: no crd_spec)
                       {"argv_pos": argv_pos, "argv_append": doc.pos((*at, "extraArgs")),
                        **({} if flat else {"crd_spec": doc.pos(("spec",))})})
    if site is None:
        return []
    site.tool = "production-stack"
    site.env = env
    site.gpu_request = int_gpus(_map(deploy, "resources").get("gpu"))
    site.container = {"tool": "vllmruntime"}
    if deploy.get("shmSize"):
        site.container["shm_size"] = str(deploy["shmSize"])
    for st in site.settings.values():  # named as the resource writes them, not as the flag the operator emits
        if st.line in written and st.key.startswith("--"):
            st.key, st.raw = written[st.line][0], plain_yaml(written[st.line][1])
    for arg, key in implied.items():
        if arg in site.settings:
            s = site.settings[arg]
            # one of the two flags is always written: removing the key leaves the switch off
            name = ".".join((*at[1:], key))
            s.key, s.implied, s.note = name, True, f"the VLLMRuntime operator writes it off unless {name} is true"
    return [site]


def _flat(spec: dict) -> bool:
    """A resource of the CRD's first schema: engine fields at the top of spec, neither section of the later one."""
    return "vllmConfig" not in spec and "deploymentConfig" not in spec and any(
        k in spec for k in ("image", "v1", "extraArgs", "tensorParallelSize", "gpuMemoryUtilization", "resources", "port"))


def _env(rel: str, doc: yamlio.Document, spec: dict, model: dict, cfg: dict, at: tuple) -> dict[str, Setting]:
    # the operator's variables come first and the resource's env after them: a name the resource
    # sets again is the value the process sees
    on = cfg.get("v1") is True
    ln = doc.line_of((*at, "v1")) if "v1" in cfg else doc.line_of(at)
    env = {"VLLM_USE_V1": Setting("VLLM_USE_V1", "1" if on else "0", True, rel, ln, ".".join((*at[1:], "v1")), str(cfg.get("v1", "")).lower(),
                                  "helm-values", f"set by the VLLMRuntime operator from {'.'.join((*at[1:], 'v1'))} (0 unless it is true)", implied=True)}
    if model.get("enableLoRA") is True:
        env["VLLM_ALLOW_RUNTIME_LORA_UPDATING"] = Setting("VLLM_ALLOW_RUNTIME_LORA_UPDATING", "True", True, rel, doc.line_of(("spec", "model", "enableLoRA")),
                                                          "model.enableLoRA", "true", "helm-values", "set by the VLLMRuntime operator for enableLoRA", implied=True)
    if _map(spec, "lmCacheConfig").get("enabled") is True:
        env["VLLM_RPC_TIMEOUT"] = Setting("VLLM_RPC_TIMEOUT", "1000000", True, rel, doc.line_of(("spec", "lmCacheConfig", "enabled")),
                                          "lmCacheConfig.enabled", "true", "helm-values", "set by the VLLMRuntime operator for LMCache", implied=True)
    secret = model.get("hfTokenSecret") or (spec.get("hfTokenSecret") if at == ("spec",) else None)
    if isinstance(secret, dict) and any(isinstance(v, str) and v for v in secret.values()):
        # HF_TOKEN from the named Secret: its name counts (L51), its value is never read
        env["HF_TOKEN"] = Setting("HF_TOKEN", None, False, rel, doc.line_of(("spec", "model", "hfTokenSecret")), "model.hfTokenSecret", "", "helm-values")
    for i, e in enumerate(cfg["env"] if isinstance(cfg.get("env"), list) else []):
        if isinstance(e, dict) and "name" in e and "value" in e:
            ln = doc.line_of((*at, "env", i))
            env[str(e["name"])] = Setting(str(e["name"]), str(e["value"]), True, rel, ln, str(e["name"]), str(e["value"]), "helm-values")
    return env
