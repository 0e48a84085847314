"""A LiteLLM proxy config whose model is `vllm/<id>` runs vLLM in the proxy's process, built as
`LLM(model=<id>)` and nothing else: a site with the model alone, where no engine argument can be
written. `hosted_vllm/` calls a server and is no launch."""
from __future__ import annotations

import json

CONFIG = """\
model_list:
  - model_name: qwen
    litellm_params:
      model: vllm/Qwen/Qwen2.5-7B-Instruct
      temperature: 0.2
  - model_name: remote
    litellm_params:
      model: hosted_vllm/Qwen/Qwen2.5-7B-Instruct
      api_base: http://vllm:8000/v1
"""


def test_the_in_process_model_is_a_site_and_the_server_client_is_not(cli, write_project):
    root = write_project({"litellm/config.yaml": CONFIG})
    code, out, err = cli("audit", str(root), "--gpu", "L4", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    assert (site["kind"], site["line"], site["model"]["name"]) == ("LLM()", 4, "Qwen/Qwen2.5-7B-Instruct")
    assert [s["name"] for s in site["settings"]] == ["model"]
    changes = [c for r in site["recommendations"] for c in r["changes"]]
    assert changes and all(c.get("blocked") == "not_exposed" for c in changes)


def test_fix_leaves_the_config_as_it_is(cli, write_project):
    root = write_project({"config.yaml": CONFIG})
    cli("audit", str(root), "--gpu", "L4", "--isolated", "-q", "--fix", "--unsafe-fixes")
    assert (root / "config.yaml").read_text() == CONFIG
