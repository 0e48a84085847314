"""A framework installed from git through a GitHub mirror or download proxy (eval79, tpoisonooo/open-r1:
`trl @ git+http://ghfast.top/https://github.com/huggingface/trl.git@69ad852…`) is the same git pin as the plain
github.com URL: the TRL of that commit, not the newest TRL."""
from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan import framework_git

SHA = "69ad852e5654a77f1695eb4c608906fe0c7e8624"


def test_mirror_urls_name_the_same_repository_and_ref():
    for url in (f"trl @ git+http://ghfast.top/https://github.com/huggingface/trl.git@{SHA}",
                f"git+https://ghproxy.com/https://github.com/huggingface/trl.git@{SHA}",
                f"git+https://gitclone.com/github.com/huggingface/trl@{SHA}",
                f"git+https://kkgithub.com/huggingface/trl.git@{SHA}",
                f"git+https://github.com/huggingface/trl.git@{SHA}"):
        g = framework_git.parse(url)
        assert (g.package, g.kind, g.ref) == ("trl", "commit", SHA), url
    g = framework_git.parse("git+https://mirror.ghproxy.com/https://github.com/volcengine/verl.git@v0.4.1")
    assert (g.package, g.kind, g.release) == ("verl", "release", "0.4.1")
    assert framework_git.parse("git+https://ghfast.top/https://github.com/someone/other.git@main") is None


RECIPE = """model_name_or_path: Qwen/Qwen2.5-3B-Instruct
use_vllm: true
vllm_device: auto
vllm_gpu_memory_utilization: 0.7
vllm_max_model_len: 32768
"""
GRPO = "from trl import GRPOConfig, GRPOTrainer, TrlParser\nargs = TrlParser((GRPOConfig,)).parse_args_and_config()\n"


def _p0s(tmp_path: Path, url: str):
    files = {"setup.py": f'from setuptools import setup\nsetup(name="r1", install_requires=["vllm==0.7.2", "trl @ {url}"])\n',
             "recipes/grpo.yaml": RECIPE, "src/r1/grpo.py": GRPO,
             "train.sh": "accelerate launch --num_processes 7 src/r1/grpo.py --config recipes/grpo.yaml\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    sites = [s for s in audit(tmp_path).sites if s.site.framework == "trl"]
    assert sites
    return sorted(r.check.id for s in sites for r in s.results if r.priority == "P0")


def test_a_commit_through_a_mirror_is_judged_as_the_plain_commit_pin(tmp_path):
    # TRL 69ad852 (0.16.0.dev0) still has vllm_device and passes no max_num_batched_tokens: no P0
    plain = _p0s(tmp_path / "plain", f"git+https://github.com/huggingface/trl.git@{SHA}")
    mirrored = _p0s(tmp_path / "mirror", f"git+http://ghfast.top/https://github.com/huggingface/trl.git@{SHA}")
    assert mirrored == plain == []
