"""A removed option whose value changes what the model computes is never dropped by a safe fix: its
value moves to the successor (rope_scaling → hf_overrides, vLLM 0.11.0's own deprecation hint,
vllm/config/model.py:398-404) or the removal waits for --unsafe-fixes. eval109: opencompass's
`*_128k.py` configs (https://github.com/open-compass/opencompass/blob/a5acc4bba3b658f151617a3b393602110fb7a740/opencompass/configs/models/qwen2_5/vllm_qwen2_5_7b_instruct_128k.py)
hand rope_scaling to LLM(**model_kwargs); `--fix` deleted it, and the 128k evaluation would silently
run at the native 32k window."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import apply

YARN = "{'factor': 4.0, 'original_max_position_embeddings': 32768, 'rope_type': 'yarn'}"
CALL = f"from vllm import LLM\n\nllm = LLM(model='Qwen/Qwen2.5-7B-Instruct', tensor_parallel_size=4, rope_scaling={YARN})\n"


def _fix(root, unsafe=False):
    return apply.run(lambda overlay: audit(root, gpu="H100-80GB x8", overlay=overlay), unsafe=unsafe)


def _finding(root, name):
    (sr,) = audit(root, gpu="H100-80GB x8").sites
    return next(f for f in sr.remarks if f.code == "not-in-version" and f.subject == name)


def test_rope_scaling_moves_into_hf_overrides(write_project):
    root = write_project({"run.py": CALL, "requirements.txt": "vllm==0.12.0\n"})
    f = _finding(root, "rope_scaling")
    assert f.safe and any(op.kind == "set" and op.target == "hf_overrides" for op, _ in f.fix)
    text = _fix(root).texts["run.py"]
    assert "rope_scaling=" not in text
    assert "hf_overrides={\"rope_scaling\": {\"factor\": 4.0, " in text  # the float stays a float


def test_rope_scaling_is_not_dropped_where_hf_overrides_is_already_set(write_project):
    call = CALL.replace("tensor_parallel_size=4,", "tensor_parallel_size=4, hf_overrides={'max_window_layers': 28},")
    root = write_project({"run.py": call, "requirements.txt": "vllm==0.12.0\n"})
    f = _finding(root, "rope_scaling")
    assert not f.safe  # writing hf_overrides would replace the site's own; dropping alone changes the model
    assert "run.py" not in _fix(root).texts


def test_opencompass_model_kwargs_keep_rope_scaling(write_project):
    # opencompass hands model_kwargs on to LLM(); no hf_overrides can be written into that dict here,
    # so the removal is not applied, not even with --unsafe-fixes (the group is not half-applied)
    config = ("from opencompass.models import VLLMwithChatTemplate\n\nmodels = [\n    dict(\n"
              "        type=VLLMwithChatTemplate,\n        path='Qwen/Qwen2.5-7B-Instruct',\n"
              f"        model_kwargs=dict(tensor_parallel_size=4, rope_scaling={YARN}),\n"
              "        run_cfg=dict(num_gpus=4),\n    )\n]\n")
    root = write_project({"configs/vllm_qwen2_5_7b_instruct_128k.py": config, "requirements.txt": "vllm==0.12.0\n"})
    for unsafe in (False, True):
        assert "rope_scaling" in _fix(root, unsafe).texts.get("configs/vllm_qwen2_5_7b_instruct_128k.py", config)


def test_an_option_vllm_ignored_is_still_dropped_safely(write_project):
    # use_v2_block_manager had been a no-op for several releases before 0.10.0 dropped it
    call = "from vllm import LLM\n\nllm = LLM(model='Qwen/Qwen2.5-7B-Instruct', use_v2_block_manager=True)\n"
    root = write_project({"run.py": call, "requirements.txt": "vllm==0.10.0\n"})
    assert _finding(root, "use_v2_block_manager").safe


def test_an_adapter_option_is_dropped_only_with_unsafe_fixes(write_project):
    call = "from vllm import LLM\n\nllm = LLM(model='huggyllama/llama-7b', qlora_adapter_name_or_path='timdettmers/qlora-alpaca-7b')\n"
    root = write_project({"run.py": call, "requirements.txt": "vllm==0.10.0\n"})
    assert not _finding(root, "qlora_adapter_name_or_path").safe
