"""KAITO: a `kaito.sh/v1alpha1|v1beta1 Workspace` (or an InferenceSet's template) serves
`inference.preset.name` with vLLM on the machines of `resource.instanceType` × `resource.count`.
The operator builds the command (pkg/model/interface.go, presets/workspace/models/vllm_model.go at
kaito-project/kaito 056b8280b): it chooses the parallelism from the machine's GPUs, the context length,
gpu_memory_utilization and the dtype itself, per KAITO release; the ConfigMap named by
`inference.config` holds `inference_config.yaml` whose `vllm:` keys are appended as `--key value`
(presets/workspace/inference/vllm/inference_api.py, KAITOArgumentParser.parse_args), so the user's
keys win. What KAITO chooses is read as unknown, never as vLLM's default."""
from __future__ import annotations

import json
import re
from pathlib import PurePosixPath
from typing import Any

from vllm_kb.engine.kb import deploy_tools, yamlio
from vllm_kb.engine.scan import gpu_types
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy import k8s_objects
from vllm_kb.engine.scan.deploy.common import launch_site, yaml_word
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Setting, Site

CONFIG_KEY = "inference_config.yaml"


def is_kaito(data: Any) -> bool:
    return (isinstance(data, dict) and str(data.get("apiVersion", "")).startswith("kaito.sh/")
            and data.get("kind") in ("Workspace", "InferenceSet"))


def scan_kaito(ctx: ScanContext, rel: str, doc: yamlio.Document, docs: list[yamlio.Document]) -> list[Site]:
    data = doc.data
    base: tuple = ()
    if data.get("kind") == "InferenceSet":  # spec.template holds a Workspace's resource and inference
        base = ("spec", "template")
    body = _at(data, base)
    inference = body.get("inference") if isinstance(body, dict) else None
    preset = inference.get("preset") if isinstance(inference, dict) else None
    if not isinstance(preset, dict) or not isinstance(preset.get("name"), str):
        return []  # a tuning Workspace, or an inference by a custom template: no preset to read
    table = deploy_tools.load("kaito")
    name = preset["name"].strip()
    model = table["presets"].get(name) or (name if "/" in name else None)
    ex = Expander()
    line = doc.line_of(base + ("inference", "preset", "name"))
    # inference_api.py parses with vLLM's own api_server parser: read as that entry point
    words = [yaml_word(t, line, ex) for t in ("python3", "-m", "vllm.entrypoints.openai.api_server")]
    if model:
        words.append(yaml_word(f"--model={model}", line, ex))
    cfg = inference.get("config") if isinstance(inference, dict) else None
    cfg_name = cfg if isinstance(cfg, str) else None
    cfg_rel, cfg_doc, keys = _config(ctx, rel, docs, cfg_name) if cfg_name else (None, None, {})
    if cfg_doc is not None and cfg_rel is not None:
        lines = (ctx.read(cfg_rel) or "").splitlines()
        head = cfg_doc.line_of(("data", CONFIG_KEY))
        for key, value in keys.items():
            at = _key_line(lines, head, str(key))
            flag = f"--{key}"
            if isinstance(value, bool):
                words += [yaml_word(flag, at, ex), yaml_word(str(value), at, ex)]
            elif value is not None:
                words += [yaml_word(flag, at, ex), yaml_word(json_like(value), at, ex)]
    site = launch_site(ctx, rel, words, line, max(w.line for w in words), "k8s-args", "yaml-list", {}, None)
    if site is None:
        return []
    site.tool, site.kind, site.mode = "kaito", "kaito workspace", "framework_integrated"
    if cfg_rel is not None:
        _as_config_keys(site, cfg_rel, {f"--{k}": str(k) for k in keys}, (ctx.read(cfg_rel) or "").splitlines())
    kind = (_at(body, ("resource",)) or {}).get("instanceType")
    machine = gpu_types.instance_gpu(kind)
    if machine:
        site.gpu_types, site.gpu_per_node = [machine[0]], machine[1]
    elif isinstance(kind, str) and kind.strip():
        # a machine type the cloud catalog does not list: the checks keep --gpu's card, and the report says so
        site.source = dict(site.source or {}, gpu_unlisted=kind.strip())
    if isinstance(kind, str) and kind.strip():  # where the site's GPU is written (report: its hardware line)
        site.source = dict(site.source or {}, gpu_at=f"{rel}:{doc.line_of(base + ('resource', 'instanceType'))}")
    _unnamed_gpu(site, _at(body, ("resource",)))
    part = (_at(body, ("resource",)) or {}).get("partition")
    if isinstance(part, dict) and part.get("mode") == "mig":
        site.source = dict(site.source or {}, gpu_at=f"{rel}:{doc.line_of(base + ('resource', 'partition'))}")
    if site.source and site.gpu_types and not machine:
        site.source.pop("gpu_unlisted", None)  # a placeholder or a MIG slice: no GPU facts, said as such
    sets = table["sets"]
    for arg, note in table["decides"].items():
        if arg in site.settings:
            continue
        if arg in sets:  # KAITO's own value: set, never --fix'ed (it is overridden in the ConfigMap)
            got = sets[arg]
            site.settings[arg] = Setting(arg, got["value"], True, rel, line, arg, str(got["value"]), "k8s-args",
                                         f"passed by KAITO {got['releases']}: {note}", implied=True)
            continue
        site.settings[arg] = Setting(arg, None, False, rel, line, arg, "", "k8s-args",
                                     f"chosen by KAITO at run time: {note}", implied=True)
    # what the memory estimate sizes with while the checks read KAITO's choices as unknown
    # (knowledge/deploy/kaito.yaml): TP over the machine's GPUs, PP over its machines, the length
    # KAITO or vLLM fits left to vLLM's default, the 16-bit or quantized dtype the checkpoint has
    nodes = _at(body, ("resource", "count"))
    sized = {"max_model_len": None, "dtype": "auto",
             "pipeline_parallel_size": nodes if isinstance(nodes, int) and nodes > 1 else 1}
    if machine:
        sized["tensor_parallel_size"] = machine[1]
    site.launch["sized_as"] = sized
    if token := _access_token(ctx, preset):
        site.launch["hf_token"] = token
    return [site]


