"""A Python interpreter held in a variable the script sets in branches (`"${PYTHON_BIN}" -m
vllm.entrypoints.openai.api_server`, LiveMCP-GRPO's scripts/generate_data.sh,
https://github.com/liuzy1019/LiveMCP-GRPO) is known by the module it runs."""
from vllm_kb.engine.audit import audit

SCRIPT = """\
#!/bin/bash
if [ -z "${PYTHON_BIN:-}" ]; then
    if [ -n "${CONDA_PREFIX:-}" ]; then
        PYTHON_BIN="${CONDA_PREFIX}/bin/python"
    else
        PYTHON_BIN="python"
    fi
fi
"${PYTHON_BIN}" %s --model Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2 &
"""


def _sites(tmp_path, run: str):
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "requirements.txt").write_text("vllm==0.11.0\n")
    (tmp_path / "gen.sh").write_text(SCRIPT % run)
    return audit(tmp_path, gpu="A100-80GB x2").sites


def test_the_vllm_module_makes_the_variable_an_interpreter(tmp_path):
    (sr,) = _sites(tmp_path, "-m vllm.entrypoints.openai.api_server")
    assert sr.site.kind == "api_server" and sr.site.settings["tensor_parallel_size"].value == 2


def test_another_module_or_program_is_no_site(tmp_path):
    assert not _sites(tmp_path, "-m my_pkg.serve")
    assert not _sites(tmp_path / "b", "serve.py")


def test_a_branch_that_names_a_full_path_keeps_the_variable_an_interpreter(tmp_path):
    """`PYTHON_BIN="/opt/env/bin/python"` in one branch, "python" in the other: the merged value
    `one of /opt/env/bin/python | python` holds a `/` inside the unknown part, which is no folder of
    the program's (the eval66 repo's own shape; it stayed no site after the first mend)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "gen.sh").write_text(SCRIPT.replace('[ -n "${CONDA_PREFIX:-}" ]', '[ -x /opt/env/bin/python ]')
                                     .replace('"${CONDA_PREFIX}/bin/python"', '"/opt/env/bin/python"')
                                     % "-m vllm.entrypoints.openai.api_server")
    (sr,) = audit(tmp_path, gpu="A100-80GB x2").sites
    assert sr.site.kind == "api_server" and sr.site.settings["tensor_parallel_size"].value == 2
    (tmp_path / "gen.sh").write_text((tmp_path / "gen.sh").read_text().replace("-m vllm.entrypoints.openai.api_server", "serve.py"))
    assert not audit(tmp_path, gpu="A100-80GB x2").sites


VERL = """\
#!/bin/bash
source "$(dirname "$0")/common_env.sh"
%s
"""
_KEYS = "actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct actor_rollout_ref.rollout.name=vllm"


def _verl_sites(tmp_path, body: str):
    (tmp_path / "requirements.txt").write_text("verl==0.7.0\nvllm==0.11.0\n")
    (tmp_path / "run.sh").write_text(VERL % body)
    return audit(tmp_path, gpu="A100-80GB").sites


def test_interpreter_from_a_command_substitution_runs_a_framework_module(tmp_path):
    # GRPO_testbed (https://github.com/MalveauxLuke/GRPO_testbed) scripts/sol: `"$(sol_python)" -m verl.trainer.main_ppo`,
    # directly, through a variable, and through a `cmd=(…)` array
    for k, body in enumerate([
            f'"$(sol_python)" -m verl.trainer.main_ppo {_KEYS}',
            f'PYTHON_BIN="$(sol_python)"\n"$PYTHON_BIN" -m verl.trainer.main_ppo {_KEYS}',
            f'PYTHON_BIN="$(sol_python)"\ncmd=(\n  "${{PYTHON_BIN}}" -m verl.trainer.main_ppo\n  {_KEYS}\n)\n"${{cmd[@]}}" "$@"']):
        d = tmp_path / str(k)
        d.mkdir()
        (sr,) = _verl_sites(d, body)
        assert sr.site.framework == "verl" and sr.site.kind == "verl main_ppo"


def test_substituted_interpreter_with_another_module_is_no_site(tmp_path):
    assert not _verl_sites(tmp_path, f'"$(sol_python)" -m my_pkg.train {_KEYS}')
