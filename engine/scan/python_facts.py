"""Deployment facts around a Python engine: the decorators that run it — BentoML's
`@bentoml.service(resources={"gpu": N, "gpu_type": …}, envs=[…])`, Ray Serve's `@serve.deployment(ray_actor_options=
{"num_gpus": N})`, Modal's `@app.function(gpu="H100:2", image=…)` with the image's
`pip_install("vllm==X")` and `.env({…})` — and the environment a deployment binds to the file
(a KubeRay RayService or Ray Serve config whose application imports it sets `runtime_env.env_vars`,
which `os.environ.get` then reads instead of the code's default)."""
from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from vllm_kb.engine.scan import gpu_types, inline_script, pins, ray_placement, ray_runtime_pins
from vllm_kb.engine.scan.context import texts_with
from vllm_kb.engine.scan.python_scope import dotted as _dotted
from vllm_kb.engine.scan.python_values import Unresolved
from vllm_kb.engine.scan.site import Setting, Site

_IMAGE_VLLM = re.compile(r"vllm/vllm-openai:v?([0-9][\w.+-]*)")


def facts(ctx, rel: str, tree: ast.Module, f, site: Site) -> None:
    r = f.resolver
    if "placement_group" in (ctx.read(rel) or ""):
        ray_placement.facts(tree, f, site.launch)
    for dec in _decorators(f):
        if not isinstance(dec, ast.Call):
            continue
        name = _dotted(dec.func)
        kw = {k.arg: k.value for k in dec.keywords if k.arg}
        if name.rsplit(".", 1)[-1] == "service" and ("bentoml" in name or _imports_bentoml(tree)):
            site.tool = site.tool or "bentoml"
            gpus = _value(r, _entry(kw.get("resources"), "gpu"))
            if isinstance(gpus, int) and not isinstance(gpus, bool):
                site.gpu_request = site.gpu_request or gpus
            kind = _value(r, _entry(kw.get("resources"), "gpu_type"))  # BentoCloud's `nvidia-h100-80gb`
            if isinstance(kind, str) and kind.strip():
                site.gpu_types = [kind.strip()]
            _bento_envs(rel, r, kw.get("envs"), site)
        elif name.endswith("deployment") and ("serve" in name or name == "deployment"):
            site.tool = site.tool or "ray-serve"
            gpus = _value(r, _entry(kw.get("ray_actor_options"), "num_gpus"))
            if isinstance(gpus, (int, float)) and not isinstance(gpus, bool) and float(gpus).is_integer() and gpus > 0:
                site.gpu_request = site.gpu_request or int(gpus)
            elif isinstance(gpus, (int, float)) and not isinstance(gpus, bool) and 0 < gpus < 1:
                # a fraction of a GPU per replica: Ray packs replicas (and other actors) onto one device by design
                site.launch["instances_share_gpu"] = True
            req = ray_runtime_pins.requirement(_value(r, _entry(kw.get("ray_actor_options"), "runtime_env")))
            if req is not None and site.installed is None:  # the replica's own environment installs it
                ray_runtime_pins.apply(site, ((rel, dec.lineno, req),), ctx.catalog.versions, ctx.catalog.newest)
        elif name.rsplit(".", 1)[-1] in ("function", "cls") and ("gpu" in kw or "image" in kw) and _imports_modal(tree):
            site.tool = "modal" if site.tool in (None, "python subprocess") else site.tool
            gpu = _value(r, kw.get("gpu"))
            count = _modal_gpus(gpu)
            if count:
                site.gpu_request = count
            site.gpu_types = gpu_types.from_modal(gpu)
            if isinstance(image := kw.get("image"), ast.Name):
                _modal_image(ctx, rel, tree, r, image.id, site)
    if site.installed is None and "# /// script" in (text := ctx.read(rel) or ""):
        # `uv run script.py`: the script's own inline dependencies are what its environment installs
        site.installed = inline_script.vllm_install(rel, text, ctx.catalog.versions, ctx.catalog.newest)
        if site.installed is not None:
            site.launch["inline_script"] = True
    if site.tool == "vertex-ai":
        _vertex_machine(tree, r, site)
    gpus = bound_gpus(ctx, rel)
    if gpus and site.gpu_request is None:
        site.gpu_request = gpus
    bound_release(ctx, rel, site)
    if not site.gpu_types and (other := bound_accelerator(ctx, rel)):
        # the RayService's pods run on a TPU (Ascend, Gaudi …) node pool: so does the engine the file starts
        site.gpu_types = [other[0]]
        site.source = dict(site.source, gpu_at=other[1]) if isinstance(site.source, dict) else site.source


