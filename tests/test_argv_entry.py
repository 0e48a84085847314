"""Project scripts that hand their command line to vLLM's own parser (engine/scan/argv_entry.py):
the commands that run them are launch sites, the script's own options are not vLLM's, and a
script that only parses its own options is no site."""

SERVER = '''import argparse
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

parser = argparse.ArgumentParser()
parser.add_argument("--host", default="0.0.0.0")
parser.add_argument("--port", type=int, default=8000)
parser.add_argument("--enable-grammar-sampling", action="store_true")
parser = AsyncEngineArgs.add_cli_args(parser)
args = parser.parse_args()
engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args))
'''

OFFLINE = '''from vllm import LLM, EngineArgs
from vllm.utils import FlexibleArgumentParser

def main():
    parser = FlexibleArgumentParser()
    EngineArgs.add_cli_args(parser)
    parser.add_argument("--num-prompts", type=int, default=4)
    parser.set_defaults(model="org/default-model")
    args = parser.parse_args()
    llm = LLM(**vars(args))
'''


def values(s):
    return {k: v.value for k, v in s.settings.items() if v.resolved}


def test_a_script_forwarding_its_argv_to_engine_args_is_a_site(scanned):
    (s,) = scanned({"server_vllm.py": SERVER, "run.sh": "#!/bin/bash\npython3 server_vllm.py --model org/m \\\n"
                    "  --tensor-parallel-size 2 --port 9000 --enable-grammar-sampling --max-model-len 8192\n"})
    assert s.file == "run.sh" and s.kind == "python server_vllm.py (AsyncEngineArgs)" and s.mode == "standalone_serve"
    assert s.model.value == "org/m"
    # --port and --enable-grammar-sampling are the script's own options, not vLLM's
    assert values(s) == {"tensor_parallel_size": 2, "max_model_len": 8192}
    assert not s.unknown and not s.remarks
    assert sorted(s.launch["script_args"]) == ["--enable-grammar-sampling", "--port"]


def test_unknown_options_and_positionals_are_noted_not_flagged(scanned):
    (s,) = scanned({"app.py": SERVER, "start.sh": "python app.py data.json --model org/m --my-flag 3\n"})
    assert not s.unknown and not s.remarks
    assert {o["code"] for o in s.opaque} == {"script-option"}
    assert any("--my-flag" in o["what"] for o in s.opaque) and any("data.json" in o["what"] for o in s.opaque)


def test_module_form_and_dockerfile_cmd(scanned):
    sites = scanned({"pkg/__init__.py": "", "pkg/serve.py": SERVER,
                     "run.sh": "python -m pkg.serve --model org/m -tp 4\n",
                     "Dockerfile": 'FROM python:3.11\nCOPY . /app\nCMD ["python3", "/app/pkg/serve.py", "--model", "org/m", "--dtype", "half"]\n'})
    by_file = {s.file: s for s in sites}
    assert values(by_file["run.sh"]) == {"tensor_parallel_size": 4}
    assert values(by_file["Dockerfile"]) == {"dtype": "half"}


def test_offline_script_with_llm_and_its_default_model(scanned):
    sites = scanned({"gen.py": OFFLINE, "bench.sh": "python gen.py --num-prompts 8 --gpu-memory-utilization 0.8\n"})
    s = next(x for x in sites if x.file == "bench.sh")
    assert s.mode == "standalone_offline" and s.kind.endswith("(LLM)")
    assert s.model.value == "org/default-model" and values(s) == {"gpu_memory_utilization": 0.8}


def test_a_script_with_its_own_parser_only_is_no_site(scanned):
    own = "import argparse\nimport vllm\np = argparse.ArgumentParser()\np.add_argument('--model')\nargs = p.parse_args()\n"
    assert [s.file for s in scanned({"own.py": own, "run.sh": "python own.py --model org/m --tensor-parallel-size 2\n"})] == []


FASTCHAT_LIKE = '''import argparse
from vllm.engine.arg_utils import AsyncEngineArgs

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-path", type=str, default="lmsys/vicuna-7b-v1.5")
    parser.add_argument("--num-gpus", type=int, default=1)
    parser.add_argument("--gpu_memory_utilization", type=float, default=0.9)
    parser = AsyncEngineArgs.add_cli_args(parser)
    args = parser.parse_args()
    if args.model_path:
        args.model = args.model_path
    if args.num_gpus > 1:
        args.tensor_parallel_size = args.num_gpus
    engine_args = AsyncEngineArgs.from_cli_args(args)
'''


def test_own_options_that_land_on_engine_arguments(scanned):
    # an own option whose dest is an engine argument, and own options the script hands on
    (s,) = scanned({"worker.py": FASTCHAT_LIKE, "run.sh": "python worker.py --model-path org/m --num-gpus 2 --gpu_memory_utilization 0.7\n"})
    assert s.model.value == "org/m" and s.model.key == "--model-path"
    assert values(s) == {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.7}


