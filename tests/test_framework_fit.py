"""L43's nearest compatible pair (engine/check/framework_compat.py): a later framework release that takes the
pinned vLLM is proposed as the framework's own pin, first where it is the smaller step, with the vLLM change
as the alternative (or the reverse); a release whose only word against the vLLM is its vllm extra's range
counts where the site installs it without that extra (OpenRLHF #1193)."""
import textwrap

from vllm_kb.engine.audit import audit


def _site(tmp_path, files: dict, gpu="H100-80GB x8"):
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return sr, next(x for x in sr.results if x.check.id == "L43")


def _pins(sr):
    return {(c.target, c.value, c.blocked) for c in sr.changes if c.op == "pin"}


OPENRLHF = ("python3 -m openrlhf.cli.train_ppo_ray --pretrain Qwen/Qwen3-4B --vllm_num_engines 4 "
            "--vllm_tensor_parallel_size 1 --actor_num_gpus_per_node 4 --async_train\n")


def test_openrlhf_0_9_4_with_vllm_0_16_proposes_openrlhf_0_9_5(tmp_path):
    sr, r = _site(tmp_path, {"train.sh": OPENRLHF, "requirements.txt": "openrlhf==0.9.4\nvllm==0.16.0\n"})
    assert r.priority == "P0" and r.status == "recommended"
    assert sr.facts["launch"]["fw_fit_framework"] == "==0.9.5" and "fw_fit_vllm" not in sr.facts["launch"]
    assert ("openrlhf", "==0.9.5", None) in _pins(sr)
    assert "openrlhf ==0.9.5 with vLLM 0.16.0" in r.reason_text("en") and "搭配 vLLM 0.16.0" in r.reason_text("zh")


def test_openrlhf_with_its_vllm_extra_gets_no_release_whose_extra_pins_another_vllm(tmp_path):
    sr, _ = _site(tmp_path, {"train.sh": OPENRLHF, "requirements.txt": "openrlhf[vllm]==0.9.4\nvllm==0.16.0\n"})
    assert "fw_fit_framework" not in sr.facts["launch"]


def test_verl_declaring_an_older_vllm_proposes_the_next_verl_first(tmp_path):
    sr, r = _site(tmp_path, {"run.sh": "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct "
                                       "actor_rollout_ref.rollout.name=vllm trainer.n_gpus_per_node=8\n",
                             "requirements.txt": "verl==0.8.0\nvllm==0.25.1\n"})
    launch = sr.facts["launch"]
    assert launch["fw_fit_first"] == "framework" and launch["fw_fit_framework"] == "==0.9.0"
    assert {("verl", "==0.9.0", None), ("vllm", "==0.12.0", "alternative")} <= _pins(sr)
    assert "Proposed first: verl ==0.9.0" in r.reason_text("en")


def test_an_older_framework_release_is_only_the_alternative(tmp_path):
    # trl 0.17.0 passes worker_extension_cls (vLLM 0.8.0+): vLLM on to 0.8.3 first, trl back to 0.16.1 the alternative
    sr, r = _site(tmp_path, {"serve.sh": "trl vllm-serve --model Qwen/Qwen2.5-7B\n", "requirements.txt": "trl==0.17.0\nvllm==0.7.3\n"})
    assert r.priority == "P0" and sr.facts["launch"]["fw_fit_first"] == "vllm"
    assert {("vllm", "==0.8.3", None), ("trl", "==0.16.1", "alternative")} <= _pins(sr)
    assert "Nearest pair that does, proposed first: vLLM ==0.8.3" in r.reason_text("en")


def test_a_later_framework_release_goes_first_where_vllm_would_move_back(tmp_path):
    # trl 0.15.2 (no vllm-serve, declares vllm==0.7.2) beside vLLM 0.8.5: trl 0.17.0 takes 0.8.5 and has vllm-serve
    sr, _ = _site(tmp_path, {"serve.sh": "trl vllm-serve --model Qwen/Qwen2.5-7B-Instruct\n", "requirements.txt": "vllm==0.8.5\ntrl==0.15.2\n"})
    launch = sr.facts["launch"]
    assert launch["fw_fit_framework"] == "==0.17.0" and launch["fw_fit_vllm"] == "==0.7.2" and launch["fw_fit_first"] == "framework"
    assert {("trl", "==0.17.0", None), ("vllm", "==0.7.2", "alternative")} <= _pins(sr)


FORK_SETUP = '''from setuptools import find_packages, setup


def _fetch_version():
    with open("version.txt") as f:
        return f.read().strip()


def _fetch_package_name():
    return "openrlhf"


setup(name=_fetch_package_name(), version=_fetch_version(), packages=find_packages(), extras_require={{"vllm": [{pins}]}})
'''


def _fork(tmp_path, pins: str):
    (tmp_path / "openrlhf").mkdir()
    (tmp_path / "openrlhf" / "__init__.py").write_text("")
    (tmp_path / "version.txt").write_text("0.6.1.post1\n")
    return _site(tmp_path, {"train.sh": OPENRLHF.replace("Qwen3-4B", "Qwen2.5-7B-Instruct").replace(" --async_train", ""),
                            "setup.py": FORK_SETUP.format(pins=pins)})


def test_a_fork_of_openrlhf_that_pins_its_own_vllm_is_not_held_to_upstreams_declared_vllm(tmp_path):
    """eval83 the-laughing-monkey/OpenRLHF-M: the project is OpenRLHF 0.6.1.post1's fork and its own setup.py
    pins vllm==0.7.3 (its vllm extra); upstream 0.6.1.post1 declares vllm==0.7.2, which does not speak for the fork."""
    sr, r = _fork(tmp_path, '"vllm==0.7.3"')
    assert sr.facts["vllm"]["version"] == "0.7.3"
    assert "fw_declared" not in sr.facts["launch"] and "fw_problem" not in sr.facts["launch"]
    assert r.status != "recommended"


def test_a_fork_whose_vllm_pin_is_elsewhere_is_still_held_to_the_release_it_forks(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.7.3\n")
    sr, r = _fork(tmp_path, "")
    assert sr.facts["launch"]["fw_declared"] == "==0.7.2" and r.status == "recommended"
