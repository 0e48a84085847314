"""The fallback for a callable no registry knows: a call of a class or function imported from a
package outside the project whose keyword names are mostly vLLM engine arguments (at least three,
one of them vLLM's own sizing: `tensor_parallel_size`, `gpu_memory_utilization`, `max_model_len` …)
is read as an *opaque* site — a wrapper that may hand them to vLLM. Its engine arguments are read as
written, the rest of its keywords are noted as the wrapper's own, and the checks' verdicts on it
are at most P1 (engine/check/evaluate.py `cap_opaque`): what the wrapper does with them is unseen.
Never a site when the file already has one, when the callee is the project's own (the site is
inside it) or another engine's (TensorRT-LLM, SGLang, …)."""
from __future__ import annotations

import ast
import re

from vllm_kb.engine.scan import python_text
from vllm_kb.engine.scan.python_subclass import Wrapper

# vLLM's own sizing arguments: a call with none of these is not taken for a vLLM wrapper
# (trust_remote_code, revision, dtype are every Hugging Face loader's too)
DISTINCT = ("tensor_parallel_size", "pipeline_parallel_size", "gpu_memory_utilization", "max_model_len", "max_num_seqs",
            "max_num_batched_tokens", "enforce_eager", "kv_cache_dtype", "enable_prefix_caching", "swap_space",
            "enable_chunked_prefill", "cpu_offload_gb", "max_lora_rank", "speculative_config", "enable_lora")
# engines and builders whose keywords share vLLM's names but are not vLLM
_OTHER = {"tensorrt_llm", "sglang", "lmdeploy", "transformers", "torch", "mii", "llama_cpp", "exllamav2", "aphrodite",
          "optimum", "ctranslate2", "text_generation", "deepspeed", "omegaconf", "argparse", "types", "dataclasses",
          "functools", "collections", "easydict", "pydantic", "vllm", "trl"}
_BUILDERS = {"dict", "OrderedDict", "Namespace", "SimpleNamespace", "EasyDict", "partial", "create", "set_defaults",
             "update", "setdefault", "format", "replace", "asdict", "Config", "DictConfig"}
MIN_ENGINE_KEYWORDS = 3


def could_hold(text: str) -> bool:
    """The prefilter (most files are never parsed): two of vLLM's sizing names in the text."""
    first = True
    for n in DISTINCT:
        if n in text:
            if not first:
                return True
            first = False
    return False


# one of them written as a call's keyword (`tensor_parallel_size=`, `max_model_len  =`)
_KEYWORD = re.compile(r"(?<![\w.])(?:%s)(?:[ \t\f\r\n\\]|#[^\n\r]*(?![^\n\r]))*=(?!=)" % "|".join(DISTINCT))
_TO_EQUALS = re.compile(r"(?:[ \t\f\r\n\\]|#[^\n\r]*(?![^\n\r]))*=(?!=)")  # what follows the name in `_KEYWORD`


def could_pick(ctx, text: str) -> int:
    """Whether `pick` can find an opaque site in the file, asked before it is parsed: the two
    sizing names, one of them as a keyword (the names of a text outside ASCII read
    NFKC-normalised, as Python reads them), in a project that uses vLLM (vLLM's own tree: 623 →
    434 files), between the parentheses of a call of a name that an import from a package outside
    the project may bind (→ 14 files: most of the rest call only vLLM's own classes that way).
    0: no such call; 2: one that also holds an `=` for each of the three engine keywords `pick`
    asks of it, the file is worth parsing for it; 1: only calls with fewer (`pytest.raises(…,
    match="max_model_len=2")` has two: vLLM's tree, 9 test files), whose keywords are read as
    before where the file is parsed for another site (python_calls' `loose`)."""
    if not (could_hold(text) and (getattr(ctx, "versions_by_dir", None) or "vllm" in text.lower())):
        return 0
    text = python_text.as_python_reads(text)
    return _external_call_sized(ctx, text) if any(python_text.word_with(text, n, _TO_EQUALS) for n in DISTINCT) else 0


