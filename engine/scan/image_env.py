"""Images configured by their environment instead of vLLM's flags (knowledge/deploy/env_images.yaml:
RunPod's worker, SageMaker's LMI, an application server's own env file): the `vllm serve` command
such an image runs, built from the container's env — each value word the env's own, the worker's
defaults added — and, for an image named for vLLM that no entry knows, the usual model variable."""
from __future__ import annotations

import dataclasses
import re
import shlex

from vllm_kb.engine.scan.image_tables import name_and_tag
from vllm_kb.engine.scan.images import VLLM_NAMED, env_image, image_version, is_vllm_image, synth_word
from vllm_kb.engine.scan.shell import Seg, Word


_MODEL_VALUE = re.compile(r"^(?:[\w.-]+/[\w.-]+|/[\w./-]+|\.{1,2}/[\w./-]+)$")  # a hub id or a path


def env_fallback(image: str | None, env: list[tuple[str, Word]]) -> tuple[dict, dict] | None:
    """An image named for vLLM that no entry knows, given a model by a usual env name
    (`-e MODEL=org/name`) and no command: its entrypoint most likely builds `--model $MODEL`
    from it (knowledge/deploy/env_images.yaml `fallback`). The official image is not one: it
    takes flags only."""
    from vllm_kb.engine.kb import deploy_tools

    if is_vllm_image(image) or not VLLM_NAMED.match((image or "").strip()):
        return None
    spec = deploy_tools.load("env_images")["fallback"]
    if any(re.search(x, name_and_tag(image)[0]) for x in spec.get("exclude") or ()):
        return None
    given = {k: w for k, w in env}
    var = next((v for v in spec["model_vars"] if v in given and _MODEL_VALUE.match(str(given[v].value or ""))), None)
    if var is None:
        return None
    return dict(spec, aliases={**(spec.get("aliases") or {}), var: "model"}), {"worker": None, "vllm": image_version(image)}


def env_command(image: str | None, env: list[tuple[str, Word]], line: int, cat) -> list[Word] | None:
    """The `vllm serve` command an env-configured image runs, from the container's env: each value
    word stays the env's own (edits land on it); what the worker passes by default is added. A
    switch's true sets it, its false leaves it out (the worker's --no- form is vLLM's default)."""
    found = env_image(image) or env_fallback(image, env)
    return None if found is None else entry_command(found[0], found[1], env, line, cat)


def entry_command(entry: dict, tag: dict, env: list[tuple[str, Word]], line: int, cat) -> list[Word]:
    """env_command for a knowledge entry of that shape (an image's, or an application server's
    own env file: engine/scan/app_env.py); a default without a `worker` range always applies."""
    from vllm_kb.engine.kb.deploy_tools import in_range

    present = {k for k, w in env if w.value is not None and str(w.value).strip()}
    args = cat.raw["engine_args"]
    aliases, reserved = entry.get("aliases") or {}, set(entry.get("reserved") or ())
    out = [synth_word("vllm", line), synth_word("serve", line)]
    given: set[str] = set()
    extra: list[Word] = []
    for name, word in env:
        arg = aliases.get(name) or (name.lower() if entry.get("generic") and name not in reserved and name.isupper()
                                    and name.lower() in args else None) or _prefixed(entry, name)
        spec = entry.get("extra_args") or {}
        if name in ([spec["env"]] if isinstance(spec.get("env"), str) else spec.get("env") or ()) and (tag["worker"] is None or in_range(spec.get("worker"), tag["worker"])):
            try:  # the worker splits it with shlex
                extra = [synth_word(t, word.line) for t in shlex.split(word.value or "")]
            except ValueError:  # an unclosed quote: the worker fails on it too
                extra = []
            continue
        if arg is None or word.value is None or not str(word.value).strip():
            continue
        if (needs := (entry.get("needs") or {}).get(name)) and needs not in present:
            continue  # read by the entrypoint only beside another (substratusai: DTYPE with QUANTIZATION)
        low = str(word.value).strip().lower()
        flag = synth_word("--" + arg.replace("_", "-"), word.line)
        if (args.get(arg) or {}).get("type") == "bool" or _switch(cat, arg):
            if low in ("true", "1", "yes", "on"):
                out.append(flag)
            given.add(arg)
            continue
        if arg == "model":  # the worker hands it to the engine itself: vLLM's own form is the positional
            if entry.get("model_vars"):  # the fallback: which variable the entrypoint reads is inferred
                word = dataclasses.replace(word, assumed=f"inferred from env {name}: the image's entrypoint is not known")
            out.insert(2, word)
        else:
            out += [flag, word]
        given.add(arg)
    if "model" not in given and not entry.get("model_vars"):  # set on the endpoint or the platform, not here
        out.insert(2, _unresolved("the model the image's environment names where it is started", line))
    for d in entry.get("defaults") or ():
        if "worker" not in d or tag["worker"] is not None and in_range(d.get("worker"), tag["worker"]):
            for arg, value in d["set"].items():
                if arg not in given:
                    out += [synth_word("--" + arg.replace("_", "-"), line), synth_word(str(value), line)]
    for arg, why in (entry.get("unknown") or {}).items():
        if arg not in given:  # what the entrypoint passes itself, not known here: unresolved, not vLLM's default
            out += [synth_word("--" + arg.replace("_", "-"), line), _unresolved(str(why), line)]
    return out + extra


def _prefixed(entry: dict, name: str) -> str | None:
    """SM_VLLM_MAX_MODEL_LEN → max_model_len for an entry whose entrypoint passes every prefixed name."""
    prefix = entry.get("prefix")
    return name[len(prefix):].lower() if prefix and name.startswith(prefix) and len(name) > len(prefix) else None


def _switch(cat, arg: str) -> bool:
    """A serve flag that takes no value in some release (--enable-auto-tool-choice)."""
    kind = ((cat.raw.get("cli_flags") or {}).get("--" + arg.replace("_", "-")) or {}).get("kind")
    kinds = [k for _, k in kind.get("changes", [])] if isinstance(kind, dict) else [kind]
    return bool(kinds) and all(k in ("switch", "negatable") for k in kinds)


def _unresolved(text: str, line: int) -> Word:
    w = Word(raw=text, line=line, segs=[Seg("lit", text)], start=-1, end=-1)
    w.value, w.unresolved = None, text
    return w
