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


@pytest.mark.parametrize("name", ["vllm-deployment.yaml.tpl", "vllm.yml.j2", "vllm.yaml.template", "vllm.yaml.tmpl",
                                  "deployment.yaml-template", "vllm.yml_tpl"])
def test_a_manifest_template_is_a_site(tmp_path, name):
    (tmp_path / name).write_text(DEPLOY)
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    assert sr.site.file == name and sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert sr.site.settings["max_model_len"].value == 8192
    assert [o["what"] for o in sr.site.opaque if o["code"] == "forwards-args"] == ["${ARGS}"]


def test_a_template_of_something_else_is_not_read_as_yaml(tmp_path):
    (tmp_path / "launch.sh.tpl").write_text("#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct\n")
    (tmp_path / "notes.txt.j2").write_text("command: vllm serve Qwen/Qwen2.5-7B-Instruct\n")
    # a shell script kept as a template is read as the script it renders to (engine/scan/shell_templates.py)
    assert [(s.site.file, s.site.syntax) for s in audit(tmp_path, gpu="H100-80GB x1").sites] == [("launch.sh.tpl", "cli")]


# aws-samples/aws-do-eks (https://github.com/aws-samples/aws-do-eks, eval85) renders each manifest with
# `cat X.yaml-template | envsubst > X.yaml`: `${VAR}` inside flow mappings (no YAML until rendered), a
# `${DOLLAR}` for each `$` the container's shell must see, and `$(seq …)` in the worker's script.
EKS = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${DEPLOYMENT_NAME}-worker
  labels: { app.kubernetes.io/part-of: ${DEPLOYMENT_NAME}, app.kubernetes.io/component: worker }
spec:
  template:
    spec:
      nodeSelector: { node.kubernetes.io/instance-type: ${INSTANCE_TYPE} }
      containers:
        - name: vllm
          image: ${REGISTRY}${IMAGE}${TAG}
          command: ["/bin/bash","-c"]
          args:
            - |-
              set -eu
              for i in ${DOLLAR}(seq 1 30); do
                if getent hosts "${DOLLAR}{NATS_HOST:-nats}" >/dev/null 2>&1; then break; fi
                sleep 2
              done
              exec python3 -m dynamo.vllm \\
                --model ${MODEL_PATH} \\
                --tensor-parallel-size 8 \\
                --max-model-len 4096
          resources:
            limits: { nvidia.com/gpu: "8" }
"""


def test_an_envsubst_template_with_flow_placeholders_and_dollar_is_read(tmp_path):
    (tmp_path / "deployment.yaml-template").write_text(EKS)
    rep = audit(tmp_path, gpu="H100-80GB x8")
    assert not [k for k in rep.skipped if k.get("file") == "deployment.yaml-template"]
    (sr,) = rep.sites
    assert sr.site.kind.endswith("dynamo.vllm (AsyncEngineArgs)")
    assert sr.site.settings["tensor_parallel_size"].value == 8 and sr.site.settings["max_model_len"].value == 4096


def test_a_command_substitution_in_a_k8s_script_is_no_env_reference(tmp_path):
    """Kubernetes expands only `$(NAME)`: `$(seq 1 30)` in a script of several lines is the shell's."""
    script = "set -eu\nfor i in $(seq 1 30); do\n  sleep 2\ndone\nexec python3 -m dynamo.vllm --model /models/m --max-model-len 4096"
    block = "\n".join("            " + ln for ln in script.split("\n"))
    (tmp_path / "d.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: w}\nspec:\n  containers:\n"
                                     "    - name: vllm\n      image: registry.example/app:1\n"
                                     "      command: [/bin/bash, -c]\n      args:\n        - |-\n" + block + "\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    assert sr.site.model.value == "/models/m" and sr.site.settings["max_model_len"].value == 4096


def test_a_whole_item_placeholder_in_a_flow_list_keeps_its_value(tmp_path):
    """`command: [--model, ${MODEL}]` is no YAML as written; the item is read as `"$MODEL"`, so compose's
    .env still fills it (a placeholder inside a quoted scalar is YAML already and stays as written)."""
    (tmp_path / ".env").write_text("MODEL=Qwen/Qwen2.5-7B-Instruct\nLEN=8192\n")
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.11.0\n    labels: { app: ${APP}, x: \"${ETCD}\" }\n"
        "    command: [--model, ${MODEL}, --max-model-len, ${LEN}]\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct" and sr.site.settings["max_model_len"].value == 8192
