"""When no check's own wording occurs in an error (a release that words it differently, another
program's message about the same cause, a paraphrase in a bug report, a bare exception), the
words that name what a check is about and the vLLM functions in the traceback's frames route it
to the closest checks — reported as `closest`, never as recognised.

Each family has an anchor (the words that must occur for the check to be named at all), support
words (each one more piece of evidence) and a minimum score: a word several causes share
("bfloat16" in a list of supported dtypes, "divisible") names nothing on its own. A family may
have a veto: words that say the text is about something else (Triton's "out of resource: shared
memory" is the GPU's on-chip memory, not /dev/shm)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from vllm_kb.engine.kb import error_text, plugins, traceback_text


@dataclass(frozen=True)
class Family:
    anchor: re.Pattern
    support: tuple[re.Pattern, ...] = ()
    need: int = 1
    veto: re.Pattern | None = None


def _f(anchor: str, *support: str, need: int = 1, veto: str | None = None) -> Family:
    return Family(re.compile(anchor, re.I), tuple(re.compile(p, re.I) for p in support), need,
                  re.compile(veto, re.I) if veto else None)


_CAPABILITY = r"compute capability|\bcapability\b|\bsm_?[5-9]\d\b|\b(v100|t4|p100|p40|turing|volta|pascal)\b"
_TP = r"tensor[ _-]?parallel|\btp[ _]size\b|\btp\b"
_DIVIDE = r"divisible|%\s*tp_size|tp_size\s*%"
# Checks first, then the findings of engine/check/catalog_findings.py (argparse's family).
FAMILIES: dict[str, Family] = {
    "pp-in-release": _f(r"pipeline[ _-]?parallel|supports_?pp|pipeline_parallel_size|\bpp\b", r"not supported|only supported|SupportsPP"),
    "tp-attention-heads": _f(r"attention heads|total_num_heads|num_attention_heads|\bnum_heads\b", _DIVIDE, _TP, need=2),
    "tp-kv-heads": _f(r"(kv|key[ _-]value)[ _]?heads|num_key_value_heads", _DIVIDE, _TP, need=2),
    "bfloat16-gpu": _f(r"bfloat16|\bbf16\b", _CAPABILITY, need=2),
    "quant-name": _f(r"unknown quantization|unsupported quantization|quantization[^.\n]{0,40}not (recognized|registered|known)",
                     r"must be one of|choose from|quant_method|in config"),
    "quant-capability": _f(r"quantiz|\b(awq|gptq|marlin|w8a8|w4a16|int8)\b", _CAPABILITY, need=2),
    "fp8-kv-cache": _f(r"kv[ _-]?cache[ _-]?dtype|kv[ _]data[ _]type|cache[ _]dtype|(fp8|float8)\w*.{0,30}kv[ _-]?cache|kv[ _-]?cache.{0,30}(fp8|float8)",
                       r"\bfp8|float8|e4m3|e5m2", r"not supported|unsupported|not yet supported"),
    "quant-mismatch": _f(r"quantization method|quant_method", r"does not match|mismatch", need=2),
    "bitsandbytes-launch": _f(r"bitsandbytes|\bbnb\b"),
    "max-len-kv-capacity": _f(r"max[ _]?(seq|model)[ _]?len", r"kv[ _-]?cache", r"tokens|blocks", need=2),
    "no-kv-memory": _f(r"no available memory|cache blocks|kv[ _-]?cache memory|out of memory|OutOfMemoryError|insufficient (gpu |device )?memory"),
    "max-len-model-limit": _f(r"max[ _]?model[ _]?len|max_position_embeddings|model_max_length",
                              r"max_position_embeddings|derived|model_max_length|rope", need=2),
    "batched-tokens": _f(r"max_num_batched_tokens|batched[ _]tokens"),
    # "X has no vLLM implementation": the Transformers fallback's refusal (0.7.2-0.9.x), often quoted cut short
    "model-architecture": _f(r"architecture|only supports versions?\b|has no vLLM implementation",
                             r"not supported|supported architectures|registered|has no vLLM implementation"),
    "gpu-count": _f(r"(cuda|device).{0,40}(not available|invalid|ordinal)|world[ _]size|number of (available )?gpus"),
    "attention-backend-gpu": _f(r"attention backend|flash[_-]?attn|flashinfer|xformers"),
    # the selector's reasons other than the GPU's: the model's features (L13 names the compute capability)
    "attention-backend-none-valid": _f(r"(sparse|MLA|head_size|dtype|sink setting|attention sinks) not supported|no valid attention backend",
                                       r"use_sparse|use_mla|_MLA\b|MLA_SPARSE|has_sink"),
    "container-shm": _f(r"/dev/shm|shared memory|\bshm\b|bus error|sigbus|shm[_-]size|--ipc",
                        veto=r"out of resource|hardware limit|smem|shared memory (size|per block)"),
    "cuda-driver": _f(r"driver.{0,40}(too old|insufficient|version|update)|nvidia-container-cli|unsatisfied condition: ?cuda|\bcuda\s*>=\s*\d"
                      r"|unsupported (display driver|toolchain)|forward compatibility|cudaErrorInsufficientDriver",
                      r"\bcuda\b", r"update your driver|newer version"),
    "rollout-server-gpus": _f(r"duplicate gpu|ncclInvalidUsage|nccl error:? invalid usage|both on cuda device",
                              r"\bnccl\b", r"\brank\b"),
    # PyTorch's out-of-memory message lists the other processes on the GPU ("Process 4242 has 60.00 GiB memory in use")
    "gpu-shared-memory": _f(r"free memory on device|less than desired gpu memory utilization|used by other processes|process \d+ has [\d.]+ [KMG]iB memory in use",
                            r"process \d+ has [\d.]+ [KMG]iB memory in use"),
    "gpu-memory-utilization-range": _f(r"gpu[ _]memory[ _]utilization"),
    "framework-vllm": _f(r"vllm.{0,20}version.{0,40}(not supported|requires?)|supported versions|requires? vllm|vllm\s*[<>=]=?\s*\d"),
    "expert-parallel-dense": _f(r"expert[ _-]?parallel"),
    "spec-draft-budget": _f(r"max_num_scheduled_tokens", r"speculative|draft"),
    "remote-code-model": _f(r"trust[ _-]?remote[ _-]?code|custom code|auto_map"),
    "gated-model-token": _f(r"gated repo|GatedRepoError|\b40[13]\b.{0,40}(client error|unauthorized|forbidden)|(huggingface-cli|hf auth) login|\bHF_TOKEN\b"),
    "transformers-model-type": _f(r"does not recognize this architecture|Unrecognized configuration class|model[ _]type.{0,40}(not recognized|unrecognized)",
                                  r"transformers"),
    "spawn-main-guard": _f(r"bootstrapping phase|freeze_support|if __name__ == .__main__."),
    # vLLM's compiled ops or a package every release has missing (no Windows wheel: a pip install there has
    # no vllm._C; a source checkout shadowing the installed package says the same), a POSIX-only module, a
    # Windows-only error or torch build
    "platform-windows": _f(r"No module named '(vllm\._C|vllm\.(entrypoints|engine|distributed|model_executor)|resource|fcntl|termios|pwd|grp)'|\[WinError \d+\]|use_libuv was requested"
                           r"|Distributed package doesn't have NCCL|\bwin(32|_amd64)\b"),
    "not-in-version": _f(r"unknown (engine )?argument|unrecognized (arguments?|options?)|unexpected keyword argument|no such option"
                         r"|extra inputs are not permitted|extra_forbidden"),
}

# vLLM's functions where a check's condition is decided: an exception raised under one of them
# (innermost frames in vLLM's own files) points to those checks even when its message names
# nothing — a bare AssertionError, a NotImplementedError, a message reworded by a later release.
# Each name is a function of vllm/**/*.py over the releases given (/work/sdists/src).
FRAMES: dict[str, tuple[str, ...]] = {
    "_verify_quantization": ("quant-name", "quant-mismatch", "quant-capability"),  # config.py 0.4.1–0.34.0
    "get_quant_config": ("quant-config-missing", "quant-mismatch"),  # model_loader weight_utils 0.4.1–0.34.0
    "_verify_bnb_config": ("bitsandbytes-launch",),  # config.py 0.6.2–0.27.1
    "_check_if_gpu_supports_dtype": ("bfloat16-gpu",),  # worker 0.4.1–0.10.2
    "_verify_cache_dtype": ("fp8-kv-cache",),  # config.py 0.4.1–0.11.0
    "verify_with_parallel_config": ("tp-attention-heads", "pp-in-release", "tp-kv-heads"),  # config 0.4.1–0.34.0
    "_get_and_verify_max_len": ("max-len-model-limit",),  # config 0.4.1–0.34.0
    "raise_if_cache_size_invalid": ("max-len-kv-capacity",),  # worker 0.4.1–0.10.2
    "check_enough_kv_cache_memory": ("max-len-kv-capacity", "no-kv-memory"),  # v1 kv_cache_utils 0.7.0–0.34.0
    "_check_enough_kv_cache_memory": ("max-len-kv-capacity", "no-kv-memory"),  # 0.14.0–0.34.0
    "determine_num_available_blocks": ("no-kv-memory",),  # worker 0.4.1–0.11.0
    "determine_available_memory": ("no-kv-memory",),  # v1 worker 0.7.0–0.34.0
    "_assert_memory_footprint_increased_during_profiling": ("gpu-shared-memory",),  # worker 0.6.4–0.10.2
    "request_memory": ("gpu-shared-memory",),  # v1 worker utils 0.14.0–0.34.0
    "_raise_for_unsupported": ("model-architecture",),  # model registry 0.6.3–0.34.0
    "resolve_model_cls": ("model-architecture",),  # 0.5.5–0.34.0
    "inspect_model_cls": ("model-architecture",),  # 0.6.3–0.34.0
    "get_model_architecture": ("model-architecture",),  # 0.4.1–0.34.0
    "get_attn_backend_cls": ("attention-backend-gpu",),  # platforms 0.7.0–0.34.0
    "which_attn_to_use": ("attention-backend-gpu",),  # 0.4.3–0.6.6
    "get_tokenizer": ("remote-code-model", "gated-model-token"),  # transformers_utils 0.4.1–0.34.0
    "get_config": ("transformers-model-type", "remote-code-model", "gated-model-token"),  # 0.4.1–0.34.0
    "_init_workers_ray": ("gpu-count",),  # executor 0.4.1–0.32.0
    "resolve_obj_by_qualname": ("launch-arg-import-path",),  # utils: worker/scheduler/executor class paths 0.6.5–0.34.0
    "_load_logitsprocs_by_fqcns": ("launch-arg-import-path",),  # v1 logits processors 0.10.1–0.33.0
    "_load_v2_logitsprocs_by_fqcns": ("launch-arg-import-path",),  # 0.34.0
}
_VLLM_FILE = re.compile(r"(^|[/\\])vllm[/\\]")
# a frame in one of these packages is the framework's own code calling vLLM (engine/advise/diagnose/framework_lines.py)
_FRAMEWORK_FILE = re.compile(r"(^|[/\\])(trl|openrlhf|verl|llamafactory|swift|unsloth|unsloth_zoo|xinference|oat|areal|nemo_rl|skyrl\w*)[/\\]")
# what a framework calling a vLLM API its release does not have (or has differently) raises
_API_SHAPED = re.compile(r"^(NotImplementedError|AttributeError|TypeError|ImportError|ModuleNotFoundError)\b")


_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")


def windows_frame(parsed: traceback_text.Parsed) -> str | None:
    """A frame's file on a drive letter: the traceback comes from a native Windows process, which
    vLLM does not run in whatever it then raised (WSL's paths are /mnt/c/…)."""
    return next((f"{fr.file[:2]}\\… in a frame" for fr in parsed.frames if _DRIVE.match(fr.file)), None)


def _frame_checks(parsed: traceback_text.Parsed) -> dict[str, str]:
    """check name → the vLLM function (innermost first) the exception went through."""
    out: dict[str, str] = {}
    if (win := windows_frame(parsed)) is not None:
        out["platform-windows"] = win
    for fr in reversed(parsed.frames):
        if _VLLM_FILE.search(fr.file):
            for name in FRAMES.get(fr.function, ()):
                out.setdefault(name, fr.function + "()")
    if parsed.exceptions and parsed.frames and _API_SHAPED.match(parsed.last):
        if any(_FRAMEWORK_FILE.search(fr.file) for fr in parsed.frames[-3:]) or \
                (_FRAMEWORK_FILE.search(parsed.frames[0].file) and _VLLM_FILE.search(parsed.frames[-1].file)):
            out.setdefault("framework-vllm", parsed.last.split(":")[0] + " under " + parsed.frames[-1].function + "()")
    return out


def rank(text: str, known: set[str], limit: int = 3) -> list[tuple[str, error_text.Match]]:
    """(check or finding name, match) for the closest ones, most evidence first (ties: the order
    of FAMILIES). `known`: the names that exist (a family whose check is gone names nothing)."""
    parsed = traceback_text.parse(text)
    words_in = "\n".join(parsed.exceptions) or parsed.text
    frames = _frame_checks(parsed)
    scored = []
    for order, (name, fam) in enumerate(FAMILIES.items()):
        if name not in known:
            continue
        found: list[str] = []
        a = fam.anchor.search(words_in)
        if a and not (fam.veto and fam.veto.search(words_in)):
            found = [a.group(0)] + [m.group(0) for m in (rx.search(words_in) for rx in fam.support) if m]
        score = len(found) if len(found) >= fam.need else 0
        if name in frames:
            score += 2
            found.append(frames[name])
        if score:  # a passage matched as anchor and as support is shown once
            scored.append((-score, order, name, ", ".join(dict.fromkeys(found))))
    for name, why in frames.items():  # frame evidence for a check no family lists
        if name in known and name not in FAMILIES:
            scored.append((-2, len(FAMILIES), name, why))
    scored.sort()
    return [(name, error_text.Match(name, words, None, "keywords", -n, False)) for n, _, name, words in scored[:limit]]


_UNRECOGNIZED = re.compile(r"unrecognized arguments:([^\n]*)")


def plugin_flags(text: str) -> error_text.Match | None:
    """argparse refusing flags a vLLM plugin adds (knowledge/vllm/plugins.yaml) — its marker
    flag, or two of its flags: the plugin's CLI did not take over, most often because the
    plugin's release does not go with the installed vLLM (L43 framework-vllm)."""
    for m in _UNRECOGNIZED.finditer(text):
        flags = {w.split("=")[0] for w in m.group(1).split() if w.startswith("--")}
        for p in plugins.known().values():
            if flags & p.markers or len(flags & p.flags) >= 2:
                got = sorted(flags & (p.flags | p.markers))
                return error_text.Match("L43", f"{' '.join(got)} ({p.package})", None, "keywords", 0, False)
    return None
