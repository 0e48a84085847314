"""A project's own copy of LLaMA-Factory's scripts/vllm_infer.py that its run script launches is one
launch: the run script's (its arguments and GPUs), not a second LLM() site in the copy (the shape of
tests/realcases/control--llamafactory-7234-fixed). A copy nothing in the project runs stays a site."""
from vllm_kb.engine.audit import audit

_COPY = ("import fire\nfrom vllm import LLM\n\n\ndef vllm_infer(model_name_or_path: str, cutoff_len: int = 2048, max_new_tokens: int = 1024):\n"
         "    LLM(model=model_name_or_path, max_model_len=cutoff_len + max_new_tokens)\n\n\n"
         "if __name__ == \"__main__\":\n    fire.Fire(vllm_infer)\n")


def test_the_launched_copy_is_the_launch(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "vllm_infer.py").write_text(_COPY)
    (tmp_path / "requirements.txt").write_text("vllm==0.7.3\nllamafactory==0.9.2\n")
    (tmp_path / "run.sh").write_text("CUDA_VISIBLE_DEVICES=0,1 python scripts/vllm_infer.py --model_name_or_path Qwen/Qwen2.5-7B-Instruct "
                                     "--template qwen --dataset alpaca_en_demo\n")
    (sr,) = audit(tmp_path, gpu="none").sites
    assert sr.site.file == "run.sh" and sr.site.launch["runs_file"] == "scripts/vllm_infer.py"


def test_a_copy_nothing_runs_stays_a_site(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "vllm_infer.py").write_text(_COPY)
    (sr,) = audit(tmp_path, gpu="none").sites
    assert sr.site.file == "scripts/vllm_infer.py"
