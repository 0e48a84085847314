"""A KAITO Workspace's options live in its ConfigMap's `inference_config.yaml` as `vllm:` keys, which the
operator appends as `--key value` (kaito presets/workspace/inference/vllm/inference_api.py:143-152 at
056b8280b). eval113: a change was told as `--swap-space 4` where the file says `swap-space: 4`, and the
compact report named the Workspace's line instead of the key's. Also: a server run in-process
(`api_server.run_server(args)`) got an engine keyword inserted into that call, which goes to uvicorn
(`run_server(args, **uvicorn_kwargs)`), is never read back, and made --fix loop until the file was frozen."""
from __future__ import annotations

import json

from vllm_kb.engine.report.compact import compact

CONFIG = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: params
data:
  inference_config.yaml: |
    vllm:
      gpu-memory-utilization: 0.95
      swap-space: 4
      enable-chunked-prefill: true
"""
WORKSPACE = """\
apiVersion: kaito.sh/v1beta1
kind: Workspace
metadata:
  name: ws
resource:
  instanceType: "Standard_NC24ads_A100_v4"
inference:
  preset:
    name: "deepseek-r1-distill-qwen-14b"
  config: "params"
"""
SERVER = """\
import uvloop
import vllm.entrypoints.openai.api_server as api_server
from vllm.entrypoints.openai.cli_args import make_arg_parser
from vllm.utils import FlexibleArgumentParser

if __name__ == "__main__":
    args = make_arg_parser(FlexibleArgumentParser()).parse_args([])
    args.model = "Qwen/Qwen2.5-7B-Instruct"
    args.gpu_memory_utilization = 0.5
    uvloop.run(api_server.run_server(args))
"""


def _audit(cli, root, *extra):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", "--gpu", "H100-80GB x8", *extra)
    assert code in (0, 1), err
    return json.loads(out)


def test_kaito_configmap_options_are_told_as_the_keys_the_file_writes(cli, write_project):
    root = write_project({"cm.yaml": CONFIG, "ws.yaml": WORKSPACE, "requirements.txt": "vllm==0.25.1\n"})
    (site,) = _audit(cli, root)["sites"]
    swap = next(s for s in site["settings"] if s["name"] == "swap_space")
    assert (swap["file"], swap["line"], swap["key"], swap["raw"]) == ("cm.yaml", 9, "swap-space", "4")
    b4 = next(r for r in site["recommendations"] if r["check"] == "B4")
    assert b4["priority"] == "P0" and b4["location"] == {"file": "cm.yaml", "line": 9}
    (change,) = b4["changes"]
    assert (change["file"], change["line"], change["before"], change["after"]) == ("cm.yaml", 9, "swap-space: 4", None)
    kv = next(c for r in site["recommendations"] for c in r["changes"] if c["target"] == "kv_cache_dtype")
    assert kv["after"] == "kv-cache-dtype: fp8"


def test_the_compact_report_names_where_the_setting_is_written():
    rec = {"priority": "P0", "kind": "check", "check": "B4", "title": "t", "reason": "r", "file": "ws.yaml", "line": 33,
           "location": {"file": "cm.yaml", "line": 13}}
    sites = [{"file": "ws.yaml", "line": 33, "recommendations": [rec]}] + \
        [{"file": f"w{i}.yaml", "line": 3, "recommendations": [dict(rec, file=f"w{i}.yaml", line=3, location={"file": f"w{i}.yaml", "line": 9})]}
         for i in range(12)]
    (rep,) = compact({"sites": sites})["repeated"]
    assert rep["where"][0] == "cm.yaml:13" and "ws.yaml:33" not in rep["where"]


def test_an_in_process_server_gets_no_engine_keyword_in_run_server(cli, write_project):
    root = write_project({"server.py": SERVER, "requirements.txt": "vllm==0.10.1\n"})
    code, out, err = cli("audit", str(root), "--isolated", "--gpu", "H100-80GB x8", "--fix", "--unsafe-fixes")
    text = (root / "server.py").read_text()
    assert "did not settle" not in out + err and "run_server(args))" in text  # nothing added to the call
    assert "args.gpu_memory_utilization = 0.9" in text  # the namespace's own attribute is still edited in place
