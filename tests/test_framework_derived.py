"""A framework whose release the project leaves open beside a pinned vLLM (engine/check/framework_range.py
derived_elsewhere): where the releases that run with that vLLM derive different engine arguments from the same
keys, a P0 that rests on one derivation is a P1 that names the others. TRL 0.18.0–0.25.1's colocate engine takes
max_model_len = max_prompt_length + max_completion_length (0.25.1 trl/trainer/grpo_trainer.py:593-604), 0.26.0
passes vllm_max_model_length, None by default: the model's own length (0.26.0 :667). Shapes from eval97's
hzhang57/opt-r2 (https://github.com/hzhang57/opt-r2): TRL's Wordle notebook (`!pip install -Uq trl … vllm==0.11.2`,
which ran on TRL 0.25.1) and a `trl[vllm]` requirement beside vllm==0.11.0 with a grpo_vlm.py colocate script."""
import json

import pytest
from vllm_kb.engine.audit import audit

NOTEBOOK = {"cells": [
    {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
     "source": ["!pip install -Uq trl vllm==0.11.2\n"]},
    {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": [
        'model_name = "Qwen/Qwen3-1.7B"\n',
        "from trl import GRPOConfig, GRPOTrainer\n",
        "config = GRPOConfig(max_completion_length=8, max_prompt_length=1400, use_vllm=True, vllm_mode=\"colocate\",\n",
        "                    vllm_gpu_memory_utilization=0.1, output_dir=\"out\")\n",
        "trainer = GRPOTrainer(model=model_name, reward_funcs=[], args=config)\n"]}],
    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
SCRIPT = """\
accelerate launch examples/scripts/grpo_vlm.py \\
  --model_name_or_path Qwen/Qwen3-VL-8B-Instruct \\
  --output_dir out \\
  --max_completion_length 256 \\
  --use_vllm \\
  --vllm_mode colocate
"""


def _l15(tmp_path, files: dict):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    got = [r for sr in audit(tmp_path, gpu="H100-80GB x8").sites for r in sr.results
           if r.check.id == "L15" and r.status == "recommended"]
    return got


def test_an_unpinned_trl_beside_a_pinned_vllm_in_a_notebook(tmp_path):
    got = _l15(tmp_path, {"wordle.ipynb": json.dumps(NOTEBOOK, indent=1)})
    assert [r.priority for r in got] == ["P1"]
    for text in (got[0].reason.en, got[0].reason.zh):
        assert "0.18.0–0.23.1 (max_model_len=1408)" in text and "0.11.2" in text


def test_a_trl_vllm_extra_of_no_version_beside_a_pinned_vllm(tmp_path):
    got = _l15(tmp_path, {"grpo.sh": SCRIPT, "requirements.txt": "trl[vllm]\nvllm==0.11.0\n"})
    assert [r.priority for r in got] == ["P1"]
    assert "`trl[vllm]`" in got[0].reason.en and "(max_model_len=768)" in got[0].reason.en


@pytest.mark.parametrize("pin,priority", [
    ("trl==0.26.0", "P0"),  # one release: the model's own 262144 tokens
    ("trl==0.23.1", None),  # one release: 512 + 256
])
def test_a_pinned_trl_release_derives_one_value(tmp_path, pin, priority):
    got = _l15(tmp_path, {"grpo.sh": SCRIPT, "requirements.txt": f"{pin}\nvllm==0.11.0\n"})
    assert [r.priority for r in got] == ([priority] if priority else [])
