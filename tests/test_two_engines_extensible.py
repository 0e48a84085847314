"""Two LLM() engines in one process at their default share, per release: 0.9.1-0.33 refuse the second at
start-up (free memory below utilization × total); 0.34 skips that check with the extensible KV cache (on by
default, default share 1.0) and sizes each cache from measured memory, so the second engine finds nothing
left for its weights and stops loading them. Real case: Wyyyb/CriticCoT
simpleRL-reason/process_data_0704/generate_critique_data.py (https://github.com/Wyyyb/CriticCoT), where the
audit said "vLLM 0.34.0 does not stop it at start-up" at P1."""
import pytest

from vllm_kb.engine.audit import audit

TWO = """\
from vllm import LLM


def main():
    model1 = LLM(model="Qwen/Qwen2.5-7B-Instruct", trust_remote_code=True)
    model2 = LLM(model="Qwen/Qwen2.5-Math-7B-Instruct", trust_remote_code=True)


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("vllm,words", [("0.34.0", "CUDA out of memory"), ("0.10.0", "Free memory on device")])
def test_two_default_engines_in_one_process_fail_at_start(tmp_path, vllm, words):
    (tmp_path / "requirements.txt").write_text(f"vllm=={vllm}\n")
    (tmp_path / "gen.py").write_text(TWO)
    for sr in audit(tmp_path, gpu="H100-80GB x1").sites:
        l37 = next(r for r in sr.results if r.check.id == "L37")
        assert (l37.status, l37.priority) == ("recommended", "P0")
        assert words in l37.reason_text("en") and "does not stop" not in l37.reason_text("en")


def test_two_default_engines_of_unknown_models_on_0_34(tmp_path):
    # the models are variables (CriticCoT: LLM(model=model1_name)): at 0.34's default share 1.0 the first
    # engine takes the whole GPU, so the second has no room whatever it loads
    (tmp_path / "requirements.txt").write_text("vllm==0.34.0\n")
    (tmp_path / "gen.py").write_text(TWO.replace('"Qwen/Qwen2.5-7B-Instruct"', "name1").replace('"Qwen/Qwen2.5-Math-7B-Instruct"', "name2")
                                     .replace("def main():", "def main(name1, name2):").replace("main()\n", "main(*__import__('sys').argv[1:3])\n"))
    for sr in audit(tmp_path, gpu="H100-80GB x1").sites:
        l37 = next(r for r in sr.results if r.check.id == "L37")
        assert (l37.status, l37.priority) == ("recommended", "P0") and "whole GPU" in l37.reason_text("en")
