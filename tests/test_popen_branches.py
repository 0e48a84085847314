"""`if …: cmd = [argv A] else: cmd = [argv B]` and then `subprocess.Popen(cmd)`: each branch's argv
is a command the program may run, so each is a site at its own line (engine/scan/python_branches.py;
laureano-arcanio/balanced-vllm-docker's scripts/vllm_launcher.py, eval77: neither branch was found)."""
from __future__ import annotations

LAUNCHER = '''\
import os
import subprocess


class Launcher:
    def __init__(self):
        self.model = os.getenv("MODEL", "Qwen/Qwen2.5-1.5B-Instruct")
        self.kind = os.getenv("KIND", "standard").lower()

    def start(self, gpus):
        for i, gpu in enumerate(gpus):
            if self.kind == "gptoss":
                cmd = ["/opt/venv/bin/vllm", "serve", self.model, "--max-model-len", "2048"]
            elif self.kind == "eager":
                cmd = ["vllm", "serve", self.model, "--enforce-eager"]
            else:
                cmd = ["/opt/venv/bin/python", "-m", "vllm.entrypoints.openai.api_server", "--model", self.model,
                       "--gpu-memory-utilization", "0.8"]
            env = os.environ.copy()
            env["CUDA_VISIBLE_DEVICES"] = str(gpu)
            print(" ".join(cmd))
            subprocess.Popen(cmd, env=env)
'''


def test_each_branchs_argv_is_a_site(scanned):
    sites = scanned({"launcher.py": LAUNCHER})
    assert [(s.line, s.kind) for s in sites] == [(13, "vllm serve"), (15, "vllm serve"), (17, "api_server")]
    assert {s.model.value for s in sites} == {"Qwen/Qwen2.5-1.5B-Instruct"}
    assert sites[0].settings["max_model_len"].value == 2048 and "max_model_len" not in sites[2].settings
    assert sites[1].settings["enforce_eager"].value is True
    assert sites[2].settings["gpu_memory_utilization"].value == 0.8


def test_an_argv_changed_after_the_branches_is_not_read_as_either(scanned):
    # what `cmd += …` adds is not in the branches' lists: neither list alone is what runs
    grown = LAUNCHER.replace('            env = os.environ.copy()\n', '            cmd += ["--port", str(8000 + i)]\n            env = os.environ.copy()\n')
    assert scanned({"launcher.py": grown}) == []


def test_a_branch_without_else_leaves_the_command_unknown(scanned):
    text = '''import subprocess

cmd = ["vllm", "serve", "m1"]
if FAST:
    cmd = ["vllm", "serve", "m2", "--enforce-eager"]
subprocess.run(cmd)
'''
    # the if may leave the first list in place: no site per branch, the call's one site as before
    assert [s.line for s in scanned({"run.py": text})] == [6]
