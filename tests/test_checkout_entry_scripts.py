"""Launches through scripts a project runs from another repository's checkout, which the project
does not hold: LLaMA-Factory's pre-CLI scripts (`python src/api_demo.py --infer_backend vllm …`,
llmtuner 0.6.x/0.7.0, knowledge/frameworks/llamafactory.yaml) and public applications that hand
their command line to vLLM's own parser (functionary's server_vllm.py, knowledge/deploy/
llm_wrappers.yaml entry_points `script:`)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.requirement import from_requirement


def _sites(tmp_path, files: dict, gpu="V100-32GB"):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return audit(tmp_path, gpu=gpu).sites


def _p0(sr) -> set:
    return {r.check.id for r in sr.results if r.priority == "P0" and r.status == "recommended"}


@pytest.mark.parametrize("script,command", [("src/api_demo.py", "api"), ("cli_demo.py", "chat"), ("src/web_demo.py", "webchat")])
def test_llamafactory_checkout_scripts_are_chat_model_sites(tmp_path, script, command):
    (sr,) = _sites(tmp_path, {
        "requirements.txt": "llmtuner==0.6.2\nvllm==0.4.0.post1\n",
        "run.sh": f"CUDA_VISIBLE_DEVICES=0 API_PORT=8000 python {script} --model_name_or_path Qwen/Qwen1.5-7B-Chat "
                  "--template qwen --infer_backend vllm --vllm_maxlen 4096\n"})
    s = sr.site
    assert s.framework == "llamafactory" and s.framework_command == command and s.framework_version == "0.6.2"
    assert s.settings["max_model_len"].value == 4096
    assert s.fixed.get("trust_remote_code") is True  # vllm_engine.py passes True up to 0.9.1
    assert "L4" in _p0(sr)  # 0.6.x passes no dtype: vLLM's auto keeps bfloat16 on a V100


def test_a_lone_config_file_and_the_huggingface_backend(tmp_path):
    (sr,) = _sites(tmp_path, {
        "requirements.txt": "llmtuner==0.6.3\nvllm==0.4.0\n",
        "cfg/infer.yaml": "model_name_or_path: Qwen/Qwen1.5-7B-Chat\ntemplate: qwen\ninfer_backend: vllm\nvllm_gpu_util: 0.8\n",
        "run.sh": "python src/cli_demo.py cfg/infer.yaml\n"})
    assert sr.site.kind == "llamafactory cli_demo.py" and sr.site.settings["gpu_memory_utilization"].value == 0.8
    assert not _sites(tmp_path / "hf", {"run.sh": "python src/api_demo.py --model_name_or_path Qwen/Qwen1.5-7B-Chat --template qwen\n"})


def test_other_projects_demo_scripts_are_not_llamafactory(tmp_path):
    # Qwen's and ChatGLM's own cli_demo.py/web_demo.py take other options
    assert not _sites(tmp_path, {"requirements.txt": "vllm==0.4.0\n",
                                 "run.sh": "python cli_demo.py -c Qwen/Qwen-7B-Chat\npython web_demo.py --checkpoint-path Qwen/Qwen-7B-Chat\n"})


def test_llmtuner_pin_is_llamafactory():
    pin = from_requirement("requirements.txt", 1, "llmtuner==0.6.2", "requirements")
    assert pin.package == "llamafactory" and pin.exact == "0.6.2" and pin.text == "llmtuner==0.6.2"


def test_llamafactory_cli_with_flags_gets_flag_fixes(tmp_path):
    # no config file first: HfArgumentParser reads `--key value`; `key=value` would be an unused argument
    (sr,) = _sites(tmp_path, {
        "requirements.txt": "llamafactory==0.8.3\nvllm==0.5.4\n",
        "run.sh": "llamafactory-cli api --model_name_or_path Qwen/Qwen1.5-7B-Chat --template qwen --infer_backend vllm\n"})
    (change,) = [c for c in sr.changes if "L4" in c.checks]
    assert change.after == "--infer_dtype half"


def test_functionary_server_run_from_its_clone(tmp_path):
    (sr,) = _sites(tmp_path, {
        "requirements.txt": "vllm==0.4.2\n",
        "serve.sh": "python server_vllm.py --model mistralai/Mistral-7B-Instruct-v0.2 --max-model-len 4096 "
                    "--enable-grammar-sampling --port 8000\n"}, gpu="RTX-3090")
    s = sr.site
    assert s.kind == "python server_vllm.py (AsyncEngineArgs)" and s.model.value == "mistralai/Mistral-7B-Instruct-v0.2"
    assert s.settings["max_model_len"].value == 4096 and "enable_grammar_sampling" not in s.settings
    assert not s.unknown
    assert _p0(sr) == set()
    (tmp_path / "v100").mkdir()
    (sr,) = _sites(tmp_path / "v100", {"requirements.txt": "vllm==0.4.2\n",
                                        "serve.sh": "python server_vllm.py --model mistralai/Mistral-7B-Instruct-v0.2 --dtype bfloat16\n"})
    assert "L4" in _p0(sr)
    (change,) = [c for c in sr.changes if "L4" in c.checks]
    assert change.after in ("--dtype half", "--dtype float16")


def test_another_server_vllm_py_without_vllm_flags_is_not_taken(tmp_path):
    assert not _sites(tmp_path, {"requirements.txt": "vllm==0.4.2\n", "serve.sh": "python server_vllm.py --config app.yaml\n"})


def test_mineru_server_commands_run_vllm_serve(tmp_path):
    # mineru/model/vlm/vllm_server.py: `vllm serve <model> <the rest>`, its own utilisation when none is written
    (sr,) = _sites(tmp_path, {"requirements.txt": "vllm==0.10.1.1\n",
                              "run.sh": "mineru-vllm-server --port 30000 --dtype bfloat16 --max-model-len 8192\n"}, gpu="T4")
    s = sr.site
    assert s.mode == "standalone_serve" and s.settings["max_model_len"].value == 8192
    assert not s.settings["gpu_memory_utilization"].resolved  # 0.5, 0.7 or a share of the card, by release
    assert "L4" in _p0(sr)
    (change,) = [c for c in sr.changes if "L4" in c.checks]
    assert change.after == "--dtype half"


def test_mineru_openai_server_in_compose_and_with_another_engine(tmp_path):
    (sr,) = _sites(tmp_path, {"compose.yaml": (
        "services:\n  vlm:\n    image: vllm/vllm-openai:v0.10.1.1\n    entrypoint: mineru-openai-server\n"
        "    command: --host 0.0.0.0 --port 30000 --gpu-memory-utilization 0.6\n")}, gpu="L4")
    assert sr.site.settings["gpu_memory_utilization"].value == 0.6 and sr.lookup_version == "0.10.1.1"
    for words in ("-e lmdeploy", "--engine lmdeploy", "--engine=llama-cpp"):
        (tmp_path / words.replace(" ", "_")).mkdir()
        assert not _sites(tmp_path / words.replace(" ", "_"), {"run.sh": f"mineru-openai-server {words} --port 30000\n"})
