"""production-stack (the vllm-stack Helm chart): each `servingEngineSpec.modelSpec[]` entry becomes
the `vllm serve` command the chart release renders (knowledge/deploy/production_stack.yaml) — a
Deployment, or with `raySpec.enabled` a RayCluster whose start script adds the Ray executor and
pipeline parallelism. The chart release comes from a helmfile, a Chart.yaml dependency or a
`helm install … --version` in a script; else the newest."""
from __future__ import annotations

import json

from pathlib import PurePosixPath

from vllm_kb.engine.kb import deploy_tools, yamlio
from vllm_kb.engine.kb.deploy_tools import in_range
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.image_tables import image_ref
from vllm_kb.engine.scan.deploy.common import int_gpus, launch_site, plain_yaml, yaml_word
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Setting, Site


def scan_production_stack(ctx: ScanContext, rel: str, doc: yamlio.Document, prefix: tuple = ()) -> list[Site]:
    kb = deploy_tools.load("production_stack")
    chart = chart_version(ctx, rel) or kb["newest"]
    spec_root = _get(doc.data, prefix + ("servingEngineSpec",))
    out = []
    specs = spec_root.get("modelSpec") or []
    for i, spec in enumerate(specs if isinstance(specs, list) else []):
        if not isinstance(spec, dict):
            continue
        if spec.get("enabled") is False and in_range(kb["enabled_key"], chart):
            continue
        site = _entry(ctx, rel, doc, prefix + ("servingEngineSpec", "modelSpec", i), spec, spec_root, kb, chart)
        if site is not None:
            out.append(site)
    return out