def _vertex_machine(tree: ast.Module, r, site: Site) -> None:
    """`endpoint.deploy(model, machine_type="g2-standard-12", accelerator_type="NVIDIA_L4",
    accelerator_count=1)` (or `model.deploy(…)`): the GPUs the uploaded container runs on, when the
    module deploys to one kind of machine only."""
    seen = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "deploy":
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            acc, n, machine = (_value(r, kw.get(k)) for k in ("accelerator_type", "accelerator_count", "machine_type"))
            if acc is not None or machine is not None:
                seen.add((acc if isinstance(acc, str) else None, n if isinstance(n, int) and not isinstance(n, bool) else None,
                          machine if isinstance(machine, str) else None))
    if len(seen) != 1:
        return
    acc, n, machine = seen.pop()
    mach = gpu_types.instance_gpu(machine)
    kinds = [acc] if acc else [mach[0]] if mach else []
    count = n or (mach[1] if mach else None)
    if kinds:
        site.gpu_types = kinds
        site.gpu_per_node = count
    if count:
        site.gpu_request = site.gpu_request or count


def _decorators(f) -> list:
    out = []
    for fn in getattr(f, "fns", []) or []:
        out += fn.decorator_list
    if f.cls is not None:
        out += f.cls.decorator_list
    return out


def _entry(node, key: str):
    if isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values):
            if isinstance(k, ast.Constant) and k.value == key:
                return v
    if isinstance(node, ast.Call) and _dotted(node.func) == "dict":
        return next((k.value for k in node.keywords if k.arg == key), None)
    return None


def _value(r, node):
    if node is None:
        return None
    try:
        return r.value(node)
    except (Unresolved, RecursionError):
        return None


def _bento_envs(rel, r, node, site: Site) -> None:
    if not isinstance(node, (ast.List, ast.Tuple)):
        return
    for e in node.elts:
        name, value = _value(r, _entry(e, "name")), _entry(e, "value")
        if isinstance(name, str) and value is not None:
            v = _value(r, value)
            site.env[name] = Setting(name, None if v is None else str(v), v is not None, rel, e.lineno, name, ast.unparse(value), "python-call")


def _imports_bentoml(tree) -> bool:
    return any(isinstance(n, ast.Import) and any(a.name == "bentoml" for a in n.names) for n in tree.body)


def _imports_modal(tree) -> bool:
    return any(isinstance(n, ast.Import) and any(a.name == "modal" for a in n.names) or
               isinstance(n, ast.ImportFrom) and (n.module or "").startswith("modal") for n in tree.body)


def _modal_gpus(gpu) -> int | None:
    if isinstance(gpu, list) and gpu:
        gpu = gpu[0]
    if not isinstance(gpu, str) or not gpu.strip():
        return None
    m = re.search(r":(\d+)\s*$", gpu)
    return int(m.group(1)) if m else 1


def _modal_image(ctx, rel, tree, r, name: str, site: Site, seen: set | None = None) -> None:
    """What the module's assignments to the image name build: pinned vLLM, environment, base image."""
    seen = seen if seen is not None else set()
    if name in seen:
        return
    seen.add(name)
    for st in tree.body:
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and st.targets[0].id == name):
            continue
        node = st.value
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            meth = node.func.attr
            if meth in ("pip_install", "uv_pip_install"):
                for a in node.args:
                    v = _value(r, a)
                    for item in v if isinstance(v, list) else [v]:
                        req = pins.from_requirement(rel, a.lineno, item.replace(" ", ""), "image") if isinstance(item, str) else None
                        got = pins.site_install([req], ctx.catalog.versions, ctx.catalog.newest) if req else None
                        if got and site.installed is None:
                            site.installed = (got[0], got[1], item)
            elif meth == "env" and node.args:
                d = _value(r, node.args[0])
                if isinstance(d, dict):
                    for k, v in d.items():
                        if str(k) not in site.env:
                            site.env[str(k)] = Setting(str(k), str(v), True, rel, node.lineno, str(k), repr(v), "python-call")
            elif meth == "from_registry" and node.args:
                img = _value(r, node.args[0])
                if isinstance(img, str):
                    site.image = site.image or img
                    m = _IMAGE_VLLM.search(img)
                    if m and site.installed is None:
                        site.installed = (m.group(1), f"{rel}:{node.lineno}", img)
            node = node.func.value
        if isinstance(node, ast.Name):
            _modal_image(ctx, rel, tree, r, node.id, site, seen)


# --- environment bound by a deployment -------------------------------------------------------


def bound_env(ctx, rel: str) -> dict[str, str]:
    return _bindings(ctx).get(rel, ({}, None, ()))[0]


def bound_gpus(ctx, rel: str) -> int | None:
    return _bindings(ctx).get(rel, ({}, None, ()))[1]


