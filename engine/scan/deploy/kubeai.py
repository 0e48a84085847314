"""KubeAI: a `kubeai.org/v1 Model` with `engine: VLLM` is run by the controller as
`python3 -m vllm.entrypoints.openai.api_server --model=<url> --served-model-name=<name>` followed
by `spec.args` (internal/modelcontroller/engine_vllm.go), with `env` as a map and the GPUs of
`resourceProfile: <profile>:<count>`; the models Helm chart renders one Model per `catalog`
entry that is enabled (or every entry with `all.enabled`). A Model without `image:` runs the image
the controller is configured with: the KubeAI chart's `modelServers.VLLM.images[<imageName of the
resourceProfile> or "default"]` (internal/modelcontroller/engine_vllm.go), read from the chart
values wherever the project holds them, else from the chart release it installs
(engine/scan/deploy/kubeai_chart.py), else a vLLM image of a release the manifest does not name."""
from __future__ import annotations

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import gpu_types
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy import kubeai_chart
from vllm_kb.engine.scan.deploy.common import launch_site, yaml_word
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Setting, Site


def is_kubeai(data: dict) -> bool:
    return str(data.get("apiVersion", "")).startswith("kubeai.org/") and data.get("kind") == "Model"


def scan_kubeai_model(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    spec = doc.data.get("spec")
    if not isinstance(spec, dict):
        return []
    name = str((doc.data.get("metadata") or {}).get("name") or "")
    site = _model(ctx, rel, doc, ("spec",), spec, name, "k8s-args")
    return [site] if site is not None else []


def scan_kubeai_catalog(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    data = doc.data
    every = bool((data.get("all") or {}).get("enabled")) if isinstance(data.get("all"), dict) else False
    out = []
    for name, entry in data["catalog"].items():
        if not isinstance(entry, dict) or "url" not in entry or not (entry.get("enabled") or every):
            continue
        site = _model(ctx, rel, doc, ("catalog", name), entry, str(name), "helm-values")
        if site is not None:
            out.append(site)
    return out


def _model(ctx, rel, doc, base: tuple, spec: dict, name: str, syntax: str) -> Site | None:
    if str(spec.get("engine", "")).lower() != "vllm":
        return None
    url = str(spec.get("url") or "")
    line = doc.line_of(base + ("url",))
    ex = Expander()
    ref = url[5:] if url.startswith("hf://") else "/model" if url.startswith("pvc://") else url
    words = [yaml_word(t, line, ex) for t in ("python3", "-m", "vllm.entrypoints.openai.api_server", f"--model={ref}")]
    words.append(yaml_word(f"--served-model-name={name}", doc.line_of(base), ex))
    if spec.get("adapters"):
        words.append(yaml_word("--enable-lora", doc.line_of(base + ("adapters",)), ex))
    words += [yaml_word(str(a), doc.line_of(base + ("args", i)), ex) for i, a in enumerate(spec.get("args") or [])]
    env = {str(k): Setting(str(k), str(v), True, rel, doc.line_of(base + ("env", str(k))), str(k), str(v), syntax)
           for k, v in (spec.get("env") or {}).items()} if isinstance(spec.get("env"), dict) else {}
    image = spec.get("image") if isinstance(spec.get("image"), str) else None
    site = launch_site(ctx, rel, words, line, words[-1].line, syntax, "yaml-list", env,
                       image or controller_image(ctx, spec.get("resourceProfile")))
    if site is None:
        return None
    site.tool = "kubeai"
    site.gpu_request = _profile_gpus(spec.get("resourceProfile"))
    site.gpu_types = gpu_types.from_kubeai_profile(spec.get("resourceProfile"))
    mt = site.settings.get("served_model_name")
    if mt is not None:
        mt.implied, mt.note = True, "the KubeAI controller serves the model under the Model's name"
    return site


# The vLLM image of a controller whose configured tag is not in the project: no release named.
UNNAMED_RELEASE = "vllm/vllm-openai"


def controller_image(ctx: ScanContext, profile) -> str:
    """The image the KubeAI controller starts a Model without `image:` in (module docstring): the
    chart values' image for the profile's imageName or `default`, else the chart release's."""
    name = profile.rpartition(":")[0] if isinstance(profile, str) and ":" in profile else profile
    for images, profiles in kubeai_chart.configured_images(ctx):
        wanted = _get(profiles, str(name), "imageName") if name else None
        got = images.get(wanted) if isinstance(wanted, str) else None
        got = got or images.get("default")
        if isinstance(got, str) and got:
            return got
    return kubeai_chart.chart_image(ctx) or UNNAMED_RELEASE


def _get(data, *keys):
    for k in keys:
        data = data.get(k) if isinstance(data, dict) else None
    return data


def _profile_gpus(profile) -> int | None:
    """`nvidia-gpu-h100:2` → 2 GPUs (each GPU profile of the KubeAI chart asks for one per unit)."""
    if not isinstance(profile, str) or ":" not in profile:
        return None
    kind, _, n = profile.rpartition(":")
    if not n.isdigit() or not (kind.startswith(("nvidia-gpu", "amd-gpu")) or "gpu" in kind):
        return None
    return int(n) or None
