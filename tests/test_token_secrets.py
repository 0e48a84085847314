"""A token a Kubernetes Secret gives the process counts for L51 (gated-model-token): a container's `envFrom`
Secret that the project holds with a token key, and KAITO's `presetOptions.modelAccessSecret`, from whose
HF_TOKEN key the operator sets HF_TOKEN (kaito pkg/workspace/inference/preset_inferences.go SetHFToken at
056b8280b). eval113 kaito: six Workspaces with `modelAccessSecret: hf-token` were told nothing gives a token."""
from __future__ import annotations

import json

WORKSPACE = """\
apiVersion: kaito.sh/v1beta1
kind: Workspace
metadata: {name: ws}
resource: {instanceType: "Standard_NC24ads_A100_v4"}
inference:
  preset:
    name: "gemma-3-4b-instruct"
"""
SECRET = "apiVersion: v1\nkind: Secret\nmetadata: {name: hf-token}\ntype: Opaque\nstringData: {%s: x}\n---\n"
DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.10.1
          args: [--model, meta-llama/Llama-3.1-8B-Instruct]
          envFrom:
            - secretRef: {name: hf-token}
          resources: {limits: {nvidia.com/gpu: 1}}
"""


def _l51(cli, root) -> tuple[str, str | None]:
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", "--gpu", "H100-80GB")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    c = next(c for c in site["checks"] if c["id"] == "L51")
    return c["status"], c["priority"]


def test_kaito_model_access_secret_is_the_token(cli, write_project):
    with_secret = WORKSPACE + "    presetOptions:\n      modelAccessSecret: hf-token\n"
    assert _l51(cli, write_project({"a/ws.yaml": with_secret, "a/requirements.txt": "vllm==0.26.0\n"})) == ("enabled", None)


def test_kaito_without_the_secret_or_with_a_secret_lacking_hf_token_still_asks(cli, write_project, tmp_path):
    assert _l51(cli, write_project({"ws.yaml": WORKSPACE, "requirements.txt": "vllm==0.26.0\n"}, tmp_path / "a"))[0] == "recommended"
    other = SECRET % "OTHER_KEY" + WORKSPACE + "    presetOptions:\n      modelAccessSecret: hf-token\n"
    assert _l51(cli, write_project({"ws.yaml": other, "requirements.txt": "vllm==0.26.0\n"}, tmp_path / "b"))[0] == "recommended"


def test_env_from_a_project_secret_with_a_token_key(cli, write_project, tmp_path):
    assert _l51(cli, write_project({"d.yaml": SECRET % "HF_TOKEN" + DEPLOYMENT}, tmp_path / "a")) == ("enabled", None)
    assert _l51(cli, write_project({"d.yaml": SECRET % "HF_TOKEN", "e.yaml": DEPLOYMENT},
                                   tmp_path / "b")) == ("enabled", None)
    status, priority = _l51(cli, write_project({"d.yaml": SECRET % "OTHER" + DEPLOYMENT}, tmp_path / "c"))
    assert (status, priority) == ("recommended", "P1")  # envFrom read but no token in it: not known in full
    status, priority = _l51(cli, write_project({"d.yaml": DEPLOYMENT}, tmp_path / "d"))
    assert (status, priority) == ("recommended", "P1")  # a Secret made outside the project: unknown, never a P0