MAPPED_DTYPE = '''import argparse
from vllm import LLM, EngineArgs
from vllm.utils import FlexibleArgumentParser

DTYPES = {"bf16": "bfloat16", "fp16": "float16"}


def own_args():
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--dtype", default="bf16", choices=list(DTYPES))
    return p


def main():
    mine, rest = own_args().parse_known_args()
    engine = EngineArgs.from_cli_args(EngineArgs.add_cli_args(FlexibleArgumentParser()).parse_args(rest))
    engine.dtype = DTYPES[mine.dtype]
    llm = LLM(**vars(engine))
'''


def test_an_own_option_vllm_would_refuse_is_the_scripts(scanned):
    # `--dtype bf16` goes to the script's own parser, which maps it before building the engine: only an
    # argv that reaches vLLM's parser is vLLM's, and "bf16" is none of vLLM's --dtype choices
    (s,) = [x for x in scanned({"infer.py": MAPPED_DTYPE, "run.sh": "python infer.py --model org/m --dtype bf16\n"})
            if x.file == "run.sh"]
    assert "dtype" not in s.settings
    (s,) = [x for x in scanned({"infer.py": MAPPED_DTYPE, "run.sh": "python infer.py --model org/m --dtype bfloat16\n"})
            if x.file == "run.sh"]
    assert values(s).get("dtype") == "bfloat16"


def test_an_installed_entry_module_from_the_knowledge(scanned):
    (s,) = scanned({"start.sh": "python3 -m fastchat.serve.vllm_worker --model-path lmsys/vicuna-13b-v1.5 --num-gpus 4 "
                                "--controller-address http://c:21001 --max-model-len 4096 --trust_remote_code\n"})
    assert s.kind == "python -m fastchat.serve.vllm_worker (AsyncEngineArgs)" and s.model.value == "lmsys/vicuna-13b-v1.5"
    assert values(s) == {"tensor_parallel_size": 4, "max_model_len": 4096}
    assert "--controller-address" in s.launch["script_args"] and "--trust_remote_code" in s.launch["script_args"]


def test_fastchat_trusts_remote_code_unless_told_otherwise(tmp_path):
    # FastChat's vllm_worker adds its own --trust_remote_code (store_false, default True) before vLLM's
    # --trust-remote-code of the same dest: the engine trusts remote code whether or not the flag is
    # written, so a Qwen-1 chat model needs no flag (netease-youdao/QAnything#457 passed it and was told to)
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.2.7\n")
    for flag in ("", " --trust-remote-code"):
        (tmp_path / "start.sh").write_text(f"python3 -m fastchat.serve.vllm_worker --model-path Qwen/Qwen-7B-Chat{flag} "
                                           "--conv-template qwen-7b-chat --max-model-len 2048\n")
        (sr,) = audit(tmp_path, gpu="A100-80GB x1").sites
        assert sr.facts["engine"]["trust_remote_code"] is True
        assert not any(r.check.id == "L50" and r.needs_change for r in sr.results)
    # its own underscore flag is store_false: written, it turns remote code off
    (tmp_path / "start.sh").write_text("python3 -m fastchat.serve.vllm_worker --model-path Qwen/Qwen-7B-Chat --trust_remote_code\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x1").sites
    assert not sr.facts["engine"].get("trust_remote_code")


def test_usage_context_of_an_entry_point_site():
    from vllm_kb.engine.check.engine_defaults import usage_context

    assert usage_context({"kind": "python gen.py (LLM)"}) == "llm"
    assert usage_context({"kind": "python server.py (AsyncEngineArgs)"}) == "other"
    assert usage_context({"kind": "python app.py (server)"}) is None


def test_gpu_count_of_an_entry_point_launch(write_project):
    from vllm_kb.engine.audit import audit

    rep = audit(write_project({"requirements.txt": "vllm==0.4.3\n", "server_vllm.py": SERVER,
                               "run.sh": "python3 server_vllm.py --model org/m --tensor-parallel-size 2\n"}), gpu="RTX-3060")
    (sr,) = rep.sites
    assert [r.check.id for r in sr.results if r.status == "recommended" and r.priority == "P0"] == ["L34"]


def test_a_compose_command_that_runs_the_entry_point(scanned):
    (s,) = scanned({"app.py": SERVER, "docker-compose.yml": "services:\n  llm:\n    image: python:3.11\n"
                    "    command: python app.py --model org/m --tensor-parallel-size 2\n"})
    assert s.file == "docker-compose.yml" and values(s) == {"tensor_parallel_size": 2}
