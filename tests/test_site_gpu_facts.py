"""Where a site's GPU facts come from (engine/report/site_hardware.py): --gpu, the deployment (file:line) or
none and why, told in the site's hardware line (Markdown, text, en and zh) and the JSON `gpu_facts`; the
"run the audit with --gpu" advice only where no GPU was given. eval113: kaito's placeholder machine types
and MIG slices, and MinerU's compose service, whose `mineru:latest` the project's docs build from its CUDA
Dockerfile although the project also holds an Ascend NPU one (engine/scan/image_platform.py)."""
from __future__ import annotations

import json

WS = """\
apiVersion: kaito.sh/v1beta1
kind: Workspace
metadata: {name: ws}
resource:
  instanceType: %s
inference:
  preset: {name: "phi-4-mini-instruct"}
"""


def _audit(cli, root, *extra, fmt="json", lang="en"):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", fmt, "--lang", lang, *extra)
    assert code in (0, 1), err
    return json.loads(out) if fmt == "json" else out


def _line(md: str, site: int, label: str) -> str:
    part = md.split("## ")[site + 1] if "## " in md else md
    return next(ln for ln in part.splitlines() if ln.startswith(f"- **{label}"))


def test_a_placeholder_sku_says_none_and_why_not_the_gpu_given(cli, write_project, tmp_path):
    root = write_project({"ws.yaml": WS % '"<your-vm-sku>"', "requirements.txt": "vllm==0.26.0\n"}, tmp_path)
    (site,) = _audit(cli, root, "--gpu", "H100-80GB x8")["sites"]
    gf = site["gpu_facts"]
    assert (gf["from"], gf["why"], gf["at"], gf["arch"]) == ("none", "deployment", "ws.yaml:5", None)
    assert all("run the audit with --gpu" not in c["reason"] for c in site["checks"])  # it was given
    assert any("this site's GPU is not known" in c["reason"] for c in site["checks"])
    md = _audit(cli, root, "--gpu", "H100-80GB x8", fmt="markdown")
    hw = [ln for ln in md.splitlines() if ln.startswith("- **Hardware:**")][1]  # the site's, after the project's
    assert "no GPU facts" in hw and "ws.yaml:5" in hw and not hw.startswith("- **Hardware:** NVIDIA")
    assert "- **GPU architecture:** unknown" in md
    zh = _audit(cli, root, "--gpu", "H100-80GB x8", fmt="markdown", lang="zh")
    assert "没有 GPU 信息" in zh and "ws.yaml:5" in zh
    text = _audit(cli, root, "--gpu", "H100-80GB x8", fmt="text")
    assert "no GPU facts" in text


def test_a_sku_the_catalog_does_not_list_keeps_the_gpu_given_and_says_so(cli, write_project, tmp_path):
    # a real Azure size (a third of an A10, kaito's e2e fallback) that knowledge/deploy/cloud_instances.yaml lacks
    root = write_project({"ws.yaml": WS % "Standard_NV12ads_A10_v5", "requirements.txt": "vllm==0.26.0\n"}, tmp_path)
    (site,) = _audit(cli, root, "--gpu", "H100-80GB x8")["sites"]
    gf = site["gpu_facts"]
    assert (gf["from"], gf["why"], gf["at"]) == ("run", "unlisted", "ws.yaml:5")
    assert "Standard_NV12ads_A10_v5" in gf["text"] and "H100-80GB x8" in gf["text"]
    zh = _audit(cli, root, "--gpu", "H100-80GB x8", lang="zh")["sites"][0]["gpu_facts"]["text"]
    assert "Standard_NV12ads_A10_v5" in zh and "云机型目录" in zh