def bound_release(ctx, rel: str, site: Site) -> None:
    """The vLLM release the applications that import `rel` install in their runtime_env, as the site's own."""
    got = _bindings(ctx).get(rel)
    if got is not None:
        ray_runtime_pins.apply(site, got[2], ctx.catalog.versions, ctx.catalog.newest)


def bound_accelerator(ctx, rel: str) -> tuple[str, str] | None:
    """(name, file:line) of another platform's accelerator every RayService running the file asks for."""
    got = _bindings(ctx).get(rel)
    return got[3] if got else None


def _bindings(ctx) -> dict[str, tuple[dict[str, str], int | None, tuple, tuple[str, str] | None]]:
    cache = ctx.__dict__.get("_py_bindings")
    if cache is not None:
        return cache
    cache = {}
    ctx.__dict__["_py_bindings"] = cache
    files = getattr(ctx, "files", None) or []
    from vllm_kb.engine.kb import yamlio

    for rel, text in texts_with(ctx, files, (".yaml", ".yml"), "import_path"):
        try:
            docs = yamlio.load_all(text)
        except (yamlio.YamlError, RecursionError):
            continue
        for d in docs:
            other = gpu_types.pods_other(d.data) if isinstance(d.data, dict) and d.data.get("kind") == "RayService" else None
            for app in _applications(d.data):
                _bind(ctx, rel, app, files, cache, (other[0], f"{rel}:{d.line_of(other[1])}") if other else None)
    return cache


def _yaml_holders(ctx, files: list[str], name: str) -> list[str]:
    """The YAML files that write `name` as a block under its own key (a ConfigMap's `vllm_serve.py: |`,
    mounted where the application imports it): engine/scan/yaml_python.py reads them as that file."""
    key = re.compile(r"^[ \t]*['\"]?" + re.escape(name) + r"['\"]?[ \t]*:[ \t]*\|", re.M)
    return [rel for rel, text in texts_with(ctx, files, (".yaml", ".yml"), name) if key.search(text)]


def _applications(data) -> list[dict]:
    if not isinstance(data, dict):
        return []
    if data.get("kind") == "RayService" and isinstance(data.get("spec"), dict):
        spec = data["spec"]
        conf = spec.get("serveConfigV2")
        if isinstance(conf, str):
            from vllm_kb.engine.kb import yamlio
            try:
                conf = yamlio.load(conf).data
            except (yamlio.YamlError, RecursionError):
                return []
        return _applications(conf) if isinstance(conf, dict) else []
    apps = data.get("applications")
    return [a for a in apps if isinstance(a, dict)] if isinstance(apps, list) else []


def _bind(ctx, rel: str, app: dict, files: list[str], cache: dict, other: tuple[str, str] | None = None) -> None:
    path = app.get("import_path")
    if not isinstance(path, str) or ":" not in path and "." not in path:
        return
    module = path.split(":")[0] if ":" in path else path.rsplit(".", 1)[0]
    tail = module.replace(".", "/") + ".py"
    here = PurePosixPath(rel).parent
    cands = [f for f in files if f == tail or f.endswith("/" + tail)] or _yaml_holders(ctx, files, tail.rsplit("/", 1)[-1])
    if len(cands) > 1:
        near = [f for f in cands if PurePosixPath(f).parent == here / PurePosixPath(tail).parent]
        cands = near or cands[:0]
    if len(cands) != 1:
        return
    env = ((app.get("runtime_env") or {}).get("env_vars") or {}) if isinstance(app.get("runtime_env"), dict) else {}
    gpus = None
    for dep in app.get("deployments") or []:
        opts = dep.get("ray_actor_options") if isinstance(dep, dict) else None
        n = opts.get("num_gpus") if isinstance(opts, dict) else None
        if isinstance(n, (int, float)) and not isinstance(n, bool) and float(n).is_integer() and n > 0:
            gpus = int(n)
    old = cache.get(cands[0])
    new_env = {str(k): str(v) for k, v in env.items() if v is not None} if isinstance(env, dict) else {}
    # the vLLM the application's runtime_env installs, per application (engine/scan/ray_runtime_pins.py)
    installs = (ray_runtime_pins.located(rel, ctx.read(rel) or "", ray_runtime_pins.requirement(app.get("runtime_env")), path),)
    if old is not None:  # two deployments of one file: keep only what they agree on
        new_env = {k: v for k, v in new_env.items() if old[0].get(k) == v}
        gpus = gpus if gpus == old[1] else None
        installs = old[2] + installs
        # two node pools of one platform (a v5e and a v6e RayService) still say the platform
        other = old[3] if old[3] and other and gpu_types.other_platform(old[3][0]) == gpu_types.other_platform(other[0]) else None
    cache[cands[0]] = (new_env, gpus, installs, other)
