"""Containers that run vLLM: Dockerfile CMD/ENTRYPOINT (exec and shell forms, the official
image's own entrypoint), docker-compose `command:`/`entrypoint:` with `${VAR:-default}` and
.env, Kubernetes containers (`sh -c "vllm serve …"`, command + args, image entrypoint + args,
`$(ENV)`), the vLLM Helm chart's `image.command`, production-stack `modelSpec[].vllmConfig`, GPUStack's
model specs, and LiteLLM proxy configs whose models run in-process.
Each is turned into the argv the container really runs and read like a shell launch."""
from __future__ import annotations

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.common import (
    entrypoint_for,
    image_version,
    is_vllm_image,
    is_local_image,
    is_vllm_like_image,
)
from vllm_kb.engine.scan.deploy import wrapped
from vllm_kb.engine.scan.deploy.compose import scan_compose
from vllm_kb.engine.scan.deploy.dockerfile import is_dockerfile, scan_dockerfile as _scan_dockerfile
from vllm_kb.engine.scan.deploy.image_files import merge_copied_config
from vllm_kb.engine.scan.deploy import helm_chart
from vllm_kb.engine.scan.deploy.helm import scan_helm_chart
from vllm_kb.engine.scan.deploy.kaito import is_kaito, scan_kaito
from vllm_kb.engine.scan.deploy.production_stack import scan_production_stack
from vllm_kb.engine.scan.deploy.kserve import is_kserve, scan_kserve
from vllm_kb.engine.scan.deploy.kubeai import is_kubeai, scan_kubeai_catalog, scan_kubeai_model
from vllm_kb.engine.scan.deploy.kubernetes import scan_k8s
from vllm_kb.engine.scan.deploy.kwargs_sites import is_llm_config, scan_ray_serve, scan_rayservice, scan_triton
from vllm_kb.engine.scan.deploy.llmd import is_modelservice, is_modelservice_cr, scan_modelservice
from vllm_kb.engine.scan.deploy.llmd_deployer import is_deployer_values, scan_deployer_values
from vllm_kb.engine.scan.deploy.llmkube import is_llmkube_vllm, scan_llmkube
from vllm_kb.engine.scan.deploy.vllmruntime import is_vllmruntime, scan_vllmruntime
from vllm_kb.engine.scan.deploy.dstack import is_dstack, scan_dstack
from vllm_kb.engine.scan.deploy.flagscale import is_flagscale, scan_flagscale
from vllm_kb.engine.scan.deploy.gpustack import is_gpustack, scan_gpustack
from vllm_kb.engine.scan.deploy.litellm_proxy import is_litellm_config, scan_litellm_config
from vllm_kb.engine.scan.deploy.skypilot import is_skypilot, scan_skypilot
from vllm_kb.engine.scan.site import Site

__all__ = ["scan_triton", "entrypoint_for", "image_version", "is_dockerfile", "is_local_image", "is_vllm_image", "is_vllm_like_image", "scan_dockerfile", "scan_yaml"]


def scan_dockerfile(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    sites = _scan_dockerfile(ctx, rel, text)
    for site in sites:
        merge_copied_config(ctx, site, rel, text)  # `--config /app/config.yaml` the image COPYs in
    return sites


def scan_yaml(ctx: ScanContext, rel: str, text: str, docs: list[yamlio.Document]) -> list[Site]:
    sites: list[Site] = []
    docs = wrapped.unwrap(docs)  # an OpenShift Template's objects, a List's items
    for doc in docs:  # a bug met on one document costs that document, not the file's others
        sites += ctx.one_launch(rel, doc.start_line, _doc_sites, ctx, rel, text, doc, docs, failed=[])
    return sites


def _doc_sites(ctx: ScanContext, rel: str, text: str, doc: yamlio.Document, docs: list[yamlio.Document]) -> list[Site]:
    """The sites of one document of a YAML file (`docs`: the file's others, which some formats read beside it)."""
    from vllm_kb.engine.scan import yaml_commands

    if is_kaito(doc.data):
        return scan_kaito(ctx, rel, doc, docs)
    if is_llmkube_vllm(doc.data):  # its Model resource may be another document of the file
        return scan_llmkube(ctx, rel, doc, docs)
    if is_flagscale(doc.data):  # a FlagScale serve list (the document itself or its `serve:`)
        got = scan_flagscale(ctx, rel, doc)
    else:
        got = _scan_doc(ctx, rel, doc) if isinstance(doc.data, dict) else []
    # a document no format claims (a recipe, a job spec, an unknown operator's resource): the
    # command lines its strings hold are launches of their own
    return got if got or "vllm" not in text else yaml_commands.scan(ctx, rel, doc, rendered=helm_chart.renders_value(ctx, rel))


def _scan_doc(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    from vllm_kb.engine.scan import ci

    sites: list[Site] = []
    data = doc.data
    if ci.is_github(rel, data):
        sites += ci.scan_github(ctx, rel, doc)
    elif ci.is_gitlab(rel, data):
        sites += ci.scan_gitlab(ctx, rel, doc)
    elif is_skypilot(data):
        sites += scan_skypilot(ctx, rel, doc)
    elif is_dstack(rel, data):
        sites += scan_dstack(ctx, rel, doc)
    elif isinstance(data.get("services"), dict):
        sites += scan_compose(ctx, rel, doc)
    elif is_kserve(data) and (got := scan_kserve(ctx, rel, doc)) is not None:
        sites += got
    elif is_kubeai(data):
        sites += scan_kubeai_model(ctx, rel, doc)
    elif is_gpustack(data):
        sites += scan_gpustack(ctx, rel, doc)
    elif is_litellm_config(data):
        sites += scan_litellm_config(ctx, rel, doc)
    elif is_vllmruntime(data):
        sites += scan_vllmruntime(ctx, rel, doc)
    elif is_modelservice_cr(data):  # llm-d's operator resource: the chart's values under `spec:`
        sites += scan_modelservice(ctx, rel, doc)
    elif "kind" in data and "spec" in data:
        sites += scan_k8s(ctx, rel, doc) + (scan_rayservice(ctx, rel, doc) if data.get("kind") == "RayService" else [])
    elif isinstance(data.get("controllers"), dict):
        sites += scan_k8s(ctx, rel, doc)  # app-template values: the controllers' containers
    elif is_llm_config(data) or isinstance(data.get("applications"), list):
        sites += scan_ray_serve(ctx, rel, doc)
    elif is_modelservice(data):
        sites += scan_modelservice(ctx, rel, doc)
    elif is_deployer_values(data):
        sites += scan_deployer_values(ctx, rel, doc)
    elif isinstance(data.get("servingEngineSpec"), dict):
        sites += scan_production_stack(ctx, rel, doc)
    elif isinstance(data.get("vllm-stack"), dict) and isinstance(data["vllm-stack"].get("servingEngineSpec"), dict):
        sites += scan_production_stack(ctx, rel, doc, ("vllm-stack",))  # an umbrella chart's values
    elif isinstance(data.get("catalog"), dict):
        sites += scan_kubeai_catalog(ctx, rel, doc)
    elif isinstance(data.get("image"), dict) and isinstance(data["image"].get("command"), list):
        sites += scan_helm_chart(ctx, rel, doc)
    return sites
