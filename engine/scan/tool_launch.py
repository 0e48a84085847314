"""Serving tools whose own command starts a vLLM engine: `xinference launch --model-engine vllm …`
(Xinference's options, then `--key value` pairs it hands to the engine as keywords) and, from
Python, `Client(…).launch_model(model_engine="vllm", …)`. What the tool sets on its own
(knowledge/deploy/xinference.yaml) comes with the site as its defaults; the tensor-parallel size
is the number of GPUs the tool gives the model, unknown when that is the worker's whole machine."""
from __future__ import annotations

from dataclasses import dataclass

from vllm_kb.engine.kb import deploy_tools, versions
from vllm_kb.engine.scan import dmr_launch, dynamo_run, lighteval_launch, lm_eval_launch, lmms_eval_launch, xinference_defaults, xinference_engine
from vllm_kb.engine.scan.cli_args import Arg, ArgParser
from vllm_kb.engine.scan.launchers import program_start
from vllm_kb.engine.scan.shell import Word
from vllm_kb.engine.scan.xinference_custom import custom_checkpoint
from vllm_kb.engine.scan.site import Setting, Site


@dataclass
class ToolLaunch:
    tool: str
    args_start: int
    program_start: int
    env: list


def find(words: list[Word]) -> ToolLaunch | None:
    if (got := program_start(words)) is None:
        return None
    i, env = got
    vals = [w.value for w in words]
    base = (vals[i] or "").rsplit("/", 1)[-1]
    if base == "xinference" and i + 1 < len(vals) and vals[i + 1] == "launch":
        return ToolLaunch("xinference", i + 2, i, env)
    if base == "openllm" and i + 1 < len(vals) and vals[i + 1] in ("serve", "start"):
        return ToolLaunch("openllm", i + 2, i, env)
    if dmr_launch.is_run(vals, i):
        return ToolLaunch("docker-model-runner", i + 3, i, env)
    if base in ("lm_eval", "lm-eval"):
        return ToolLaunch("lm_eval", i + 1, i, env)
    if base.startswith("python") and vals[i + 1:i + 3] == ["-m", "lm_eval"]:
        return ToolLaunch("lm_eval", i + 3, i, env)
    if base in ("lmms_eval", "lmms-eval") or (base.startswith("python") and vals[i + 1:i + 3] == ["-m", "lmms_eval"]):
        return ToolLaunch("lmms_eval", i + 3 if base.startswith("python") else i + 1, i, env)
    if (start := dynamo_run.is_vllm_run(vals, i)) is not None:
        return ToolLaunch("dynamo", start, i, env)
    if base == "lighteval" and vals[i + 1:i + 2] == ["vllm"]:
        return ToolLaunch("lighteval", i + 2, i, env)
    if base.startswith("python") and vals[i + 1:i + 4] == ["-m", "lighteval", "vllm"]:
        return ToolLaunch("lighteval", i + 4, i, env)
    return None


def _options(release: str | None = None) -> dict[str, dict]:
    """`xinference launch`'s own options; one added later (`since`) is an extra pair in a release the
    project pins before it (an unpinned or unread release is taken to have it)."""
    got = versions.try_parse(release) if release else None
    out = {}
    for o in deploy_tools.load("xinference")["options"]:
        if o.get("since") and got is not None and got < versions.parse(o["since"]):
            continue
        for n in o["names"]:
            out[n] = o
    return out


