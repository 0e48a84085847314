"""SkyRL (NovaSky-AI/SkyRL, https://github.com/NovaSky-AI/SkyRL, eval109): `uv run --isolated --extra fsdp -m
skyrl.train.entrypoints.main_base generator.inference_engine.X=…` is a site; build_vllm_cli_args
(skyrl/backends/skyrl_train/inference_servers/utils.py) hands generator.inference_engine.* and
trainer.policy.model.path to vLLM, with sleep mode when training and generation are colocated."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan import fw_launch

PYPROJECT = '[project]\nname = "x"\ndependencies = ["skyrl{pin}", "vllm==0.23.0"]\n'


def _site(tmp_path, script: str, pin: str = "==0.3.0", gpu: str = "H100-80GB x4"):
    (tmp_path / "pyproject.toml").write_text(PYPROJECT.replace("{pin}", pin))
    (tmp_path / "run.sh").write_text(script)
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return sr.site


def test_a_colocated_run_is_a_site_with_its_engine_keys(tmp_path):
    s = _site(tmp_path, "uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base \\\n"
                        "  trainer.policy.model.path=Qwen/Qwen2.5-1.5B-Instruct \\\n"
                        "  generator.inference_engine.tensor_parallel_size=2 \\\n"
                        "  generator.inference_engine.gpu_memory_utilization=0.6\n")
    assert s.framework == "skyrl" and s.mode == "rlhf_colocate" and s.model.value == "Qwen/Qwen2.5-1.5B-Instruct"
    assert s.settings["tensor_parallel_size"].value == 2 and s.settings["gpu_memory_utilization"].value == 0.6
    assert s.framework_defaults["enable_sleep_mode"] is True  # colocate_all defaults to true
    assert s.fixed["trust_remote_code"] is True  # from skyrl 0.3.0


def test_the_serve_entry_point_is_the_server_and_a_remote_run_its_client(tmp_path):
    serve = _site(tmp_path, "uv run --isolated --extra fsdp -m skyrl.train.entrypoints.serve "
                            "trainer.policy.model.path=Qwen/Qwen2.5-1.5B-Instruct trainer.placement.colocate_all=false "
                            "generator.inference_engine.tensor_parallel_size=4\n")
    assert serve.mode == "rlhf_server" and not serve.engine_elsewhere and "enable_sleep_mode" not in serve.framework_defaults
    client = _site(tmp_path, "uv run --isolated --extra fsdp -m skyrl.train.entrypoints.main_base "
                             "trainer.policy.model.path=Qwen/Qwen2.5-1.5B-Instruct trainer.placement.colocate_all=False "
                             "generator.inference_engine.run_engines_locally=False\n")
    assert client.mode == "rlhf_server" and client.engine_elsewhere


def test_the_release_decides_a_default(tmp_path):
    s = _site(tmp_path, "uv run -m skyrl.train.entrypoints.main_base trainer.policy.model.path=Qwen/Qwen2.5-1.5B-Instruct\n",
              pin="==0.2.0")
    assert s.framework_defaults["enforce_eager"] is True  # False from 0.3.0 (InferenceEngineConfig)
    assert "trust_remote_code" not in s.fixed


def test_skyrl_train_spells_the_keys_flat(tmp_path):
    s = _site(tmp_path, "python -m skyrl_train.entrypoints.main_base trainer.policy.model.path=Qwen/Qwen2.5-1.5B-Instruct "
                        "generator.inference_engine_tensor_parallel_size=2 generator.gpu_memory_utilization=0.7\n")
    assert s.settings["tensor_parallel_size"].value == 2 and s.settings["gpu_memory_utilization"].value == 0.7


def test_entry_points():
    assert fw_launch._skyrl("skyrl.train.entrypoints.main_generate") == "generate"
    assert fw_launch._skyrl("examples.train.gsm8k.main_gsm8k") == "train"
    assert fw_launch._skyrl("examples.train_integrations.harbor.entrypoints.main_harbor") == "train"
    assert fw_launch._skyrl("skyrl.train.utils") is None and fw_launch._skyrl("examples.train.gsm8k.gsm8k_dataset") is None
