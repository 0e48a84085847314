"""FlagScale serve configs (`conf/serve/<name>.yaml` of a Hydra tree, or a `serve:` list inline):
a list of entries, each with `engine: vllm` and `engine_args: {model: …, tensor_parallel_size: …}`.
FlagScale (flagscale/serve/run_inference_engine.py `vllm_serve`, runner_serve.py for several
nodes) merges `engine_args_specific.vllm` under `engine_args` and runs `vllm serve <model>` with
flagscale/utils.py `flatten_dict_to_args`: each key `--key-with-dashes value`, a list as one flag
followed by its items, `true` as the bare switch and `false` left out, a mapping flattened into
flags of its own keys. So the keys are vLLM's flags written in snake case, read as a `--config`
YAML is (engine/scan/serve_config.py), except where FlagScale renders them differently. That is
the runner's path when the task config says `use_fs_serve: false` (FlagScale's examples do);
otherwise it serves through Ray Serve LLM with `engine_args` as EngineArgs keywords."""
from __future__ import annotations

from pathlib import PurePosixPath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.kwargs_sites import mapping_site
from vllm_kb.engine.scan.serve_config import settings_from_mapping
from vllm_kb.engine.scan.site import Setting, Site

_MAX_ENTRIES = 64  # a serve list is a handful of models; a longer list is not a FlagScale config


def _engine(item) -> str | None:
    """The engine an entry runs: `engine:`, else the entry FlagScale's runner looks up by id
    (`serve_id: vllm_model`, the examples before `engine:` was written out)."""
    if not isinstance(item, dict) or not isinstance(item.get("engine_args"), dict):
        return None
    engine = item.get("engine")
    if engine is None:
        return "vllm" if item.get("serve_id") == "vllm_model" else None
    return str(engine).strip().lower()


def serve_list(data) -> tuple[list, tuple] | None:
    """The serve entries of a document and their path: the document itself (a `conf/serve/*.yaml`)
    or its `serve:` key (the task config written in one file)."""
    base: tuple = ()
    if isinstance(data, list):
        items = data
    elif isinstance(data, dict) and isinstance(data.get("serve"), list):
        items, base = data["serve"], ("serve",)
    else:
        return None
    if not items or len(items) > _MAX_ENTRIES or not all(isinstance(i, dict) for i in items):
        return None
    return (items, base) if any(_engine(i) is not None for i in items) else None


def is_flagscale(data) -> bool:
    return serve_list(data) is not None


