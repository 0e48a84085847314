"""A framework's own vLLM gate read from its copy in the audited tree (engine/scan/vendored.py):
early verl's per-release dispatch in research forks, a LLaMA-Factory checkout's require_version /
check_version of its commit, OpenRLHF's assert; L43 says what that copy refuses, not what the
release of the same number declares."""
import textwrap

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan import vendored

DISPATCH = """\
    from importlib.metadata import version
    from packaging import version as vs

    package_version = version("vllm")
    if package_version == "0.5.4":
        vllm_version = "0.5.4"
    elif package_version == "0.6.3":
        vllm_version = "0.6.3"
    {extra}else:
        raise ValueError(f"vllm version {{package_version}} not supported. Currently supported versions are {words}")
    """
VERL_RUN = """\
    #!/bin/bash
    python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-3B actor_rollout_ref.rollout.name=vllm \\
        actor_rollout_ref.rollout.gpu_memory_utilization=0.4 trainer.n_gpus_per_node=1 trainer.nnodes=1
    """


def _tree(tmp_path, files: dict):
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))


def _l43(tmp_path, files: dict, gpu="A100-80GB"):
    _tree(tmp_path, files)
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return next(x for x in sr.results if x.check.id == "L43")


def _fork(extra="", words="0.5.4 and 0.6.3.", setup=True):
    files = {"verl/third_party/vllm/__init__.py": DISPATCH.format(extra=extra, words=words), "verl/version/version": "0.1\n",
             "scripts/train.sh": VERL_RUN}
    if setup:
        files["setup.py"] = 'from setuptools import setup\n\nsetup(name="verl", version=open("verl/version/version").read().strip())\n'
    return files


def test_fork_without_its_own_package_metadata_still_runs_its_gate(tmp_path):
    # no setup.py naming verl: nothing pins the framework, the copy in the tree is what runs
    r = _l43(tmp_path, {**_fork(setup=False), "requirements.txt": "vllm==0.8.5.post1\n"})
    assert r.priority == "P0"
    assert "vllm version 0.8.5.post1 not supported" in r.reason_text("en")
    assert "==0.6.3" in r.reason_text("en")


def test_dev_copy_that_already_dispatches_to_0_7_takes_a_newer_vllm(tmp_path):
    # verl's version file said 0.1 until 0.2 although the dispatch took 0.7.0+ from February 2025
    # (commit f8b4d0857): PyPI's verl 0.1 would refuse 0.7.2, this copy does not
    extra = 'elif vs.parse(package_version) >= vs.parse("0.6.6.post2.dev252+g8027a724"):\n        vllm_version = package_version\n    '
    r = _l43(tmp_path, {**_fork(extra=extra, words="0.5.4, 0.6.3 and 0.7.0+"), "requirements.txt": "vllm==0.7.2\n"})
    assert r.priority != "P0"


def test_gate_that_only_fires_when_vllm_is_missing_is_no_gate():
    # verl 0.5+ raises only for a missing vLLM (or one below 0.7.0 in its final else)
    text = textwrap.dedent("""\
        package_version = get_version("vllm")
        if package_version is None:
            raise ValueError("vllm version None not supported and SGLang also not Found")
        elif vs.parse(package_version) >= vs.parse("0.7.0"):
            if vs.parse(package_version) >= vs.parse("0.8.5"):
                VLLM_SLEEP_LEVEL = 2
        else:
            raise ValueError(f"vllm version {package_version} not supported. Currently supported vllm versions are 0.7.0+")
        """)
    line, alts, words, _ = vendored._verl("verl/third_party/vllm/__init__.py", text)
    assert alts == [">=0.7.0"] and line == 8 and words.startswith("vllm version {vllm} not supported")


LF_CONFIG = {"examples/infer.yaml": "model_name_or_path: Qwen/Qwen2.5-7B-Instruct\ntemplate: qwen\ninfer_backend: vllm\n",
             "src/llamafactory/extras/env.py": 'VERSION = "0.9.1.dev0"\n'}


