"""`evalscope perf --api local_vllm --model M`: EvalScope's stress test starts the vLLM server itself
before it sends its requests (evalscope/perf/utils/local_server.py `start_app`, the same from 0.8.1,
December 2024, to 1.x): `python -m vllm.entrypoints.openai.api_server --model M --served-model-name M
--tensor-parallel-size <torch.cuda.device_count()> --max-model-len 32768 --gpu-memory-utilization 0.9
--host 0.0.0.0 --port <--port> --trust-remote-code --disable-log-requests --disable-log-stats`, with
VLLM_USE_MODELSCOPE=True, VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 and VLLM_WORKER_MULTIPROC_METHOD=spawn in its
environment. None of it comes from the command line but the model and the port, so no change can be
written there: every argument is EvalScope's own (its words have no place in the file).

0.7.0–0.8.0 (local_server.py from 0.7.0, November 2024) started the server without --trust-remote-code
and without VLLM_ALLOW_LONG_MAX_MODEL_LEN: both came with commit ed1cfd92 (modelscope/evalscope#246, for
#243: Qwen-14B-Chat's remote-code config refused), first released in 0.8.1; the spawn method with 0.8.2.
`trust_state` says which the project's evalscope pin installs."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.versions import Version, try_parse
from vllm_kb.engine.scan.launchers import program_start
from vllm_kb.engine.scan.shell import Seg, Word

ENV = {"VLLM_USE_MODELSCOPE": "True", "VLLM_ALLOW_LONG_MAX_MODEL_LEN": "1", "VLLM_WORKER_MULTIPROC_METHOD": "spawn"}
TRUST_SINCE = "0.8.1"   # --trust-remote-code and VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (evalscope ed1cfd92)
SPAWN_SINCE = "0.8.2"   # VLLM_WORKER_MULTIPROC_METHOD=spawn (evalscope 70d2fbb3)
FIRST = "0.7.0"         # the first release with --api local_vllm's launcher


def trust_state(pin) -> str | None:
    """None where the pinned evalscope passes --trust-remote-code (0.8.1 and later); "absent" where every
    release the pin allows predates it; "unknown" where no pin says (unpinned, or a range across 0.8.1)."""
    exact = try_parse(str(getattr(pin, "exact", None) or "")) if pin is not None else None
    if exact is not None:
        return None if exact >= Version(TRUST_SINCE) else "absent"
    spec = str(getattr(pin, "spec", "") or "") if pin is not None else ""
    floors = [try_parse(m) for m in _floors(spec)]
    if any(f is not None and f >= Version(TRUST_SINCE) for f in floors):
        return None
    return "unknown"


def _floors(spec: str) -> list[str]:
    return re.findall(r"(?:>=|~=|>)\s*([\d.]+)", spec)


def env_for(state: str | None) -> dict[str, str]:
    """The environment the launcher sets: a release before 0.8.1 sets only VLLM_USE_MODELSCOPE."""
    return {"VLLM_USE_MODELSCOPE": "True"} if state == "absent" else ENV
TP_NOTE = "EvalScope passes torch.cuda.device_count(): every GPU the process sees"


def _value(vals: list, name: str):
    for i, v in enumerate(vals):
        if v == name and i + 1 < len(vals):
            return i + 1
        if isinstance(v, str) and v.startswith(name + "="):
            return i
    return None


def server_argv(words: list[Word], trust: bool = True) -> list[Word] | None:
    """The api_server argv `evalscope perf --api local_vllm` starts (without the tensor-parallel size,
    which the GPUs decide), or None for any other command; `trust`: with --trust-remote-code (0.8.1 on)."""
    if (got := program_start(words)) is None:
        return None
    i = got[0]
    vals = [w.value for w in words]
    base = (vals[i] or "").rsplit("/", 1)[-1]
    if not (base == "evalscope" and vals[i + 1:i + 2] == ["perf"]):
        return None
    api = _value(vals, "--api")
    if api is None or (vals[api] or "").split("=", 1)[-1] != "local_vllm":
        return None
    at = _value(vals, "--model")
    model = words[at] if at is not None else None
    line = words[i].line

    def word(text: str, src: Word | None = None) -> Word:
        w = Word(raw=text, line=src.line if src else line, segs=[Seg("lit", text, quoted=True)], start=-1, end=-1)
        w.value = w.text = text
        return w

    def model_word() -> Word:
        if model is None or model.value is None:
            w = word("$MODEL")
            w.value, w.unresolved = None, model.raw if model is not None else "--model"
            return w
        return word(model.value.split("=", 1)[1] if model.value.startswith("--model=") else model.value, model)

    port = _value(vals, "--port")
    port_text = (vals[port] or "8877").split("=", 1)[-1] if port is not None else "8877"
    out = [word("python"), word("-m"), word("vllm.entrypoints.openai.api_server"), word("--model"), model_word(),
           word("--served-model-name"), model_word(), word("--max-model-len"), word("32768"),
           word("--gpu-memory-utilization"), word("0.9"), word("--host"), word("0.0.0.0"), word("--port"), word(port_text),
           *([word("--trust-remote-code")] if trust else []), word("--disable-log-requests"), word("--disable-log-stats")]
    return out
