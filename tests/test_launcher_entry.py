"""Project scripts that start `vllm serve` in a subprocess and pass on the options their own parser
does not know (engine/scan/launcher_entry.py), and the argparse defaults of a
`parse_known_args()` namespace in the script's own argv.

The shape is uv-python/raycluster's start-cluster.py (https://github.com/uv-python/raycluster): its
Slurm job scripts run `srun start-cluster.py singularity vllm.sif --slurm --auto --model M …`, the
script keeps its own options and appends the rest to `singularity exec IMG vllm serve M`. The
blind evaluation found its job lines unseen, and two of them do not start: one misspells
`--max-model-len` as `--max-model-length`, one asks 200000 tokens of Qwen3-235B-A22B (40960)."""
from __future__ import annotations

import pytest

LAUNCHER = '''#!/usr/bin/env python3
import argparse
import subprocess as sp


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("runner")
    parser.add_argument("image")
    parser.add_argument("--model")
    parser.add_argument("--port", type=int, help="the cluster's own port")
    parser.add_argument("--serve-port", type=int)
    parser.add_argument("--auto", action="store_true")
    parser.add_argument("--bind")
    opts, passed = parser.parse_known_args()
    passed += ["--port", str(opts.serve_port or 8000)]
    passed += ["--distributed-executor-backend", "ray"]
    extra = []
    if opts.auto:
        extra = ["--tensor-parallel-size", str(gpus_per_node())]
    cmd = [opts.runner, "exec", "--nv", opts.image, "vllm", "serve", opts.model] + passed + extra
    sp.call(cmd)


if __name__ == "__main__":
    main()
'''

JOB = "#!/bin/bash\n#SBATCH --nodes=2\nsrun -u {prog} singularity ./vllm.sif --auto --model {model} {rest}\n"


def values(s):
    return {k: v.value for k, v in s.settings.items()}


def test_the_job_line_is_a_site_with_the_words_passed_on(scanned):
    (s,) = scanned({"tools/start.py": LAUNCHER,
                    "jobs/run.sh": JOB.format(prog="~/src/tools/start.py", model="Qwen/Qwen3-8B",
                                              rest="--serve-port 9000 --max-model-len 16384 --enforce-eager")})
    assert s.file == "jobs/run.sh" and s.launch["entry_point"] == "tools/start.py"
    assert s.model.value == "Qwen/Qwen3-8B"
    got = values(s)
    # passed on as written; --serve-port is handed to vLLM's --port; what the script adds itself is read
    # where it is a constant on a path that always runs, unknown where it is computed under a condition
    assert got["max_model_len"] == 16384 and got["enforce_eager"] is True and got["port"] == 9000
    assert got["distributed_executor_backend"] == "ray" and got["tensor_parallel_size"] is None
    assert not s.settings["tensor_parallel_size"].resolved
    # the script's own options and positionals are its business
    assert "--auto" in s.launch["script_args"] and not s.remarks
    assert {o["what"] for o in s.opaque} >= {"singularity", "./vllm.sif"}


@pytest.mark.parametrize("prog", ["python tools/start.py", "./tools/start.py"])
def test_a_word_no_parser_knows_reaches_vllm_and_is_judged(scanned, prog):
    (s,) = scanned({"tools/start.py": LAUNCHER,
                    "run.sh": JOB.format(prog=prog, model="Qwen/Qwen3-8B", rest="--max-model-length 20000")})
    assert list(s.unknown) == ["max_model_length"]


def test_the_misspelt_option_is_a_p0(write_project, json_site, p0s):
    root = write_project({"tools/start.py": LAUNCHER, "requirements.txt": "vllm==0.10.1\n",
                          "run.sh": JOB.format(prog="./tools/start.py", model="Qwen/Qwen3-8B", rest="--max-model-length 20000")})
    assert p0s(json_site(root)) == ["unknown-option:max_model_length"]


