"""eval113 lmms-eval (https://github.com/EvolvingLMMs-Lab/lmms-eval, 75571cfe): `LLM, _ = optional_import("vllm",
"LLM")` binds vLLM's LLM, so the model class's `LLM(...)` is a site; a helper of another package, or a name
that is no vLLM class, binds nothing."""
from __future__ import annotations

import ast
from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.python_calls import optional_import

CASE = Path(__file__).parent / "realcases" / "optional-import-llm--lmms-eval-75571cfe-control"


def _bind(src: str):
    got = optional_import(ast.parse(src).body[0])  # type: ignore[arg-type]
    return (got.module, got.names[0].name, got.names[0].asname) if got is not None else None


def test_the_helper_binds_vllm_llm():
    assert _bind('LLM, _has = optional_import("vllm", "LLM")') == ("vllm", "LLM", "LLM")
    assert _bind('Engine = imports.lazy_import("vllm", "LLM")') == ("vllm", "LLM", "Engine")


def test_other_packages_and_names_bind_nothing():
    assert _bind('VideoReader, ok = optional_import("decord", "VideoReader")') is None
    assert _bind('get_tp_group, _ = optional_import("vllm.distributed.parallel_state", "get_tp_group")') is None
    assert _bind('LLM = make_llm("vllm", "LLM")') is None


def test_the_model_class_call_is_a_site(tmp_path):
    sites = audit(CASE, gpu="H100-80GB x8").sites
    assert [(s.site.file, s.site.kind) for s in sites] == [("lmms_eval/models/simple/vllm.py", "LLM()")]
