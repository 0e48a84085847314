"""llm-d's modelservice Helm chart values (llm-d-incubation/llm-d-modelservice,
templates/_helpers.tpl): for each role (`decode:`, `prefill:`) whose container has
`modelCommand: vllmServe` the chart writes `vllm serve <model> --port <port>`, the
`--tensor-parallel-size` / `--data-parallel-size` / `--data-parallel-size-local` of
`parallelism` (only when > 1) and `--served-model-name`, then the container's own args;
`imageDefault` passes the same as `--model …` args to the image's entrypoint; `custom` uses the
container's command as written. Each pod gets dataLocal × tensor GPUs.

The same layout under `spec:` of a `kind: ModelService` resource (llm-d.ai/v1alpha1, the
llm-d-model-service operator, api/v1alpha1/modelservice_types.go) is read the same way. There the
operator lays each container over the base config's one of the same name (its `vllm serve` command,
internal/controller/mergeContainerSlices.go: args appended), so a container with args and no
command of its own runs vLLM's server on the artifacts' model (cnuland/hello-chris-llm-d) — when it is
that container (named `vllm`) or runs a vLLM image; a sidecar with args of its own is no site."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.common import launch_site, yaml_word
from vllm_kb.engine.scan.deploy.kserve import _env
from vllm_kb.engine.scan.images import is_vllm_like_image
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Site


def is_modelservice(data: dict) -> bool:
    return isinstance(data.get("modelArtifacts"), dict) and any(isinstance(data.get(r), dict) for r in ("decode", "prefill"))


def is_modelservice_cr(data: dict) -> bool:
    """The operator's resource: `apiVersion: llm-d.ai/…`, `kind: ModelService`, the values under `spec:`."""
    return data.get("kind") == "ModelService" and str(data.get("apiVersion", "")).startswith("llm-d.ai/") \
        and isinstance(data.get("spec"), dict) and is_modelservice(data["spec"])


