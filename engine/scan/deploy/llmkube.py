"""LLMKube (defilantech/LLMKube): an `inference.llmkube.dev/v1alpha1 InferenceService` with
`runtime: vllm` is the `vllm serve <model> --port <port> --host ::` its operator writes
(internal/controller/runtime_vllm.go BuildArgs and runtime_vllm_args.go at 907ac8d8): one flag per
`vllmConfig` field in the order the builder appends them, `--tensor-parallel-size <GPUs>` when the
field is unset and the pod has more than one GPU, `spec.parallelSlots` as `--max-num-seqs`, then
`spec.extraArgs`. The model is the `Model` resource `spec.modelRef` names (its `source`, a Hugging
Face repository; its `hardware.gpu.count` before the service's `resources.gpu`). The prefix-caching
and chunked-prefill switches are written only when true."""
from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.common import int_gpus, launch_site, plain_yaml, yaml_word
from vllm_kb.engine.scan.shell_expand import Expander, hole
from vllm_kb.engine.scan.site import Setting, Site

_GROUP = "inference.llmkube.dev/"
# vllmConfig fields → flag, in BuildArgs' order; switches only when true
_FLAGS = (("tensorParallelSize", "--tensor-parallel-size"), ("maxModelLen", "--max-model-len"),
          ("quantization", "--quantization"), ("dtype", "--dtype"), ("kvCacheDtype", "--kv-cache-dtype"),
          ("enablePrefixCaching", "--enable-prefix-caching"), ("enableChunkedPrefill", "--enable-chunked-prefill"),
          ("maxNumBatchedTokens", "--max-num-batched-tokens"), ("attentionBackend", "--attention-backend"),
          ("speculative", "--speculative-model"), ("enableExpertParallel", "--enable-expert-parallel"),
          ("cpuOffloadGB", "--cpu-offload-gb"), ("gpuMemoryUtilization", "--gpu-memory-utilization"))
_SWITCHES = {"enablePrefixCaching", "enableChunkedPrefill", "enableExpertParallel"}
_GPU_ONLY = {"cpuOffloadGB", "gpuMemoryUtilization"}  # skipped without a GPU (the builder logs it)
# where a fix writes an engine argument the resource has a field for (deploy_edits.py); the rest go to
# spec.extraArgs. Only a true switch can be written as its field.
KEYS = {"tensor_parallel_size": ("vllmConfig", "tensorParallelSize"), "max_model_len": ("vllmConfig", "maxModelLen"),
        "quantization": ("vllmConfig", "quantization"), "dtype": ("vllmConfig", "dtype"),
        "max_num_batched_tokens": ("vllmConfig", "maxNumBatchedTokens"),
        "gpu_memory_utilization": ("vllmConfig", "gpuMemoryUtilization"), "max_num_seqs": ("parallelSlots",),
        "enable_prefix_caching": ("vllmConfig", "enablePrefixCaching"),
        "enable_chunked_prefill": ("vllmConfig", "enableChunkedPrefill")}


def is_llmkube_vllm(data: Any) -> bool:
    spec = data.get("spec") if isinstance(data, dict) else None
    return (isinstance(spec, dict) and str(data.get("apiVersion", "")).startswith(_GROUP)
            and data.get("kind") == "InferenceService" and spec.get("runtime") == "vllm")


def _map(data: Any, key: str) -> dict:
    got = data.get(key) if isinstance(data, dict) else None
    return got if isinstance(got, dict) else {}


def scan_llmkube(ctx: ScanContext, rel: str, doc: yamlio.Document, docs: list[yamlio.Document]) -> list[Site]:
    spec = doc.data["spec"]
    cfg = _map(spec, "vllmConfig")
    model = _model(ctx, rel, docs, str(spec.get("modelRef") or ""))
    source = _repo(str(model.get("source") or "")) if model else None
    gpus = int_gpus(_map(_map(model, "hardware"), "gpu").get("count")) or int_gpus(_map(spec, "resources").get("gpu")) or 0
    ex = Expander()
    start = doc.line_of(("spec", "modelRef"))
    port = spec.get("containerPort") or _map(spec, "endpoint").get("port") or 8000
    extra = [str(x) for x in spec["extraArgs"]] if isinstance(spec.get("extraArgs"), list) else []
    words = [yaml_word(t, start, ex) for t in ("vllm", "serve", source or hole("the Model resource's source"), "--port", str(port))]
    argv_pos: list = [None] * len(words)
    written: dict[str, tuple[str, object]] = {}  # flag → (the field as the resource writes it, its value)

    def add(tokens: list[str], path: tuple | None, value: Any = None) -> None:
        ln = doc.line_of(path) if path else start
        words.extend(yaml_word(t, ln, ex) for t in tokens)
        argv_pos.extend([dict(doc.pos(path), ps_key=path[-1]) if path else None] * len(tokens))
        if path:
            written[tokens[0]] = (".".join(str(p) for p in path[1:]), value)

    if not any(a in ("--host", "-host") or a.startswith("--host=") for a in extra):
        add(["--host", str(spec.get("bindAddress") or "::")], ("spec", "bindAddress") if spec.get("bindAddress") else None)
    for key, flag in _FLAGS:
        value, path = cfg.get(key), ("spec", "vllmConfig", key)
        if key == "kvCacheDtype" and cfg.get("kvCacheCustomDtype"):  # the custom type wins
            value, path = cfg["kvCacheCustomDtype"], ("spec", "vllmConfig", "kvCacheCustomDtype")
        if value is None or value == "" or (key in _GPU_ONLY and not gpus):
            continue
        if key in _SWITCHES:
            if value is True:
                add([flag], path, value)
        elif key == "speculative":
            if isinstance(value, dict) and value.get("enabled") is True and value.get("model"):
                add([flag, str(value["model"])], path + ("model",), value["model"])
                if value.get("numSpeculativeTokens") is not None:
                    add(["--num-speculative-tokens", plain_yaml(value["numSpeculativeTokens"])], path + ("numSpeculativeTokens",),
                        value["numSpeculativeTokens"])
        elif key == "tensorParallelSize" and not (isinstance(value, int) and value > 1):
            continue
        elif key == "kvCacheDtype" and value == "auto":
            continue
        else:
            add([flag, plain_yaml(value)], path, value)
    if gpus > 1 and "tensorParallelSize" not in cfg:
        add(["--tensor-parallel-size", str(gpus)], None)
    slots = spec.get("parallelSlots")
    if isinstance(slots, int) and slots >= 1 and not any(a.lstrip("-").split("=")[0] == "max-num-seqs" for a in extra):
        add(["--max-num-seqs", str(slots)], ("spec", "parallelSlots"), slots)
    for j, item in enumerate(extra):
        words.append(yaml_word(item, doc.line_of(("spec", "extraArgs", j)), ex))
        argv_pos.append(doc.pos(("spec", "extraArgs", j)))
    env = _env(rel, doc, spec, cfg)
    site = launch_site(ctx, rel, words, start, max(w.line for w in words), "helm-values", "llmkube", env, spec.get("image") or None,
                       {"argv_pos": argv_pos, "argv_append": doc.pos(("spec", "extraArgs")), "crd_spec": doc.pos(("spec",))})
    if site is None:
        return []
    site.tool, site.env, site.gpu_request = "llmkube", env, gpus or None
    site.container = {"tool": "llmkube", **_shm(spec)}
    for st in site.settings.values():  # named as the resource writes them, not as the flag the operator emits
        if st.key in written:
            st.key, st.raw = written[st.key][0], plain_yaml(written[st.key][1])
    tp = site.settings.get("tensor_parallel_size")
    if tp is not None and "tensorParallelSize" not in cfg:
        tp.key, tp.implied, tp.note = "resources.gpu", True, "written by LLMKube from the pod's GPU count"
    return [site]


