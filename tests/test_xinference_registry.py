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


def test_the_newest_release_read_adds_its_names_and_an_older_one_keeps_its_own():
    # Xinference 2.x's qwen3.5 family (xorbitsai/inference#4869 launched `--model-name qwen3.5 --size-in-billions 9`)
    assert deploy_tools.xinference_checkpoint("qwen3.5", 9) == "Qwen/Qwen3.5-9B"
    assert deploy_tools.xinference_checkpoint("qwen3.5", "35") == "Qwen/Qwen3.5-35B-A3B"
    assert deploy_tools.xinference_release("qwen3.5") == "2.7.0"
    # a name 2.7.0 dropped still reads from 1.16.0's registry, and says so
    assert deploy_tools.xinference_checkpoint("qwen2-audio", 7) == "Qwen/Qwen2-Audio-7B"
    assert deploy_tools.xinference_release("qwen2-audio") == "1.16.0"


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


def test_a_python_client_launch_of_qwen35_is_its_checkpoint(tmp_path):
    sr = _model(tmp_path, "launch.py", 'from xinference.client import Client\nClient("http://127.0.0.1:9997").launch_model(\n'
                '    model_name="qwen3.5", model_engine="vllm", model_size_in_billions=9)\n')
    assert sr.site.model.value == "Qwen/Qwen3.5-9B" and sr.site.model.resolved


def test_a_cli_launch_of_a_gptq_spec_names_the_quantized_repo(tmp_path):
    sr = _model(tmp_path, "launch.sh", "xinference launch --model-engine vllm --model-name qwen2.5-instruct "
                "--size-in-billions 14 --model-format gptq --quantization Int8\n")
    assert sr.site.model.value == "Qwen/Qwen2.5-14B-Instruct-GPTQ-Int8" and sr.site.model.implied


def _registration(name: str, **spec) -> str:
    import json
    return json.dumps({"version": 1, "model_name": name, "model_lang": ["en"], "model_ability": ["chat"],
                       "model_family": "qwen2.5-instruct", "model_specs": [{"model_format": "awq", "model_size_in_billions": 72,
                                                                            "quantizations": ["Int4"], **spec}]})


def test_a_model_the_project_registers_itself_is_its_registrations_weights(tmp_path):
    # `xinference register --file F.json` then `launch --model-name` of that name: the JSON's model_uri (a local
    # folder, here with its config.json) or model_id is the checkpoint, so the quantization checks read it
    import json
    folder = tmp_path / "models" / "q72-awq"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({
        "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "torch_dtype": "float16", "hidden_size": 8192,
        "intermediate_size": 29568, "num_hidden_layers": 80, "num_attention_heads": 64, "num_key_value_heads": 8,
        "vocab_size": 152064, "max_position_embeddings": 32768,
        "quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"}}))
    (tmp_path / "my-q72.json").write_text(_registration("my-q72-awq", model_uri="models/q72-awq", model_id="someone/other"))
    launch = ("xinference register --model-type LLM --file my-q72.json --persist\n"
              "xinference launch --model-name my-q72-awq --model-engine vllm --model-format awq --quantization Int4 "
              "--size-in-billions 72 --n-gpu 4\n")
    (tmp_path / "requirements.txt").write_text("xinference==1.2.2\nvllm==0.7.2\n")
    (tmp_path / "launch.sh").write_text(launch)
    (sr,) = audit(tmp_path, gpu="RTX-4090 x4").sites
    assert sr.site.model.value == "models/q72-awq" and sr.site.model.resolved
    l75 = next(r for r in sr.results if r.check.id == "L75")
    assert l75.status == "recommended" and l75.priority == "P0" and sr.facts["startup"]["qtp_shard"] == 7392
    # the Hub id where no local folder is given; another format or size of the name is not this spec
    (tmp_path / "my-q72.json").write_text(_registration("my-q72-awq", model_id="someone/Qwen2.5-72B-Instruct-AWQ"))
    (sr,) = audit(tmp_path, gpu="RTX-4090 x4").sites
    assert sr.site.model.value == "someone/Qwen2.5-72B-Instruct-AWQ"
    (tmp_path / "launch.sh").write_text(launch.replace("--size-in-billions 72", "--size-in-billions 7"))
    (sr,) = audit(tmp_path, gpu="RTX-4090 x4").sites
    assert not sr.site.model.resolved
