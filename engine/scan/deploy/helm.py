"""Helm values: the vLLM chart's `image.command`, and production-stack
`servingEngineSpec.modelSpec[].vllmConfig` (camelCase keys, flags the chart adds)."""
from __future__ import annotations

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.common import (
    int_gpus,
    launch_site,
    plain_yaml,
    yaml_word,
)
from vllm_kb.engine.scan.deploy.kubernetes import resource_gpus
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Site


def scan_helm_chart(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    img = doc.data["image"]
    image = f"{img.get('repository', '')}:{img.get('tag', '')}" if img.get("repository") else None
    words = [yaml_word(str(t), doc.line_of(("image", "command", i)), Expander()) for i, t in enumerate(img["command"])]
    site = launch_site(ctx, rel, words, doc.line_of(("image", "command")), words[-1].line if words else 1,
                        "helm-values", "json", {}, image)
    if site is not None:
        site.gpu_request = resource_gpus(doc.data.get("resources"))
    return [site] if site is not None else []


# production-stack helm/templates/deployment-vllm-multi.yaml: vllmConfig keys → flags.
_PS_FLAGS = {
    "maxModelLen": "--max-model-len", "dtype": "--dtype", "tensorParallelSize": "--tensor-parallel-size",
    "maxNumSeqs": "--max-num-seqs", "gpuMemoryUtilization": "--gpu_memory_utilization", "maxLoras": "--max_loras",
    "runner": "--runner", "convert": "--convert",
}


def scan_production_stack(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    out = []
    specs = doc.data["servingEngineSpec"].get("modelSpec") or []
    for i, spec in enumerate(specs if isinstance(specs, list) else []):
        if not isinstance(spec, dict):
            continue
        base = ("servingEngineSpec", "modelSpec", i)
        ex = Expander()
        start = doc.line_of(base)
        words = [yaml_word("vllm", start, ex), yaml_word("serve", start, ex)]
        if spec.get("modelURL"):
            words.append(yaml_word(str(spec["modelURL"]), doc.line_of(base + ("modelURL",)), ex))
        given = spec.get("vllmConfig")
        cfg: dict = given if isinstance(given, dict) else {}
        cb = base + ("vllmConfig",)
        for key, flag in _PS_FLAGS.items():
            if key in cfg:
                ln = doc.line_of(cb + (key,))
                words += [yaml_word(flag, ln, ex), yaml_word(str(cfg[key]), ln, ex)]
        if "enableChunkedPrefill" in cfg:
            ln = doc.line_of(cb + ("enableChunkedPrefill",))
            words.append(yaml_word("--enable-chunked-prefill" if cfg["enableChunkedPrefill"] else "--no-enable-chunked-prefill", ln, ex))
        # the chart emits --no-enable-prefix-caching unless enablePrefixCaching is set
        ln = doc.line_of(cb + ("enablePrefixCaching",) if "enablePrefixCaching" in cfg else cb)
        words.append(yaml_word("--enable-prefix-caching" if cfg.get("enablePrefixCaching") else "--no-enable-prefix-caching", ln, ex))
        for j, extra in enumerate(cfg.get("extraArgs") or []):
            words.append(yaml_word(str(extra), doc.line_of(cb + ("extraArgs", j)), ex))
        image = f"{spec.get('repository', '')}:{spec.get('tag', '')}" if spec.get("repository") else None
        site = launch_site(ctx, rel, words, start, words[-1].line, "helm-values", "production-stack", {}, image,
                            {"model_spec": spec.get("name", i)})
        if site is not None:
            site.gpu_request = int_gpus(spec.get("requestGPU"))
            # settings read from vllmConfig keys are named as written there, not as the flags the chart emits
            by_line = {doc.line_of(cb + (k,)): k for k in cfg if k != "extraArgs"}
            for st in site.settings.values():
                if st.line in by_line and st.key.startswith("--"):
                    st.key, st.raw = by_line[st.line], plain_yaml(cfg[by_line[st.line]])
            if "enablePrefixCaching" not in cfg and "enable_prefix_caching" in site.settings:
                site.settings["enable_prefix_caching"].note = "emitted by the production-stack chart when enablePrefixCaching is unset"
                site.settings["enable_prefix_caching"].key = "vllmConfig.enablePrefixCaching"
                site.settings["enable_prefix_caching"].implied = True
            out.append(site)
    return out