def scan_flagscale(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    got = serve_list(doc.data)
    if got is None:
        return []
    items, base = got
    version = ctx.version_for(rel)
    ray = _fs_serve(doc.data) if base else _fs_serve_of(ctx, rel)
    out = []
    for i, item in enumerate(items):
        if _engine(item) != "vllm":
            continue  # sglang, llama_cpp …: not vLLM
        out.append(_ray_entry(ctx, rel, doc, item, base + (i,)) if ray else _entry(ctx, rel, doc, version, item, base + (i,)))
    return out


def _fs_serve(task) -> bool | None:
    """`use_fs_serve` of a task config: FlagScale's runner (runner_serve.py SSHServeRunner) runs
    flagscale/serve/run_fs_serve_vllm.py — Ray Serve LLM with `engine_args` as engine_kwargs — unless
    it is false, and run_inference_engine.py (`vllm serve` flags) when it is. Read at
    experiment.runner.deploy (FlagScale from 2025-06-24) or experiment.deploy (before)."""
    exp = task.get("experiment") if isinstance(task, dict) else None
    if not isinstance(exp, dict):
        return None
    for deploy in ((exp.get("runner") or {}).get("deploy") if isinstance(exp.get("runner"), dict) else None, exp.get("deploy")):
        if isinstance(deploy, dict) and isinstance(deploy.get("use_fs_serve"), bool):
            return deploy["use_fs_serve"]
    return True if isinstance(exp.get("task"), dict) else None


def _fs_serve_of(ctx: ScanContext, rel: str) -> bool | None:
    """For `<conf>/serve/<name>.yaml`: the task configs in <conf> whose Hydra `defaults` pick it
    (`- serve: <name>`). Ray Serve only when every one that picks it runs it; unknown (read as flags,
    what FlagScale's examples choose) when none is in the project."""
    path = PurePosixPath(rel)
    if path.parent.name != "serve":
        return None
    conf, name = path.parent.parent, path.stem
    votes = set()
    for cand in ctx.files:
        if not cand.endswith((".yaml", ".yml")) or PurePosixPath(cand).parent != conf:
            continue
        text = ctx.read(cand)
        if not text or name not in text or "defaults" not in text:
            continue
        try:
            task = yamlio.load(text).data
        except yamlio.YamlError:
            continue
        picks = task.get("defaults") if isinstance(task, dict) else None
        if isinstance(picks, list) and any(isinstance(d, dict) and str(d.get("serve")) == name for d in picks):
            votes.add(_fs_serve(task))
    return True if votes == {True} else None


def _ray_entry(ctx: ScanContext, rel: str, doc: yamlio.Document, item: dict, path: tuple) -> Site:
    """run_fs_serve_vllm.py: LLMConfig(model_source=model, engine_kwargs=engine_args without
    model, served_model_name and port); engine_args_specific is not read there."""
    args = {k: v for k, v in item["engine_args"].items() if k not in ("model", "served_model_name", "port")}
    lines = {str(k): doc.line_of(path + ("engine_args", k)) for k in args}
    model = item["engine_args"].get("model")
    site = mapping_site(ctx, rel, args, lines, line=doc.line_of(path), kind="flagscale serve (Ray Serve LLM)",
                        mode="framework_integrated", tool="flagscale", syntax="kwargs-yaml", model=model,
                        model_line=doc.line_of(path + ("engine_args", "model")))
    tp, pp = (args.get(k, 1) for k in ("tensor_parallel_size", "pipeline_parallel_size"))
    if all(isinstance(x, int) and not isinstance(x, bool) for x in (tp, pp)):
        site.gpu_request = tp * pp
    return site


def _entry(ctx: ScanContext, rel: str, doc: yamlio.Document, version: str, item: dict, path: tuple) -> Site:
    args_path = path + ("engine_args",)
    specific = item.get("engine_args_specific")
    given = specific.get("vllm") if isinstance(specific, dict) else None
    own: dict = given if isinstance(given, dict) else {}
    settings: dict[str, Setting] = {}
    unknown: dict[str, Setting] = {}
    model = None
    opaque: list[dict] = []
    # engine_args is applied last (`vllm_args.update(common_args)`): it wins over engine_args_specific.vllm
    for mapping, where in ((own, path + ("engine_args_specific", "vllm")), (item["engine_args"], args_path)):
        s_got, u_got, m_got, _style = settings_from_mapping(ctx, rel, version, mapping, doc, where)
        for s in (*s_got.values(), *u_got.values()):
            if _as_flagscale(ctx, version, s, mapping.get(s.key)):
                opaque.append({"code": "unresolved", "what": f"{s.key}: {s.raw}", "where": s.where})
        settings.update(s_got)
        unknown.update(u_got)
        model = m_got or model
    line = doc.line_of(path)
    site = Site(file=rel, line=line, syntax="yaml-config", kind="vllm serve", mode="standalone_serve",
                mode_evidence=f"{rel}:{line}", end_line=line)
    site.tool = "flagscale"
    site.config_key_style = "snake"
    site.source = {"yaml_doc": doc.index, "yaml_base": list(args_path), "dict_as_json": True}
    site.model = model
    site.unknown = unknown
    site.opaque = opaque
    for s in settings.values():
        site.set(s)
    site.launch["model_positional"] = model is not None  # `vllm serve <model>`: FlagScale puts it first
    site.launch["model_in_config"] = False
    site.launch["first_arg_option"] = model is None
    if model is not None:
        site.launch["model_arg"] = str(model.value)
    # no gpu_request: the runner takes the GPUs the node (or the task's CUDA_VISIBLE_DEVICES) has,
    # and `vllm serve` uses TP × PP × DP of them
    return site


def _as_flagscale(ctx: ScanContext, version: str, s: Setting, value) -> bool:
    """What FlagScale's flattening makes of a value where a `--config` YAML reads it otherwise;
    True for a mapping, whose flags vLLM receives are not this argument's."""
    if isinstance(value, dict):
        # flattened into flags named for its keys (`--image 4`), not one JSON value
        s.resolved, s.value, s.note = False, None, "a mapping: FlagScale passes its keys as flags of their own"
        return True
    if value is False:
        # left out of the command line: the release's default applies, which is not always false
        entry = ctx.catalog.arg(s.name)
        default = entry.field("default", version) if entry is not None and entry.exists(version) else None
        if default is not False:
            s.resolved, s.value, s.note = False, None, "false: FlagScale leaves the flag out (vLLM's default applies)"
    return False