def _external_call_sized(ctx, text: str) -> int:
    """A necessary condition of `pick`'s (2, or 1 for a call with fewer than three `=` between its
    parentheses: a keyword is a name, `=` and its value): a call whose callee starts from a name
    `_external` may return has a sizing keyword between its parentheses (python_text reads the
    imports and the parentheses, or says it cannot: then 2)."""
    bound = python_text.imports(text)
    if bound is None:
        return 2
    project = ctx.module_names()
    roots = {name for name, module in bound
             if not module.startswith(".") and module.split(".")[0] not in project and module.split(".")[0] not in _OTHER}
    got = 0
    for root in sorted(roots):
        for start, end in python_text.call_spans(text, root):
            if end is None:
                return 2
            if _KEYWORD.search(text, start, end) is not None:
                if text.count("=", start, end) >= MIN_ENGINE_KEYWORDS:
                    return 2
                got = 1
    return got


def _external(tree: ast.Module, ctx) -> dict[str, str]:
    """Local names bound by `from pkg import X` / `import pkg as p` to modules outside the project."""
    project = ctx.module_names()
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = node.module.split(".")[0]
            if top not in project:
                for a in node.names:
                    out[a.asname or a.name] = node.module
        elif isinstance(node, ast.Import):
            for a in node.names:
                top = a.name.split(".")[0]
                if top not in project:
                    out[a.asname or top] = a.name
    return {k: v for k, v in out.items() if v.split(".")[0] not in _OTHER}


def pick(ctx, tree: ast.Module, loose: list[tuple], is_engine_arg, text: str) -> dict[int, Wrapper]:
    """Of the calls with three or more keywords (`loose`: (call, …) tuples), those read as opaque
    sites: id(call) → the wrapper that reads them. Only in a project that uses vLLM (a pin, or
    vllm named in the file)."""
    if not loose or not (getattr(ctx, "versions_by_dir", None) or "vllm" in text.lower()):
        return {}
    # the keywords first: most calls fail them, and the imports are then never walked
    fitting = []
    for node, *_ in loose:
        root, name = _callee(node.func)
        if root is None or name is None or name in _BUILDERS:
            continue
        keys = [k.arg for k in node.keywords if k.arg]
        engine = [k for k in keys if is_engine_arg(k) or k == "model"]
        if len(engine) < MIN_ENGINE_KEYWORDS or 2 * len(engine) <= len(keys) or not any(k in DISTINCT for k in engine):
            continue
        fitting.append((node, root, name, engine))
    names = _external(tree, ctx) if fitting else {}
    out: dict[int, Wrapper] = {}
    for node, root, name, engine in fitting:
        if root not in names:
            continue
        origin = names[root] + ("" if root == name else f".{name}")
        out[id(node)] = Wrapper(name, origin, frozenset(), (), True, "LLM", tuple((k, k) for k in engine), (), frozenset(),
                                False, True)
    return out


def _callee(f: ast.expr) -> tuple[str | None, str | None]:
    """(the local name the call starts from, the name called): `Engine(…)` → (Engine, Engine),
    `pkg.sub.Engine(…)` → (pkg, Engine)."""
    if isinstance(f, ast.Name):
        return f.id, f.id
    if isinstance(f, ast.Attribute):
        root = f.value
        while isinstance(root, ast.Attribute):
            root = root.value
        return (root.id if isinstance(root, ast.Name) else None), f.attr
    return None, None


def mark(site, wrapper: Wrapper, rel: str, line: int) -> None:
    site.launch["opaque"] = True
    site.mode_evidence = f"{rel}:{line} ({wrapper.origin}: not known to start vLLM; its keywords are vLLM engine arguments)"
    site.opaque.append({"code": "opaque-callable", "what": f"{wrapper.name}(…) from {wrapper.origin}", "where": f"{rel}:{line}"})
