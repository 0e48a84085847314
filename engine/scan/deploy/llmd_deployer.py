"""llm-d-deployer's quickstart chart values (llm-d/llm-d-deployer, charts/llm-d, mid 2025): with
`sampleApplication.enabled` the chart writes a ModelService whose decode and prefill pods run the
base ConfigMap's preset (templates/modelservice/presets/*.yaml): `vllm serve <model>` in
`modelservice.vllm.image`, then `--served-model-name <modelName> <servedModelNames…>` and the role's
`extraArgs` (templates/sample-application/modelservice.yaml). A preset's own flags (its port, the KV
connector) changed between chart releases that a values file does not name: they are not read. Each
pod gets `sampleApplication.resources`' GPUs."""
from __future__ import annotations

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.common import launch_site, yaml_word
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Site


def is_deployer_values(data: dict) -> bool:
    app = data.get("sampleApplication")
    return isinstance(app, dict) and isinstance(app.get("model"), dict) \
        and any(k in app["model"] for k in ("modelArtifactURI", "modelName"))


def scan_deployer_values(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    app = doc.data["sampleApplication"]
    if app.get("enabled") is False:
        return []
    model = app["model"]
    uri = str(model.get("modelArtifactURI") or "")
    proto, _, rest = uri.partition("://")
    # the preset's command: `default (print "/models/" .ModelPath) .HFModelName`
    served = f"/models/{rest.split('/', 1)[1]}" if proto == "pvc" and "/" in rest else rest if proto == "hf" else None
    name = model.get("modelName")
    if not served and not name:
        return []
    ms = _dict(doc.data.get("modelservice"))
    image = _image(_dict(ms.get("vllm")).get("image"))
    gpus = _gpus(app.get("resources"))
    out = []
    for role in ("decode", "prefill"):
        part = app.get(role) if isinstance(app.get(role), dict) else {}
        if part.get("replicas") == 0:
            continue
        ex = Expander()
        line = doc.line_of(("sampleApplication", "model", "modelArtifactURI" if served else "modelName"))
        words = [yaml_word(t, line, ex) for t in ("vllm", "serve", served or str(name))]
        if name:
            names = [str(name)] + [str(n) for n in _list(model.get("servedModelNames")) if isinstance(n, (str, int))]
            nline = doc.line_of(("sampleApplication", "model", "modelName"))
            words += [yaml_word("--served-model-name", nline, ex)] + [yaml_word(n, nline, ex) for n in names]
        words += [yaml_word(str(a), doc.line_of(("sampleApplication", role, "extraArgs", i)), ex)
                  for i, a in enumerate(_list(part.get("extraArgs"))) if isinstance(a, (str, int, float))]
        anchor = doc.line_of(("sampleApplication", role)) if role in app else doc.line_of(("sampleApplication",))
        site = launch_site(ctx, rel, words, anchor, anchor, "helm-values", "yaml-list", {}, image)
        if site is None:
            continue
        site.tool = "llm-d"
        if gpus is not None:
            site.gpu_request = gpus
        st = site.settings.get("served_model_name")
        if st is not None:
            st.implied, st.note = True, "written by the llm-d chart from sampleApplication.model"
        out.append(site)
    return out


def _image(spec) -> str | None:
    """`modelservice.vllm.image: {registry, repository, tag}` as one reference; None when the
    values leave it to the chart's default (which the chart release decides)."""
    if not isinstance(spec, dict) or not spec.get("repository"):
        return None
    ref = f"{spec['registry']}/{spec['repository']}" if spec.get("registry") else str(spec["repository"])
    return f"{ref}:{spec['tag']}" if spec.get("tag") not in (None, "") else ref


def _gpus(resources) -> int | None:
    """The pod's nvidia.com/gpu: its limit, else its request; None where neither is a whole number."""
    for part in ("limits", "requests"):
        got = _dict(_dict(resources).get(part)).get("nvidia.com/gpu")
        if got is not None:
            try:
                return int(str(got))
            except ValueError:
                return None
    return None


def _dict(value) -> dict:
    """A mapping of the values file, or an empty one where the file has something else there."""
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    """A list of the values file (the chart ranges over it), or none where the file has something else."""
    return value if isinstance(value, list) else []
