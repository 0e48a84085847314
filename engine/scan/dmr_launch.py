"""Docker Model Runner: `docker model run MODEL [PROMPT]` (knowledge/deploy/model_runner.yaml). The runner
hands a model in safetensors form to its vLLM backend (Linux x86_64, NVIDIA) and a GGUF model to llama.cpp,
its default engine: a Hugging Face repository (`hf.co/ORG/REPO`, `huggingface.co/…`) whose name does not say
GGUF and that names no quantization tag is served by vLLM, as `vllm serve` of that model; a Docker Hub model
(`ai/gemma3`) is a GGUF artifact unless its name ends in `-vllm`, whose weights the audit cannot name. The
vLLM release is the runner's (engine/check/site_release.py), not the project's pin."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import deploy_tools
from vllm_kb.engine.scan.requirement import Pin
from vllm_kb.engine.scan.shell import Word
from vllm_kb.engine.scan.site import Setting, Site

# `docker model run`'s own options (cmd/cli/commands/run.go): the switches, and those that take a value
_SWITCHES = frozenset({"--debug", "-d", "--detach"})
_VALUED = frozenset({"--color"})
_HF = re.compile(r"^(?:https?://)?(?:hf\.co|huggingface\.co)/([\w.-]+/[\w.-]+?)(?::([\w.-]+))?/?$", re.I)
_HUB_VLLM = re.compile(r"^(?:docker\.io/)?ai/[\w.-]+-vllm(?::[\w.-]+)?$", re.I)


def is_run(vals: list, i: int) -> bool:
    return (vals[i] or "").rsplit("/", 1)[-1] == "docker" and vals[i + 1:i + 3] == ["model", "run"]


def model_word(words: list[Word], start: int) -> Word | None:
    """The MODEL argument, past the command's own options; None where a word is unknown first or the
    run chats with another server (`--openaiurl`: no model is loaded here)."""
    i = start
    while i < len(words):
        v = words[i].value
        if v is None:
            return None
        if v.startswith("--openaiurl"):
            return None
        if v in _SWITCHES or v.startswith("--color="):
            i += 1
        elif v in _VALUED:
            i += 2
        elif v.startswith("-"):
            return None  # an option this reading does not know: its arity is not known
        else:
            return words[i]
    return None


def served_by_vllm(ref: str) -> tuple[str | None, str | None] | None:
    """(Hub id, note) when the runner gives `ref` to vLLM: a Hugging Face repository in safetensors form
    (the id), a Docker Hub `-vllm` model (no id); None for a GGUF model (llama.cpp's)."""
    if m := _HF.match(ref):
        repo, tag = m.group(1), m.group(2)
        if "gguf" in repo.lower() or tag:  # `hf.co/unsloth/X-GGUF:Q4_K_M`: a GGUF file of the repository
            return None
        return repo, None
    if _HUB_VLLM.match(ref):
        return None, f"the weights of Docker Hub's `{ref}` (a safetensors model artifact)"
    return None


def site(rel: str, cmd, start: int, program: int, env: dict, syntax: str) -> Site | None:
    words = cmd.words
    w = model_word(words, start)
    got = served_by_vllm(w.value) if w is not None and w.value is not None else None
    if w is None or got is None:
        return None
    repo, note = got
    s = Site(file=rel, line=cmd.line, syntax=syntax, kind="docker model run", mode="standalone_serve",
             mode_evidence=f"{rel}:{words[program].line}", end_line=cmd.end_line)
    s.tool = "docker-model-runner"
    s.env = dict(env)
    s.model = Setting("model", repo, repo is not None, rel, w.line, "", w.raw, syntax, note)
    s.source = {"words": words}
    return s


def model_runner_choice(site: Site, cat):
    """The releases a Docker Model Runner host may run: the vLLM of every runner release from the first with
    a vLLM backend on (knowledge/deploy/model_runner.yaml), judged at the newest; a start-up failure of only
    some of them is said for those (engine/check/unpinned.py settle_range)."""
    from vllm_kb.engine.scan.pins import VersionChoice

    rows = deploy_tools.load("model_runner")["releases"]
    low, high = str(rows[0]["vllm"]), str(rows[-1]["vllm"])
    spec = f">={low},<={high}"
    pin = Pin(site.file, site.line, "docker model run", spec, "image", None, via="docker-model-runner")
    return VersionChoice(str(cat.resolve(high).version), False, "range", pin,
                         among=tuple(str(r["vllm"]) for r in rows))