@pytest.mark.parametrize("call,env,priority", [
    ('require_version("vllm>=0.4.3,<=0.6.2", "To fix: pip install vllm>=0.4.3,<=0.6.2")', "", "P0"),  # a 0.9.1.dev0 commit
    ('require_version("vllm>=0.4.3,<=0.6.2", "To fix: pip install vllm>=0.4.3,<=0.6.2")', "DISABLE_VERSION_CHECK=1 ", "P0"),
    ('check_version("vllm>=0.4.3,<=0.6.2")', "DISABLE_VERSION_CHECK=1 ", None),  # check_version (0.9.2 on) steps aside
    ('require_version("vllm>=0.4.3,<0.6.4", "To fix: pip install vllm>=0.4.3,<0.6.4")', "", None),  # a later commit, same version
])
def test_llamafactory_checkout_runs_the_gate_of_its_commit(tmp_path, call, env, priority):
    files = {**LF_CONFIG, "src/llamafactory/hparams/parser.py": f"def _check_extra_dependencies(model_args):\n    {call}\n",
             "requirements.txt": "vllm==0.6.3\n", "serve.sh": f"#!/bin/bash\n{env}llamafactory-cli api examples/infer.yaml\n"}
    r = _l43(tmp_path, files)
    assert r.priority == priority
    if priority:
        assert "vllm>=0.4.3,<=0.6.2 is required for a normal functioning of this module, but found vllm==0.6.3" in r.reason_text("en")
        assert "0.9.1.dev0" in r.reason_text("en") and "==0.6.2" in r.reason_text("en")


def test_openrlhf_assert_is_read():
    text = 'import vllm\nfrom packaging import version\n\nassert version.parse(vllm.__version__) > version.parse("0.4.1"), "OpenRLHF only supports vLLM >= 0.4.1"\n'
    got = vendored.gates(["openrlhf/trainer/ray/vllm_engine.py"], lambda rel: text)
    assert [(g.framework, g.alternatives, g.line) for g in got] == [("openrlhf", (">0.4.1",), 4)]


def test_gate_for_site_picks_the_closest_copy():
    a = vendored.Gate("verl", "", "verl/x.py", 1, ("==0.6.3",), "", None)
    b = vendored.Gate("verl", "sub", "sub/verl/x.py", 1, ("==0.6.3",), "", None)
    assert vendored.for_site([a, b], "sub/run.sh", "verl") is b
    assert vendored.for_site([a, b], "run.sh", "verl") is a
    assert vendored.for_site([b], "elsewhere/run.sh", "verl") is b
    assert vendored.for_site([b], "run.sh", "trl") is None


# L130: the trainer's FlashAttention 2 beside the rollout (engine/check/trainer_attn.py)
def _l130(tmp_path, files: dict, gpu: str):
    _tree(tmp_path, files)
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return next(x for x in sr.results if x.check.id == "L130")


VERL = "#!/bin/bash\npython3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-3B actor_rollout_ref.rollout.name=vllm {extra}\n"


@pytest.mark.parametrize("pins,extra,gpu,priority", [
    ("verl==0.4.1\nvllm==0.8.5\n", "", "V100-32GB", "P0"),  # fixed in fsdp_workers.py
    ("verl==0.4.1\nvllm==0.8.5\n", "", "T4", "P0"),
    ("verl==0.4.1\nvllm==0.8.5\n", "", "A100-80GB", None),
    ("verl==0.6.1\nvllm==0.10.0\n", "+actor_rollout_ref.model.override_config.attn_implementation=sdpa", "T4", None),  # no verdict
    ("verl==0.4.1\nvllm==0.8.5\n", "--config-name=ppo_megatron_trainer", "V100-32GB", None),  # Megatron workers
    ("verl==0.4.1\nvllm==0.8.5\n", "actor_rollout_ref.actor.strategy=megatron", "V100-32GB", None),
    ("verl==0.4.1\nvllm==0.8.5\n", "GENERATE", "V100-32GB", None),  # main_generation: no trainer forward
])
def test_verl_trainer_flash_attention(tmp_path, pins, extra, gpu, priority):
    script = VERL.format(extra="").replace("main_ppo", "main_generation") if extra == "GENERATE" else VERL.format(extra=extra)
    r = _l130(tmp_path, {"requirements.txt": pins, "train.sh": script}, gpu)
    assert r.priority == (priority if r.status == "recommended" else None) and (r.status == "recommended") == bool(priority)
    if priority:
        assert "FlashAttention only supports Ampere GPUs or newer." in r.reason_text("en")


