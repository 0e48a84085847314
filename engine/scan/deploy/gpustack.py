"""GPUStack: a model with `backend: vLLM` — the model spec its API takes (`POST /v1/models`, the UI's
form, `gpustack` scripts), written as YAML or JSON, or a spec of a custom model catalog
(`model_sets[].specs[]`, `--model-catalog-file`) — is started by a worker as `vllm serve <model>`
followed by what GPUStack adds and the `backend_parameters` (gpustack/worker/backends/vllm.py,
`VLLMServer.start` 0.3.0–0.7.x, `_build_command_args` in 2.x):

- `--max-model-len 8192` when the model's derived length is longer and the parameters set none
  (every release since 0.3.0; issue #313 was a default written whatever the model's length): a
  cap the checks apply once the length is known (`launch.max_model_len_cap`, engine/check/tool_caps.py);
- the tensor-parallel size: the number of GPUs of the instance on one worker, unless a parameter
  sets tp/pp/dp (`get_auto_parallelism_arguments`); the GPUs are those `gpu_selector.gpu_ids` names
  or `gpus_per_replica` asks for, else the scheduler's choice, unknown here; across several workers
  the split is the scheduler's too;
- `--host`, `--port` and `--served-model-name` (the model's name).

Each `backend_parameters` item is argv: one token, `--key=value`, or `--key value` that 2.x splits
(`flatten_to_argv`); an item of several tokens is read split, and is not edited by a fix. The split
is GPUStack's own (gpustack/utils/command.py `safe_split`): an item that does not open with a key is
one token as written, and a JSON value after `=` is one token, spaces and quotes kept
(`'--limit-mm-per-prompt={"image": 1}'`), as 0.x passed every item. A spec whose `gpu_filters`
name another vendor's GPUs (Ascend NPUs, AMD) runs that platform's vLLM build. The vLLM
release is the spec's `backend_version` (0.6+: a versioned vLLM executable; 2.x: the runner image
`gpustack/runner:…-vllm<version>`), else the one a GPUStack server image of the project bundles
(knowledge/deploy/framework_images.yaml), else the folder's pin."""
from __future__ import annotations

import re
import shlex

from vllm_kb.engine.kb import versions, yamlio
from vllm_kb.engine.scan.context import ScanContext, texts_with
from vllm_kb.engine.scan.deploy.common import launch_site, yaml_word
from vllm_kb.engine.scan.images import image_version
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Setting, Site

_SOURCES = {"huggingface": "huggingface_repo_id", "model_scope": "model_scope_model_id", "local_path": "local_path"}
# the keys GPUStack reads as parallelism the user chose (written without their dashes)
_PARALLEL = frozenset({"tensor-parallel-size", "tp", "pipeline-parallel-size", "pp", "data-parallel-size", "dp"})
# _derive_max_model_len: a longer model runs with this unless the parameters name max-model-len
MAX_LEN_CAP = 8192


def _source_key(spec: dict) -> str | None:
    src = spec.get("source")
    if isinstance(src, str) and src in _SOURCES:
        return _SOURCES[src] if spec.get(_SOURCES[src]) else None
    return next((k for k in _SOURCES.values() if isinstance(spec.get(k), str) and spec[k]), None)


def _is_vllm_spec(spec) -> bool:
    return (isinstance(spec, dict) and str(spec.get("backend", "")).strip().lower() == "vllm"
            and _source_key(spec) is not None and (isinstance(spec.get("backend_parameters"), list)
                                                   or "source" in spec))


def is_gpustack(data) -> bool:
    """A model spec, a list of them (`items:`, the API's list), or a model catalog."""
    if not isinstance(data, dict):
        return False
    if isinstance(data.get("model_sets"), list):
        return any(isinstance(m, dict) and any(_is_vllm_spec(s) for s in m.get("specs") or []) for m in data["model_sets"])
    if isinstance(data.get("items"), list) and "kind" not in data:
        return any(_is_vllm_spec(s) for s in data["items"])
    return _is_vllm_spec(data)


