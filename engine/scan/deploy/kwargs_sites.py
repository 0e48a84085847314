"""Sites whose engine arguments are written as a mapping of EngineArgs field names — Triton's vLLM
backend `model.json`, Ray Serve LLM `engine_kwargs` in YAML — rather than as flags."""
from __future__ import annotations

import json
import re
from pathlib import PurePosixPath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.dockerfile import final_stage_installs, is_dockerfile
from vllm_kb.engine.scan.gpu_types import other_platform
from vllm_kb.engine.scan.images import image_version
from vllm_kb.engine.scan.site import Setting, Site

_BACKEND = re.compile(r'^\s*backend\s*:\s*"vllm"', re.M)


def mapping_site(ctx: ScanContext, rel: str, mapping: dict, lines: dict[str, int], *, line: int, kind: str, mode: str,
                 tool: str, syntax: str, model=None, model_line: int | None = None, version: str | None = None) -> Site:
    """A site from {field: value}: EngineArgs fields become settings, other keys unknown."""
    version = version or ctx.version_for(rel)
    site = Site(file=rel, line=line, syntax=syntax, kind=kind, mode=mode, mode_evidence=f"{rel}:{line}", end_line=line)
    site.tool = tool
    for key, value in mapping.items():
        key = str(key)
        raw = json.dumps(value) if isinstance(value, (dict, list)) else str(value)
        s = Setting(key, value, value is not None, rel, lines.get(key, line), key, raw, syntax)
        if key == "model":
            site.model = s
            continue
        entry = ctx.catalog.arg(key)
        if entry is None:
            s.known = False
            site.unknown[key] = s
        else:
            s.known = entry.exists(version)
            if s.resolved and entry.field("type", version) == "float" and isinstance(value, int) and not isinstance(value, bool):
                s.value = float(value)
            site.settings[key] = s
    if model is not None and site.model is None:
        site.model = Setting("model", model, True, rel, model_line or line, "model", str(model), syntax)
    return site