def site(ctx, rel: str, version: str, cmd, tl: ToolLaunch, env: dict, syntax: str = "cli") -> Site | None:
    """The site of `xinference launch` / `openllm serve`, or None when the model does not run on vLLM."""
    if tl.tool == "openllm":
        return _openllm(rel, cmd, tl, env, syntax)
    if tl.tool == "docker-model-runner":
        return dmr_launch.site(rel, cmd, tl.args_start, tl.program_start, env, syntax)
    if tl.tool == "lm_eval":
        return lm_eval_launch.site(ctx, rel, version, cmd, tl, env, syntax)
    if tl.tool == "lmms_eval":
        return lmms_eval_launch.site(ctx, rel, version, cmd, tl, env, syntax)
    if tl.tool == "dynamo":
        return dynamo_run.site(ctx, rel, version, cmd, tl, env, syntax)
    if tl.tool == "lighteval":
        return lighteval_launch.site(ctx, rel, version, cmd, tl, env, syntax)
    words = cmd.words
    opts = _options(ctx.framework_version(rel, "xinference") if ctx is not None else None)
    own_keys = set(deploy_tools.load("xinference")["python_keys"])
    own: dict[str, Word] = {}
    forwarded: list[int] = []  # indexes into words: a setting's span is where its words are written
    i, n = tl.args_start, len(words)
    while i < n:
        w = words[i]
        text = w.value if w.value is not None else w.literal
        name, eq, inline = text.partition("=")
        o = opts.get(name)
        if o is None and name.startswith("--") and name[2:] in own_keys:
            # `--model_path /m`: not a click option, so the pair is handed on as the keyword
            # `model_path` (the key as written), which is launch_model's own: Xinference's, not vLLM's
            o = {"names": [name], "key": name[2:]}
        if o is not None:
            if eq:
                own[o.get("key", name)] = _plain(inline, w)
                i += 1
                continue
            if o.get("key") and i + 1 < n:
                own[o["key"]] = words[i + 1]
            i += 1 + o.get("values", 1)
            continue
        forwarded.append(i)
        i += 1
    engine = own.get("model_engine")
    by_itself = None
    endpoint, gpu_idx_w = (own[k].value if own.get(k) else None for k in ("endpoint", "gpu_idx"))
    if engine is None:  # before 0.11.0 Xinference chose the engine itself (engine/scan/xinference_engine.py)
        named, form, quant_w, kind = (own[k].value if own.get(k) else None
                                      for k in ("model_name", "model_format", "quantization", "model_type"))
        by_itself = xinference_engine.auto_vllm(ctx, rel, version, named, form, quant_w, "--lora-modules" in _written(words, tl), kind)
        if by_itself is None:
            xinference_engine.note_other(ctx, rel, endpoint, cmd.line, named, kind, gpu_idx_w)
            return None
    elif (engine.value or "").lower() != "vllm":
        xinference_engine.note_other(ctx, rel, endpoint, cmd.line, own["model_name"].value if own.get("model_name") else None,
                                     engine.value, gpu_idx_w)
        return None
    args = [Arg.from_word(words[k], k) for k in forwarded]
    parsed = ArgParser(ctx.catalog, version, rel).parse(args, positional_model=False)
    s = Site(file=rel, line=cmd.line, syntax=syntax, kind="xinference launch", mode="framework_integrated",
             mode_evidence=f"{rel}:{words[tl.program_start].line}", end_line=cmd.end_line)
    s.tool = "xinference"
    if by_itself:
        s.launch["engine_by"] = by_itself
    s.env = dict(env)
    s.settings = dict(parsed.settings)
    s.unknown = dict(parsed.unknown)
    path = own.get("model_path")
    if path is not None:
        s.model = Setting("model", path.value, path.value is not None, rel, path.line, "--model-path", path.raw, syntax)
    else:
        name = own.get("model_name")
        size, fmt, quant = (own[k].value if own.get(k) else None for k in ("size_in_billions", "model_format", "quantization"))
        s.model = registry_model(name.value if name else None, size, fmt, quant, rel, name.line if name else cmd.line,
                                 "--model-name", name.raw if name else "", syntax, ctx)
    nw = own.get("n_worker")
    n_gpu, gpu_idx = ((own[k].value if own[k].value is not None else xinference_engine.UNREAD) if own.get(k) else None
                      for k in ("n_gpu", "gpu_idx"))
    written = _written(words, tl)
    gpus, by = xinference_engine.gpus_given(n_gpu, gpu_idx, "--replica-config" in written or "--replica_config" in written)
    xinference_engine.place_gpus(s, gpus, by, rel, cmd.line, "--n-gpu / --gpu-idx",
                                 multi_worker=nw is not None and (nw.value or "").isdigit() and int(nw.value or "0") > 1)
    if nw is not None and (nw.value or "").isdigit() and "pipeline_parallel_size" not in s.settings:
        s.settings["pipeline_parallel_size"] = Setting("pipeline_parallel_size", int(nw.value or ""), True, rel, nw.line, "--n-worker",
                                                       nw.raw, syntax, "Xinference runs one pipeline stage per worker", implied=True)
    s.framework_defaults = xinference_defaults.engine_defaults(
        ctx, rel, env, {k: v for k, v in deploy_tools.load("xinference")["defaults"].items() if k not in s.settings})
    mt = own.get("model_type")
    if mt is not None and mt.value:  # which of its engine classes Xinference builds (LLM, embedding, rerank)
        s.launch["model_type"] = str(mt.value)
    xinference_engine.note_gpu_ids(s, gpu_idx_w, endpoint)
    if (beside := xinference_engine.others_before(ctx, rel, endpoint, cmd.line, gpu_idx_w)):
        s.launch["gpu_cotenant"] = beside
    # `launch`: where a new `--key value` pair goes (the end of the command, as every pair is handed on)
    s.source = {"words": words, "launch": tl}
    return s