def scan_gpustack(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    data = doc.data
    found: list[tuple[tuple, dict, str]] = []
    if isinstance(data.get("model_sets"), list):
        for i, ms in enumerate(data["model_sets"]):
            for j, spec in enumerate((ms.get("specs") or []) if isinstance(ms, dict) else []):
                found.append((("model_sets", i, "specs", j), spec, str(ms.get("name") or "")))
    elif isinstance(data.get("items"), list):
        found += [(("items", i), s, str(s.get("name") or "") if isinstance(s, dict) else "") for i, s in enumerate(data["items"])]
    else:
        found.append(((), data, str(data.get("name") or "")))
    out = []
    for base, spec, name in found:
        if _is_vllm_spec(spec) and (site := _spec(ctx, rel, doc, base, spec, name)) is not None:
            out.append(site)
    return out


def _spec(ctx: ScanContext, rel: str, doc: yamlio.Document, base: tuple, spec: dict, name: str) -> Site | None:
    key = _source_key(spec) or ""
    line = doc.line_of(base + (key,))
    ex = Expander()
    words = [yaml_word(t, line, ex) for t in ("vllm", "serve", str(spec[key]))]
    user_pos: list = []
    raw = spec.get("backend_parameters")
    params: list = raw if isinstance(raw, list) else []
    user: list = []
    for i, item in enumerate(params):
        at = doc.line_of(base + ("backend_parameters", i))
        tokens = _argv(str(item))
        user += [yaml_word(t, at, ex) for t in tokens]
        # one token is the item itself; an item of several is left for a person (2.x splits it)
        user_pos += [doc.pos(base + ("backend_parameters", i))] if len(tokens) == 1 else [None] * len(tokens)
    keys = {re.sub(r"^-+", "", str(w.value or "")).split("=", 1)[0].replace("_", "-") for w in user if str(w.value or "").startswith("-")}
    gpus, one_worker = _gpus(spec.get("gpu_selector"))
    tp_words = []
    if not keys & _PARALLEL and gpus and gpus > 1 and one_worker:
        tp_words = [yaml_word(t, doc.line_of(base + ("gpu_selector",)), ex) for t in ("--tensor-parallel-size", str(gpus))]
    served = [yaml_word(t, doc.line_of(base + ("name",)) if name else line, ex) for t in ("--served-model-name", name)] if name else []
    words += tp_words + user + served
    pos = [None] * (3 + len(tp_words)) + user_pos + [None] * len(served)
    env = {str(k): Setting(str(k), str(v), True, rel, doc.line_of(base + ("env", str(k))), str(k), str(v), "k8s-args",
                           pos=dict(doc.pos(base + ("env", str(k))), env_style="map"))
           for k, v in (spec.get("env") or {}).items()} if isinstance(spec.get("env"), dict) else {}
    got = release(ctx, rel, doc.line_of(base + ("backend_version",)), spec.get("backend_version"))
    extra = {"argv_pos": pos, "argv_append": doc.pos(base + ("backend_parameters",)),
             "env_at": dict(doc.pos(base + ("env",)), env_style="map"), "release": got}
    site = launch_site(ctx, rel, words, line, max(w.line for w in words), "k8s-args", "yaml-list", env, None, extra,
                       version=got[0] if got else None)
    if site is None:
        return None
    site.tool = "gpustack"
    if key == "model_scope_model_id":
        site.launch["model_hub"] = "modelscope"  # the worker downloads it from ModelScope, never the Hub
    site.gpu_request = gpus
    if got is not None and got[4] == "gpustack-backend":
        # the worker runs that release in an environment of its own (a runner image, a versioned venv):
        # the project's transformers or bitsandbytes pins are not what it imports
        site.launch["backend_env"] = True
    if (plat := _vendor_platform(spec.get("gpu_filters"))) is not None:
        # the accelerator facts.py reads (engine/check/site_platform.py): that platform's plugin decides its refusals
        site.launch["framework_device"] = plat
    for n in ("tensor_parallel_size",) if tp_words else ():
        s = site.settings.get(n)
        if s is not None:
            # a change is a backend parameter of its own, which GPUStack then leaves as written
            s.implied, s.span, s.note = True, None, "GPUStack runs every GPU of the instance as one tensor-parallel group"
    if not keys & _PARALLEL and not tp_words and (gpus is None or gpus > 1):
        why = ("the GPUs GPUStack's scheduler places the model on (gpu_selector names none)" if gpus is None
               else "split by GPUStack across the selected workers' GPUs")
        for n in ("tensor_parallel_size", "pipeline_parallel_size"):
            site.settings[n] = Setting(n, None, False, rel, line, n, "", "k8s-args", why, implied=True)
    if "max-model-len" not in keys:
        site.launch["max_model_len_cap"] = MAX_LEN_CAP
    if (mt := site.settings.get("served_model_name")) is not None:
        mt.implied, mt.note = True, "GPUStack serves the model under its name"
    return site


# GPUStack's gpu_filters.vendor (gpustack-runtime's ManufacturerEnum) → the platform site_platform reads
_VENDOR_PLATFORM = {"ascend": "npu", "amd": "rocm", "hygon": "rocm"}


def _vendor_platform(filters) -> str | None:
    vendor = str(filters.get("vendor") or "").strip().lower() if isinstance(filters, dict) else ""
    return _VENDOR_PLATFORM.get(vendor)


def _is_key(word: str) -> bool:
    """gpustack/utils/command.py `is_parameter_key`: `--x`/`-x`, not `--` nor a negative number."""
    if not word.startswith("-") or len(word) <= 1 or word == "--":
        return False
    try:
        float(word)
    except ValueError:
        return True
    return False


def _json_end(text: str, start: int) -> int:
    """The end of the bracketed value opening at `start` (quotes and escapes respected), or len(text)."""
    depth, quoted, escaped = 0, False, False
    for j in range(start, len(text)):
        c = text[j]
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True
        elif c == '"':
            quoted = not quoted
        elif not quoted and c in "{[":
            depth += 1
        elif not quoted and c in "}]":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def _argv(item: str) -> list[str]:
    """The tokens GPUStack makes of one item (`flatten_to_argv`): verbatim unless it opens with a key;
    then shlex, each `=`-joined JSON value masked first so it stays one token as written."""
    stripped = item.strip()
    if not stripped or not _is_key(stripped.split(None, 1)[0]):
        return [stripped or item]
    masked: list[str] = []
    values: list[str] = []
    i = 0
    while i < len(stripped):
        if stripped[i] == "=" and i + 1 < len(stripped) and stripped[i + 1] in "{[":
            end = _json_end(stripped, i + 1)
            masked.append(f"=\x1f{len(values)}\x1f")
            values.append(stripped[i + 1:end])
            i = end
            continue
        masked.append(stripped[i])
        i += 1
    text = "".join(masked)
    try:
        tokens = shlex.split(text) or [text]
    except ValueError:
        tokens = text.split() or [text]
    return [re.sub("\x1f(\\d+)\x1f", lambda m: values[int(m.group(1))], t) for t in tokens]


def _gpus(selector) -> tuple[int | None, bool]:
    """(GPUs per replica, whether they are on one worker) from a gpu_selector. `gpu_ids` are written
    `<worker>:<device>:<index>`; `gpus_per_replica` lets the scheduler pick them, on one worker first."""
    if not isinstance(selector, dict):
        return None, True
    ids = [str(g) for g in selector.get("gpu_ids") or [] if g is not None]
    per = selector.get("gpus_per_replica")
    if ids:
        n = per if isinstance(per, int) and not isinstance(per, bool) and 0 < per <= len(ids) else len(ids)
        workers = {g.split(":", 1)[0] for g in ids if ":" in g}
        return n, len(workers) <= 1 or n == 1
    if isinstance(per, int) and not isinstance(per, bool) and per > 0:
        return per, True
    return None, True


_SERVER = re.compile(r"(?<![\w./-])((?:[\w.-]+(?::\d+)?/)?gpustack/gpustack:[\w.+-]+)")
_FILES = (".yml", ".yaml", ".sh", ".bash", "Dockerfile", ".dockerfile")


def release(ctx: ScanContext, rel: str, line: int, backend_version) -> tuple | None:
    """(vLLM release, file, line, text, basis) of the spec: its backend_version, else the one
    GPUStack server image release the project starts (several releases say nothing); None: the
    folder's pin (engine/audit.py reads the tuple)."""
    v = str(backend_version).strip().lstrip("v") if backend_version is not None else ""
    if v and versions.try_parse(v) is not None:
        return ctx.catalog.resolve(v).version, rel, line, f"backend_version: {backend_version}", "gpustack-backend"
    got = ctx.__dict__.get("_gpustack_servers")
    if got is None:
        got = [(f, text.count("\n", 0, m.start()) + 1, m.group(1), t)
               for f, text in texts_with(ctx, ctx.files, _FILES, "gpustack/gpustack")
               for m in _SERVER.finditer(text) if (t := image_version(m.group(1)))]
        ctx.__dict__["_gpustack_servers"] = got
    if not got or len({g[3] for g in got}) != 1:
        return None
    f, ln, image, tag = got[0]
    return ctx.catalog.resolve(tag).version, f, ln, image, "gpustack-server"
