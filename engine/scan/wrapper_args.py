"""How a call of a wrapper of `vllm.LLM` reaches the engine: the call as vLLM sees it through the
wrapper's own parameters (renamed, spread, or noted as its own), the variables its module sets when
imported, the settings it passes when the call does not, and its process facts."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_subclass import Wrapper, argument


def engine_call(site, call: ast.Call, wrapper: Wrapper, rel: str) -> ast.Call:
    """The call as vLLM sees it through a wrapper's own `__init__`: a subclass's own parameters are
    noted (its `model`, when it has one, is the model) and the rest goes on; a forwarder's
    parameters become the engine arguments they are passed as, its mappings are spread, and what
    is its own (sampling settings, a tokenizer of its own) is noted, never read as vLLM's."""
    renamed = dict(wrapper.rename)
    keep = ast.Call(func=call.func, args=[], keywords=[])
    ast.copy_location(keep, call)
    keep.end_lineno = call.end_lineno
    for k, arg in enumerate(call.args):
        name = wrapper.positional[k] if k < len(wrapper.positional) else None
        engine = renamed.get(name, name) if wrapper.forwarder or renamed else name
        if engine == "model":
            keep.args = [_unprefixed(arg, wrapper)]
        elif name in {i[0] for i in wrapper.implies}:
            continue  # read as the settings it stands for (wrapper_defaults)
        elif name in renamed:
            kw = ast.keyword(arg=engine, value=arg)
            ast.copy_location(kw, arg)
            keep.keywords.append(kw)
        else:
            site.opaque.append({"code": "wrapper-arg", "what": ast.unparse(arg), "where": f"{rel}:{arg.lineno}"})
    for kw in call.keywords:
        if kw.arg is None:
            keep.keywords.append(kw)
        elif kw.arg in wrapper.dicts:
            keep.keywords.append(ast.copy_location(ast.keyword(arg=None, value=kw.value), kw))
        elif kw.arg in dict(wrapper.keyed):
            keep.keywords += _keyed(site, kw, dict(dict(wrapper.keyed)[kw.arg]), rel)
        elif kw.arg in renamed:
            if wrapper.prefix and kw.arg == "model":
                keep.keywords.append(ast.copy_location(ast.keyword(arg="model", value=_unprefixed(kw.value, wrapper)), kw))
            elif renamed[kw.arg] == kw.arg and kw.arg not in wrapper.probed:
                keep.keywords.append(kw)
            else:
                new = ast.copy_location(ast.keyword(arg=renamed[kw.arg], value=kw.value), kw)
                new.written = kw.arg  # type: ignore[attr-defined]  # the key as the call spells it
                # passed only where the release's EngineArgs has it (ms-swift's inspect.signature): no unknown-argument error
                new.probed = renamed[kw.arg] in wrapper.probed  # type: ignore[attr-defined]
                keep.keywords.append(new)
        elif kw.arg in {k for k, _ in wrapper.when} | {i[0] for i in wrapper.implies}:
            continue  # read as the settings it stands for (wrapper_defaults)
        elif kw.arg in wrapper.own and kw.arg != "model" or (wrapper.forwarder and not wrapper.rest):
            site.opaque.append({"code": "wrapper-arg", "what": f"{kw.arg}=…", "where": f"{rel}:{kw.value.lineno}"})
        else:
            keep.keywords.append(kw)
    return keep


def _keyed(site, kw: ast.keyword, keys: dict, rel: str) -> list:
    """A mapping of the wrapper's whose listed keys reach the engine under their engine names
    (curator's backend_params: max_model_length → max_model_len); its other keys are the wrapper's
    own, and a mapping the scan cannot read as a literal is noted, never spread."""
    d = kw.value
    names = [k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None for k in d.keys] \
        if isinstance(d, ast.Dict) else [None]
    if not isinstance(d, ast.Dict) or None in names:
        site.opaque.append({"code": "wrapper-arg", "what": f"{kw.arg}=…", "where": f"{rel}:{kw.value.lineno}"})
        return []
    out = []
    for name, v in zip(names, d.values):
        if name not in keys:
            site.opaque.append({"code": "wrapper-arg", "what": f"{kw.arg}[{name!r}]", "where": f"{rel}:{v.lineno}"})
            continue
        new = ast.copy_location(ast.keyword(arg=keys[name], value=v), v)
        new.written = name  # type: ignore[attr-defined]  # the key as the call spells it
        out.append(new)
    return out