OPENRLHF = """\
    #!/bin/bash
    python3 -m openrlhf.cli.train_ppo_ray --actor_num_gpus_per_node 4 --ref_num_gpus_per_node 2 \\
        --vllm_num_engines 2 --vllm_tensor_parallel_size 1 --pretrain Qwen/Qwen2.5-1.5B-Instruct \\
        --prompt_data OpenRLHF/prompt-collection-v0.1 {extra}
    """


@pytest.mark.parametrize("release,extra,recommended", [
    ("0.5.7", "--flash_attn", True),
    ("0.5.7", "", False),  # eager/sdpa by default before 0.9.0
    ("0.9.0", "", True),  # --attn_implementation defaults to flash_attention_2
    ("0.9.0", "--attn_implementation sdpa", False),
])
def test_openrlhf_trainer_flash_attention(tmp_path, release, extra, recommended):
    r = _l130(tmp_path, {"requirements.txt": f"openrlhf=={release}\nvllm==0.6.5\n", "train.sh": OPENRLHF.format(extra=extra)}, "V100-32GB")
    assert (r.status == "recommended") == recommended


def test_trainer_flash_attention_listed_before_vllm_bfloat16():
    # the trainer's refusal is the framework's own (raise_order stage `framework`): a report lists it
    # before vLLM's bfloat16 refusal, which is not the only thing said on a V100
    from vllm_kb.engine.check.raise_order import stage_of
    from vllm_kb.engine.kb.knowledge import load

    kb = load()
    assert stage_of(kb, "L130", "0.6.3") < stage_of(kb, "L4", "0.6.3")


EARLY_PPO = """\
    #!/bin/bash
    ray job submit --address="http://127.0.0.1:8265" -- python3 examples/train_ppo_ray.py \\
        --actor_num_gpus_per_node 4 --vllm_num_engines 2 --vllm_tensor_parallel_size 2 \\
        --pretrain meta-llama/Meta-Llama-3-70B-Instruct --prompt_max_len 1024 --generate_max_len 1024 --bf16
    """
SETUP_FN = ('from setuptools import setup\n\n\ndef _fetch_version():\n    return open("version.txt").read().strip()\n\n\n'
            'setup(name=("openrlhf"), version=_fetch_version())\n')


@pytest.mark.parametrize("release,max_len", [("0.3.0.github", 8192), ("0.3.2", 2048)])
def test_early_openrlhf_checkout_passes_no_max_model_len(tmp_path, release, max_len):
    # up to 0.3.1 create_vllm_engines gives LLM(...) no max_model_len: vLLM takes the model's
    # 8192; 0.3.2 passes prompt_max_len + generate_max_len (OpenRLHF "Fix #336 max_model_len")
    _tree(tmp_path, {"setup.py": SETUP_FN.replace('name=("openrlhf")', "name=str('openrlhf')"), "version.txt": release + "\n",
                     "openrlhf/__init__.py": "", "examples/train_ppo_ray.py": "", "requirements.txt": "vllm==0.4.2\n",
                     "examples/scripts/train_ppo_llama_ray_70b.sh": EARLY_PPO})
    (sr,) = audit(tmp_path, gpu="A100-80GB x8").sites
    assert sr.site.framework == "openrlhf" and sr.site.framework_version == release.replace(".github", "")
    mem = sr.facts["memory"]
    assert mem["max_model_len"] == max_len and mem["kv_tokens"] > 0


def test_fork_dispatch_compares_the_version_string_so_a_post_release_fails_it(tmp_path):
    # verl #245: `package_version == "0.6.3"` is a string test; 0.6.3.post1 takes the `else` and raises
    assert vendored._version_test(__import__("ast").parse('package_version == "0.6.3"').body[0].value) == [">=0.6.3,<0.6.3.post1"]
    r = _l43(tmp_path, {**_fork(setup=False), "requirements.txt": "vllm==0.6.3.post1\n"})
    assert r.priority == "P0"
    assert "vllm version 0.6.3.post1 not supported" in r.reason_text("en")


