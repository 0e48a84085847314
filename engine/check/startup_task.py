"""Whether the release runs the model's architecture with the task or runner the launch asks for
(L141), from knowledge/vllm/runners.yaml (tools/vllm_runners.py: per release, the registered
architectures whose class is generative and those that pool natively, and the first release that
converts any model for pooling). vLLM settles the task while it builds the ModelConfig, before any
GPU is touched, and raises when the architecture cannot run it:

- 0.6.4 (and .post1): `--task embedding` on a class without a pooler, `--task generate` on one
  without compute_logits/sample: "This model does not support the 'X' task. Supported tasks: {…}"
  (config.py _resolve_task). 0.6.5 converts any model for pooling (models/adapters.py).
- 0.6.5–0.9.2: only `--task generate` on a class that cannot generate, same words.
- 0.10.0: "This model does not support task='generate'. Available tasks for runner='generate': []";
  a *ForSequenceClassification architecture takes only `classify` (_is_classify_task).
- 0.10.1–0.12.0 (`--task` deprecated, mapped to a runner and a convert type): a generative task on a
  class that cannot generate ends as the runner refusal below; any task on a class that neither
  generates nor pools natively (ModernBertModel, NomicBertModel) is an AssertionError ("The model
  should be a generative or pooling model when task is set to 'X'."), for a generative task only
  from 0.12.0.
- 0.10.1+: `--runner generate` on a class that cannot generate ("This model does not support
  `--runner generate`."; from 0.22.0 "Embedding models do not support `--runner generate`. …" for
  a pooling one), `--runner pooling --convert none` on a class that does not pool natively.

Nothing is said where the architecture is not registered, its class was not read, the release is
outside the table, or the value is one the release does not list (the catalog finding's job)."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check.cli_choices import engine_skips
from vllm_kb.engine.check.json_arg import UNREADABLE, json_arg
from vllm_kb.engine.check.startup_arch import _known, _registered
from vllm_kb.engine.kb.versions import Version, parse, try_parse

TASK_FROM, TASK_UNTIL = "0.6.4", "0.12.0"   # the releases with a task option (0.13.0 removed it)
RUNNER_FROM = "0.10.1"                      # --runner / --convert on the command line
EMBEDDING_WORDS = "0.22.0"                  # "Embedding models do not support `--runner …`"
CONVERTS_REWARD_UNTIL = "0.19.1"
ASSERT_FOUND = "0.11.1"                     # the AssertionError adds "Found: {architectures, …}"
NEITHER_CONVERTS = "0.12.0"                 # a pooling task converts a class that neither generates nor pools            # _RUNNER_CONVERTS["pooling"] drops "reward" in 0.20.0
GENERATIVE_TASKS = ("generate", "transcription")
POOLING_TASKS = ("embedding", "embed", "classify", "score", "reward")
# the task options each release lists (EngineArgs/argparse choices); another value is the
# catalog's value-not-in-version finding, not this check's
TASK_CHOICES = (("0.6.4", ("generate", "embedding")),
                ("0.6.5", ("generate", "embedding", "embed", "classify", "score", "reward")),
                ("0.7.3", ("generate", "embedding", "embed", "classify", "score", "reward", "transcription")))


def _set(v) -> str | None:
    return v if isinstance(v, str) and v and v != "auto" else None


def _choices(v: Version) -> tuple[str, ...]:
    return next((c for start, c in reversed(TASK_CHOICES) if v >= Version(start)), ())


def _py_set(items: list[str]) -> str:
    return "{" + ", ".join(repr(x) for x in items) + "}"


def task_facts(model: dict, engine: dict, runners: dict, arch_table: dict, version: str | None,
               syntax: str | None = None) -> dict[str, Any]:
    """`syntax`: how the site passes its settings; a task value the release does not list is the
    catalog finding's where the command line's choices bind it, this check's where they do not
    (`LLM(task="reward")` on 0.6.4 reaches _resolve_task)."""
    arch = model.get("architecture")
    v = try_parse(version) if version else None
    task, runner, convert = _set(engine.get("task")), _set(engine.get("runner")), engine.get("convert")
    if not isinstance(arch, str) or not arch or v is None or not runners or not (task or runner):
        return {}
    base = Version(v.public)  # a .postN release patches its base (0.6.4.post1 reads as 0.6.4 here)
    task = task if Version(TASK_FROM) <= base <= Version(TASK_UNTIL) else None  # else not-in-version's
    runner = runner if base >= Version(RUNNER_FROM) else None
    if not (task or runner):
        return {}
    releases = [parse(r) for r in runners["releases"]]
    if not releases[0] <= base <= releases[-1]:
        return {}
    arch_releases = [parse(r) for r in arch_table["releases"]]
    if _registered(arch_table, arch, arch_releases, base) is not True:
        return {}
    if _known(runners["unresolved"].get(arch) or [], releases, base) is not False:
        return {}
    gen = _known(runners["generate"].get(arch) or [], releases, base)
    pool = _known(runners["pooling"].get(arch) or [], releases, base)
    if gen is None or pool is None:
        return {}
    if engine.get("model_impl") not in (None, "auto", "vllm"):
        return {}  # the Transformers (or Terratorch) backend's class, not the registered one
    if task and task not in _choices(base) and base < Version(RUNNER_FROM) \
            and not (syntax and engine_skips(syntax, "task", str(base))):
        return {}  # argparse refuses it first: the catalog's value-not-in-version
    return _refusal(arch, base, task, runner, convert, gen, pool, runners.get("convert_from")) or {"task_ok": True}


def _refusal(arch: str, v: Version, task, runner, convert, gen: bool, pool: bool, convert_from) -> dict[str, Any]:
    converts = bool(convert_from) and v >= Version(convert_from)
    if task and Version(TASK_FROM) <= v <= Version(TASK_UNTIL):
        if v < Version(RUNNER_FROM):
            out = _task_refusal(arch, v, task, gen, pool, converts)
        else:
            out = _deprecated_task(task, gen, pool, v)
        return {**out, "task_asked": f"--task {task}", "task_value": task} if out else {}
    if runner and v >= Version(RUNNER_FROM):
        if runner == "generate" and not gen:
            words = ("Embedding models do not support `--runner generate`. Use `--runner pooling` or `--runner auto` "
                     "for embedding models.") if pool and v >= Version(EMBEDDING_WORDS) else \
                "This model does not support `--runner generate`."
            return {"task_refused": True, "task_words": words, "task_asked": "--runner generate",
                    **({"task_fix": "unset_runner"} if pool else {})}
        if runner == "pooling" and not pool and convert == "none":
            return {"task_refused": True, "task_asked": "--runner pooling --convert none", "task_fix": "set_convert",
                    "task_words": "This model does not support `--runner pooling`. You can pass "
                                  f"`--convert <{_pool_converts(v)}> to adapt it into a pooling model."}
    return {}


def _pool_converts(v: Version) -> str:
    return "embed|classify|reward" if v <= Version(CONVERTS_REWARD_UNTIL) else "embed|classify"


def _task_refusal(arch: str, v: Version, task: str, gen: bool, pool: bool, converts: bool) -> dict[str, Any]:
    """0.6.4–0.10.0: the task resolved against what the class supports."""
    poolable = pool or converts
    if v >= Version("0.10.0"):
        task = "embed" if task == "embedding" else task
        if arch.endswith("ForSequenceClassification") and task in ("generate", "embed", "reward"):
            runner = "generate" if task == "generate" else "pooling"
            avail = "[]" if runner == "generate" else "['classify']"
            return {"task_refused": True, "task_fix": "set_task_classify",
                    "task_words": f"This model does not support task={task!r}. Available tasks for runner={runner!r}: {avail}"}
        if task == "generate" and not gen:
            return {"task_refused": True, **({"task_fix": "unset_task"} if poolable else {}),
                    "task_words": "This model does not support task='generate'. Available tasks for runner='generate': []"}
        return {}
    if v < Version("0.6.5"):
        supported = [t for t, ok in (("generate", gen), ("embedding", pool)) if ok]
    else:
        supported = (["generate"] if gen else []) + (["embed", "classify", "score", "reward"] if poolable else [])
    if task == "generate" and not gen:
        return {"task_refused": True, **({"task_fix": "unset_task"} if supported else {}),
                "task_words": f"This model does not support the 'generate' task. Supported tasks: {_py_set(supported)}"}
    if task in POOLING_TASKS and not poolable:
        return {"task_refused": True, "task_fix": "pin", "task_pin": ">=0.6.5", "task_since": "0.6.5",
                "task_words": f"This model does not support the '{task}' task. Supported tasks: {_py_set(supported)}"}
    if v < Version("0.6.5") and task not in supported and task in POOLING_TASKS + GENERATIVE_TASKS:
        # 0.6.4 knows only generate and embedding; LLM(task="reward") reaches _resolve_task
        return {"task_refused": True, "task_fix": "pin_task", "task_pin": ">=0.6.5", "task_since": "0.6.5",
                "task_words": f"This model does not support the '{task}' task. Supported tasks: {_py_set(supported)}"}
    return {}


def _deprecated_task(task: str, gen: bool, pool: bool, v: Version) -> dict[str, Any]:
    """0.10.1–0.12.0: the task becomes a runner and a convert type, then the runner checks run. A
    class that neither generates nor pools natively is an AssertionError for any task up to
    0.11.2; 0.12.0 converts it for a pooling task (vLLM #29312)."""
    if not gen and not pool and (task in GENERATIVE_TASKS or v < Version(NEITHER_CONVERTS)):
        found = "" if v < Version(ASSERT_FOUND) else " Found: {…}"
        out = {"task_refused": True,
               "task_words": f"The model should be a generative or pooling model when task is set to {task!r}.{found}"}
        if task in POOLING_TASKS and task != "score":
            out.update(task_fix="runner_pooling", task_convert="embed" if task in ("embed", "embedding") else task)
        return out
    if task in GENERATIVE_TASKS and not gen:
        return {"task_refused": True, "task_fix": "unset_task", "task_words": "This model does not support `--runner generate`."}
    return {}


def pools_natively(model: dict, engine: dict, runners: dict, arch_table: dict, version: str | None) -> bool:
    """Whether vLLM serves the model as a pooling model (embeddings, scores, rewards) with no task
    or runner that asks for generation: the release registers its architecture and the class
    cannot generate (BertModel, XLMRobertaModel, ModernBertModel, …), so vLLM pools with it,
    natively or converted, or refuses to start (this check's refusals). Unknown is False."""
    arch = model.get("architecture")
    v = try_parse(version) if version else None
    asked = _set(engine.get("runner")) == "generate" or _set(engine.get("task")) in GENERATIVE_TASKS
    if not isinstance(arch, str) or not arch or v is None or not runners or asked \
            or engine.get("model_impl") not in (None, "auto", "vllm"):
        return False
    base = Version(v.public)
    releases = [parse(r) for r in runners["releases"]]
    if not releases[0] <= base <= releases[-1]:
        return False
    if _registered(arch_table, arch, [parse(r) for r in arch_table["releases"]], base) is not True:
        return False
    if _known(runners["unresolved"].get(arch) or [], releases, base) is not False:
        return False
    return _known(runners["generate"].get(arch) or [], releases, base) is False


# decoder classes vLLM also runs as pooling models (rewards, process rewards, scores, embeddings of a
# converted LLM): their attention stays causal and keeps a KV cache, so the engine's KV checks hold —
# V0's raise_if_cache_size_invalid (worker/worker.py, every model that is not attention-free) and V1's
# check_enough_kv_cache_memory (skipped only when no layer has a KV spec: encoder-only attention)
_DECODER_POOLERS = re.compile(r"(ForCausalLM|ForConditionalGeneration|ForRewardModel|ForProcessRewardModel)$"
                              r"|^(Llama|Mistral|Mixtral|Qwen2|Qwen3|Gemma2?|Phi3|InternLM2|Jamba)ForSequenceClassification$")


def pooling_keeps_kv(model: dict, engine: dict) -> bool:
    """Whether a model served for pooling still holds a KV cache: a causal decoder class (an LLM
    converted to embed or score, Qwen2ForProcessRewardModel, LlamaForSequenceClassification reward
    models such as Skywork-Reward); False for encoder-only classes (BERT, RoBERTa, ModernBERT), for a
    config that turns causal attention off (is_causal false: vLLM then uses EncoderOnlyAttention)
    and for an unknown architecture."""
    arch = model.get("architecture")
    over = json_arg(engine.get("hf_overrides"))
    if over is UNREADABLE:
        return False  # unreadable overrides may turn causal attention off: unknown
    if isinstance(over, dict) and over.get("is_causal") is False:
        return False
    return isinstance(arch, str) and bool(_DECODER_POOLERS.search(arch)) and model.get("is_causal") is not False
