"""H9 (knowledge/checks/H.yaml, engine/check/length_budget.py): an engine whose max_model_len is
the completion budget alone. R1-V and VLM-R1 copied TRL 0.14's GRPOTrainer and pass
`max_model_len=args.max_completion_length` to the LLM they build in `__init__` on a spare GPU
(eval115 M7), while the prompts, image tokens included, go to the same engine."""
from __future__ import annotations

import textwrap

import pytest

from vllm_kb.engine.audit import audit

# Deep-Agent/R1-V bbbbe3dc1ea6a74ce31c118c1722b1ee73e372ba src/r1-v/src/open_r1/trainer/vllm_grpo_trainer.py:415
# and om-ai-lab/VLM-R1 90052f478646e38bc67363862f699b7afca6b337 src/open-r1-multimodal/src/open_r1/trainer/
# vllm_grpo_trainer.py:409, reduced: the engine built in the trainer, its weights reloaded every step
_TRAINER = """
import torch
from transformers import Trainer
from vllm import LLM, SamplingParams


class Qwen2VLGRPOVLLMTrainer(Trainer):
    def __init__(self, model, args, vllm_device):
        super().__init__(model=model, args=args)
        self.llm = LLM(
            model=model.name_or_path,
            device=vllm_device,
            dtype=torch.bfloat16,
            enable_prefix_caching=True,
            enforce_eager=True,
            max_model_len={max_len},
        )
        self.sampling_params = SamplingParams(temperature=1.0, max_tokens=args.max_completion_length)

    def sync(self, state_dict):
        inner = self.llm.llm_engine.model_executor.driver_worker.model_runner.model
        inner.load_weights(state_dict.items())
"""
URLS = {
    "r1-v": "https://github.com/Deep-Agent/R1-V/blob/bbbbe3dc1ea6a74ce31c118c1722b1ee73e372ba/src/r1-v/src/open_r1/trainer/vllm_grpo_trainer.py#L415",
    "vlm-r1": "https://github.com/om-ai-lab/VLM-R1/blob/90052f478646e38bc67363862f699b7afca6b337/src/open-r1-multimodal/src/open_r1/trainer/vllm_grpo_trainer.py#L419",
}


def _site(tmp_path, max_len, vllm="vllm==0.7.2"):
    (tmp_path / "trainer.py").write_text(textwrap.dedent(_TRAINER.format(max_len=max_len)))
    (tmp_path / "requirements.txt").write_text(vllm + "\n")
    return audit(tmp_path, gpu="H100-80GB x8").sites[0]


def _h9(site):
    return next(r for r in site.results if r.check.id == "H9")


@pytest.mark.parametrize("repo", sorted(URLS))
def test_the_grpo_copies_completion_budget_is_named(tmp_path, repo):
    site = _site(tmp_path, "args.max_completion_length")
    assert site.site.mode == "rlhf_server"  # an RL rollout, not an offline batch job (eval115 M7)
    h9 = _h9(site)
    assert (h9.status, h9.priority) == ("recommended", "P1")
    text = h9.reason_text("en")
    assert "args.max_completion_length (trainer.py:16)" in text
    assert "V0 scheduler skips" in text and "prompt budget plus the completion budget" in text


def test_v1_releases_say_the_prompt_is_refused(tmp_path):
    h9 = _h9(_site(tmp_path, "args.max_completion_length", vllm="vllm==0.10.0"))
    assert h9.priority == "P1" and "V1 engine raises" in h9.reason_text("en")


def test_the_reason_in_chinese(tmp_path):
    h9 = _h9(_site(tmp_path, "args.max_completion_length"))
    assert "args.max_completion_length（trainer.py:16）" in h9.reason_text("zh")
    assert "prompt 长度上限与生成长度上限之和" in h9.reason_text("zh")


@pytest.mark.parametrize("max_len", [
    "args.max_prompt_length + args.max_completion_length",  # TRL 0.18's own sum
    "4096",
    "args.max_model_len",
])
def test_a_length_that_holds_the_prompt_is_left_alone(tmp_path, max_len):
    assert _h9(_site(tmp_path, max_len)).status == "not_applicable"


# allenai/open-instruct e6c3044aa6201c8bfa4573c1b03142af599e730d open_instruct/rejection_sampling/generation.py:159-177:
# the limit read back from the engine and the longer prompts dropped before generate(), so none is refused
_FILTERED = """
from vllm import LLM, SamplingParams


def generate(path, prompt_token_ids, gen_args):
    llm = LLM(
        model=path,
        max_model_len=gen_args.response_length,
    )
    {guard}
    return llm.generate([{{"prompt_token_ids": p}} for p in prompt_token_ids], SamplingParams(max_tokens=gen_args.response_length))
"""


@pytest.mark.parametrize("guard", [
    "max_model_len = llm.llm_engine.scheduler_config.max_model_len\n    prompt_token_ids = [p for p in prompt_token_ids if len(p) < max_model_len]",
    "limit = llm.llm_engine.model_config.max_model_len\n    prompt_token_ids = [p for p in prompt_token_ids if len(p) <= limit]",
    "prompt_token_ids = [p for p in prompt_token_ids if gen_args.response_length > len(p)]",
])
def test_prompts_dropped_before_generate_make_it_a_p2(tmp_path, guard):
    (tmp_path / "gen.py").write_text(textwrap.dedent(_FILTERED.format(guard=guard)))
    (tmp_path / "requirements.txt").write_text("vllm==0.19.1\n")
    h9 = _h9(audit(tmp_path, gpu="H100-80GB x1").sites[0])
    assert (h9.status, h9.priority) == ("recommended", "P2")
    assert "drops prompts longer than it before generating (gen.py:" in h9.reason_text("en")
    assert "过滤掉超过该长度的 prompt" in h9.reason_text("zh")


def test_a_guard_on_another_length_is_no_filter(tmp_path):
    (tmp_path / "gen.py").write_text(textwrap.dedent(_FILTERED.format(guard="assert len(prompt_token_ids) < 100")))
    (tmp_path / "requirements.txt").write_text("vllm==0.19.1\n")
    assert _h9(audit(tmp_path, gpu="H100-80GB x1").sites[0]).priority == "P1"
