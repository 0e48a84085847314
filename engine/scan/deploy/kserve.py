"""KServe: an InferenceService on the Hugging Face runtime (vLLM is its default backend; vLLM's
engine flags pass through its own parser), an InferenceService that names a ServingRuntime running
vLLM (the runtime's argv, then the service's `args`; `{{.Name}}` is the service's name and the
model its storageUri, mounted at /mnt/models), and an LLMInferenceService (`vllm serve` of
`spec.model.uri`, `parallelism`, extra flags in VLLM_ADDITIONAL_ARGS, a `prefill:` pool)."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.kb.versions import parse, try_parse
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy import helm_chart
from vllm_kb.engine.scan.deploy.common import entrypoint_for, is_vllm_like_image, launch_site, yaml_word
from vllm_kb.engine.scan.deploy.kubernetes import resource_gpus
from vllm_kb.engine.scan.image_tables import framework_image, name_and_tag
from vllm_kb.engine.scan.shell import ShellSyntaxError
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.shell_tree import parse_tree
from vllm_kb.engine.scan.site import Setting, Site

_HF_OWN = {"model_name", "model_id", "model_dir", "model_revision", "tokenizer_revision", "backend", "task",
           "return_token_type_ids", "return_probabilities", "disable_lower_case", "disable_special_tokens",
           "predictor_host", "http_port", "grpc_port", "workers", "enable_docs_url", "tensor_input_names",
           "disable_log_requests", "max_log_len"}
# huggingfaceserver/__main__.py: `--max_length` is its older spelling of --max_model_len (dest=max_model_len),
# and a dtype left at `auto` becomes float16 on a GPU (kserve#3613), which vLLM then runs
_HF_RENAMED = {"max_length": "--max-model-len"}
_FP16_AUTO = (parse("0.13.0"), parse("0.15.0"))
# KServe's own Hugging Face runtimes (config/runtimes/kserve-huggingfaceserver*.yaml): image kserve/huggingfaceserver
_HF_RUNTIMES = ("kserve-huggingfaceserver", "kserve-huggingfaceserver-multinode")


def is_kserve(data: dict) -> bool:
    return str(data.get("apiVersion", "")).startswith("serving.kserve.io/") and data.get("kind") in (
        "InferenceService", "LLMInferenceService", "ServingRuntime", "ClusterServingRuntime")


def scan_kserve(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site] | None:
    """Sites of a KServe object; None when the generic container reading applies (a runtime, or an
    InferenceService with its own containers)."""
    data = doc.data
    kind = data.get("kind")
    if kind == "LLMInferenceService":
        return _llmisvc(ctx, rel, doc)
    predictor = (data.get("spec") or {}).get("predictor") if isinstance(data.get("spec"), dict) else None
    if kind != "InferenceService" or not isinstance(predictor, dict) or not isinstance(predictor.get("model"), dict):
        return None
    model = predictor["model"]
    fmt = str(((model.get("modelFormat") or {}).get("name") or "")).lower()
    name = str((data.get("metadata") or {}).get("name") or "")
    args = [str(a) for a in model.get("args") or []]
    base = ("spec", "predictor", "model")
    line = doc.line_of(base)
    ex = Expander()
    arg_words = [yaml_word(a.replace("{{.Name}}", name), doc.line_of(base + ("args", i)), ex) for i, a in enumerate(args)]
    env = _env(model.get("env"), doc, base + ("env",), rel)
    gpus = resource_gpus(model.get("resources")) or resource_gpus(predictor.get("resources"))
    storage = model.get("storageUri")
    runtime = _runtime(ctx, model.get("runtime"), rel) if model.get("runtime") else None
    if runtime is not None:
        rdoc, rrel, container, rline = runtime
        words = _container_argv(ctx, container, name, ex, line)
        ctx.absorbed.add(f"{rrel}:{rline}")
        image = container.get("image")
        env = {**_env(container.get("env"), rdoc, (), rrel), **env}
        gpus = gpus or resource_gpus(container.get("resources"))
        site = launch_site(ctx, rel, words + arg_words, line, line, "k8s-args", "yaml-list", env, image,
                           known={k: str(s.value) for k, s in env.items() if s.resolved})
        if site is not None and site.model is not None and site.model.value == "/mnt/models" and storage:
            site.model.value, site.model.raw, site.model.file, site.model.line = _uri_model(storage), str(storage), rel, doc.line_of(base + ("storageUri",))
    elif fmt == "huggingface" and not any(a.replace("_", "-").startswith("--backend=huggingface") for a in args):
        words = [yaml_word("vllm", line, ex), yaml_word("serve", line, ex)]
        model_id = next((a.split("=", 1)[1] for a in args if a.split("=", 1)[0].lstrip("-").replace("-", "_") == "model_id"), None)
        # huggingfaceserver/__main__.py: vLLM's model is --model_id, else --model_dir (default /mnt/models, where the
        # storageUri is mounted): a sub-folder of the mount named there is the checkpoint
        model_dir = next((a.split("=", 1)[1] for a in args if a.split("=", 1)[0].lstrip("-").replace("-", "_") == "model_dir"), None)
        if model_dir is not None and model_dir.rstrip("/") == "/mnt/models":
            model_dir = None
        words.append(yaml_word(model_id or model_dir or (_uri_model(storage) if storage else "/mnt/models"), line, ex))
        for w, a in zip(arg_words, args):
            key = a.lstrip("-").split("=", 1)[0].replace("-", "_")
            if key in _HF_RENAMED:
                w = yaml_word(_HF_RENAMED[key] + a[len(a.split("=", 1)[0]):], w.line, ex)
            if key not in _HF_OWN:
                words.append(w)
        site = launch_site(ctx, rel, words, line, line, "k8s-args", "yaml-list", env, None)
        image = _hf_image(ctx, model, (rel, doc.line_of(base + ("image",))))
        if site is not None and image is not None:  # the runtime's image (its tag names the vLLM it installs)
            site.image, site.launch["image_at"] = image[0], image[1:]
        if site is not None:
            site.kind, site.mode = "kserve huggingfaceserver", "framework_integrated"
            site.mode_evidence = f"{rel}:{doc.line_of(base + ('modelFormat',))}"
            dtype = site.settings.get("dtype")
            release = framework_image(image[0]).get("kserve") if image else None
            if release is None and (pin := ctx.framework_pin(rel, "kserve")) is not None:
                release = pin.exact
            # 0.13.0-0.14.x turn `auto` into float16 on a GPU (__main__.py default_dtype); 0.12 and 0.15+ leave vLLM's auto
            if (release is None or _FP16_AUTO[0] <= (try_parse(release) or _FP16_AUTO[0]) < _FP16_AUTO[1]) \
                    and (dtype is None or (dtype.resolved and str(dtype.value).lower() == "auto")):
                site.fixed["dtype"] = "float16"
                if dtype is not None:
                    del site.settings["dtype"]
    else:
        return None
    if site is None:
        return []
    site.tool, site.gpu_request = "kserve", gpus
    return [site]


def _llmisvc(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    spec = doc.data.get("spec") or {}
    model = spec.get("model") or {}
    if not isinstance(model, dict) or not model.get("uri"):
        return []
    out = []
    for role, path in (("decode", ()), ("prefill", ("prefill",))):
        part = spec if not path else spec.get("prefill")
        if not isinstance(part, dict):
            continue
        anchor = doc.line_of(("spec", "model")) if not path else doc.line_of(("spec",) + path)
        ex = Expander()
        words = [yaml_word("vllm", anchor, ex), yaml_word("serve", anchor, ex),
                 yaml_word(_uri_model(str(model["uri"])), doc.line_of(("spec", "model", "uri")), ex)]
        par = part.get("parallelism") if isinstance(part.get("parallelism"), dict) else spec.get("parallelism") or {}
        for key, flag in (("tensor", "--tensor-parallel-size"), ("data", "--data-parallel-size"),
                          ("dataLocal", "--data-parallel-size-local"), ("pipeline", "--pipeline-parallel-size")):
            if isinstance(par, dict) and par.get(key):
                ln = doc.line_of(("spec",) + path + ("parallelism", key))
                words += [yaml_word(flag, ln, ex), yaml_word(str(par[key]), ln, ex)]
        if isinstance(par, dict) and par.get("expert"):
            words.append(yaml_word("--enable-expert-parallel", doc.line_of(("spec",) + path + ("parallelism", "expert")), ex))
        containers = ((part.get("template") or {}).get("containers") or []) if isinstance(part.get("template"), dict) else []
        main = next((c for c in containers if isinstance(c, dict) and c.get("name") == "main"), None) or {}
        ci = containers.index(main) if main in containers else 0
        cbase = ("spec",) + path + ("template", "containers", ci)
        env = _env(main.get("env"), doc, cbase + ("env",), rel)
        extra = env.pop("VLLM_ADDITIONAL_ARGS", None)
        if extra is not None and extra.value:
            words += _shell_words(extra.value, extra.line)
        site = launch_site(ctx, rel, words, anchor, anchor, "k8s-args", "yaml-list", env, None)
        if site is not None:
            site.tool = "kserve"
            site.gpu_request = resource_gpus(main.get("resources"))
            out.append(site)
    return out


def _shell_words(text: str, line: int) -> list:
    """Extra flags given as one shell-quoted string (VLLM_ADDITIONAL_ARGS)."""
    try:
        nodes = parse_tree(text)
    except (ShellSyntaxError, RecursionError):
        return []
    ex = Expander()
    out = []
    for n in nodes[:1]:
        for w in getattr(n, "words", []):
            ex.expand(w)
            w.line, w.start, w.end = line, -1, -1
            out.append(w)
    return out


def _uri_model(uri: str) -> str:
    """`hf://org/model` → org/model; other storage URIs are kept as written."""
    return uri[5:] if uri.startswith("hf://") else uri


def _env(items, doc, base: tuple, rel: str) -> dict[str, Setting]:
    out = {}
    for i, e in enumerate(items or []):
        if not isinstance(e, dict) or "name" not in e:
            continue
        name, ln = str(e["name"]), doc.line_of(base + (i,)) if base else 0
        if "value" in e:
            out[name] = Setting(name, str(e["value"]), True, rel, ln, name, str(e["value"]), "k8s-args")
        elif "valueFrom" in e and name.startswith(("HF_", "HUGGING")):
            # a Hub variable from a Secret (secretKeyRef: HF_TOKEN …): its name counts (L51), its value is never read
            out[name] = Setting(name, None, False, rel, ln, name, "", "k8s-args")
    return out


def _container_argv(ctx, container: dict, name: str, ex, line: int) -> list:
    """The runtime container's argv; its words are reported on the service's line (they live in
    the runtime's file, which this site absorbs)."""
    words = []
    for part in ("command", "args"):
        for t in container.get(part) or []:
            words.append(yaml_word(str(t).replace("{{.Name}}", name), line, ex))
    if not container.get("command") and is_vllm_like_image(container.get("image")):
        words = [yaml_word(t, line, ex) for t in entrypoint_for(container.get("image"), ctx.untagged_image_release)] + words
    return words


def _runtime(ctx: ScanContext, name: str, at: str = ""):
    """(doc, file, vLLM container, its site line) of the ServingRuntime named `name` in the project; of
    several of that name, the one nearest the service's file `at` (the same file, then the most folders
    in common): each example folder of a repository may define its own `nm-vllm` runtime beside its
    InferenceService (robertgshaw2-neuralmagic/vllm-k8s vllm-kserve-pvc, eval79)."""
    found = []
    for rel, doc in [*helm_chart.rendered_docs(ctx), *ctx.yaml_docs()]:  # a chart's rendered runtime first
        data = doc.data
        meta = data.get("metadata") if isinstance(data, dict) else None  # a hand-written file may hold any type
        if isinstance(meta, dict) and data.get("kind") in ("ServingRuntime", "ClusterServingRuntime") and meta.get("name") == name:
            found.append((rel, doc, data))
    for rel, doc, data in sorted(found, key=lambda f: -_nearness(at, f[0])):  # stable: ties keep the order above
        spec = data.get("spec")
        containers = spec.get("containers") if isinstance(spec, dict) else None
        for i, c in enumerate(containers if isinstance(containers, list) else []):
            if isinstance(c, dict) and (is_vllm_like_image(c.get("image")) or re.search(r"vllm", _words(c.get("command")))):
                path = ("spec", "containers", i)
                line = doc.line_of(path + ("command",)) if "command" in c else doc.line_of(path + ("args",))
                return doc, rel, c, line
        return None  # the nearest runtime of that name runs no vLLM container: the service runs that one
    return None


def _words(command) -> str:
    """A container's command as one string: a list's items, or the string it was written as."""
    return " ".join(map(str, command)) if isinstance(command, list) else str(command or "")


def _nearness(a: str, b: str) -> int:
    """How near two files of the project are: the folders they share, the same file most."""
    if a == b:
        return 1 << 16
    pa, pb = a.split("/")[:-1], b.split("/")[:-1]
    return next((k for k, (x, y) in enumerate(zip(pa, pb)) if x != y), min(len(pa), len(pb)))


def _hf_image(ctx: ScanContext, model: dict, at: tuple[str, int]) -> tuple[str, str, int] | None:
    """(image, file, line) the Hugging Face runtime of an InferenceService runs: the project's
    ServingRuntime of that name, else KServe's own (kserve/huggingfaceserver) when the service
    names its tag; `runtimeVersion:` replaces the runtime's tag, as KServe does."""
    name, version = model.get("runtime"), model.get("runtimeVersion")
    found = None
    own = model.get("image")
    if isinstance(own, str) and "huggingfaceserver" in own and name_and_tag(own)[1]:
        # the predictor's model is a container: its own image replaces the runtime's (kserve#4875 names v0.16.0-gpu)
        return own, at[0], at[1]
    for rel, doc in ctx.yaml_docs() if name else ():
        data = doc.data
        if isinstance(data, dict) and data.get("kind") in ("ServingRuntime", "ClusterServingRuntime") and \
                (data.get("metadata") or {}).get("name") == name:
            for i, c in enumerate((data.get("spec") or {}).get("containers") or []):
                if isinstance(c, dict) and "huggingfaceserver" in str(c.get("image") or ""):
                    found = (str(c["image"]), rel, doc.line_of(("spec", "containers", i, "image")))
    if found is None and version and (name is None or name in _HF_RUNTIMES):
        found = ("kserve/huggingfaceserver", "", 0)
    if found is None:
        return None
    if version:
        return f"{name_and_tag(found[0])[0]}:{version}", found[1], found[2]
    return found if name_and_tag(found[0])[1] else None