def scan_modelservice(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    if is_modelservice_cr(doc.data):
        return _scan(ctx, rel, doc, doc.data["spec"], ("spec",))
    return _scan(ctx, rel, doc, doc.data, ())


def _scan(ctx: ScanContext, rel: str, doc: yamlio.Document, data: dict, at: tuple) -> list[Site]:
    art = data["modelArtifacts"]
    model = _render(str(art.get("uri") or ""), data)
    name = _render(str(art.get("name") or ""), data)
    routing = r if isinstance(r := data.get("routing"), dict) else {}
    proxy = p if isinstance(p := routing.get("proxy"), dict) else {}
    out = []
    for role in ("decode", "prefill"):
        part = data.get(role)
        if not isinstance(part, dict) or part.get("create") is False:
            continue
        par = given if isinstance(given := part.get("parallelism"), dict) else {}
        tp, dp, dpl = _parallelism(par)
        port = routing.get("servicePort", 8000) if role == "prefill" or proxy.get("enabled") is False else proxy.get("targetPort", 8200)
        for ci, c in enumerate(part.get("containers") or []):
            if not isinstance(c, dict):
                continue
            site = _container(ctx, rel, doc, at, data, role, ci, c, model, name, port, tp, dp, dpl, art)
            if site is not None:
                site.tool = "llm-d"
                site.gpu_request = dpl * tp
                out.append(site)
    return out


def _container(ctx, rel, doc, at, data, role, ci, c, model, name, port, tp, dp, dpl, art) -> Site | None:
    anchor = doc.line_of(at + (role,))
    base = at + (role, "containers", ci)
    ex = Expander()
    how = c.get("modelCommand", "custom")
    given = c.get("args") if isinstance(c.get("args"), list) else []  # the API server refuses args that are not a list
    args = [yaml_word(str(a), doc.line_of(base + ("args", i)), ex) for i, a in enumerate(given)]
    if at and "modelCommand" not in c and c.get("command") is None and args and _base_vllm(c):
        # the operator's base config runs `vllm serve` and appends the resource's args; the model is
        # the artifacts' unless the args name it first (its samples' `{{ .HFModelName }}`)
        first = str(given[0])
        words = [yaml_word(t, anchor, ex) for t in ["vllm", "serve"] + ([_model_arg(model, art)] if first.startswith("-") else [])]
        if tp > 1:
            words += [yaml_word(t, doc.line_of(at + (role, "parallelism", "tensor")), ex) for t in ("--tensor-parallel-size", str(tp))]
        words += args
    elif how in ("vllmServe", "imageDefault"):
        model_arg = _model_arg(model, art)
        par_line = doc.line_of(at + (role, "parallelism"))
        chart = [yaml_word(t, anchor, ex) for t in (["vllm", "serve", model_arg] if how == "vllmServe" else
                                                      ["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", model_arg])]
        chart += [yaml_word("--port", anchor, ex), yaml_word(str(port), anchor, ex)]
        for flag, v, key in (("--tensor-parallel-size", tp, "tensor"), ("--data-parallel-size", dp, "data"),
                             ("--data-parallel-size-local", dpl, "dataLocal")):
            if v > 1:
                ln = doc.line_of(at + (role, "parallelism", key)) if key in (data[role].get("parallelism") or {}) else par_line
                chart += [yaml_word(flag, ln, ex), yaml_word(str(v), ln, ex)]
        if name:
            chart += [yaml_word("--served-model-name", anchor, ex), yaml_word(name, anchor, ex)]
        words = chart + args
    elif isinstance(c.get("command"), list):
        words = [yaml_word(str(t), doc.line_of(base + ("command", i)), ex) for i, t in enumerate(c["command"])] + args
    else:
        return None
    env = _env(c.get("env"), doc, base + ("env",), rel)
    site = launch_site(ctx, rel, words, anchor, anchor, "helm-values", "yaml-list", env, c.get("image"))
    if site is not None:
        for key, dest in (("tensor", "tensor_parallel_size"), ("data", "data_parallel_size"), ("dataLocal", "data_parallel_size_local")):
            st = site.settings.get(dest)
            if st is not None:
                st.key, st.implied, st.note = f"{role}.parallelism.{key}", True, "written by the modelservice chart from parallelism"
        for dest in ("port", "served_model_name"):
            st = site.settings.get(dest)
            if st is not None and st.line == anchor:
                st.implied, st.note = True, "written by the modelservice chart"
    return site


# llm-d's own vLLM images (ghcr.io/llm-d/llm-d, quay.io/llm-d/llm-d-dev, llm-d-cuda/-aws): knowledge/deploy/
# vendor_images.yaml and framework_images.yaml
_LLMD_VLLM_IMAGE = re.compile(r"^(?:[\w.-]+(?::\d+)?/)?llm-d/llm-d(?:-cuda|-aws)?(?:-dev)?(?:[:@].*)?$")


def _base_vllm(c: dict) -> bool:
    """Whether an args-only container of the resource is laid over the base config's vLLM container:
    the operator merges containers by name (mergeContainerSlices.go), and its base configs and samples
    name that one `vllm` (samples/baseconfigs/universal-baseconfig.yaml, samples/msvcs/xpyd.yaml); a
    container of another name (a routing sidecar, a proxy) is added as it is and runs its own image, so
    only a vLLM image makes it vLLM's server."""
    image = c.get("image") if isinstance(c.get("image"), str) else None
    return c.get("name") == "vllm" or is_vllm_like_image(image) or bool(image and _LLMD_VLLM_IMAGE.match(image.strip()))


def _parallelism(par: dict) -> tuple[int, int, int]:
    """(tensor, data, dataLocal) as the chart derives them (_helpers.tpl)."""
    def num(k):
        v = par.get(k)
        return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None
    tp = num("tensor") or 1
    data, local, workers = num("data"), num("dataLocal"), num("workers")
    dp = data or (local * workers if local and workers else local) or 1
    dpl = local or (data // workers if data and workers else data) or 1
    return tp, dp, dpl


def _model_arg(uri: str, art: dict) -> str:
    proto, _, rest = uri.partition("://")
    if proto == "hf":
        return rest.strip('"')
    if proto == "pvc":
        path = rest.split("/", 1)[1] if "/" in rest else ""
        return f"{art.get('mountPath', '/model-cache')}/{path}"
    if proto == "pvc+hf":
        parts = rest.split("/")
        return "/".join(parts[-2:])
    return uri


def _render(text: str, data: dict) -> str:
    """`{{ .Values.modelArtifacts.name }}`: the chart renders value references to other values."""
    def sub(m):
        cur = data
        for k in m.group(1).split("."):
            cur = cur.get(k) if isinstance(cur, dict) else None
        return str(cur) if isinstance(cur, (str, int, float)) else m.group(0)
    return re.sub(r"\{\{\s*\.Values\.([\w.]+)\s*\}\}", sub, text).replace('"', "")
