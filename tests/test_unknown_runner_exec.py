"""`RUNNER exec|run [opts] IMAGE vllm serve …` whose runner is a value the audit cannot read (a script's
`$RUNNER`, a Python launcher's `[args.container_runner, "exec", args.image, "vllm", "serve", …]` as
uv-python/raycluster's start-cluster.py builds it, https://github.com/uv-python/raycluster): the command
the container runs is vLLM's, a site of its own; what the container gets stays unknown (no L278, no L40)."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.shell_wrap import unknown_runner_serve

PY = """import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("runner", help="apptainer or singularity")
parser.add_argument("image", help="the .sif image holding vLLM")
args = parser.parse_args()

cmd = [args.runner, "exec", "--nv", args.image, "vllm", "serve", "Qwen/Qwen3-8B", "--max-model-length", "8192"]
subprocess.call(cmd)
"""


def test_a_python_launcher_with_the_runner_from_its_arguments(write_project, json_site, p0s):
    root = write_project({"launch.py": PY})
    (sr,) = audit(root, gpu="H100-80GB").sites
    assert sr.site.line == 10 and sr.site.container is None
    # the option raycluster's slurm job wrote (`--max-model-length`): vLLM's parser refuses it, and only that
    assert p0s(json_site(root)) == ["unknown-option:max_model_length"]


@pytest.mark.parametrize("line", [
    '"$RUNNER" exec --nv "$IMAGE" vllm serve Qwen/Qwen3-8B --max-model-length 8192',
    '$1 run $2 python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B --max-model-length 8192',
])
def test_a_script_with_an_unknown_runner(write_project, json_site, p0s, line):
    assert p0s(json_site(write_project({"run.sh": "#!/bin/bash\n" + line + "\n"}))) == ["unknown-option:max_model_length"]


@pytest.mark.parametrize("vals, at", [
    ([None, "exec", "--nv", "--bind", "/data:/data", None, "vllm", "serve", "m"], 6),
    ([None, "run", "img.sif", "python3", "-m", "vllm.entrypoints.openai.api_server"], 3),
    ([None, "exec", "vllm", "serve", "m"], None),  # no image between the verb and the command
    ([None, "logs", "box", "vllm", "serve"], None),  # not a run
    ([None, "exec", "box", "echo", "vllm", "serve"], None),  # echo runs in the container, not vLLM
])
def test_the_runner_shape(vals, at):
    assert unknown_runner_serve(vals, 0) == at