def scan_triton(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    """`config.pbtxt` with `backend: "vllm"`: the engine arguments are `<version>/model.json`."""
    if not _BACKEND.search(text):
        return []
    folder = PurePosixPath(rel).parent
    image = _triton_image(ctx)
    release = image_version(image[0]) if image else None
    out = []
    for cand in sorted(f for f in ctx.files if PurePosixPath(f).name == "model.json" and PurePosixPath(f).parent.parent == folder
                       and PurePosixPath(f).parent.name.isdigit()):
        body = ctx.read(cand)
        try:
            data = json.loads(body or "")
        except ValueError:
            ctx.skip(cand, "parse-error", detail="invalid JSON")
            continue
        if not isinstance(data, dict):
            continue
        lines = _json_lines(body or "", data)
        ctx.referenced.add(cand)
        site = mapping_site(ctx, cand, data, lines, line=lines.get("model", 1), kind="triton vllm backend", mode="framework_integrated",
                            tool="triton", syntax="kwargs-json", version=ctx.catalog.resolve(release).version if release else None)
        if image and release:
            site.image, site.launch["image_at"] = image[0], image[1:]
        out.append(site)
    return out


_TRITON_IMAGE = re.compile(r"(?<![\w./-])((?:nvcr\.io/)?nvidia/tritonserver:[\w.-]+)")


def _triton_image(ctx: ScanContext) -> tuple[str, str, int] | None:
    """The Triton image the project serves its model repository with — a `docker run` in a script or
    a README, a compose or Kubernetes image, a Dockerfile's FROM — when all it names hold one vLLM
    release (knowledge/deploy/framework_images.yaml): (image, file, line)."""
    found: dict[str, tuple[str, str, int]] = {}
    for f in ctx.files:
        if not (f.lower().endswith((".sh", ".bash", ".yml", ".yaml", ".md")) or is_dockerfile(f)):
            continue
        text = ctx.read(f) or ""
        if is_dockerfile(f) and "tritonserver:" in text and final_stage_installs(f, text):
            continue  # `RUN pip install vllm==X` over the image: X runs, the folder's pin says so
        for m in _TRITON_IMAGE.finditer(text) if "tritonserver:" in text else ():
            release = image_version(m.group(1))
            if release:
                found.setdefault(release, (m.group(1), f, text.count("\n", 0, m.start()) + 1))
    return next(iter(found.values())) if len(found) == 1 else None


def _json_lines(text: str, data: dict) -> dict[str, int]:
    out = {}
    for k in data:
        m = re.search(r'^\s*"' + re.escape(str(k)) + r'"\s*:', text, re.M)
        if m:
            out[str(k)] = text.count("\n", 0, m.start()) + 1
    return out


def is_llm_config(data) -> bool:
    return isinstance(data, dict) and isinstance(data.get("model_loading_config"), dict)


def scan_ray_serve(ctx: ScanContext, rel: str, doc: yamlio.Document, data=None, base: tuple = (), line_offset: int = 0) -> list[Site]:
    """A Ray Serve config (`applications[].args.llm_configs[]`, inline items) or one LLMConfig file."""
    data = doc.data if data is None else data
    out = []
    if is_llm_config(data):
        out.append(_llm_config(ctx, rel, doc, data, base, line_offset))
    for i, app in enumerate(data.get("applications") or [] if isinstance(data, dict) else []):
        configs = ((app.get("args") or {}).get("llm_configs") or []) if isinstance(app, dict) and isinstance(app.get("args"), dict) else []
        for j, item in enumerate(configs):
            if is_llm_config(item):
                site = _llm_config(ctx, rel, doc, item, base + ("applications", i, "args", "llm_configs", j), line_offset)
                # the application's runtime_env is the parent of each deployment's: its own keys win
                site.env = {**_runtime_env(rel, doc, app, base + ("applications", i), line_offset), **site.env}
                out.append(site)
    return out


def _runtime_env(rel: str, doc: yamlio.Document, owner: dict, path: tuple, off: int) -> dict[str, Setting]:
    """`runtime_env.env_vars` of an application or an LLMConfig: the variables Ray sets in the
    processes that run vLLM."""
    rt = owner.get("runtime_env") if isinstance(owner, dict) else None
    env_vars = rt.get("env_vars") if isinstance(rt, dict) else None
    out: dict[str, Setting] = {}
    for k, v in (env_vars.items() if isinstance(env_vars, dict) else ()):
        if v is None or isinstance(v, (dict, list)):
            continue
        at = path + ("runtime_env", "env_vars", k)
        value = str(v).lower() if isinstance(v, bool) else str(v)
        # positions only where the YAML is the file's own text (not a RayService's string)
        out[str(k)] = Setting(str(k), value, True, rel, doc.line_of(at) + off, str(k), value, "kwargs-yaml",
                              pos=dict(doc.pos(at), env_style="map") if not off else None)
    return out


def scan_rayservice(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    """A KubeRay RayService: `spec.serveConfigV2` is a Serve config written as a YAML string
    (ray-project/kuberay ray-operator/apis/ray/v1/rayservice_types.go, `ServeConfigV2 string`); its
    `llm_configs` are read as a `serve run` config's. Lines are mapped back only from a literal block
    (`|`), where each line of the string is a line of the file; any other style leaves the string unread."""
    data = doc.data
    spec = data.get("spec") if data.get("kind") == "RayService" else None
    conf = spec.get("serveConfigV2") if isinstance(spec, dict) else None
    if not isinstance(conf, str) or "model_loading_config" not in conf:
        return []
    at = doc.line_of(("spec", "serveConfigV2"))
    lines = (ctx.read(rel) or "").splitlines()
    if not (0 < at <= len(lines) and re.search(r"serveConfigV2['\"]?\s*:\s*\|[-+0-9]*\s*(#.*)?$", lines[at - 1])):
        return []
    try:
        inner = yamlio.load(conf)
    except (yamlio.YamlError, RecursionError):
        ctx.skip(rel, "parse-error", detail="spec.serveConfigV2 is not YAML")
        return []
    if not isinstance(inner.data, dict):
        return []
    return scan_ray_serve(ctx, rel, inner, line_offset=at)


def _llm_config(ctx, rel, doc, item: dict, path: tuple, off: int) -> Site:
    mlc = item["model_loading_config"]
    given = item.get("engine_kwargs")
    kwargs: dict = given if isinstance(given, dict) else {}
    lines = {str(k): doc.line_of(path + ("engine_kwargs", k)) + off for k in kwargs}
    model = mlc.get("model_source") or mlc.get("model_id")
    src_key = "model_source" if mlc.get("model_source") else "model_id"
    site = mapping_site(ctx, rel, kwargs, lines, line=doc.line_of(path + ("model_loading_config",)) + off,
                        kind="ray.serve.llm LLMConfig", mode="framework_integrated", tool="ray-serve", syntax="kwargs-yaml",
                        model=model, model_line=doc.line_of(path + ("model_loading_config", src_key)) + off)
    site.env = _runtime_env(rel, doc, item, path, off)
    if isinstance(acc := item.get("accelerator_type"), str) and other_platform(acc):
        site.gpu_types = [acc.strip()]  # Ray places the workers on that accelerator's nodes (a TPU-V6E, Intel-GAUDI)
    tp = kwargs.get("tensor_parallel_size", 1)
    pp = kwargs.get("pipeline_parallel_size", 1)
    if all(isinstance(x, int) and not isinstance(x, bool) for x in (tp, pp)):
        site.gpu_request = tp * pp
    return site
