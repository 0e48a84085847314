"""A project script that runs verl's own entry point under its own name (`entry.py`: `from
verl.trainer.main_ppo import main` and `main()`, utopiafar/TinyZero_QWen3.5, eval86): `python3 entry.py
<overrides>` is the launch `python3 -m verl.trainer.main_ppo` would be."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

RUN = ("python3 entry.py algorithm.adv_estimator=grpo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\\n"
       "    actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.gpu_memory_utilization=0.5 \\\n"
       "    trainer.n_gpus_per_node=1 trainer.nnodes=1\n")


@pytest.mark.parametrize("entry,site", [
    ('"""entry"""\nfrom verl.trainer.main_ppo import main\n\nif __name__ == "__main__":\n    main()\n', True),
    ("from verl.trainer.main_ppo import main as run\nrun()\n", True),
    # main imported but wrapped in the script's own work: not read as verl's entry point
    ("from verl.trainer.main_ppo import main\n\ndef go(cfg):\n    main(cfg)\n", False),
    ("from verl.utils import main\nmain()\n", False),  # no entry point of verl's
])
def test_a_script_running_verls_main_is_a_verl_launch(tmp_path, entry, site):
    (tmp_path / "requirements.txt").write_text("verl==0.3.0.post1\nvllm==0.8.2\n")
    (tmp_path / "entry.py").write_text(entry)
    (tmp_path / "run.sh").write_text(RUN)
    sites = audit(tmp_path, gpu="A100-80GB").sites
    got = [(sr.site.file, sr.site.kind) for sr in sites]
    assert got == ([("run.sh", "verl main_ppo")] if site else []), got
    if site:
        assert sites[0].site.settings["gpu_memory_utilization"].value == 0.5
