"""Unsloth patches TRL's trainers to generate with the engine FastLanguageModel(fast_inference=True) built
(`self.llm = model.vllm_engine`): the GRPOConfig(use_vllm=True) beside it starts no second vLLM
(johnson7788/RLDecisionAgent backend/ART_title_generator/reference_grpo_trainer.py, eval73)."""

TRAIN = '''from unsloth import FastLanguageModel
from trl import GRPOConfig, GRPOTrainer

model, tokenizer = FastLanguageModel.from_pretrained(
    model_name="Qwen/Qwen2.5-1.5B-Instruct", max_seq_length=2048, load_in_4bit=False,
    fast_inference=True, max_lora_rank=8, gpu_memory_utilization=0.5)
args = GRPOConfig(output_dir="o", use_vllm=True, vllm_gpu_memory_utilization=0.3)
trainer = GRPOTrainer(model=model, args=args, reward_funcs=[])
'''


def test_a_trl_config_beside_unsloths_engine_is_that_engine(scanned):
    (site,) = scanned({"train.py": TRAIN})
    assert site.tool == "unsloth_zoo" and site.line == 4


def test_a_trl_config_alone_is_its_own_site(scanned):
    plain = TRAIN.replace("from unsloth import FastLanguageModel\n", "").split("model, tokenizer")[0] + \
        'args = GRPOConfig(output_dir="o", use_vllm=True, vllm_mode="colocate")\n'
    (site,) = scanned({"train.py": plain})
    assert site.framework == "trl"


def _h1(write_project, text):
    from vllm_kb.engine.audit import audit

    (sr,) = audit(write_project({"train.py": text}), gpu="A100-80GB").sites
    (r,) = [r for r in sr.results if r.check.id == "H1"]
    return r


def test_unsloths_standby_is_its_sleep_mode(write_project):
    # unsloth_zoo's load_vllm passes enable_sleep_mode=UNSLOTH_VLLM_STANDBY != "0"; from_pretrained takes
    # no enable_sleep_mode, so H1 names the variable (eval73: "no setting for enable_sleep_mode here")
    off = _h1(write_project, TRAIN)
    assert (off.status, off.priority) == ("recommended", "P1") and "UNSLOTH_VLLM_STANDBY=1" in off.reason_text("en")
    on = _h1(write_project, 'import os\nos.environ["UNSLOTH_VLLM_STANDBY"] = "1"\n' + TRAIN)
    assert on.status == "enabled"
