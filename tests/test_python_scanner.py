from pathlib import Path

import pytest

from vllm_kb.engine.kb import catalog
from vllm_kb.engine.scan import python_calls
from vllm_kb.engine.scan.context import ScanContext

CAT = catalog.load()


def scan(tmp_path: Path, src: str, version="0.33.0"):
    (tmp_path / "job.py").write_text(src)
    ctx = ScanContext(root=tmp_path, catalog=CAT, default_version=version)
    return python_calls.scan(ctx, "job.py", src), ctx


def test_literal_constant_and_spread_kwargs(tmp_path):
    sites, _ = scan(tmp_path, '''
from vllm import LLM
TP = 2
KW = {"max_num_seqs": 64, "enforce_eager": True}
def main(path):
    extra = dict(gpu_memory_utilization=0.8)
    llm = LLM("org/m", tensor_parallel_size=TP, max_model_len=4 * 1024, **KW, **extra, seed=int(path))
''')
    (s,) = sites
    assert s.kind == "LLM()" and s.mode == "standalone_offline" and s.model.value == "org/m"
    v = {k: x.value for k, x in s.settings.items()}
    assert v["tensor_parallel_size"] == 2 and v["max_model_len"] == 4096
    assert v["max_num_seqs"] == 64 and v["enforce_eager"] is True and v["gpu_memory_utilization"] == 0.8
    assert s.settings["max_num_seqs"].line == 4  # the dict entry, not the call
    assert not s.settings["seed"].resolved


def test_only_vllm_bound_names_are_sites(tmp_path):
    sites, _ = scan(tmp_path, '''
import vllm
from mylib import LLM
LLM("not vllm")
vllm.LLM(model="real")
''')
    assert [s.model.value for s in sites] == ["real"]


def test_engine_args_absorbed_into_the_call_that_uses_them(tmp_path):
    sites, _ = scan(tmp_path, '''
from dataclasses import asdict
from vllm import LLM, EngineArgs
args = EngineArgs(model="m", tensor_parallel_size=4)
llm = LLM(**asdict(args))
''')
    (s,) = sites
    assert s.kind == "LLM()" and s.settings["tensor_parallel_size"].value == 4


def test_async_engine_args_is_a_server_and_unresolved_spread_is_opaque(tmp_path):
    sites, _ = scan(tmp_path, '''
from vllm.engine.arg_utils import AsyncEngineArgs
def build(cfg):
    return AsyncEngineArgs(model=cfg.model, **cfg.kwargs)
''')
    (s,) = sites
    assert s.mode == "standalone_serve" and not s.model.resolved
    assert s.opaque and s.opaque[0]["code"] == "spread" and "cfg.kwargs" in s.opaque[0]["what"]


def test_env_assignments_and_unknown_kwargs(tmp_path):
    sites, _ = scan(tmp_path, '''
import os
os.environ["VLLM_USE_V1"] = "0"
from vllm import LLM
LLM(model="m", gpu_memory_utilisation=0.9)
''')
    (s,) = sites
    assert s.env["VLLM_USE_V1"].value == "0"
    assert "gpu_memory_utilisation" in s.unknown


def test_syntax_error_is_skipped_with_line(tmp_path):
    sites, ctx = scan(tmp_path, "from vllm import LLM\nprint 'py2'\nLLM(model='m')\n")
    assert sites == [] and ctx.skipped[0].line == 2 and ctx.skipped[0].code == "python-syntax"


def test_a_file_that_calls_no_site_class_is_not_parsed(tmp_path):
    # the prefilter: naming LLM without calling it (a type hint, an import) holds no site, so the
    # file is not parsed, and its Python 2 syntax is not reported
    sites, ctx = scan(tmp_path, "from vllm import LLM\nprint 'py2'\n")
    assert sites == [] and ctx.skipped == []


def test_env_set_only_under_a_condition_is_not_taken_as_set(tmp_path):
    # vLLM 0.11's own lmcache example sets VLLM_USE_V1=0 only for `--version v0`
    sites, _ = scan(tmp_path, '''
import os, sys
def setup(version):
    os.environ["LMCACHE_CHUNK_SIZE"] = "256"
    if version == "v0":
        os.environ["VLLM_USE_V1"] = "0"
if __name__ == "__main__":
    os.environ["VLLM_LOGGING_LEVEL"] = "DEBUG"
    setup(sys.argv[1])
    from vllm import LLM
    LLM(model="m")
''')
    (s,) = sites
    assert s.env["LMCACHE_CHUNK_SIZE"].value == "256" and s.env["VLLM_LOGGING_LEVEL"].value == "DEBUG"
    assert not s.env["VLLM_USE_V1"].resolved and s.env["VLLM_USE_V1"].note == "set only under a condition"