def test_an_abbreviation_of_the_scripts_own_option_stays_with_it(scanned):
    """argparse takes `--serve-p` for the script's `--serve-port` (allow_abbrev): it never reaches vLLM."""
    (s,) = scanned({"tools/start.py": LAUNCHER,
                    "run.sh": JOB.format(prog="./tools/start.py", model="Qwen/Qwen3-8B", rest="--serve-p 9000")})
    assert not s.unknown and values(s)["port"] == 9000


PARSE_ARGS = LAUNCHER.replace("opts, passed = parser.parse_known_args()", "opts = parser.parse_args()\n    passed = []")
OTHER_USE = LAUNCHER.replace('"vllm", "serve", opts.model] + passed + extra', '"vllm", "serve", opts.model] + extra')


@pytest.mark.parametrize("script", [PARSE_ARGS, OTHER_USE], ids=["parse_args", "rest-not-passed"])
def test_a_script_that_passes_nothing_on_is_no_launcher(scanned, script):
    """Its command line is its own parser's (a word it does not know stops the script, not vLLM): the job
    line is no site; the script's own `[runner, "exec", …, image, "vllm", "serve", …]` is one, with the
    words the code writes (engine/scan/shell_wrap.py unknown_runner_serve)."""
    got = scanned({"tools/start.py": script,
                   "run.sh": JOB.format(prog="./tools/start.py", model="Qwen/Qwen3-8B", rest="--max-model-length 20000")})
    assert [s.file for s in got] == ["tools/start.py"] and "max_model_length" not in got[0].unknown


def test_a_launcher_that_never_serves_vllm_is_no_site(scanned):
    other = LAUNCHER.replace('"vllm", "serve", opts.model]', '"python", "app.py", opts.model]')
    assert scanned({"tools/start.py": other, "run.sh": JOB.format(prog="./tools/start.py", model="m", rest="--x 1")}) == []


OWN_ARGV = '''import argparse
import subprocess
import sys

MODEL = "Qwen/Qwen2.5-7B-Instruct"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp", type=int, default=4)
    parser.add_argument("--max-len", default="8192", type=int)
    {parse}
    cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", MODEL]
    cmd += ["--tensor-parallel-size", str(args.tp)]
    cmd.extend(["--max-model-len", f"{{args.max_len}}"])
    cmd += rest
    subprocess.run(cmd, check=True)


if __name__ == "__main__":
    main()
'''


@pytest.mark.parametrize("parse", ["args, rest = parser.parse_known_args()",
                                   "args = parser.parse_known_args()[0]\n    rest = []"])
def test_the_scripts_own_argv_reads_its_options_defaults(scanned, parse):
    sites = [s for s in scanned({"serve.py": OWN_ARGV.format(parse=parse)}) if s.file == "serve.py"]
    (s,) = sites
    assert s.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert {k: v.value for k, v in s.settings.items()} == {"tensor_parallel_size": 4, "max_model_len": 8192}
    assert not s.unknown and not s.remarks


def test_a_length_over_the_models_context_is_a_p0(write_project, json_site, p0s):
    root = write_project({"tools/start.py": LAUNCHER, "requirements.txt": "vllm==0.10.1\n",
                          "run.sh": JOB.format(prog="./tools/start.py", model="Qwen/Qwen3-235B-A22B",
                                               rest="--max-model-len 200000 --enable-expert-parallel")})
    assert p0s(json_site(root, "H100-80GB x8")) == ["L14"]


def test_a_job_that_names_neither_vllm_nor_python_is_read(scanned):
    """The script is found by name: the job line need not name vLLM (engine/scan/words.py)."""
    (s,) = scanned({"start.py": LAUNCHER, "job.sh": "#!/bin/bash\nsrun ./start.py apptainer img.sif --model org/m --max-model-len 4096\n"})
    assert s.file == "job.sh" and values(s)["max_model_len"] == 4096


DOCKER = '''import argparse
import os

ap = argparse.ArgumentParser()
ap.add_argument("--image", default="vllm/vllm-openai:v0.10.1")
ap.add_argument("--model", default="Qwen/Qwen3-8B")
known, unknown = ap.parse_known_args()
runner = ["docker", "run", "--rm", "--gpus", "all", "--device", "/dev/infiniband", "--ipc=host"]
argv = runner + [known.image, "vllm", "serve", known.model] + unknown
argv.append("--enable-prefix-caching")
os.execvp("docker", argv)
'''


