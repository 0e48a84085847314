"""llm-d's operator resource (`apiVersion: llm-d.ai/v1alpha1`, `kind: ModelService`, llm-d/llm-d-model-service
api/v1alpha1/modelservice_types.go) holds the modelservice chart's layout under `spec:`. A container with
`modelCommand: vllmServe` is read as the chart writes it; one with args and no command of its own runs the
base config's `vllm serve` with the args appended (internal/controller/mergeContainerSlices.go). Real case:
cnuland/hello-chris-llm-d (https://github.com/cnuland/hello-chris-llm-d, eval85), assets/llm-d/modelservice.yaml
and assets/multi-model/llama-3.2-3b-modelservice.yaml."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

CR = """\
apiVersion: llm-d.ai/v1alpha1
kind: ModelService
metadata:
  name: small-llama
spec:
  modelArtifacts:
    uri: "hf://meta-llama/Llama-3.2-3B-Instruct"
  routing:
    modelName: meta-llama/Llama-3.2-3B-Instruct
  decode:
    replicas: 2
    containers:
    - name: vllm
      image: ghcr.io/llm-d/llm-d:v0.2.0
      {command}
      args:
        - "--max-model-len=4096"
        - "--max-num-seqs=64"
      resources:
        limits:
          nvidia.com/gpu: "1"
"""


def _site(tmp_path, command: str):
    (tmp_path / "ms.yaml").write_text(CR.replace("{command}", command))
    return audit(tmp_path, gpu="H100-80GB x1").sites


def test_a_modelservice_resource_with_vllm_serve_is_a_site(tmp_path):
    (sr,) = _site(tmp_path, "modelCommand: vllmServe")
    assert sr.site.line == 10 and sr.site.model.value == "meta-llama/Llama-3.2-3B-Instruct"
    assert sr.site.settings["max_model_len"].value == 4096 and sr.site.settings["max_num_seqs"].value == 64


def test_the_operator_runs_the_base_configs_server_with_the_resources_args(tmp_path):
    (sr,) = _site(tmp_path, "")
    assert sr.site.kind == "vllm serve" and sr.site.model.value == "meta-llama/Llama-3.2-3B-Instruct"
    assert sr.site.settings["max_model_len"].value == 4096


def test_a_resource_with_its_own_command_and_another_kind_are_read_as_before(tmp_path):
    (sr,) = _site(tmp_path, 'command: ["vllm", "serve", "/models/x"]')
    assert sr.site.model.value == "/models/x"
    (tmp_path / "ms.yaml").write_text(CR.replace("{command}", "").replace("kind: ModelService", "kind: Other"))
    assert audit(tmp_path, gpu="H100-80GB x1").sites == []


def test_args_that_are_not_a_list_cost_no_file(tmp_path):
    # review7: `args: {a: 1}` gave a scanner-error (KeyError: 0), `args: 7` a TypeError; the API server
    # refuses both, so the container is read without args and the rest of the file stands
    for args in ("{a: 1}", "7", "--max-model-len 4096"):
        text = CR.replace("{command}", "").replace('args:\n        - "--max-model-len=4096"\n        - "--max-num-seqs=64"',
                                                     f"args: {args}")
        assert f"args: {args}" in text
        (tmp_path / "ms.yaml").write_text(text)
        rep = audit(tmp_path, gpu="H100-80GB x1")
        assert not [s for s in rep.skipped if "scanner-error" in str(s)], args


def test_a_sidecar_with_args_is_no_site(tmp_path):
    # review8: only the container the operator lays over the base config's `vllm` one (by name), or one
    # running a vLLM image, is vLLM's server; a routing proxy with args of its own is added as it is
    sidecar = CR.replace("{command}", "").replace("""      resources:""", """      resources:
        limits:
          nvidia.com/gpu: "1"
    - name: routing-proxy
      image: ghcr.io/llm-d/llm-d-routing-sidecar:v0.2.0
      args: ["--port=8000", "--vllm-port=8200", "--connector=nixlv2"]
      resources:""", 1)
    (tmp_path / "ms.yaml").write_text(sidecar)
    sites = audit(tmp_path, gpu="H100-80GB x1").sites
    assert [s.site.settings["max_model_len"].value for s in sites] == [4096]
    renamed = CR.replace("{command}", "").replace("name: vllm", "name: server")
    (tmp_path / "ms.yaml").write_text(renamed)
    assert len(audit(tmp_path, gpu="H100-80GB x1").sites) == 1  # ghcr.io/llm-d/llm-d: llm-d's vLLM image
    (tmp_path / "ms.yaml").write_text(renamed.replace("ghcr.io/llm-d/llm-d:v0.2.0", "example.com/proxy:1"))
    assert audit(tmp_path, gpu="H100-80GB x1").sites == []