def test_a_whole_argument_string_in_one_variable_is_no_unknown_option(tmp_path):
    # docker compose `command: ${VLLM_ENGINE_ARGS}` (vLLM #17035): one word holding many options
    from vllm_kb.engine.audit import audit

    (tmp_path / ".env").write_text("VLLM_ENGINE_ARGS=--model m/x --tensor-parallel-size 8\n")
    (tmp_path / "docker-compose.yaml").write_text("services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.4\n"
                                                  "    ipc: host\n    command: ${VLLM_ENGINE_ARGS}\n")
    (sr,) = audit(tmp_path, gpu="H200 x8").sites
    assert not [r for r in sr.remarks if r.code == "unknown-option"]


def test_the_prefilter_keeps_every_spelling_of_a_call(tmp_path):
    # what may stand between the callee's name and its `(`: the `)` of a parenthesised callee,
    # spaces, a comment that ends its line, a line continuation
    for call in ("(LLM)(model='m')", "LLM (model='m')", "x = (LLM  # the engine\n  (model='m'))", "LLM \\\n(model='m')",
                 "import vllm\nvllm.LLM\t(model='m')"):
        sites, _ = scan(tmp_path, "from vllm import LLM\n" + call + "\n")
        assert [s.kind for s in sites] == ["LLM()"], call


def test_attributes_set_on_the_engine_args_before_the_engine_is_built(tmp_path):
    """eval93 yanbinwa/bilbil_llm (https://github.com/yanbinwa/bilbil_llm, qwen_fastApi.py:102): `args =
    AsyncEngineArgs(model_dir)` then `args.tensor_parallel_size = tensor_parallel_size` … before
    `AsyncLLMEngine.from_engine_args(args)`: the site read TP 1. Straight-line sets are its settings; one in
    a branch is conditional, `+=` unresolved, one after the engine is built or no field of the release
    (`args.worker_use_ray`, an attribute vLLM never reads) is left out."""
    sites, _ = scan(tmp_path, '''
from vllm import AsyncEngineArgs, AsyncLLMEngine
TP = 2
def load(fast):
    args = AsyncEngineArgs("org/m", max_num_seqs=8)
    args.model = "org/other"
    args.worker_use_ray = False
    args.tensor_parallel_size = TP
    args.gpu_memory_utilization = 1
    args.max_num_seqs = 20
    args.max_model_len += 1
    if fast:
        args.enforce_eager = True
    print(args.model)
    engine = AsyncLLMEngine.from_engine_args(args)
    args.dtype = "half"
    return engine
''')
    (s,) = sites
    v = {k: (x.value, x.line) for k, x in s.settings.items()}
    assert v["tensor_parallel_size"] == (2, 8) and v["gpu_memory_utilization"] == (1.0, 9) and v["max_num_seqs"] == (20, 10)
    assert s.model.value == "org/other"
    assert not s.settings["max_model_len"].resolved and "enforce_eager" not in v and "dtype" not in v
    assert "worker_use_ray" not in v and "worker_use_ray" not in s.unknown
    assert any(o["code"] == "conditional" and "enforce_eager" in o["what"] for o in s.opaque)


def test_attributes_set_on_engine_args_a_call_spreads(tmp_path):
    sites, _ = scan(tmp_path, '''
from dataclasses import asdict
from vllm import LLM, EngineArgs
def main():
    args = EngineArgs(model="m", tensor_parallel_size=4)
    args.tensor_parallel_size = 2
    args.enforce_eager = True
    llm = LLM(**asdict(args))
    args.max_num_seqs = 8
''')
    (s,) = sites
    v = {k: x.value for k, x in s.settings.items()}
    assert v["tensor_parallel_size"] == 2 and v["enforce_eager"] is True and "max_num_seqs" not in v


def test_engine_args_a_function_returns_then_changed_by_the_caller(tmp_path):
    # the function's EngineArgs site is the engine call's: its keywords and own sets, then the caller's sets
    sites, _ = scan(tmp_path, '''
from dataclasses import asdict
from vllm import LLM, EngineArgs
def make_args(model):
    args = EngineArgs(model=model, tensor_parallel_size=2, max_model_len=4096)
    args.enforce_eager = True
    return args
def main():
    args = make_args("org/m")
    args.tensor_parallel_size = 8
    llm = LLM(**asdict(args))
''')
    (s,) = sites
    v = {k: x.value for k, x in s.settings.items()}
    assert s.kind == "LLM()" and s.model.value == "org/m" and not s.opaque
    assert v["tensor_parallel_size"] == 8 and v["max_model_len"] == 4096 and v["enforce_eager"] is True


@pytest.mark.parametrize("body", [
    "    if model:\n        return EngineArgs(model=model, tensor_parallel_size=2)\n    return EngineArgs(model=model)",
    "    args = EngineArgs(model=model, tensor_parallel_size=2)\n    args = other(args)\n    return args",
])
def test_a_function_that_may_return_another_engine_args_is_not_followed(tmp_path, body):
    sites, _ = scan(tmp_path, f'''
from dataclasses import asdict
from vllm import LLM, EngineArgs
def make_args(model):
{body}
args = make_args("org/m")
args.tensor_parallel_size = 8
llm = LLM(**asdict(args))
''')
    llm = next(s for s in sites if s.kind == "LLM()")
    assert "tensor_parallel_size" not in llm.settings and any(o["code"] == "spread" for o in llm.opaque)