def test_a_named_machine_is_told_as_the_deployments(cli, write_project, tmp_path):
    root = write_project({"ws.yaml": WS % "Standard_NC24ads_A100_v4", "requirements.txt": "vllm==0.26.0\n"}, tmp_path)
    (site,) = _audit(cli, root, "--gpu", "H100-80GB x8")["sites"]
    gf = site["gpu_facts"]
    assert (gf["from"], gf["at"], gf["arch"]) == ("deployment", "ws.yaml:5", "ampere") and "A100" in gf["description"]
    md = _audit(cli, root, "--gpu", "H100-80GB x8", fmt="markdown")
    assert "- **GPU architecture:** Ampere" in md


def test_gpu_none_gives_no_advice_to_pass_gpu(cli, write_project, tmp_path):
    root = write_project({"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n", "requirements.txt": "vllm==0.26.0\n"}, tmp_path)
    (site,) = _audit(cli, root, "--gpu", "none")["sites"]
    assert (site["gpu_facts"]["from"], site["gpu_facts"]["why"]) == ("none", "spec_none")
    assert all("run the audit with --gpu" not in c["reason"] for c in site["checks"])
    assert "run it with --gpu" not in site["gpu_facts"]["text"]


COMPOSE = """\
services:
  server:
    image: mineru:latest
    entrypoint: vllm
    command: serve Qwen/Qwen2.5-VL-7B-Instruct
    deploy:
      resources:
        reservations:
          devices:
            - {driver: nvidia, count: 1, capabilities: [gpu]}
"""
DOC = """\
```bash
wget https://example.invalid/gh/org/proj@master/docker/%s/Dockerfile
docker build -t mineru:latest -f Dockerfile .
```
"""
CUDA = "FROM vllm/vllm-openai:v0.21.0\nRUN pip install -U 'mineru[core]>=3.4.0'\n"
NPU = "FROM quay.io/ascend/vllm-ascend:v0.11.0\nRUN pip install -U 'mineru[core]>=3.4.0'\n"
PY = "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-VL-7B-Instruct')\n"


def _mineru(write_project, tmp_path, docs: dict[str, str]):
    files = {"docker/compose.yaml": COMPOSE, "docker/global/Dockerfile": CUDA, "docker/china/Dockerfile": CUDA,
             "docker/npu/Dockerfile": NPU, "run.py": PY, "requirements.txt": "vllm==0.21.0\n", **docs}
    return write_project(files, tmp_path)


def _by_file(report) -> dict:
    return {s["file"]: s for s in report["sites"]}


def test_an_image_the_docs_build_from_the_cuda_dockerfile_runs_on_the_gpu_given(cli, write_project, tmp_path):
    root = _mineru(write_project, tmp_path, {"docs/en/docker.md": DOC % "global", "docs/zh/docker.md": DOC % "china"})
    sites = _by_file(_audit(cli, root, "--gpu", "H100-80GB x8"))
    assert sites["docker/compose.yaml"]["gpu_facts"]["from"] == "run" and sites["docker/compose.yaml"]["gpu_count"] == 1
    # the project's own code may run under either image: the Ascend one's plugin still counts there
    gf = sites["run.py"]["gpu_facts"]
    assert (gf["from"], gf["why"], gf["platform"]) == ("none", "platform", "npu") and "vllm-ascend" in gf["text"]


def test_an_image_built_from_the_npu_dockerfile_or_from_both_has_no_gpu_facts(cli, write_project, tmp_path):
    root = _mineru(write_project, tmp_path / "npu", {"docs/npu.md": DOC % "npu"})
    gf = _by_file(_audit(cli, root, "--gpu", "H100-80GB x8"))["docker/compose.yaml"]["gpu_facts"]
    assert (gf["from"], gf["platform"]) == ("none", "npu") and "docker/npu/Dockerfile" in gf["text"]
    root = _mineru(write_project, tmp_path / "both", {"docs/a.md": DOC % "global", "docs/b.md": DOC % "npu"})
    gf = _by_file(_audit(cli, root, "--gpu", "H100-80GB x8"))["docker/compose.yaml"]["gpu_facts"]
    assert (gf["from"], gf["platform"]) == ("none", "npu")  # which one was built cannot be told: the project's plugin holds
