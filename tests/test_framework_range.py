"""A framework pinned to a range (`trl>=0.14.0`) is judged over every release the pin allows
(engine/check/framework_range.py): the framework's own findings and the keys its parser refuses are a
P0 only where each of those releases fails, a P1 that names the releases where only some do."""
import textwrap

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check import framework_range
from vllm_kb.engine.kb import compat
from vllm_kb.engine.scan.site import Site

SERVE = "trl vllm-serve --model Qwen/Qwen2.5-7B-Instruct\n"
LEGACY = """\
from trl import GRPOConfig

args = GRPOConfig(output_dir="out", use_vllm=True, vllm_device="cuda:7")
"""


def _found(tmp_path, files: dict, code: str):
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    return [f for sr in audit(tmp_path, gpu="H100-80GB").sites for f in sr.remarks if f.code == code]


@pytest.mark.parametrize("pin,priority", [
    ("trl==0.15.2", "P0"),  # `trl vllm-serve` arrives in 0.16.0
    ("trl>=0.14.0,<0.16", "P0"),  # no release the range allows has it
    ("trl>=0.14.0", "P1"),  # a fresh install resolves a release that has it
    ("trl>=0.16.0", None),
])
def test_vllm_serve_under_a_range(tmp_path, pin, priority):
    got = _found(tmp_path, {"serve.sh": SERVE, "requirements.txt": f"{pin}\nvllm==0.8.5\n"}, "trl-no-vllm-serve")
    assert [f.priority for f in got] == ([priority] if priority else [])
    if priority == "P1":
        for lang in ("en", "zh"):
            assert "trl>=0.14.0" in got[0].message[lang] and "0.14.0–0.15.2" in got[0].message[lang]
        assert not got[0].fix


@pytest.mark.parametrize("pin,priority", [
    ("trl==0.18.0", "P0"),  # GRPOConfig has no vllm_device from 0.18.0
    ("trl>=0.18.0", "P0"),  # every release the range allows refuses it
    ("trl>=0.14.0", "P1"),  # the floor takes it, the newest does not: said, not at P0
    ("trl>=0.14.0,<0.18", None),
])
def test_a_key_dropped_inside_the_range(tmp_path, pin, priority):
    got = _found(tmp_path, {"train.py": LEGACY, "requirements.txt": f"{pin}\nvllm==0.8.5\n"}, "trl-legacy-key")
    assert [f.priority for f in got] == ([priority] if priority else [])
    if priority == "P1":
        assert "0.18.0–" in got[0].message["en"] and "fresh install" in got[0].message["en"]


def test_the_vllm_extra_narrows_the_range_to_what_pip_installs_beside_the_vllm_pin():
    site = Site("train.py", 1, "python-call", "GRPOConfig()", "rlhf_colocate", "", framework="trl",
                framework_range="trl[vllm]>=0.14.0", framework_spec=">=0.14.0")
    span = framework_range.releases(site, "0.8.5")
    # TRL 0.21.0 on declares vllm>=0.10.0 for its extra; 0.15.2 declares vllm==0.7.2
    assert span[0] == "0.14.0" and span[-1] == "0.20.0" and "0.15.2" not in span
    plain = Site("train.py", 1, "python-call", "GRPOConfig()", "rlhf_colocate", "", framework="trl",
                 framework_range="trl>=0.14.0", framework_spec=">=0.14.0")
    assert framework_range.releases(plain, "0.8.5")[-1] == framework_range.releases(plain)[-1] != "0.20.0"


def test_runs_name_the_stretches():
    span = ["0.1", "0.2", "0.3", "0.4", "0.5"]
    assert framework_range.runs(span, ["0.1", "0.2", "0.4"]) == "0.1–0.2, 0.4"


COLOCATE = """\
from trl import GRPOConfig

args = GRPOConfig(output_dir="out", use_vllm=True, vllm_mode="colocate")
"""


def _l43(tmp_path, files: dict):
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    return [r for r in sr.results if r.check.id == "L43" and r.needs_change], sr.facts["launch"]


@pytest.mark.parametrize("pin,priority,problem", [
    ("trl>=1.14.0,<1.17", "P0", "error"),  # each of 1.14.0–1.16.0 passes logprobs_mode, which vLLM 0.8.5 lacks
    ("trl>=0.18.0", "P1", "range"),  # 0.18.0–0.20.0 take vLLM 0.8.5; the newest does not
    ("trl>=0.18.0,<0.21", None, None),
])
def test_the_compat_table_over_a_range(tmp_path, pin, priority, problem):
    got, launch = _l43(tmp_path, {"train.py": COLOCATE, "requirements.txt": f"{pin}\nvllm==0.8.5\n"})
    assert [r.priority for r in got] == ([priority] if priority else [])
    assert launch.get("fw_problem") == problem
    if problem == "range":
        assert launch["fw_range_newest_fails"] and launch["fw_range_pin"] == "trl>=0.18.0"
        assert launch["fw_range_fails"].endswith(compat.releases("trl")[-1]) and not launch["fw_range_fails"].startswith("0.18")
    if problem == "error":
        assert "1.14.0–1.16.0" in launch["fw_release"]