def test_released_verl_dispatch_speaks_before_the_arguments_its_rollout_passes(tmp_path):
    # verl 0.2.0.post1 declares vllm<=0.6.3.post1, yet its dispatch (compat.yaml, hand-written rows) refuses
    # 0.6.3.post1 on import — before the SPMD rollout could pass enable_sleep_mode
    r = _l43(tmp_path, {"requirements.txt": "verl==0.2.0.post1\nvllm==0.6.3.post1\n", "scripts/train.sh": VERL_RUN})
    assert r.priority == "P0"
    text = r.reason_text("en")
    assert "vllm version 0.6.3.post1 not supported" in text
    assert text.index("not supported") < text.find("enable_sleep_mode") or "enable_sleep_mode" not in text


# verl's dispatch shapes across its releases (written here in short; the chain and the final refusal as each
# release has them): every branch is read, and a chain with a test not read makes no claim (eval68 cogrpo_verl)
_V04 = """\
    package_version = get_version("vllm")
    if package_version is None:
        if not is_sglang_available():
            raise ValueError(f"vllm version {package_version} not supported and SGLang also not Found")
    elif package_version == "0.5.4":
        from .vllm_v_0_5_4.llm import LLM
    elif package_version == "0.6.3" or package_version.startswith("0.6.3"):
        from .vllm_v_0_6_3.llm import LLM
    elif vs.parse(package_version) >= vs.parse("0.7.0"):
        from vllm import LLM
    else:
        if not is_sglang_available():
            raise ValueError(f"vllm version {package_version} not supported and SGLang also not Found")
    """
_V03 = """\
    package_version = get_version("vllm")
    if package_version == '0.5.4':
        from .vllm_v_0_5_4.llm import LLM
    elif package_version == '0.6.3':
        from .vllm_v_0_6_3.llm import LLM
    elif package_version == '0.6.3+rocm624':
        from .vllm_v_0_6_3.llm import LLM
    elif vs.parse(package_version) >= vs.parse('0.7.0'):
        from vllm import LLM
    else:
        if not is_sglang_available():
            raise ValueError(f"vllm version {package_version} not supported and SGLang also not Found")
    """
_V06 = """\
    package_version = get_version("vllm")
    if package_version is None:
        raise ValueError("vllm version None not supported")
    elif is_npu_available:
        from vllm import LLM
    elif vs.parse(package_version) >= vs.parse("0.7.0"):
        if vs.parse(package_version) >= vs.parse("0.8.5"):
            VLLM_SLEEP_LEVEL = 2
    else:
        if vs.parse(package_version) in [vs.parse("0.5.4"), vs.parse("0.6.3")]:
            raise ValueError(f"vLLM version {package_version} support has been removed.")
        if not is_sglang_available():
            raise ValueError(f"vllm version {package_version} not supported and SGLang also not Found")
    """
_UNREAD = """\
    package_version = get_version("vllm")
    if package_version == "0.5.4":
        from .vllm_v_0_5_4.llm import LLM
    elif _supported(package_version):
        from vllm import LLM
    else:
        raise ValueError(f"vllm version {package_version} not supported")
    """


@pytest.mark.parametrize("text,refused,taken", [
    (_V04, ["0.6.4", "0.6.6.post1"], ["0.5.4", "0.6.3", "0.6.3.post1", "0.7.3", "0.8.5", "0.10.1.1"]),
    (_V03, ["0.6.4", "0.6.3.post1"], ["0.5.4", "0.6.3", "0.6.3+rocm624", "0.7.0", "0.10.1.1"]),
    (_V06, ["0.5.4", "0.6.3", "0.6.6"], ["0.7.0", "0.8.5", "0.12.0"]),
    (_V06.replace('"0.7.0"', '"0.18.0"'), ["0.10.1.1", "0.17.1"], ["0.18.0"]),
])
def test_verl_dispatch_every_branch_is_read(text, refused, taken):
    (g,) = vendored.gates(["verl/third_party/vllm/__init__.py"], lambda rel: textwrap.dedent(text))
    assert [v for v in refused + taken if not g.allows(v)] == refused
    assert "not supported" in g.text