def test_the_runners_own_options_before_the_server_are_not_vllms(scanned):
    (s,) = [s for s in scanned({"serve.py": DOCKER, "run.sh": "python serve.py --max-model-len 4096\n"}) if s.file == "run.sh"]
    assert s.model.value == "Qwen/Qwen3-8B"
    assert values(s) == {"max_model_len": 4096, "enable_prefix_caching": True}


ARGV = '''import subprocess
import sys

if __name__ == "__main__":
    cmd = ["vllm", "serve"] + sys.argv[1:]
    cmd += ["--max-num-seqs", "64"]
    sys.exit(subprocess.call(cmd))
'''


def test_a_wrapper_passing_all_its_words_after_serve_takes_the_model_first(scanned):
    (s,) = scanned({"serve.py": ARGV, "run.sh": "python serve.py Qwen/Qwen3-8B --max-model-len 8192\n"})
    assert s.model.value == "Qwen/Qwen3-8B" and values(s) == {"max_model_len": 8192, "max_num_seqs": 64}
    assert s.settings["max_num_seqs"].file == "serve.py" and not s.remarks


def test_argv_words_after_a_fixed_model_are_stray_for_vllm(scanned):
    """`["vllm", "serve", MODEL] + sys.argv[1:]`: a plain word the command adds is one positional too many."""
    text = ARGV.replace('["vllm", "serve"]', '["vllm", "serve", "Qwen/Qwen3-8B"]')
    (s,) = [s for s in scanned({"serve.py": text, "run.sh": "python serve.py --max-model-len 8192\n"}) if s.file == "run.sh"]
    assert s.model.value == "Qwen/Qwen3-8B"
    assert values(s)["max_model_len"] == 8192


def test_the_launchers_own_argv_takes_what_its_command_gives(scanned):
    """engine/scan/entry_flags.py: `str(args.tp)` in the argv takes the `--tp` the shell line gives."""
    text = OWN_ARGV.format(parse="args, rest = parser.parse_known_args()").replace("default=4)", "default=4, type=str)")
    got = {s.file: s for s in scanned({"serve.py": text, "run.sh": "python serve.py --tp 2 --max-model-len 4096\n"})}
    assert got["serve.py"].settings["tensor_parallel_size"].value == 2
    assert values(got["run.sh"])["max_model_len"] == 4096


@pytest.mark.parametrize("change", [
    ("    parser.add_argument(\"--bind\")\n", "    parser.add_argument(\"--bind\")\n    add_cluster_options(parser)\n"),
    ("parser = argparse.ArgumentParser()", "parser = make_parser()"),
    ("parser = argparse.ArgumentParser()", "parser = argparse.ArgumentParser(parents=[base])"),
    ("    parser.add_argument(\"--bind\")\n", "    for name in OWN:\n        parser.add_argument(f\"--{name}\")\n"),
], ids=["handed-to-a-function", "built-elsewhere", "parents", "computed-name"])
def test_a_parser_whose_options_are_not_all_read_is_no_launcher(scanned, change):
    """Options the file does not declare may be the script's: a word would be judged as vLLM's wrongly."""
    script = LAUNCHER.replace(*change)
    assert scanned({"tools/start.py": script, "run.sh": JOB.format(prog="./tools/start.py", model="m", rest="--x 1")}) == []


def test_a_command_line_joined_for_the_shell(scanned):
    """`os.system(f"vllm serve {opts.model} " + " ".join(rest))`: the passed-on words are vLLM's too."""
    text = '''import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="Qwen/Qwen3-8B")
opts, rest = parser.parse_known_args()
os.system(f"vllm serve {opts.model} " + " ".join(rest))
'''
    (s,) = [s for s in scanned({"go.py": text, "run.sh": "python go.py --max-model-length 4096\n"}) if s.file == "run.sh"]
    assert list(s.unknown) == ["max_model_length"] and not s.remarks