def _unprefixed(arg: ast.expr, wrapper: Wrapper) -> ast.expr:
    """The model as the engine gets it: `vllm/org/m` → `org/m`."""
    if wrapper.prefix and isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith(wrapper.prefix):
        return ast.copy_location(ast.Constant(value=arg.value[len(wrapper.prefix):]), arg)
    return arg


def process_facts(wrapper: Wrapper | None, launch: dict) -> None:
    """A wrapper that touches CUDA before it builds the engine: the process facts of a script that
    does so itself (engine/scan/python_process.py), at import when the call is at module level."""
    if wrapper is not None and wrapper.cuda_first:
        launch.update(cuda_first=True, cuda_init_first=True, cuda_before=bool(launch.get("module_level")))
    if wrapper is not None and wrapper.v1_from:
        launch["v1_from"] = wrapper.v1_from


def wrapper_env(wrapper: Wrapper, rel: str, line: int) -> dict:
    """The variables a wrapper's module writes into os.environ when imported (async_cosyvoice's
    VLLM_USE_V1=1), as settings of the call: implied, so no fix edits them."""
    from vllm_kb.engine.scan.site import Setting

    return {name: Setting(name, str(value), True, rel, line, name, "", "python-call",
                          f"set by {wrapper.origin} when imported ({wrapper.name})", implied=True)
            for name, value in wrapper.env}


def wrapper_defaults(site, wrapper: Wrapper, rel: str, line: int, written: ast.Call | None = None) -> list:
    """What a forwarder passes to the engine when the call does not (OrpheusModel's bfloat16):
    settings the call does not write, so a fix adds the keyword to the call. Settings it derives
    from a keyword of its own (unsloth's load_in_4bit → quantization) come first, marked implied:
    no fix writes the engine's argument into a call that does not take it."""
    from vllm_kb.engine.scan.site import Setting

    out = []
    for key, default, value, sets in wrapper.implies:
        kw = argument(written, wrapper, key)
        if kw is not None and not isinstance(kw, ast.Constant):
            continue  # a value the scan does not read derives nothing
        got = default if kw is None else kw.value
        if got != value or isinstance(got, bool) != isinstance(value, bool):
            continue
        for name, v in sets:
            if name not in site.settings:
                out.append(Setting(name, v, True, rel, kw.lineno if kw is not None else line, key, "", "python-call",
                                   f"implied by {key}={got!r} ({wrapper.name}, {wrapper.origin})", implied=True))
    if wrapper.gpu_dtype and "dtype" not in site.settings:
        site.launch["dtype_by_cc"] = list(wrapper.gpu_dtype)  # the memory estimate sizes by it (check/facts.py)
    for name, how in wrapper.decides:
        if name not in site.settings:
            out.append(Setting(name, None, False, rel, line, name, "", "python-call", f"chosen by {wrapper.name} at run time: {how}",
                               implied=True))
    if wrapper.defaults_with and argument(written, wrapper, wrapper.defaults_with) is None:
        return out  # written in the API of releases whose defaults were others
    for name, value in wrapper.defaults:
        if name not in site.settings and name not in {s.name for s in out} and not (name == "model" and site.model is not None):
            own = next((k for k, e in wrapper.rename if e == name), None)  # the key a fix writes: its own name
            own = own or (name if wrapper.rest or not wrapper.forwarder else None)
            # a default the call has no keyword for (it sits in a mapping of the wrapper's): no fix writes one
            out.append(Setting(name, value, True, rel, line, own or name, "", "python-call", f"default of {wrapper.name} ({wrapper.origin})",
                               implied=own is None))
    return out
