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
