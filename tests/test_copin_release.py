"""A project that installs `vllm` without a version beside an exact torch pin: pip installs the
newest vLLM release whose own torch pin admits it (engine/scan/extra_pins.py torch_ranges), so the
audit judges that release, as a range: a P0 of only some releases in it is a P1."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.report.model import version_text

# https://github.com/vllm-project/vllm/issues/9713 — `pip install vllm` in a conda environment with
# torch 2.4.0 on native Windows; the log is 0.6.3.post1's, the newest release that pins torch 2.4.0
WINDOWS = ('from vllm import LLM\n'
           'llm = LLM(model=r"J:\\LM\\cache_dir\\WizardMath-7B-V1.0")\n')


def _site(write_project, files: dict[str, str], gpu: str = "A100-80GB"):
    rep = audit(write_project(files), gpu=gpu)
    (sr,) = rep.sites
    return rep, sr


def test_torch_pin_beside_an_unbounded_vllm_sets_the_release(write_project):
    rep, sr = _site(write_project, {"run.py": WINDOWS, "requirements.txt": "vllm\ntorch==2.4.0\n"}, "RTX-3050")
    assert (sr.version.version, sr.version.basis) == ("0.6.3.post1", "range")
    assert sr.version.pin.spec == ">=0.5.4,<=0.6.3.post1" and sr.version.pin.line == 1
    en, zh = version_text(rep.kb, sr.version, "en"), version_text(rep.kb, sr.version, "zh")
    assert "torch==2.4.0 (requirements.txt:2)" in en and "0.6.3.post1" in en
    assert "torch==2.4.0" in zh and "推定" in zh
    # the Windows registry failure is 0.6.3's only: not certain across 0.5.4–0.6.3.post1
    (l28,) = [r for r in sr.results if r.check.id == "L28"]
    assert l28.status == "recommended" and l28.priority == "P1"


def test_a_local_torch_build_counts_as_its_release(write_project):
    _, sr = _site(write_project, {"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n",
                                  "requirements.txt": "torch==2.5.1+cu124\nvllm\n"})
    assert (sr.version.version, sr.version.pin.spec) == ("0.7.3", ">=0.6.4,<=0.7.3")


def test_nothing_is_inferred_where_the_project_or_the_newest_release_decides(write_project):
    serve = {"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"}
    # vLLM's own bound wins
    _, sr = _site(write_project, {**serve, "requirements.txt": "vllm>=0.6.0,<0.6.2\ntorch==2.4.0\n"})
    assert sr.version.version == "0.6.1.post2" and not sr.version.pin.via
    # a torch the newest release pins says nothing more than "newest"
    _, sr = _site(write_project, {**serve, "requirements.txt": "vllm\ntorch==2.14.0\n"})
    assert sr.version.basis == "unbounded"
    # another file is another install: its torch need not be resolved with this vLLM
    _, sr = _site(write_project, {**serve, "requirements.txt": "vllm\n", "requirements-train.txt": "torch==2.4.0\n"})
    assert sr.version.basis == "unbounded"
    # a range of torch admits several lines: nothing read from it
    _, sr = _site(write_project, {**serve, "requirements.txt": "vllm\ntorch>=2.4.0\n"})
    assert sr.version.basis == "unbounded"


# eval109: QwenLM/Qwen2.5-Coder's requirements.txt (d5ead97f) names vllm bare beside transformers==4.39.1;
# every release from 0.4.1 requires transformers>=4.40.0, so pip installs 0.4.0.post1
QWEN_CODER = "torch\ntransformers==4.39.1\naccelerate\nvllm\n"


def test_a_transformers_pin_beside_an_unbounded_vllm_sets_the_release(write_project):
    rep, sr = _site(write_project, {"run.py": "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-Coder-7B-Instruct', worker_use_ray=True)\n",
                                    "requirements.txt": QWEN_CODER})
    assert (sr.version.version, sr.version.basis) == ("0.4.0.post1", "range")
    en, zh = version_text(rep.kb, sr.version, "en"), version_text(rep.kb, sr.version, "zh")
    assert "transformers==4.39.1 (requirements.txt:2)" in en and "transformers==4.39.1" in zh
    assert not [f for f in sr.remarks if f.priority == "P0"]  # worker_use_ray is an EngineArgs field until 0.6.6


def test_a_transformers_ceiling_caps_the_release(write_project):
    # transformers<5 beside a bare vllm: the newest releases require transformers 5
    _, sr = _site(write_project, {**{"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"},
                                  "requirements.txt": "vllm\ntransformers>=4.51,<5\n"})
    assert sr.version.basis == "range" and sr.version.version == "0.23.0"


def test_a_transformers_floor_or_another_extra_says_nothing(write_project):
    serve = {"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"}
    _, sr = _site(write_project, {**serve, "requirements.txt": "vllm\ntransformers>=4.51\n"})
    assert sr.version.basis == "unbounded"
    pyproject = ('[project]\nname = "p"\nversion = "0"\ndependencies = []\n[project.optional-dependencies]\n'
                 'serve = ["vllm"]\nold = ["transformers==4.39.1"]\n')
    _, sr = _site(write_project, {**serve, "pyproject.toml": pyproject})
    assert sr.version.version != "0.4.0.post1"


def test_an_option_only_later_releases_have_says_the_file_runs_elsewhere(write_project):
    # Qwen2.5-Coder's benchmark scripts pass distributed_executor_backend (0.4.3+) beside the root
    # file's transformers==4.39.1: they were written for another install, so no P0 from the cap
    call = ("from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-Coder-7B', distributed_executor_backend='ray')\n")
    _, sr = _site(write_project, {"bench/model.py": call, "requirements.txt": QWEN_CODER})
    assert sr.version.pin.spec == "<=0.4.0.post1"
    (f,) = [f for f in sr.remarks if f.subject == "distributed_executor_backend"]
    assert f.priority == "P1" and "0.4.3" in f.message["en"] and "0.4.3" in f.message["zh"]


def test_an_import_only_later_releases_have_is_no_p0_under_the_cap(write_project):
    gen = ("from vllm import LLM\nfrom vllm.distributed.parallel_state import destroy_model_parallel\n\n"
           "llm = LLM(model='Qwen/Qwen2.5-Coder-7B')\n")
    _, sr = _site(write_project, {"bench/generate.py": gen, "requirements.txt": QWEN_CODER})
    (l139,) = [r for r in sr.results if r.check.id == "L139"]
    assert l139.priority == "P1"
