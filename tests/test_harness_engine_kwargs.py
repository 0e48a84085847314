"""Evaluation harnesses and serving packages that build vLLM's engine in their own code (lighteval,
lm-evaluation-harness, OpenLLM):
the engine arguments each release passes (knowledge/frameworks/engine_kwargs.yaml, read from the
wheels) are held against the pinned vLLM under the harness's own settings — lighteval 0.7.0 adds
worker_use_ray=True only when data_parallel_size > 1, which vLLM 0.7 no longer takes (lighteval #532)."""
import ast
import sys
import textwrap
from pathlib import Path

from vllm_kb.engine.audit import audit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import framework_engine_kwargs as tool  # noqa: E402

LIGHTEVAL = ('lighteval vllm "pretrained=deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B,dtype=bfloat16{extra}" '
             '"custom|aime24|0|0" --use-chat-template\n')
LM_EVAL = "lm_eval --model vllm --model_args pretrained=Qwen/Qwen2.5-7B-Instruct,tensor_parallel_size=1{extra} --tasks gsm8k\n"


def _l43(tmp_path, req: str, script: str):
    (tmp_path / "requirements.txt").write_text(req)
    (tmp_path / "eval.sh").write_text(script)
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    return next(r for r in sr.results if r.check.id == "L43"), sr


def test_lighteval_data_parallel_passes_worker_use_ray_that_vllm_0_7_removed(tmp_path):
    r, sr = _l43(tmp_path, "vllm==0.7.1\nlighteval==0.7.0\n", LIGHTEVAL.format(extra=",data_parallel_size=8"))
    assert r.status == "recommended" and r.priority == "P0"
    text = sr.facts["launch"]["host_problem_text"]
    assert "EngineArgs.__init__() got an unexpected keyword argument 'worker_use_ray'" in text and "vllm_model.py:187" in text
    assert sr.facts["launch"]["host_fit_vllm"] == "==0.6.6"


def test_lighteval_on_one_engine_passes_no_worker_use_ray(tmp_path):
    r, _ = _l43(tmp_path, "vllm==0.7.1\nlighteval==0.7.0\n", LIGHTEVAL.format(extra=""))
    assert not (r.status == "recommended" and r.priority == "P0")


def test_lighteval_release_that_moved_to_the_ray_backend_starts(tmp_path):
    r, _ = _l43(tmp_path, "vllm==0.7.1\nlighteval==0.8.1\n", LIGHTEVAL.format(extra=",data_parallel_size=8"))
    assert not (r.status == "recommended" and r.priority == "P0")


def test_lm_eval_swap_space_is_dropped_by_llm_until_0_26_and_refused_after(tmp_path):
    r, _ = _l43(tmp_path, "vllm==0.20.0\nlm-eval==0.4.9.2\n", LM_EVAL.format(extra=""))
    assert not (r.status == "recommended" and r.priority == "P0")
    r, sr = _l43(tmp_path, "vllm==0.26.0\nlm-eval==0.4.9.2\n", LM_EVAL.format(extra=""))
    assert r.priority == "P0" and "'swap_space'" in sr.facts["launch"]["host_problem_text"]


def test_lm_eval_keys_set_on_the_data_parallel_path_do_not_reach_its_single_engine(tmp_path):
    # 0.4.2 sets worker_use_ray in the else of `if self.data_parallel_size <= 1: LLM(**self.model_args)`
    r, _ = _l43(tmp_path, "vllm==0.7.2\nlm-eval==0.4.2\n", LM_EVAL.format(extra=""))
    assert not (r.status == "recommended" and r.priority == "P0")


