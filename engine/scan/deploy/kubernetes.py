"""Kubernetes: every container of a workload (`sh -c "vllm serve …"`, command + args, the image
entrypoint + args, `$(ENV)`), with the GPUs its resources ask for and the GPU type its
nodeSelector names."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import gpu_types, own_images
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy import app_template, configmap_config, image_entry, k8s_objects, kuberay, kustomize
from vllm_kb.engine.scan.deploy.dockerfile import image_installs
from vllm_kb.engine.scan.image_tables import image_ref
from vllm_kb.engine.scan.image_env import env_command
from vllm_kb.engine.scan.deploy.common import (
    entrypoint_for,
    int_gpus,
    is_variant_image,
    is_vllm_image,
    is_vllm_like_image,
    launch_site,
    yaml_word,
)
from vllm_kb.engine.scan.shell import Word
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Setting, Site


def resource_gpus(resources) -> int | None:
    """Kubernetes `resources.limits` / `requests` of nvidia.com/gpu (limits win, as the scheduler uses them)."""
    if not isinstance(resources, dict):
        return None
    for part in ("limits", "requests"):
        got = int_gpus((resources.get(part) or {}).get("nvidia.com/gpu")) if isinstance(resources.get(part), dict) else None
        if got:
            return got
    return None


def _containers(data: dict, base: tuple) -> list[tuple[tuple, dict]]:
    """Every container spec in a Kubernetes object, wherever the pod template sits."""
    out: list[tuple[tuple, dict]] = []
    stack: list[tuple[Any, tuple]] = [(data, base)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("containers", "initContainers") and isinstance(v, list):
                    out += [(path + (k, i), c) for i, c in enumerate(v) if isinstance(c, dict)]
                elif k in ("containers", "initContainers") and isinstance(v, dict):
                    out += app_template.map_containers(path + (k,), v)  # a chart's map of containers
                elif k == "runner" and isinstance(v, dict) and "image" in v and ("command" in v or "args" in v):
                    out.append((path + (k,), v))  # OME's engineConfig/decoderConfig.runner: one container
                elif k == "mainContainer" and isinstance(v, dict):
                    out.append((path + (k,), v))  # a Dynamo graph service's extraPodSpec.mainContainer
                elif isinstance(v, (dict, list)):
                    stack.append((v, path + (k,)))
        elif isinstance(node, list):
            stack += [(v, path + (i,)) for i, v in enumerate(node)]
    return sorted(out, key=lambda x: [str(p) for p in x[0]])


def scan_k8s(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    out = []
    injected = _injected_env(doc.data)
    lines = None
    kust: Any = None  # the kustomize overlay: None until looked for, False when there is none
    for path, c in _containers(doc.data, ()):
        env: dict[str, Setting] = {}
        k8s_env: dict[str, str] = dict(injected)
        for i, e in enumerate(c.get("env") or []):
            if isinstance(e, dict) and "name" in e and "value" in e:
                k8s_env[str(e["name"])] = str(e["value"])
                ln = doc.line_of(path + ("env", i))
                env[str(e["name"])] = Setting(str(e["name"]), str(e["value"]), True, rel, ln, str(e["name"]), str(e["value"]), "k8s-args",
                                              pos=dict(doc.pos(path + ("env", i)), env_style="k8s"))
        env_style = "map" if isinstance(c.get("env"), dict) else "k8s"  # app-template's `env: {NAME: value}`
        for name, value in app_template.env_map(c.get("env")):
            k8s_env[name] = value
            env[name] = Setting(name, value, True, rel, doc.line_of(path + ("env", name)), name, value, "k8s-args",
                                pos=dict(doc.pos(path + ("env", name)), env_style="map"))
        image = image_ref(c.get("image"))
        if kept := own_images.base_of(ctx, image) if image else None:
            image = kept[0]  # the project builds that name keeping its base image: the base's vLLM runs
        command, args = c.get("command"), c.get("args")
        line = doc.line_of(path + ("command",)) if command is not None else doc.line_of(path + ("args",))
        words: list[Word] = []
        argv_pos: list = []  # where each word is written, for fixes
        if isinstance(command, list):
            words += [yaml_word(str(t), doc.line_of(path + ("command", i)), Expander(), k8s_env=k8s_env) for i, t in enumerate(command)]
            argv_pos += [doc.pos(path + ("command", i)) for i in range(len(command))]
        elif command is None and not args and (by_env := env_command(
                image, [(k, yaml_word(s.value, s.line, Expander())) for k, s in env.items()], doc.line_of(path + ("image",)), ctx.catalog)):
            words += by_env  # an image its env configures (knowledge/deploy/env_images.yaml): the env is its command line
            argv_pos += [None] * len(by_env)
        elif command is None and not args and kuberay.ray_container(doc.data, path):
            pass  # KubeRay runs its own `ray start` in a Ray container, never the image's entrypoint
        elif is_vllm_image(image) or is_vllm_like_image(image) and (not isinstance(args, list) or not args or str(args[0]).startswith("-")
                                                                    or _model_first(image, args, ctx)) \
                and not own_images.runs_other_program(ctx, image):  # the project's own app built on vLLM's image
            implicit = entrypoint_for(image, ctx.untagged_image_release)
            words += [yaml_word(t, doc.line_of(path + ("image",)), Expander()) for t in implicit]
            argv_pos += [None] * len(implicit)
        if isinstance(args, list):
            words += [yaml_word(str(t), doc.line_of(path + ("args", i)), Expander(), k8s_env=k8s_env) for i, t in enumerate(args)]
            argv_pos += [doc.pos(path + ("args", i)) for i in range(len(args))]
        if not words and command is None and args is None:
            # the project's own image whose Dockerfile runs a project script, with this container's env
            made = image_entry.deployed(ctx, image_ref(c.get("image")), env, rel, doc.line_of(path + ("image",)))
            if not made:
                continue
        elif not words:
            continue
        else:
            if lines is None:
                lines = (ctx.read(rel) or "").splitlines()
            # new arguments go to args (created when missing), or to command when only it is written
            append = doc.pos(path + ("command",) if isinstance(command, list) and args is None else path + ("args",))
            if command is None and args is None and (kept or not is_vllm_image(image)):
                append = None  # type: ignore[assignment]  # a new `args:` replaces the CMD only vLLM's own image leaves empty
            extra = {"argv_pos": argv_pos, "argv_append": append, "env_at": dict(doc.pos(path + ("env",)), env_style=env_style)}
            site = launch_site(ctx, rel, words, line, max(w.line for w in words), "k8s-args", "yaml-list", env, image,
                               extra, known=k8s_env, source_lines=lines)
            made = [site] if site is not None else []
        for site in made:
            if kept:
                site.launch["image_at"] = kept[1:]  # where a change of the release is made: the build's FROM
                if got := image_installs(ctx, kept[1]):
                    site.launch["image_installs"] = got  # what the build installs over its base (L155)
            site.gpu_request = resource_gpus(c.get("resources")) or _service_gpus(doc.data, path)
            if path[-1:] == ("runner",) and (arch := _runtime_architecture(doc.data)):
                site.launch["runtime_architecture"] = arch
            if _gap_in(doc, path + ("args",)):  # `args: {{- include "chart.serverArgs" . | nindent 12 }}`: not all known
                site.opaque.append({"code": "forwards-args", "what": "a template's args", "where": f"{rel}:{doc.line_of(path + ('args',))}"})
            backend = site.settings.get("distributed_executor_backend")
            if site.gpu_request is None and backend is not None and backend.value == "ray" \
                    and (per_node := kuberay.node_gpus(doc.data, path, resource_gpus)):
                # a KubeRay pod without GPUs (the head) starts an engine whose Ray workers run on the
                # cluster's pods: a node shows them a pod's GPUs, not the machine's (--gpu)
                site.gpu_request = per_node
                site.launch["ray_pod_gpus"] = per_node
                if kuberay.head_ray_gpus(doc.data, path) == 0:  # `num-gpus: "0"`: Ray's head node holds no GPU
                    site.launch["ray_driver_gpus"] = 0
                elif kuberay.head_without_num_gpus(doc.data, path):  # Ray counts what the GPU-less pod sees
                    site.launch["ray_driver_gpus_unset"] = True
            pod = _node(doc.data, _pod(path))
            configmap_config.merge(ctx, site, pod, c)  # `--config /etc/vllm/x.yaml` a ConfigMap volume holds
            # a nodeSelector's GPU (or TPU node pool); else a device plugin's resource of another accelerator
            site.gpu_types = gpu_types.from_pod(pod) or gpu_types.from_resources(c.get("resources"))
            machine = gpu_types.pod_machine(pod)
            if machine and not site.gpu_types:
                site.gpu_types = [machine[0]]  # node affinity to one machine type
            if machine and site.gpu_types == [machine[0]]:
                site.gpu_per_node = machine[1]
            held = app_template.shm(doc.data, path) if app_template.in_map(path) else _shm(doc.data, path, c)
            site.container = dict(tool="kubernetes", **held, **_mounts(doc.data, path, c),
                                  env_names=[str(e["name"]) for e in c.get("env") or [] if isinstance(e, dict) and "name" in e]
                                  + k8s_objects.env_from_names(ctx, c),
                                  env_opaque=bool(c.get("envFrom")) or _gap_in(doc, path))
            if isinstance(command, list) and command:
                site.container["exec"] = str(command[0])  # `command:` replaces the image's ENTRYPOINT
            if isinstance(sc := c.get("securityContext"), dict) and sc.get("privileged") is True:
                site.container["privileged"] = True  # every GPU of the node, whatever the request
            labels = _node(doc.data, _pod(path)[:-1] + ("metadata", "labels"))
            if isinstance(labels, dict) and labels:  # the Services that select the pod (engine/check/endpoints.py)
                site.container["labels"] = {str(k): str(v) for k, v in labels.items()}
            if image is None and kust is not False:
                kust = kustomize.overlay(ctx, rel) if kust is None else kust
                if kust:
                    site.tool = "kustomize"
                    site.image = kustomize.image_for(ctx, kust, doc.data.get("kind"), (doc.data.get("metadata") or {}).get("name"), c.get("name"))
                else:
                    kust = False
            out.append(site)
    return out


def _model_first(image: str | None, args: list, ctx: ScanContext) -> bool:
    """`args: ["Qwen/Qwen3-0.6B", "--tensor-parallel-size", "1"]` for a mirror of the official image
    (`registry.example/team/vllm-openai:v0.11.2`): its entrypoint is `vllm serve`, whose first
    positional is the model; a first word that is no Hub id may be a program, and stays one."""
    name = (image or "").split(":")[0]
    return (name.endswith("/vllm-openai") or is_variant_image(image)) and entrypoint_for(image, ctx.untagged_image_release) == ["vllm", "serve"] \
        and re.fullmatch(r"[\w.-]+/[\w.-]+", str(args[0])) is not None


def _runtime_architecture(data: dict) -> str | None:
    """The one architecture an OME serving runtime accepts (`spec.supportedModelFormats[].modelArchitecture`):
    the runtime names no model, so this is what is known of the checkpoints it serves."""
    formats = (data.get("spec") or {}).get("supportedModelFormats") if isinstance(data.get("spec"), dict) else None
    archs = {str(f["modelArchitecture"]) for f in formats or [] if isinstance(f, dict) and f.get("modelArchitecture")}
    return archs.pop() if len(archs) == 1 else None


def _dynamo_shm(data: dict, path: tuple) -> str | None:
    """/dev/shm of a Dynamo graph component: the operator mounts a memory-backed 8Gi emptyDir there
    unless the component's `sharedMemory` disables or resizes it (deploy/cloud/operator docs,
    "Operator Default Values Injection"); None for other objects or a disabled volume."""
    if data.get("kind") != "DynamoGraphDeployment":
        return None
    tail = 2 if path[-2:] == ("extraPodSpec", "mainContainer") else 4 if "podTemplate" in path else 0
    comp = _node(data, path[:-tail]) if tail else None
    shm = comp.get("sharedMemory") if isinstance(comp, dict) else None
    if isinstance(shm, dict) and shm.get("disabled") is True:
        return None
    return str(shm["size"]) if isinstance(shm, dict) and shm.get("size") else "8Gi"


def _pod(path: tuple) -> tuple:
    """Where the pod spec of a container is: above `containers[i]`, or what holds an OME `runner` or
    a Dynamo `mainContainer`."""
    return path[:-1] if path and path[-1] in ("runner", "mainContainer") else path[:-2]


def _service_gpus(data: dict, path: tuple) -> int | None:
    """A Dynamo graph service's GPUs (`services.<name>.resources.limits.gpu`, the operator's own
    resource key), for the mainContainer of its extraPodSpec."""
    if len(path) < 3 or path[-2:] != ("extraPodSpec", "mainContainer"):
        return None
    res = _node(data, path[:-2] + ("resources",))
    if not isinstance(res, dict):
        return None
    for part in ("limits", "requests"):
        if isinstance(res.get(part), dict) and (got := int_gpus(res[part].get("gpu"))):
            return got
    return None


def _node(data: Any, path: tuple) -> Any:
    for p in path:
        try:
            data = data[p]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _injected_env(data: dict) -> dict[str, str]:
    """Variables a controller sets in every pod it makes: LeaderWorkerSet's group size."""
    if data.get("kind") == "LeaderWorkerSet":
        size = ((data.get("spec") or {}).get("leaderWorkerTemplate") or {}).get("size")
        if isinstance(size, int) and not isinstance(size, bool):
            return {"LWS_GROUP_SIZE": str(size)}
    return {}


