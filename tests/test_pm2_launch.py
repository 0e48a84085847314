"""`pm2 start PROGRAM [pm2 options] -- ARGS…` runs PROGRAM with ARGS; `pm2 start "vllm serve …"` runs the line
(engine/scan/shell_wrap.py pm2_started). eval93 BjornWest/instance_scripts (https://github.com/BjornWest/instance_scripts,
nginx/multi_instance.py:76-87): the command is an f-string bound to `cmd` and run by the file's own
`run_command(cmd, shell=True)`, whose `subprocess.check_call(cmd, shell=shell)` takes `shell` from its caller."""
from __future__ import annotations

import json

SCRIPT = """\
pm2 start python --name w0 -- -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B --port 8001
pm2 start "vllm serve Qwen/Qwen3-8B --port 8002 --max-num-seqs 64" --name w1
pm2 start vllm --name w2 -- serve Qwen/Qwen3-8B --port 8003 --disable-log-requests
pm2 start ecosystem.config.js
"""
MULTI = """\
import subprocess
import sys


def run_command(cmd, shell=False):
    subprocess.check_call(cmd, shell=shell)


def main(model, replicas, mem):
    for i in range(replicas):
        cmd = (
            f"pm2 start {sys.executable} --name vllm-{i} -- "
            f"-m vllm.entrypoints.openai.api_server "
            f"--model {model} --port {8000 + i} "
            f"--gpu-memory-utilization {mem} --max-num-seqs 128"
        )
        run_command(cmd, shell=True)
"""


def test_pm2_starts_the_program_after_its_double_dash_or_the_line_it_is_given(cli, write_project):
    root = write_project({"requirements.txt": "vllm==0.34.0\n", "run.sh": SCRIPT, "multi.py": MULTI})
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB", "--isolated", "-q", "--format", "json")
    sites = {s["id"]: s for s in json.loads(out)["sites"]}
    assert sorted(sites) == ["multi.py:17", "run.sh:1", "run.sh:2", "run.sh:3"], sorted(sites)
    got = {k: {x["name"]: x["value"] for x in s["settings"]} for k, s in sites.items()}
    assert got["run.sh:1"]["port"] == 8001 and got["run.sh:2"]["max_num_seqs"] == 64 and got["multi.py:17"]["max_num_seqs"] == 128
    assert sites["run.sh:1"]["kind"] == sites["multi.py:17"]["kind"] == "api_server"
    p0 = {r["check"] for r in sites["run.sh:3"]["recommendations"] if r["priority"] == "P0"}
    assert p0 == {"not-in-version:disable_log_requests"}  # 0.17.0 on has only --enable-log-requests