def _shm(spec: dict) -> dict:
    """/dev/shm of the vLLM container: the operator mounts none, so the runtime's 64 MiB unless
    `extraVolumeMounts` puts one of `extraVolumes` there (an emptyDir of its sizeLimit, else unbounded)."""
    mounts = spec["extraVolumeMounts"] if isinstance(spec.get("extraVolumeMounts"), list) else []
    name = next((m.get("name") for m in mounts if isinstance(m, dict) and str(m.get("mountPath", "")).rstrip("/") == "/dev/shm"), None)
    if name is None:
        return {}
    vols = spec["extraVolumes"] if isinstance(spec.get("extraVolumes"), list) else []
    vol = next((v for v in vols if isinstance(v, dict) and v.get("name") == name), {})
    if isinstance(vol.get("emptyDir"), dict):
        return {"shm_size": str(vol["emptyDir"]["sizeLimit"]) if vol["emptyDir"].get("sizeLimit") else "unbounded"}
    return {"shm_size": "unbounded" if isinstance(vol.get("hostPath"), dict) else "unknown"}


def _repo(source: str) -> str | None:
    """The Hugging Face repository a Model's `source` names (`hf://org/name@rev`, a huggingface.co
    URL, or `org/name`), as vLLM is given it; a file URL or local path is staged by the operator."""
    s = source.strip()
    for prefix in ("hf://", "https://huggingface.co/", "http://huggingface.co/"):
        if s.lower().startswith(prefix):
            s = s[len(prefix):]
            break
    else:
        if "://" in s or s.startswith(("/", ".")) or s.count("/") != 1:
            return None
    parts = s.split("/")
    return "/".join(parts[:2]) if len(parts) >= 2 and all(parts[:2]) else None


def _model(ctx: ScanContext, rel: str, docs: list[yamlio.Document], name: str) -> dict:
    """The `spec` of the Model named `name`: in the same file, else in a YAML file of the same folder."""
    cands: list[list[yamlio.Document]] = [docs]
    folder = PurePosixPath(rel).parent
    for f in sorted(ctx.files):
        if f != rel and f.endswith((".yaml", ".yml")) and PurePosixPath(f).parent == folder and name in (ctx.read(f) or ""):
            try:
                cands.append(yamlio.load_all(ctx.read(f) or ""))
            except Exception:  # noqa: BLE001 — its own scan reports the parse error
                continue
    for ds in cands:
        for d in ds:
            data = d.data
            if (isinstance(data, dict) and data.get("kind") == "Model" and str(data.get("apiVersion", "")).startswith(_GROUP)
                    and _map(data, "metadata").get("name") == name):
                return _map(data, "spec")
    return {}


def _env(rel: str, doc: yamlio.Document, spec: dict, cfg: dict) -> dict[str, Setting]:
    env: dict[str, Setting] = {}
    for i, e in enumerate(spec["env"] if isinstance(spec.get("env"), list) else []):
        if isinstance(e, dict) and "name" in e and "value" in e:
            ln = doc.line_of(("spec", "env", i))
            env[str(e["name"])] = Setting(str(e["name"]), str(e["value"]), True, rel, ln, str(e["name"]), str(e["value"]), "helm-values")
    if isinstance(cfg.get("hfTokenSecretRef"), dict):  # HF_TOKEN from the Secret: its name counts (L51), its value is never read
        env["HF_TOKEN"] = Setting("HF_TOKEN", None, False, rel, doc.line_of(("spec", "vllmConfig", "hfTokenSecretRef")),
                                  "vllmConfig.hfTokenSecretRef", "", "helm-values")
    return env
