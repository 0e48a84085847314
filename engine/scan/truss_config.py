"""A Truss (basetenlabs/truss) `config.yaml`: the one file that deploys the Truss in its folder —
`requirements:` (pip specifiers installed into its image: the folder's pins), `base_image.image` (the
image its model code or `docker_server.start_command` runs in) and `resources.accelerator` (`B200:8`,
`A100`, `H100:2`: the GPU type and how many one replica gets). Each Truss is a project of its own: its
config pins its own `model/` code, `data/` scripts and start command, never a sibling Truss's
(https://docs.baseten.co/reference/truss-configuration; basetenlabs/truss-examples keeps ~100 of them in
one repository, each with its own vLLM release)."""
from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.requirement import Pin, from_requirement
from vllm_kb.engine.scan.site import Site

_NAMES = ("config.yaml", "config.yml")
# keys only a Truss config has (truss/base/truss_config.py TrussConfig); a config that names one of these
# and one of the deployment keys is a Truss
_OWN = ("model_metadata", "docker_server", "model_class_name", "model_module_dir", "trt_llm", "model_cache",
        "python_version", "build_commands", "system_packages")
_DEPLOY = ("resources", "requirements", "requirements_file", "base_image", "secrets", "docker_server", "model_name")
_DATA_PATH = re.compile(r"/app/data/([\w./-]+)")


def is_config_name(rel: str) -> bool:
    return rel.endswith(_NAMES) and rel.rpartition("/")[2] in _NAMES


def candidate(rel: str, text: str) -> bool:
    """The cheap test before the YAML is parsed."""
    return is_config_name(rel) and any(k + ":" in text for k in _OWN)


def is_truss(data: Any) -> bool:
    return isinstance(data, dict) and any(k in data for k in _OWN) and any(k in data for k in _DEPLOY)


def load(rel: str, text: str) -> yamlio.Document | None:
    if not candidate(rel, text):
        return None
    try:
        doc = yamlio.load(text)
    except yamlio.YamlError:
        return None
    return doc if is_truss(doc.data) else None


def pins(ctx, rel: str, text: str) -> list[Pin]:
    """The `requirements:` list, each item at its own line: Truss pip-installs it into the image."""
    doc = load(rel, text)
    reqs = doc.data.get("requirements") if doc is not None else None
    if not isinstance(reqs, list):
        return []
    assert doc is not None
    out = []
    for i, r in enumerate(reqs):
        if isinstance(r, str) and (p := from_requirement(rel, doc.line_of(("requirements", i)), r.strip(), "requirements")):
            out.append(p)
    return out


def accelerator(data: dict) -> tuple[int | None, list[str]]:
    """`B200:8` → (8, ["B200"]); `A100` → (1, ["A100"]); none named → (None, [])."""
    res = data.get("resources")
    acc = res.get("accelerator") if isinstance(res, dict) else None
    if not isinstance(acc, str) or not acc.strip():
        return None, []
    name, _, n = acc.strip().partition(":")
    count = int(n) if n.strip().isdigit() and int(n) > 0 else 1 if not n.strip() else None
    return count, [name.strip()]


def _vllm_required(data: dict) -> bool:
    reqs = data.get("requirements")
    return isinstance(reqs, list) and any(isinstance(r, str) and re.match(r"\s*vllm\b", r, re.I) for r in reqs)


def _image(data: dict) -> str | None:
    base = data.get("base_image")
    image = base.get("image") if isinstance(base, dict) else None
    return image.strip() if isinstance(image, str) and image.strip() else None


def _configs(ctx) -> dict[str, dict]:
    """Each Truss's config by its folder, parsed once per scan (apply and own_projects both ask)."""
    held = ctx.__dict__.get("_truss_configs")
    if held is None or held[0] is not ctx.files:  # the file list it was read from (as pin_alternatives keys it)
        got = {}
        for rel in ctx.files:
            if is_config_name(rel) and (doc := load(rel, ctx.read(rel) or "")) is not None:
                got[PurePosixPath(rel).parent.as_posix()] = doc.data
        held = ctx.__dict__["_truss_configs"] = (ctx.files, got)
    return held[1]


def apply(sites: list[Site], ctx) -> None:
    """Give each site inside a Truss what its config.yaml says: the GPU type and count a replica gets
    (as a Kubernetes GPU request and node type would; --gpu stays where it names the same card), and the
    base image its model code and the `data/` scripts the start command runs are run in — unless the
    config's own requirements install vLLM over it (the folder's pin then decides)."""
    configs = _configs(ctx)
    if not configs:
        return
    for site in sites:
        folder = PurePosixPath(site.file).parent
        top = next((f.as_posix() for f in [folder, *folder.parents] if f.as_posix() in configs), None)
        if top is None:
            continue
        data = configs[top]
        count, types = accelerator(data)
        if types and not site.gpu_types:
            site.gpu_types = types
            site.gpu_per_node = site.gpu_per_node or count
            site.gpu_request = site.gpu_request or count
        if site.image is None and (image := _image(data)) and not _vllm_required(data) and _runs_in_image(site, top, data):
            site.image = image


def _runs_in_image(site: Site, top: str, data: dict) -> bool:
    """The Truss's model code (its model_module_dir) runs in the base image; so does a `data/` script
    the start command names by its path in the container (`sh -c /app/data/do.sh`)."""
    rel = site.file if top in ("", ".") else site.file.removeprefix(top + "/")
    module_dir = str(data.get("model_module_dir") or "model").strip("/")
    if rel.startswith(module_dir + "/"):
        return True
    server = data.get("docker_server")
    command = server.get("start_command") if isinstance(server, dict) else None
    data_dir = str(data.get("data_dir") or "data").strip("/")
    return isinstance(command, str) and rel.startswith(data_dir + "/") \
        and rel.removeprefix(data_dir + "/") in _DATA_PATH.findall(command)


def own_projects(ctx, choices: dict) -> bool:
    """Every folder that pins vLLM lies inside a Truss (a folder with its own config.yaml): each pin is its Truss's
    release, no project-wide one for the sites outside them (truss-examples: llava-1.6-sgl's vllm==0.3.0)."""
    if not choices or "" in choices:
        return False
    trusses = set(_configs(ctx))
    if not trusses or "." in trusses:
        return False
    return all(any(f == t or f.startswith(t + "/") for t in trusses) for f in choices)