def _entry(ctx, rel, doc, base, spec, spec_root, kb, chart) -> Site | None:
    ray = isinstance(spec.get("raySpec"), dict) and spec["raySpec"].get("enabled") and in_range(kb["raycluster"], chart)
    ex = Expander()
    start = doc.line_of(base)
    words = [yaml_word("vllm", start, ex), yaml_word("serve", start, ex)]
    # where each word is written, for fixes (engine/fix/deploy_edits.py): a key's words point at
    # the key (a fix edits the key), an extraArgs item at the item, what the chart adds at nothing
    argv_pos: list = [None, None]
    if spec.get("modelURL"):
        words.append(yaml_word(str(spec["modelURL"]), doc.line_of(base + ("modelURL",)), ex))
        argv_pos.append(None)
    written: dict[int, tuple[str, object]] = {}  # line → (key as written, value)

    def add(flag: str, key_path: tuple, value=None, switch=False):
        ln = doc.line_of(key_path)
        words.append(yaml_word(flag, ln, ex))
        if not switch:
            words.append(yaml_word(plain_yaml(value), ln, ex))
        argv_pos.extend([dict(doc.pos(key_path), ps_key=key_path[-1])] * (1 if switch else 2))
        written[ln] = (key_path[-1], value)

    for f in kb["spec_flags"]:
        if f["key"] in spec and in_range(f["charts"], chart) and spec[f["key"]] not in (None, False, ""):
            add(f["flag"], base + (f["key"],), spec[f["key"]], f.get("switch", False))
    cfg = spec.get("vllmConfig") if isinstance(spec.get("vllmConfig"), dict) else None
    cb = base + ("vllmConfig",)
    implied_prefix = False
    if cfg is not None:
        if "enableChunkedPrefill" in cfg:
            on = bool(cfg["enableChunkedPrefill"])
            if in_range(kb["chunked_prefill_switch"], chart):
                add("--enable-chunked-prefill" if on else "--no-enable-chunked-prefill", cb + ("enableChunkedPrefill",), switch=True)
            else:
                add("--enable-chunked-prefill", cb + ("enableChunkedPrefill",), "true" if on else "false")
        if cfg.get("enablePrefixCaching"):
            add("--enable-prefix-caching", cb + ("enablePrefixCaching",), switch=True)
        elif not ray and in_range(kb["prefix_caching_off"], chart):
            ln = doc.line_of(cb + ("enablePrefixCaching",) if "enablePrefixCaching" in cfg else cb)
            words.append(yaml_word("--no-enable-prefix-caching", ln, ex))
            implied_prefix = "enablePrefixCaching" not in cfg
            argv_pos.append(None if implied_prefix else dict(doc.pos(cb + ("enablePrefixCaching",)), ps_key="enablePrefixCaching"))
        for k in kb["keys"]:
            flag = k.get("ray") if ray else k.get("flag")
            if flag and k["key"] in cfg and in_range(k["charts"], chart):
                add(flag, cb + (k["key"],), cfg[k["key"]])
        extra_args = cfg.get("extraArgs") if isinstance(cfg.get("extraArgs"), list) else []
        for j, extra in enumerate(extra_args):
            words.append(yaml_word(str(extra), doc.line_of(cb + ("extraArgs", j)), ex))
            argv_pos.append(doc.pos(cb + ("extraArgs", j)))
    connector = _lmcache_connector(spec, cfg, kb, chart, ray)
    if connector is not None:
        ln = doc.line_of(base + ("lmcacheConfig",))
        words += [yaml_word("--kv-transfer-config", ln, ex), yaml_word(json.dumps(connector), ln, ex)]
        argv_pos += [None, None]
    if ray:
        words += [yaml_word("--distributed-executor-backend", start, ex), yaml_word("ray", start, ex)]
        argv_pos += [None, None]
    image = image_ref({"repository": spec.get("repository"), "tag": spec.get("tag")}) if spec.get("repository") else None
    env = _env(doc, base, spec, spec_root, cfg, kb, chart, ray, ctx, rel)
    site = launch_site(ctx, rel, words, start, words[-1].line, "helm-values", "production-stack", env, image,
                       {"model_spec": spec.get("name", base[-1]), "chart": chart, "argv_pos": argv_pos,
                        "argv_append": doc.pos(cb + ("extraArgs",)), "vllm_config": doc.pos(cb)})
    if site is None:
        return None
    site.tool = "production-stack"
    site.env = env
    site.gpu_request = int_gpus(spec.get("requestGPU"))
    if ray:
        head = int_gpus(((spec.get("raySpec") or {}).get("headNode") or {}).get("requestGPU")) or 0
        site.gpu_request = head + (int_gpus(spec.get("replicaCount")) or 1) * (site.gpu_request or 0) or None
    site.container = {"tool": "helm"}
    shm = kb.get("shm", {})
    # the RayCluster template mounts the same emptyDir on its head and workers (since it exists)
    if cfg is not None and shm.get("when_key") in cfg and in_range(shm.get("charts"), chart):
        site.container["shm_size"] = str(spec.get("shmSize") or shm["default"])
    for st in site.settings.values():  # named as written in the values, not as the flag the chart emits
        if st.line in written and st.key.startswith("--"):
            st.key, st.raw = written[st.line][0], plain_yaml(written[st.line][1])
    pc = site.settings.get("enable_prefix_caching")
    if implied_prefix and pc is not None:
        pc.note = f"emitted by vllm-stack {chart} when enablePrefixCaching is unset"
        pc.key, pc.implied = "vllmConfig.enablePrefixCaching", True
    if ray and "distributed_executor_backend" in site.settings:
        ex_s = site.settings["distributed_executor_backend"]
        ex_s.implied, ex_s.note, ex_s.key = True, "the chart's RayCluster start script", "raySpec.enabled"
    return site


def _lmcache_connector(spec, cfg, kb, chart, ray) -> dict | None:
    """The --kv-transfer-config the chart adds for `lmcacheConfig.enabled`: the V0 engine's
    LMCacheConnector unless the values choose V1 in the way this chart release reads (vllmConfig.v1
    "1" from 0.1.2, anything but vllmConfig.v0 "1" from 0.1.6, enablePD from 0.1.3)."""
    lm = spec.get("lmcacheConfig")
    if not isinstance(lm, dict) or not lm.get("enabled") or not in_range(kb["lmcache"]["charts"], chart):
        return None
    cfg = cfg or {}
    v1 = str(cfg.get("v1")) == "1"
    if not ray and in_range(kb["lmcache"]["pd"], chart) and "enablePD" in lm:
        v1 = True
    elif not ray and in_range(kb["lmcache"]["v0_key"], chart):
        v1 = str(cfg.get("v0")) != "1"
    elif not ray and not in_range(kb["lmcache"]["v1_key"], chart):
        v1 = False
    role = str(lm.get("kvRole") or "kv_both") if in_range(kb["lmcache"]["role_key"], chart) and not ray else "kv_both"
    return {"kv_connector": "LMCacheConnectorV1" if v1 else "LMCacheConnector", "kv_role": role}


