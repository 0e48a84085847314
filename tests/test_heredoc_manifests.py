"""A Kubernetes manifest a shell script writes with a here-document and applies is a site at the body's own
lines (engine/scan/heredoc_manifests.py). Real case: tchangkiat/aws-cdk-stacks
scripts/eks/install-vllm-meta-llama.sh (https://github.com/tchangkiat/aws-cdk-stacks): `cat <<EOF
>>vllm-meta-llama.yaml` with a vLLM Deployment, then `kubectl apply -f vllm-meta-llama.yaml`."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

BODY = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.9.2
        command: ["/bin/sh", "-c"]
        args: [
          "vllm serve meta-llama/Llama-3.2-1B-Instruct --max-model-len 4096"
        ]
        resources:
          limits:
            nvidia.com/gpu: "1"
"""
FORMS = {
    "append-then-apply": "cat <<EOF >>vllm.yaml\n" + BODY + "EOF\n\nkubectl apply -f vllm.yaml\n",
    "write-quoted": "cat > vllm.yml <<'EOF'\n" + BODY + "EOF\nkubectl apply -f vllm.yml\n",
    "pipe-to-apply": "cat <<EOF | kubectl apply -f -\n" + BODY + "EOF\n",
}


@pytest.mark.parametrize("name", sorted(FORMS))
def test_a_manifest_written_by_a_heredoc_is_a_site(tmp_path, name):
    text = "#!/bin/bash\nset -e\n" + FORMS[name]
    (tmp_path / "install.sh").write_text(text)
    (sr,) = audit(tmp_path, gpu="T4-16GB x1").sites
    assert sr.site.file == "install.sh" and sr.site.model.value == "meta-llama/Llama-3.2-1B-Instruct"
    assert sr.site.settings["max_model_len"].value == 4096
    assert "command:" in text.splitlines()[sr.site.line - 1]  # the body's own line, as in a .yaml file
    assert sr.version.version == "0.9.2"


def test_a_heredoc_of_text_is_no_manifest(tmp_path):
    (tmp_path / "notes.sh").write_text("#!/bin/bash\ncat <<EOF > README.txt\nkind: note\nrun vllm serve X\nEOF\n")
    assert audit(tmp_path, gpu="T4-16GB x1").sites == []
