"""Xinference launches named by its registry (`--model-name qwen2.5-instruct --size-in-billions 7`,
`launch_model(model_name=…, model_size_in_billions=…)`): the checkpoint its llm_family.json gives
(knowledge/deploy/xinference_models.yaml) is the site's model, so the memory checks run; another
prequantized format (gptq, awq, fp8) gives the repo its spec names for the quantization; a format vLLM
does not load (ggufv2, mlx), a quantization or a name the table lacks stays unknown."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import deploy_tools


def test_the_table_maps_name_and_size_in_the_spellings_users_write():
    assert deploy_tools.xinference_checkpoint("qwen2.5-instruct", "0_5") == "Qwen/Qwen2.5-0.5B-Instruct"
    assert deploy_tools.xinference_checkpoint("qwen2.5-instruct", 7) == "Qwen/Qwen2.5-7B-Instruct"
    assert deploy_tools.xinference_checkpoint("Qwen3-VL-Instruct", "8.0") == "Qwen/Qwen3-VL-8B-Instruct"
    assert deploy_tools.xinference_checkpoint("qwen3-vl-instruct", 8, "pytorch", "none") == "Qwen/Qwen3-VL-8B-Instruct"


def test_a_prequantized_format_names_its_repo():
    # xorbitsai/inference#2350: `--model-format gptq --quantization Int8` loads Qwen's GPTQ-Int8 repo
    assert deploy_tools.xinference_checkpoint("qwen2.5-instruct", 14, "gptq", "Int8") == "Qwen/Qwen2.5-14B-Instruct-GPTQ-Int8"
    assert deploy_tools.xinference_checkpoint("qwen2.5-instruct", 14, "GPTQ", "int4") == "Qwen/Qwen2.5-14B-Instruct-GPTQ-Int4"
    assert deploy_tools.xinference_checkpoint("qwen2.5-instruct", 7, fmt="awq") == "Qwen/Qwen2.5-7B-Instruct-AWQ"  # its one quantization
    assert deploy_tools.xinference_checkpoint("qwen3", 8, "fp8", "fp8") == "Qwen/Qwen3-8B-FP8"


def test_what_the_table_cannot_say_stays_unknown():
    assert deploy_tools.xinference_checkpoint("qwen2.5-instruct", 7, fmt="gptq") is None  # Int4 or Int8
    assert deploy_tools.xinference_checkpoint("qwen2.5-instruct", 7, fmt="ggufv2", quantization="q4_k_m") is None
    assert deploy_tools.xinference_checkpoint("qwen2.5-instruct", 7, fmt="gptq", quantization="Int3") is None
    assert deploy_tools.xinference_checkpoint("qwen2.5-instruct", 7, quantization="Int4") is None
    assert deploy_tools.xinference_checkpoint("qwen2.5-instruct", None) is None  # several sizes
    assert deploy_tools.xinference_checkpoint("my-custom-model", 7) is None


def _model(tmp_path, name: str, text: str):
    (tmp_path / "requirements.txt").write_text("xinference==1.16.0\nvllm==0.11.0\n")
    (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="RTX-4090 x1").sites
    return sr


def test_a_cli_launch_by_registry_name_is_sized(tmp_path):
    sr = _model(tmp_path, "launch.sh", "xinference launch --model-engine vllm -n qwen3-vl-instruct -s 8 -f pytorch\n")
    assert sr.site.model.value == "Qwen/Qwen3-VL-8B-Instruct" and sr.site.model.resolved
    assert any(r.check.id == "L15" and r.status == "recommended" and r.priority == "P0" for r in sr.results)


def test_a_python_launch_by_registry_name_is_sized(tmp_path):
    sr = _model(tmp_path, "launch.py", 'from xinference.client import Client\nClient("http://127.0.0.1:9997").launch_model(\n'
                '    model_name="qwen3-vl-instruct", model_engine="vllm", model_size_in_billions=8, model_format="pytorch")\n')
    assert sr.site.model.value == "Qwen/Qwen3-VL-8B-Instruct"
    sr = _model(tmp_path, "launch.py", 'from xinference.client import Client\nClient("http://127.0.0.1:9997").launch_model(\n'
                '    model_name="qwen3-vl-instruct", model_engine="vllm", model_size_in_billions=8, model_format="ggufv2")\n')
    assert not sr.site.model.resolved


def test_a_cli_launch_of_a_gptq_spec_names_the_quantized_repo(tmp_path):
    sr = _model(tmp_path, "launch.sh", "xinference launch --model-engine vllm --model-name qwen2.5-instruct "
                "--size-in-billions 14 --model-format gptq --quantization Int8\n")
    assert sr.site.model.value == "Qwen/Qwen2.5-14B-Instruct-GPTQ-Int8" and sr.site.model.implied
