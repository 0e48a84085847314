"""A framework's development build reads a key where a release around it does: LeonLixyz/r2e-verl
(https://github.com/LeonLixyz/r2e-verl, verl/version/version 0.4.0.dev) sets
`actor_rollout_ref.model.trust_remote_code=True`, which verl passes to the rollout's vLLM from 0.4.0
(its fsdp_workers.py _build_rollout → vLLMRollout(trust_remote_code=…)); eval90 saw L50 say "not seen"
because `>=0.4.0` excludes 0.4.0.dev. Control: without the key, L50 still asks for it."""
import pytest

from vllm_kb.engine.audit import audit

ARGS = ("python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo actor_rollout_ref.model.path=openbmb/MiniCPM-o-2_6 "
        "actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.tensor_model_parallel_size=2 trainer.n_gpus_per_node=8")


def _l50(tmp_path, extra: str) -> str:
    (tmp_path / "verl" / "version").mkdir(parents=True)
    (tmp_path / "verl" / "__init__.py").write_text("")
    (tmp_path / "verl" / "version" / "version").write_text("0.4.0.dev\n")
    (tmp_path / "setup.py").write_text('from setuptools import setup\nsetup(name="verl", version="0.4.0.dev", install_requires=["vllm<=0.8.5"])\n')
    (tmp_path / "run.sh").write_text(f"#!/bin/sh\n{ARGS} {extra}\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert sr.site.framework_version == "0.4.0.dev"
    return next(r.status for r in sr.results if r.check.id == "L50")


@pytest.mark.parametrize("extra, status", [("actor_rollout_ref.model.trust_remote_code=True", "enabled"), ("", "recommended")])
def test_dev_build_reads_the_key_of_the_release_it_leads_to(tmp_path, extra, status):
    assert _l50(tmp_path, extra) == status
