"""An option of vLLM's OpenAI server given to the engine classes (AsyncEngineArgs, EngineArgs, LLM's
**kwargs, or a tool that hands its options to AsyncEngineArgs as keywords): the dataclass has no
such field and the call raises TypeError."""
from vllm_kb.engine.audit import audit


def _p0(tmp_path, files: dict, gpu="RTX-4090"):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu=gpu)
    return {(f.code, f.subject) for sr in rep.sites for f in sr.remarks if f.priority == "P0"}


def test_server_option_to_async_engine_args_is_a_p0(tmp_path):
    got = _p0(tmp_path, {"requirements.txt": "vllm==0.15.1\n", "serve.py": (
        "from vllm.engine.arg_utils import AsyncEngineArgs\n"
        "args = AsyncEngineArgs(model='Qwen/Qwen2.5-7B-Instruct', enable_auto_tool_choice=True, tool_call_parser='hermes')\n")})
    assert {("unknown-option", "enable_auto_tool_choice"), ("unknown-option", "tool_call_parser")} <= got


def test_an_engine_field_of_that_release_is_fine(tmp_path):
    # disable_log_requests was an AsyncEngineArgs field up to 0.10.0, a property (no keyword) from 0.10.1
    src = ("from vllm.engine.arg_utils import AsyncEngineArgs\n"
           "args = AsyncEngineArgs(model='Qwen/Qwen2.5-7B-Instruct', disable_log_requests=True)\n")
    assert not _p0(tmp_path, {"requirements.txt": "vllm==0.9.2\n", "serve.py": src})
    # removed from the engine class in 0.10.1 (only the server kept it): the keyword's removal, not an unknown option
    assert ("not-in-version", "disable_log_requests") in _p0(tmp_path, {"requirements.txt": "vllm==0.10.1\n", "serve.py": src})


def test_the_same_option_on_the_server_command_line_is_fine(tmp_path):
    assert not _p0(tmp_path, {"requirements.txt": "vllm==0.15.1\n", "run.sh": (
        "vllm serve Qwen/Qwen2.5-7B-Instruct --enable-auto-tool-choice --tool-call-parser hermes\n")})


def test_xinference_hands_its_options_to_async_engine_args(tmp_path):
    got = _p0(tmp_path, {"requirements.txt": "vllm==0.15.1\n", "launch.sh": (
        "xinference launch --model-engine vllm --model-name qwen2.5-instruct --size-in-billions 7 "
        "--model-format pytorch --enable_auto_tool_choice true\n")})
    assert ("unknown-option", "enable_auto_tool_choice") in got