# what names a Kubernetes volume's content: the claim, the host folder, the image, the config map
_VOLUME_NAMES = (("persistentVolumeClaim", "claimName"), ("hostPath", "path"), ("image", "reference"),
                 ("configMap", "name"), ("nfs", "path"))


def _mounts(data: dict, path: tuple, container: dict) -> dict:
    """`mounts`: each mountPath (with its subPath) → the volume's name and what names its content."""
    pod = _node(data, _pod(path))
    volumes = {v.get("name"): v for v in (pod.get("volumes") or []) if isinstance(v, dict)} if isinstance(pod, dict) else {}
    out: dict = {}
    for m in container.get("volumeMounts") or []:
        if not isinstance(m, dict) or not isinstance(m.get("mountPath"), str) or not m["mountPath"].startswith("/"):
            continue
        vol = volumes.get(m.get("name")) or {}
        names = [str(m["name"])] if isinstance(m.get("name"), str) else []
        for kind, key in _VOLUME_NAMES:
            got = vol.get(kind) if isinstance(vol.get(kind), dict) else None
            if got and isinstance(got.get(key), str):
                names.append(got[key])
        if isinstance(m.get("subPath"), str) and m["subPath"]:
            names = [m["subPath"], *names]
        if names:
            out.setdefault(m["mountPath"].rstrip("/") or "/", []).extend(names)
    return {"mounts": out} if out else {}