def _access_token(ctx: ScanContext, preset: dict) -> str | None:
    """`presetOptions.modelAccessSecret: hf-token`: KAITO gives the inference container HF_TOKEN from that
    Secret's HF_TOKEN key, optional (SetHFToken, pkg/workspace/inference/preset_inferences.go:846 at
    056b8280b), so a Secret the project holds without that key gives none."""
    secret = _at(preset, ("presetOptions", "modelAccessSecret"))
    if not isinstance(secret, str) or not secret.strip():
        return None
    keys = k8s_objects.secret_keys(ctx, secret.strip())
    if keys is not None and "HF_TOKEN" not in keys:
        return None
    return f"HF_TOKEN ← presetOptions.modelAccessSecret: {secret.strip()}"


# `instanceType: <your-vm-sku>` (KAITO's Arc examples): a machine the user fills in, not the one --gpu names
_PLACEHOLDER = re.compile(r"^<.*>$|\$\{|\{\{|\byour[-_ ]", re.I)


def _unnamed_gpu(site: Site, resource: Any) -> None:
    """A GPU the Workspace leaves to its install: a placeholder machine type, or a MIG slice (`partition: {mode:
    mig, profile: 2g.24gb}`: one slice of a card it does not name, api/v1beta1/workspace_types.go at 056b8280b) is
    not --gpu's card, so no verdict is drawn from that card (engine/check/site_gpu.py: an unknown type); an
    `accelerator` partition gives the workload `count` whole GPUs of the node's own kind."""
    if not isinstance(resource, dict):
        return
    kind = resource.get("instanceType")
    if isinstance(kind, str) and _PLACEHOLDER.search(kind.strip()):
        site.gpu_types, site.gpu_per_node = [kind.strip()], None
    part = resource.get("partition")
    if isinstance(part, dict) and part.get("mode") == "mig":
        site.gpu_types, site.gpu_per_node, site.gpu_request = [f"MIG slice {part.get('profile') or ''}".strip()], None, 1
    elif isinstance(part, dict) and part.get("mode") == "accelerator" and isinstance(part.get("count"), int) and part["count"] > 0:
        site.gpu_request = part["count"]


def _as_config_keys(site: Site, cfg_rel: str, spelled: dict[str, str], lines: list[str]) -> None:
    """The ConfigMap's options named as the file writes them, `swap-space: 4` at the key's line of that file
    (a change is told as the key to edit, not as a flag no file holds); the site's changes are written the
    same way (fix/syntax.py deploy_text)."""
    for st in (*site.settings.values(), *site.unknown.values()):
        if st.implied or st.key not in spelled:
            continue
        text = lines[st.line - 1] if 0 < st.line <= len(lines) else ""
        st.file, st.key, st.syntax = cfg_rel, spelled[st.key], "helm-values"  # an operator's values: `key: value`
        st.raw = text.partition(":")[2].split(" #")[0].strip() or st.raw
    site.source = dict(site.source or {}, option_keys="kaito")


def json_like(value: Any) -> str:
    """A YAML value as KAITO writes it on the command line: `str(value)` of the parsed value,
    except that mappings and lists are JSON (what vLLM's JSON flags read)."""
    return json.dumps(value) if isinstance(value, (dict, list)) else str(value)


def _at(data: Any, path: tuple) -> Any:
    for p in path:
        data = data.get(p) if isinstance(data, dict) else None
    return data


def _key_line(lines: list[str], head: int, key: str) -> int:
    """The line of `key:` inside the ConfigMap's block scalar that starts after line `head`."""
    rx = re.compile(r"^\s+" + re.escape(key) + r"\s*:")
    for i in range(head, min(len(lines), head + 400)):
        if rx.match(lines[i]):
            return i + 1
    return head


def _config(ctx: ScanContext, rel: str, docs: list[yamlio.Document], name: str):
    """(file, document, the `vllm:` keys) of the ConfigMap `name`: in the same file, else in a YAML
    file of the same folder."""
    folder = PurePosixPath(rel).parent
    cands = [(rel, docs)]
    for f in sorted(ctx.files):
        if f != rel and f.endswith((".yaml", ".yml")) and PurePosixPath(f).parent == folder:
            text = ctx.read(f) or ""
            if CONFIG_KEY in text and name in text:
                try:
                    cands.append((f, yamlio.load_all(text)))
                except Exception:  # noqa: BLE001 — its own scan reports the parse error
                    continue
    for f, ds in cands:
        for d in ds:
            data = d.data
            if (isinstance(data, dict) and data.get("kind") == "ConfigMap"
                    and (data.get("metadata") or {}).get("name") == name and isinstance(data.get("data"), dict)):
                body = data["data"].get(CONFIG_KEY)
                try:
                    parsed = yamlio.load_all(body)[0].data if isinstance(body, str) else None
                except Exception:  # noqa: BLE001 — KAITO refuses it too; the keys stay unknown
                    parsed = None
                keys = parsed.get("vllm") if isinstance(parsed, dict) else None
                return f, d, keys if isinstance(keys, dict) else {}
    return None, None, {}