def test_a_mapping_built_on_the_instance_is_read_with_each_key_under_its_own_test():
    src = """\
        from vllm import LLM
        class VLLMModel:
            def _create(self, config):
                self.model_args = {"model": config.pretrained, "swap_space": 4}
                if int(config.data_parallel_size) > 1:
                    self.model_args["worker_use_ray"] = True
                    return None
                return LLM(**self.model_args)
        """
    (call,) = tool.calls_in("lighteval", {"lighteval/models/vllm/vllm_model.py": ast.parse(textwrap.dedent(src))})
    assert call["kwargs"]["swap_space"] == {"line": 4}
    assert call["kwargs"]["worker_use_ray"]["condition"] == "int(config.data_parallel_size) > 1"


def test_lm_eval_data_parallel_replicas_get_worker_use_ray_from_the_instance_mapping(tmp_path):
    # lm-eval #2706: 0.4.7's Ray task per replica builds LLM(**model_args) from self.model_args
    r, sr = _l43(tmp_path, "vllm==0.7.2\nlm-eval==0.4.7\n", LM_EVAL.format(extra=",data_parallel_size=8"))
    assert r.priority == "P0" and "'worker_use_ray'" in sr.facts["launch"]["host_problem_text"]
    r, _ = _l43(tmp_path, "vllm==0.6.6\nlm-eval==0.4.7\n", LM_EVAL.format(extra=",data_parallel_size=8"))
    assert not (r.status == "recommended" and r.priority == "P0")


def test_openllm_0_4_passes_the_ray_switches_vllm_removed(tmp_path):
    # openllm 0.4.x's vLLM runner builds AsyncEngineArgs(…, worker_use_ray=…, engine_use_ray=…)
    (tmp_path / "requirements.txt").write_text("openllm==0.4.44\nvllm==0.6.3\n")
    (tmp_path / "start.sh").write_text("openllm start mistralai/Mistral-7B-Instruct-v0.2 --backend vllm\n")
    (sr,) = audit(tmp_path, gpu="A10G x1").sites
    r = next(x for x in sr.results if x.check.id == "L43")
    assert r.priority == "P0" and "'engine_use_ray'" in sr.facts["launch"]["host_problem_text"]
    (tmp_path / "requirements.txt").write_text("openllm==0.4.44\nvllm==0.3.1\n")
    (sr,) = audit(tmp_path, gpu="A10G x1").sites
    r = next(x for x in sr.results if x.check.id == "L43")
    assert not (r.status == "recommended" and r.priority == "P0")


UNSLOTH = '''from unsloth import FastLanguageModel
model, tokenizer = FastLanguageModel.from_pretrained(model_name="Qwen/Qwen2.5-3B-Instruct", max_seq_length=1024,
                                                     fast_inference=True, gpu_memory_utilization=0.6)
'''


def test_unsloth_zoo_before_its_signature_filter_passes_what_an_older_vllm_lacks(tmp_path):
    # unsloth #2002: unsloth_zoo 2025.3.8 builds EngineArgs(compilation_config=…), which vLLM 0.6.1 lacks
    (tmp_path / "requirements.txt").write_text("unsloth==2025.3.9\nunsloth_zoo==2025.3.8\nvllm==0.6.1.post1\n")
    (tmp_path / "train.py").write_text(UNSLOTH)
    sr = next(s for s in audit(tmp_path, gpu="A100-80GB x1").sites if s.site.kind == "LLM()")
    r = next(x for x in sr.results if x.check.id == "L43")
    assert r.priority == "P0" and "'compilation_config'" in sr.facts["launch"]["host_problem_text"]


def test_unsloth_zoo_that_drops_what_vllm_lacks_is_not_held_against_it(tmp_path):
    # from 2025.3.16 load_vllm deletes the keys inspect.signature(EngineArgs) lacks
    (tmp_path / "requirements.txt").write_text("unsloth_zoo==2025.6.1\nvllm==0.6.1.post1\n")
    (tmp_path / "train.py").write_text(UNSLOTH)
    sr = next(s for s in audit(tmp_path, gpu="A100-80GB x1").sites if s.site.kind == "LLM()")
    r = next(x for x in sr.results if x.check.id == "L43")
    assert not (r.status == "recommended" and r.priority == "P0")
