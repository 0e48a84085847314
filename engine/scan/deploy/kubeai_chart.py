"""The KubeAI chart a project installs, read wherever the project configures it: the chart values
(`modelServers.VLLM.images`) in any YAML file — a values file of any name, a Flux HelmRelease's
`spec.values`, an Argo CD Application's `helm.valuesObject` — and else the chart's release (a
HelmRelease or Argo CD Application of chart `kubeai`, a Chart.yaml dependency, a helmfile release),
whose own values name the image (knowledge/deploy/kubeai.yaml)."""
from __future__ import annotations

from vllm_kb.engine.kb import deploy_tools, yamlio
from vllm_kb.engine.scan.context import ScanContext


def _docs(ctx: ScanContext, word: str):
    for rel in ctx.files:
        if not rel.endswith((".yaml", ".yml")):
            continue
        text = ctx.read(rel) or ""
        if word not in text:
            continue
        try:
            docs = yamlio.load_all(text)
        except (yamlio.YamlError, RecursionError):
            continue
        yield from (d.data for d in docs if isinstance(d.data, dict))


def _get(data, *keys):
    for k in keys:
        data = data.get(k) if isinstance(data, dict) else None
    return data


def _values(data: dict) -> list[dict]:
    """The chart values a document holds: itself, a HelmRelease's, an Argo CD Application's."""
    out = [data]
    for path in (("spec", "values"), ("spec", "source", "helm", "valuesObject")):
        got = _get(data, *path)
        if isinstance(got, dict):
            out.append(got)
    return out


def configured_images(ctx: ScanContext) -> list[tuple[dict, dict]]:
    """(modelServers.VLLM.images, resourceProfiles) of every chart values the project holds."""
    out = []
    for data in _docs(ctx, "modelServers"):
        for values in _values(data):
            images = _get(values, "modelServers", "VLLM", "images")
            if isinstance(images, dict):
                profiles = values.get("resourceProfiles")
                out.append((images, profiles if isinstance(profiles, dict) else {}))
    return out


def _chart_ref(data: dict) -> str | None:
    """The kubeai chart version a document installs (HelmRelease, Application, Chart.yaml, helmfile)."""
    spec: dict = data["spec"] if isinstance(data.get("spec"), dict) else {}
    hr = _get(spec, "chart", "spec")
    if isinstance(hr, dict) and hr.get("chart") == "kubeai" and hr.get("version"):
        return str(hr["version"])
    for src in [spec.get("source")] + list(spec.get("sources") or []):
        if isinstance(src, dict) and src.get("chart") == "kubeai" and src.get("targetRevision"):
            return str(src["targetRevision"])
    for dep in data.get("dependencies") or []:
        if isinstance(dep, dict) and dep.get("name") == "kubeai" and dep.get("version"):
            return str(dep["version"])
    for r in data.get("releases") or []:
        if isinstance(r, dict) and str(r.get("chart", "")).rsplit("/", 1)[-1] == "kubeai" and r.get("version"):
            return str(r["version"])
    return None


def chart_image(ctx: ScanContext) -> str | None:
    """The default vLLM image of the kubeai chart release the project installs; None when it names
    none, several, or one the table does not hold (a range such as `0.x`)."""
    table = deploy_tools.load("kubeai")["default_image"]
    found = {v.strip().lstrip("v=") for data in _docs(ctx, "kubeai") if (v := _chart_ref(data))}
    if len(found) != 1:
        return None
    return table.get(found.pop())