def registry_model(name: object, size: object, fmt: object, quantization: object, rel: str, line: int, key: str, raw: str,
                   syntax: str, ctx=None) -> Setting:
    """The model of an Xinference launch named by its registry name (and size): the weights the
    project's own registration of that name gives (engine/scan/xinference_custom.py), else the
    checkpoint Xinference's registry gives it (knowledge/deploy/xinference_models.yaml), else unknown."""
    own = custom_checkpoint(ctx, name, size, fmt, quantization)
    if own is not None:
        return Setting("model", own[0], True, rel, line, key, raw, syntax,
                       f"the project's own Xinference registration ({own[1]}): {name} → {own[0]}", implied=True)
    hub = deploy_tools.xinference_checkpoint(name, size, fmt, quantization)
    if hub is not None:
        return Setting("model", hub, True, rel, line, key, raw, syntax,
                       f"Xinference {deploy_tools.xinference_release(name)}'s registry: {name} {size or ''}B → {hub}".replace(" B →", " →"),
                       implied=True)
    return Setting("model", None, False, rel, line, key, raw, syntax, f"Xinference's model `{name or '?'}`: the weights its registry names")


def _plain(text: str, like: Word) -> Word:
    w = Word(raw=text, line=like.line, segs=like.segs, start=-1, end=-1)
    w.value = text
    return w


def _written(words: list[Word], tl: ToolLaunch) -> set[str]:
    return {(w.value or "").split("=", 1)[0] for w in words[tl.args_start:]}


def _openllm(rel: str, cmd, tl: ToolLaunch, env: dict, syntax: str) -> Site | None:
    """`openllm serve MODEL` (0.6+: a prebuilt BentoVLLM bento) or `openllm start MODEL --backend
    vllm` (0.4-0.5): vLLM behind OpenLLM's server; the engine arguments are the bento's own."""
    words = cmd.words
    vals = [w.value for w in words]
    rest = vals[tl.args_start:]
    if words[tl.args_start - 1].value == "start" and "vllm" not in [v for v in rest if v] and "--backend=vllm" not in rest:
        return None
    model_w = next((w for w in words[tl.args_start:] if w.value and not w.value.startswith("-")), None)
    s = Site(file=rel, line=cmd.line, syntax=syntax, kind=f"openllm {words[tl.args_start - 1].value}", mode="framework_integrated",
             mode_evidence=f"{rel}:{words[tl.program_start].line}", end_line=cmd.end_line)
    s.tool = "openllm"
    s.env = dict(env)
    if model_w is not None and "/" in model_w.value:
        s.model = Setting("model", model_w.value, True, rel, model_w.line, "", model_w.raw, syntax)
    else:
        s.model = Setting("model", None, False, rel, model_w.line if model_w else cmd.line, "", model_w.raw if model_w else "",
                          syntax, f"OpenLLM's model `{model_w.value if model_w else '?'}`: the weights its bento names")
    s.source = {"words": words}
    return s