def _kuberay_shm(data: dict, path: tuple) -> bool:
    """Whether the container is the Ray container (the first) of a KubeRay head or worker group
    (RayCluster, RayService, RayJob or a wrapper such as AIBrix's RayClusterFleet), whose /dev/shm
    the operator mounts unless `rayStartParams` names a plasma directory."""
    keys = [k for k in path if isinstance(k, str)]
    if path[-2:] != ("containers", 0) or "template" not in keys or not ({"headGroupSpec", "workerGroupSpecs"} & set(keys)):
        return False
    group: Any = data
    cut = len(path) - 1 - path[::-1].index("template")  # the group holds the pod template
    for p in path[:cut]:
        group = group[p] if isinstance(group, (dict, list)) else {}
    params = group.get("rayStartParams") if isinstance(group, dict) else None
    return not (isinstance(params, dict) and "plasma-directory" in params)


def _shm(data: dict, path: tuple, container: dict) -> dict:
    """/dev/shm from the volume the container mounts there (an emptyDir, memory-backed or not, or
    the node's own through hostPath); the pod's hostIPC shares the host's."""
    pod = data
    for p in _pod(path):
        pod = pod[p] if isinstance(pod, (dict, list)) else {}
    out: dict = {"ipc": "host"} if isinstance(pod, dict) and pod.get("hostIPC") is True else {}
    mount = next((m.get("name") for m in container.get("volumeMounts") or [] if isinstance(m, dict)
                  and str(m.get("mountPath", "")).rstrip("/") == "/dev/shm"), None)
    if mount is None:
        if (dynamo := _dynamo_shm(data, path)) is not None:
            out["shm_size"] = dynamo
        elif _kuberay_shm(data, path):
            # KubeRay mounts a memory-backed emptyDir at the Ray container's /dev/shm, sized by its
            # memory limit, else request, else unbounded (ray-operator/controllers/ray/common/pod.go
            # `addEmptyDir(… SharedMemoryVolumeMountPath, StorageMediumMemory)`, `findMemoryReqOrLimit`)
            res: dict = container["resources"] if isinstance(container.get("resources"), dict) else {}
            mem = next((str(part["memory"]) for part in (res.get("limits"), res.get("requests"))
                        if isinstance(part, dict) and part.get("memory")), None)
            out["shm_size"] = mem or "unbounded"
        return out
    for v in (pod.get("volumes") or []) if isinstance(pod, dict) else []:
        if not isinstance(v, dict) or v.get("name") != mount:
            continue
        if isinstance(v.get("emptyDir"), dict):
            # memory-backed or not, the emptyDir replaces the runtime's 64 MiB /dev/shm; a disk one is
            # slower but as large as its sizeLimit (else the node's ephemeral storage)
            ed = v["emptyDir"]
            out["shm_size"] = str(ed["sizeLimit"]) if ed.get("sizeLimit") else "unbounded"
        elif isinstance(v.get("hostPath"), dict):
            out["shm_size"] = "unbounded"  # the node's own /dev/shm (or a host folder)
        else:
            out["shm_size"] = "unknown"  # a PVC, a configMap…: its size is not in the manifest
    return out


def _gap_in(doc: yamlio.Document, path: tuple) -> bool:
    """Whether a template left YAML out inside this container (`env: {{- include "chart.env" . | nindent 12 }}`,
    an `if` on `.Release`): from its first line to the next line outside it. Its environment is then not
    known in full, so no claim that it lacks a variable."""
    if not doc.gaps:
        return False
    n = len(path)
    inner = [ln for p, ln in doc.lines.items() if p[:n] == path]
    if not inner:
        return False
    last = max(inner)
    end = min((ln for p, ln in doc.lines.items() if ln > last and p[:n] != path), default=None)
    return any(g >= min(inner) and (end is None or g < end) for g in doc.gaps)