def test_the_vllm_extra_keeps_the_range_to_what_pip_installs_beside_vllm(tmp_path):
    # pip resolves trl[vllm]>=0.18.0 beside vllm==0.8.5 to 0.18.0–0.20.0 (0.21.0 on declare vllm>=0.10.0): all take it
    got, launch = _l43(tmp_path, {"train.py": COLOCATE, "requirements.txt": "trl[vllm]>=0.18.0\nvllm==0.8.5\n"})
    assert got == [] and "fw_problem" not in launch


RLOO = """\
from trl import RLOOConfig

args = RLOOConfig(output_dir="out", use_vllm=True, vllm_mode="colocate", max_prompt_length=2048)
"""


def test_a_vllm_extra_of_no_version_is_judged_at_the_releases_pip_installs_beside_vllm(tmp_path):
    # trl[vllm] beside vllm==0.11.0: releases up to 1.2.0 (1.3.0 on declare vllm>=0.12.0); RLOOConfig dropped
    # max_prompt_length after 0.28.0, so the newest of them refuses it, older ones (another package's cap) do not:
    # a P1 that names them. vllm_mode, which only releases before 0.18.0 lack, is not said (no version: the newest)
    got = _found(tmp_path, {"train.py": RLOO, "requirements.txt": "trl[vllm]\nvllm==0.11.0\n"}, "framework-key-not-in-release")
    assert [(f.subject, f.priority) for f in got] == [("max_prompt_length", "P1")]
    assert "1.2.0" in got[0].message["en"] and "trl[vllm]" in got[0].message["zh"]


def test_a_vllm_extra_of_no_version_without_a_vllm_pin_is_the_newest_release(tmp_path):
    got = _found(tmp_path, {"train.py": RLOO, "requirements.txt": "trl[vllm]\n"}, "framework-key-not-in-release")
    assert got == []  # no release judged: as for a framework not pinned at all


VERL = """\
python3 -m verl.trainer.main_ppo \\
    data.train_files=train.parquet data.max_prompt_length=256 data.max_response_length=256 \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.max_num_batched_tokens=512 trainer.n_gpus_per_node=8 trainer.nnodes=1
"""


@pytest.mark.parametrize("pins,priority", [
    ("verl==0.7.0\nvllm==0.18.0\n", "P0"),  # verl's max_num_seqs default is 1024 before 0.9.0: vLLM refuses 512 tokens
    ("verl>=0.7.0\nvllm==0.18.0\n", "P1"),  # 0.9.1 (256), which takes vLLM 0.18.0, passes no such default
    ("verl>=0.7.0\nvllm==0.11.0\n", "P0"),  # 0.9.x refuse vLLM 0.11.0 (L43): the releases that run it all pass 1024
])
def test_a_check_on_a_framework_default_is_judged_with_the_newest_release_that_runs(tmp_path, pins, priority):
    for name, text in {"run.sh": VERL, "requirements.txt": pins}.items():
        (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    got = [r for r in sr.results if r.check.id == "L17" and r.needs_change]
    assert [r.priority for r in got] == [priority]
    if priority == "P1":
        assert "verl>=0.7.0" in got[0].reason.en and "0.9.1" in got[0].reason.zh


def test_where_the_engine_runs_is_judged_at_the_newest_release_that_runs_too(tmp_path):
    # TRL 0.14 builds vLLM on the GPU after the training processes (cuda:1, absent on one GPU: L34); from 0.18
    # vllm_mode colocate puts it inside them, and trl>=0.14.0 lets pip install those
    files = {"train.py": COLOCATE}
    for pin, priority in (("trl==0.14.0", "P0"), ("trl>=0.14.0", "P1")):
        (tmp_path / "requirements.txt").write_text(f"{pin}\nvllm==0.8.5\n")
        for name, text in files.items():
            (tmp_path / name).write_text(text)
        (sr,) = audit(tmp_path, gpu="H100-80GB").sites
        assert [r.priority for r in sr.results if r.check.id == "L34" and r.needs_change] == [priority]


def test_keys_only_older_releases_of_an_open_floor_refuse_are_one_p1_for_the_site(tmp_path):
    # ms-swift>=2.0: `model` arrives in 3.0.0, the vllm_ spellings in 3.7.0; one P1 names the three keys, with the
    # range said once over the releases that refuse any of them (it was one P1 a key)
    got = _found(tmp_path, {"requirements.txt": "ms-swift>=2.0\nvllm==0.8.5\n",
                            "run.sh": "swift infer --model Qwen/Qwen2.5-7B-Instruct --infer_backend vllm "
                                      "--vllm_enforce_eager true --vllm_max_model_len 8192\n"}, "framework-key-not-in-release")
    assert [(f.subject, f.priority) for f in got] == [("model,vllm_enforce_eager,vllm_max_model_len", "P1")]
    (f,) = got
    assert f.message["en"].count("The project pins ms-swift as `ms-swift>=2.0`") == 1
    assert "raise the pin's lower bound past 2.0.4–3.6.4" in f.message["en"] and "`vllm_enforce_eager`" in f.message["zh"]
    assert not f.fix
