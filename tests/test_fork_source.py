"""vLLM run from a fork's source inside the project (engine/scan/fork_source.py). pgimenes/adaserve
(https://github.com/pgimenes/adaserve) has vLLM as a git submodule of pgimenes/vllm, installed with
`cd vllm && pip install -e .` (scripts/init.sh); the fork's vllm/engine/arg_utils.py adds
`--num-parallel-layers` and `enable_dynamic_resharding`, which eval90 saw called "vLLM has no option"
(4 false P0s). A failure every release has (max_model_len past gemma-2's 8192) stays a P0."""
import pytest
from vllm_kb.engine.audit import audit

GITMODULES = '[submodule "vllm"]\n\tpath = vllm\n\turl = https://github.com/pgimenes/vllm.git\n'
SH = "#!/bin/sh\nvllm serve meta-llama/Llama-3.1-8B-Instruct --enforce_eager --num-parallel-layers 0\n"
PY = 'from vllm import LLM\nllm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", enable_dynamic_resharding=True)\n'
GEMMA = "#!/bin/sh\nvllm serve google/gemma-2-2b-it --max-model-len 16384\n"


def _p0(tmp_path):
    out = []
    for sr in audit(tmp_path, gpu="H100-80GB").sites:
        out += [(sr.site.file, f.code) for f in sr.remarks if f.priority == "P0"]
        out += [(sr.site.file, r.check.id) for r in sr.results if r.needs_change and (r.priority or r.check.priority) == "P0"]
    return out


def _project(tmp_path, gitmodules: str = GITMODULES):
    (tmp_path / ".gitmodules").write_text(gitmodules)
    (tmp_path / "vllm").mkdir()
    (tmp_path / "serve.sh").write_text(SH)
    (tmp_path / "run.py").write_text(PY)
    (tmp_path / "gemma.sh").write_text(GEMMA)


def test_fork_submodule_options_are_no_p0_but_a_real_failure_stays(tmp_path):
    _project(tmp_path)
    assert _p0(tmp_path) == [("gemma.sh", "L14")]


def test_without_the_fork_the_unknown_options_stay_p0(tmp_path):
    _project(tmp_path, gitmodules='[submodule "mase"]\n\tpath = mase\n\turl = https://github.com/DeepWok/mase.git\n')
    got = {f for f, _c in _p0(tmp_path)}
    assert {"serve.sh", "run.py", "gemma.sh"} <= got


def test_a_vendored_fork_tree_defines_its_options(tmp_path):
    # the fork's tree present in the project: its own argument definitions say the option exists
    (tmp_path / "vllm" / "vllm" / "engine").mkdir(parents=True)
    (tmp_path / "vllm" / "setup.py").write_text('from setuptools import setup\nsetup(name="vllm", version="0.6.4")\n')
    (tmp_path / "vllm" / "vllm" / "__init__.py").write_text("")
    (tmp_path / "vllm" / "vllm" / "engine" / "arg_utils.py").write_text(
        "class EngineArgs:\n    enable_dynamic_resharding: bool = False\n\n"
        "    def add_cli_args(parser):\n        parser.add_argument('--num-parallel-layers', type=int)\n")
    (tmp_path / "serve.sh").write_text(SH)
    (tmp_path / "run.py").write_text(PY)
    got = [(sr.site.file, f.code, f.priority) for sr in audit(tmp_path, gpu="H100-80GB").sites for f in sr.remarks
           if f.code in ("unknown-option", "plugin-option")]
    assert sorted(got) == [("run.py", "plugin-option", "P2"), ("serve.sh", "plugin-option", "P2")]


@pytest.mark.parametrize("path,script,installed", [
    ("vllm", "pip install vllm", False),             # PyPI's package, not the folder
    ("vllm", "pip install vllm[audio]", False),
    ("vllm", "pip install -e vllm", True),
    ("vllm", "pip install ./vllm", True),
    ("vllm", "cd vllm && pip install -e .", True),
    ("third_party/vllm", "pip install third_party/vllm", True),
])
def test_vllm_projects_own_submodule_is_a_build_only_where_a_script_installs_it(tmp_path, path, script, installed):
    # eval89 Hiroaki-Masuzawa/llm_vlm_memo keeps vllm-project/vllm as a submodule for its examples and
    # installs vLLM from PyPI / the image: its tokenizer_mode="slow" on 0.34.0 stays a P0
    from types import SimpleNamespace

    from vllm_kb.engine.scan import fork_source
    ctx = SimpleNamespace(root=tmp_path, read=lambda rel: script + "\n")
    assert fork_source._installed_from(ctx, ["install.sh"], path) is installed


def test_a_fork_submodule_is_no_pin_target(tmp_path):
    """Tencent-Hunyuan/Hunyuan-A13B (eval119): a parser importing vllm.entrypoints.openai.protocol beside the
    quinnrong94/vllm submodule; L139 stays a P1, but no change pins vLLM at .gitmodules."""
    (tmp_path / ".gitmodules").write_text('[submodule "inference/vllm"]\n\tpath = inference/vllm\n'
                                          "\turl = https://github.com/quinnrong94/vllm.git\n")
    (tmp_path / "inference" / "vllm").mkdir(parents=True)
    (tmp_path / "parser.py").write_text("from vllm.entrypoints.openai.protocol import ChatCompletionRequest\n")
    sites = audit(tmp_path, gpu="H100-80GB").sites
    assert [r.check.id for sr in sites for r in sr.results if r.needs_change] == ["L139"]
    assert not [c for sr in sites for c in sr.changes if c.op == "pin"]