def test_verl_dispatch_with_a_test_not_read_makes_no_claim():
    assert vendored.gates(["verl/third_party/vllm/__init__.py"], lambda rel: textwrap.dedent(_UNREAD)) == []


def test_verl_04_copy_takes_vllm_0_10(tmp_path):
    # cogrpo_verl (https://github.com/liushz/cogrpo_verl): a verl 0.4.0.dev copy with vllm==0.10.1.1 pinned
    # was told to go down to vllm==0.5.4, its dispatch's first branch
    files = {"verl/third_party/vllm/__init__.py": _V04, "verl/version/version": "0.4.0.dev\n", "scripts/train.sh": VERL_RUN,
             "setup.py": 'from setuptools import setup\n\nsetup(name="verl", install_requires=["vllm==0.10.1.1"])\n'}
    r = _l43(tmp_path, files)
    assert r.priority != "P0" and "0.5.4" not in r.reason_text("en")
    files["setup.py"] = files["setup.py"].replace("0.10.1.1", "0.6.4")
    assert _l43(tmp_path, files).priority == "P0"


# StepSearch #10 (https://github.com/Zillwang/StepSearch/issues/10): a Search-R1-lineage copy that names the
# installed release `vllm_version`, read inside a try; verl 0.2.0.post2's own file (read in the wheel) reads it
# through `get_version(package_name)` with package_name = 'vllm' and keeps a `vllm_version` label of its own
_NAMED = """\
    from importlib.metadata import version, PackageNotFoundError
    try:
        {name} = {read}
    except PackageNotFoundError:
        raise ValueError("vllm is not installed")
    if {name} == "0.3.1":
        from .vllm_v_0_3_1.llm import LLM
    elif {name} in ("0.5.4", "0.6.3"):
        from .vllm_v_0_6_3.llm import LLM
    else:
        raise ValueError(f"vllm version {{{name}}} not supported. Currently supported versions are 0.3.1, 0.5.4 and 0.6.3.")
    """
_V02 = """\
    from importlib.metadata import version, PackageNotFoundError

    def get_version(pkg):
        try:
            return version(pkg)
        except PackageNotFoundError:
            return None

    package_name = 'vllm'
    installed = get_version(package_name)
    vllm_version = None
    if installed == '0.5.4':
        vllm_version = '0.5.4'
    elif installed == '0.6.3':
        vllm_version = '0.6.3'
    else:
        raise ValueError(f'vllm version {installed} not supported. Currently supported versions are 0.5.4 and 0.6.3')
    """


@pytest.mark.parametrize("text", [
    _NAMED.format(name="vllm_version", read='version("vllm")'),
    _NAMED.format(name="installed", read="importlib.metadata.version('vllm')"),
    _NAMED.format(name="v", read="vllm.__version__"),
    _V02,
])
def test_verl_dispatch_on_a_name_that_holds_the_installed_release(text):
    (g,) = vendored.gates(["verl/third_party/vllm/__init__.py"], lambda rel: textwrap.dedent(text))
    assert [v for v in ("0.6.3", "0.5.4", "0.11.0", "0.6.3.post1") if not g.allows(v)] == ["0.11.0", "0.6.3.post1"]
    assert g.message("0.11.0").startswith("vllm version 0.11.0 not supported")


def test_verl_dispatch_on_a_label_it_assigns_itself_makes_no_claim():
    # verl 0.2's `vllm_version` is set from constants inside the chain: a chain on it is not a gate on vLLM
    text = _NAMED.format(name="vllm_version", read='"0.6.3"')
    assert vendored.gates(["verl/third_party/vllm/__init__.py"], lambda rel: textwrap.dedent(text)) == []


def test_stepsearch_copy_refuses_vllm_0_11_and_takes_its_pin(tmp_path):
    files = {"verl/third_party/vllm/__init__.py": _NAMED.format(name="vllm_version", read='version("vllm")'),
             "scripts/train.sh": VERL_RUN, "requirements.txt": "vllm==0.11.0\n"}
    r = _l43(tmp_path, files)
    assert r.priority == "P0" and "vllm version 0.11.0 not supported" in r.reason_text("en")
    files["requirements.txt"] = "vllm==0.6.3\ntorch==2.4.0\n"
    assert _l43(tmp_path, files).priority != "P0"
