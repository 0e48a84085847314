"""Several instances of one server sharing a GPU by design get no "a fifth of the GPU is left unused" (B1):
local `vllm serve` scripts behind the project's nginx upstream (engine/check/balanced.py), Ray Serve replicas
given a fraction of a GPU each (engine/scan/python_facts.py), a server put in the background once per item
of a `for` on GPUs no item changes. eval93 BjornWest/instance_scripts
(https://github.com/BjornWest/instance_scripts): vllm_scripts/20b2.sh … 20b4.sh at 0.2 on ports 8001-8003,
nginx/nginx_vllm.conf `least_conn` over 8000-8003, and run_with_ray.py's five replicas at `num_gpus` 0.19."""
from __future__ import annotations

import json

SERVE = "vllm serve Qwen/Qwen3-8B --gpu-memory-utilization {util} --port {port}\n"
NGINX = """\
upstream vllm_backend {
    least_conn;
    server 127.0.0.1:8001 max_conns=200;
    server 127.0.0.1:8002 max_conns=200;
    # server 127.0.0.1:9000;
}
server { listen 80; location / { proxy_pass http://vllm_backend; } }
"""
RAY = """\
from ray import serve
from vllm import AsyncEngineArgs, AsyncLLMEngine

num_replicas = 5
share = 0.95 / num_replicas


@serve.deployment(num_replicas=num_replicas, ray_actor_options={"num_gpus": share})
class Deployment:
    def __init__(self):
        args = AsyncEngineArgs(model="Qwen/Qwen3-8B", gpu_memory_utilization=share)
        self.engine = AsyncLLMEngine.from_engine_args(args)
"""


def test_replicas_behind_nginx_or_ray_fractions_share_the_gpu_by_design(cli, write_project):
    root = write_project({"requirements.txt": "vllm==0.34.0\n", "a.sh": SERVE.format(util=0.2, port=8001),
                          "b.sh": SERVE.format(util=0.2, port=8002), "c.sh": SERVE.format(util=0.5, port=9000),
                          "nginx/vllm.conf": NGINX, "ray_app.py": RAY,
                          "loop.sh": "for p in 7001 7002; do\n  " + SERVE.format(util=0.3, port="$p").strip() + " &\ndone\nwait\n",
                          "per_gpu.sh": "for i in 0 1; do\n  CUDA_VISIBLE_DEVICES=$i " + SERVE.format(util=0.3, port="700$i").strip()
                          + " &\ndone\nwait\n"})
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB", "--isolated", "-q", "--format", "json")
    b1 = {s["file"] for s in json.loads(out)["sites"] for r in s["recommendations"] if r["check"] == "B1"}
    # alone on its port, or one server per GPU (the loop's variable picks it): a low share is still advice
    assert b1 == {"c.sh", "per_gpu.sh"}, b1
