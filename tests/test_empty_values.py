"""An option whose value is a shell expansion that gives nothing where the command runs: the word
vanishes and argparse stops ("expected one argument"), a P0 named option-without-value; a value
the environment may supply stays unknown, and SkyPilot's `setup:` lacks what it sets for `run:`."""
from vllm_kb.engine.audit import audit


def _codes(tmp_path, files: dict[str, str], gpu="L4 x1") -> list[tuple[str, str | None]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu=gpu)
    return [(f.code, f.priority) for sr in rep.sites for f in sr.remarks]


def test_an_empty_variable_before_another_option_or_at_the_end(tmp_path):
    for tail in ("$TP --port 8000", "$TP 2>&1 | tee log", "${TP}"):
        got = _codes(tmp_path, {"serve.sh": f'TP=""\nvllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size {tail}\n'})
        assert ("option-without-value", "P0") in got, tail


def test_a_variable_from_the_environment_or_quoted_is_not_this_finding(tmp_path):
    for script in ('vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size $TP\n',
                   'TP=2\nvllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size $TP\n',
                   'TP=""\nvllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size "$TP"\n'):
        assert "option-without-value" not in {c for c, _ in _codes(tmp_path, {"serve.sh": script})}, script


SKY = """envs:
  MODEL_NAME: Qwen/Qwen2.5-7B-Instruct
resources:
  accelerators: L4:1
setup: |
  pip install vllm==0.10.1
  {setup}
run: |
  {run}
"""
SERVE = "vllm serve $MODEL_NAME --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE --port 8081"


def test_skypilot_setup_has_no_run_variables(tmp_path):
    got = _codes(tmp_path, {"task.yaml": SKY.format(setup=SERVE, run="echo ready")})
    assert ("option-without-value", "P0") in got
    got = _codes(tmp_path, {"task.yaml": SKY.format(setup="TP=1\n  vllm serve $MODEL_NAME --tensor-parallel-size $TP",
                                                   run="export TP=1\n  echo $TP")})
    assert ("option-without-value", "P0") not in got  # setup assigns it itself


def test_skypilot_a_variable_only_run_assigns_is_empty_in_setup(tmp_path):
    got = _codes(tmp_path, {"task.yaml": SKY.format(setup="vllm serve $MODEL_NAME --tensor-parallel-size $NGPU",
                                                   run="export NGPU=1\n  echo $NGPU")})
    assert ("option-without-value", "P0") in got


def test_skypilot_run_has_the_gpu_count(tmp_path):
    got = _codes(tmp_path, {"task.yaml": SKY.format(setup="echo setup", run=SERVE)})
    assert "option-without-value" not in {c for c, _ in got}
