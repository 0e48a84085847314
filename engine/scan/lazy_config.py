"""Config files that name a class instead of calling it: OpenCompass's model configs (mmengine's
convention) write `dict(type=VLLM, path=…, model_kwargs=dict(…))`, and the runner builds
`VLLM(path=…, model_kwargs=…)` from it later, in the task process it starts for the model
(opencompass/utils/build.py `build_model_from_cfg`: the `type` popped, the rest passed as keywords;
`abbr`, `batch_size`, `run_cfg`, `tokenizer_only` and the other runner keys popped before). Such a dict is read as
that call when the class is a wrapper of the knowledge marked `lazy`, and the engine is never built
when the config module is imported."""
from __future__ import annotations

import ast
import re
from functools import lru_cache

from vllm_kb.engine.scan.python_scope import walk_changing

# the keys build_model_from_cfg removes before it calls the class (opencompass/utils/build.py)
RUNNER_KEYS = frozenset({"type", "abbr", "batch_size", "max_out_len", "run_cfg", "summarizer_abbr", "pred_postprocessor",
                         "min_out_len", "tokenizer_only"})


def lazy_class(call: ast.Call) -> str | None:
    """The class name a `dict(type=Name, …)` call stands for, or None."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "dict"):
        return None
    t = next((k.value for k in call.keywords if k.arg == "type"), None)
    return t.id if isinstance(t, ast.Name) else None


def as_call(call: ast.Call, name: str) -> None:
    """Turn the dict into the call its runner makes, in place (the node keeps its place in the tree)."""
    call.func = ast.copy_location(ast.Name(id=name, ctx=ast.Load()), call.func)
    call.keywords = [k for k in call.keywords if k.arg not in RUNNER_KEYS]


def gpus(call: ast.Call) -> int | None:
    """`run_cfg=dict(num_gpus=N)`: the GPUs the runner gives the task that builds the model."""
    cfg = next((k.value for k in call.keywords if k.arg == "run_cfg"), None)
    if not (isinstance(cfg, ast.Call) and isinstance(cfg.func, ast.Name) and cfg.func.id == "dict"):
        return None
    n = next((k.value for k in cfg.keywords if k.arg == "num_gpus"), None)
    v = n.value if isinstance(n, ast.Constant) else None
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None


@lru_cache(maxsize=1)
def lazy_names() -> frozenset[str]:
    """The wrapper classes of the knowledge that configs name this way (llm_wrappers.yaml `lazy`)."""
    from vllm_kb.engine.kb import deploy_tools

    return frozenset(w["class"] for w in deploy_tools.load("llm_wrappers").get("forwarders", []) if w.get("lazy"))


def rewrite(tree: ast.Module, words: set[str], text: str | None = None) -> dict[int, int | None]:
    """Every `dict(type=<lazy wrapper>, …)` of the module made its call, in place: id of the call → the
    GPUs its run_cfg gives it. `text`, the module's source, lets the walk be skipped where no `type=`
    names a wrapper (a text outside ASCII is walked: Python reads its names NFKC-normalised)."""
    names = lazy_names() & words
    if names and text is not None and text.isascii():
        # a `type=` keyword whose value is the name, as the text must spell it (white space, line
        # continuations and comments between): vLLM's tree spells VLLM in every VLLM_… variable, and
        # the walk that finds no such dict was ~5 % of its scan
        names = frozenset(n for n in names if _type_is(n).search(text))
    out: dict[int, int | None] = {}
    for node in walk_changing(tree) if names else ():  # ast.walk's order without its leaves (Load, Add …)
        if isinstance(node, ast.Call) and (name := lazy_class(node)) in names:
            out[id(node)] = gpus(node)
            as_call(node, name)
    return out


# what Python lets stand around a keyword's `=`: blanks, a line's continuation, a comment up to its line's end
_GAP = r"(?:[ \t\f\v\r\n\\]|#[^\n\r]*(?![^\n\r]))*"


@lru_cache(maxsize=64)
def _type_is(name: str) -> re.Pattern:
    """`type = name` as a keyword may be written (opening with the literal `type`: searched for it), the
    name perhaps in parentheses (`type=(VLLM)` is the same Name node)."""
    return re.compile(f"type{_GAP}={_GAP.replace('[', '[(', 1)}{re.escape(name)}")


def named(text: str, words: set[str]) -> bool:
    """Whether the text writes `type=<lazy wrapper>` for a wrapper it names."""
    # the pattern without its leading `\b` first: one that opens with a literal is searched for that
    # literal (fast), one that opens with `\b` is tried at every position (vLLM's tree: 10× slower)
    return any(re.search(rf"type\s*=\s*{re.escape(w)}\b", text) and re.search(rf"\btype\s*=\s*{re.escape(w)}\b", text)
               for w in lazy_names() & words)
