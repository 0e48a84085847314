"""C3's idle GPUs: where the GPU count is only the machine of --gpu (an eval script that serves one
replica on a shared 8-GPU box), the replicas are a P2 suggestion; where the project itself says which
GPUs the server sees (CUDA_VISIBLE_DEVICES=0,1), a P1 (eval101: OpenTutorGym's tutor server on two
visible GPUs, against Smurfs and password_locking judged on a guessed 8-GPU machine)."""
from __future__ import annotations

import json

SERVE = "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n"


def _c3(cli, root):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", "--gpu", "H100-80GB x8")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return [r["priority"] for r in site["recommendations"] if r["check"] == "C3"]


def test_the_given_machine_alone_is_a_p2(cli, write_project):
    assert _c3(cli, write_project({"requirements.txt": "vllm==0.30.0\n", "serve.sh": SERVE})) == ["P2"]


def test_visible_devices_said_by_the_project_is_a_p1(cli, write_project):
    root = write_project({"requirements.txt": "vllm==0.30.0\n", "serve.sh": "CUDA_VISIBLE_DEVICES=0,1 " + SERVE})
    assert _c3(cli, root) == ["P1"]
