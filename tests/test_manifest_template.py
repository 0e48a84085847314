"""Kubernetes manifests kept as templates (`.yaml.tpl` for envsubst, `.yml.j2`, `.yaml.template`) are read as
the YAML they render to; a placeholder that fills a whole line (`${ARGS}` under the command) is read as a
comment and leaves the site open to more arguments. Real case: lahlfors/cybernetic-governance-engine
deployment/k8s/vllm-deployment.yaml.tpl (https://github.com/lahlfors/cybernetic-governance-engine)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

DEPLOY = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: ${IMAGE_NAME}
          resources:
            limits:
${RESOURCE_LIMITS}
              memory: "64Gi"
          command:
            - "vllm"
            - "serve"
            - "Qwen/Qwen2.5-7B-Instruct"
            - "--max-model-len"
            - "8192"
${ARGS}
"""


@pytest.mark.parametrize("name", ["vllm-deployment.yaml.tpl", "vllm.yml.j2", "vllm.yaml.template", "vllm.yaml.tmpl"])
def test_a_manifest_template_is_a_site(tmp_path, name):
    (tmp_path / name).write_text(DEPLOY)
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    assert sr.site.file == name and sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert sr.site.settings["max_model_len"].value == 8192
    assert [o["what"] for o in sr.site.opaque if o["code"] == "forwards-args"] == ["${ARGS}"]


def test_a_template_of_something_else_is_not_read_as_yaml(tmp_path):
    (tmp_path / "launch.sh.tpl").write_text("#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct\n")
    (tmp_path / "notes.txt.j2").write_text("command: vllm serve Qwen/Qwen2.5-7B-Instruct\n")
    assert [s.site.file for s in audit(tmp_path, gpu="H100-80GB x1").sites] == []