def _env(doc, base, spec, spec_root, cfg, kb, chart, ray, ctx, rel) -> dict[str, Setting]:
    env: dict[str, Setting] = {}
    for owner, path in ((spec_root, base[:-2] + ("env",)), (spec, base + ("env",))):
        for i, e in enumerate(owner.get("env") or [] if isinstance(owner, dict) else []):
            if isinstance(e, dict) and "name" in e and "value" in e:
                ln = doc.line_of(path + (i,))
                env[str(e["name"])] = Setting(str(e["name"]), str(e["value"]), True, rel, ln, str(e["name"]), str(e["value"]), "helm-values")
    cb = base + ("vllmConfig",)
    if cfg is not None:
        if "v0" in cfg and (in_range(kb["env_v0"], chart) and not ray) and str(cfg["v0"]) == "1":
            env["VLLM_USE_V1"] = Setting("VLLM_USE_V1", "0", True, rel, doc.line_of(cb + ("v0",)), "vllmConfig.v0", "1", "helm-values",
                                         "set by the chart for v0: \"1\"")
        elif "v1" in cfg and (in_range(kb["env_v1"], chart) or ray):
            env["VLLM_USE_V1"] = Setting("VLLM_USE_V1", str(cfg["v1"]), True, rel, doc.line_of(cb + ("v1",)), "vllmConfig.v1",
                                         str(cfg["v1"]), "helm-values", "set by the chart from vllmConfig.v1")
        elif "v1" not in cfg and not ray and in_range(kb["env_v1_else_0"], chart):
            env["VLLM_USE_V1"] = Setting("VLLM_USE_V1", "0", True, rel, doc.line_of(cb), "vllmConfig", "", "helm-values",
                                         "set to 0 by the chart when vllmConfig has no v1 key")
    return env


def _get(data, path: tuple):
    for p in path:
        data = data.get(p) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def chart_version(ctx: ScanContext, rel: str) -> str | None:
    """The vllm-stack release a values file is installed with: a helmfile release or a Chart.yaml
    dependency in the file's folder or above, or a `helm install … --version` seen in a script."""
    got = ctx.chart_versions.get(rel)
    if got:
        return got
    folder = PurePosixPath(rel).parent
    for d in (folder, *folder.parents):
        for name in ("helmfile.yaml", "helmfile.yml", "helmfile.yaml.gotmpl", "Chart.yaml"):
            cand = name if d.as_posix() in (".", "") else f"{d.as_posix()}/{name}"
            text = ctx.read(cand) if (ctx.root / cand).is_file() else None
            v = _pinned(text, name, rel, d.as_posix()) if text else None
            if v:
                return v
    return None


def _pinned(text: str, name: str, rel: str, folder: str) -> str | None:
    try:
        data = yamlio.load(text).data
    except yamlio.YamlError:
        return None
    if not isinstance(data, dict):
        return None
    if name == "Chart.yaml":
        for dep in data.get("dependencies") or []:
            if isinstance(dep, dict) and dep.get("name") == "vllm-stack" and dep.get("version"):
                return str(dep["version"]).lstrip("v~^=")
        return None
    for r in data.get("releases") or []:
        if isinstance(r, dict) and str(r.get("chart", "")).endswith("vllm-stack") and r.get("version"):
            values = [str(v) for v in r.get("values") or [] if isinstance(v, str)]
            mine = PurePosixPath(rel).relative_to(folder).as_posix() if folder not in ("", ".") else rel
            if not values or any(v.lstrip("./") == mine for v in values):
                return str(r["version"]).lstrip("v~^=")
    return None
