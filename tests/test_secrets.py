"""Secrets never leave: a project with secrets planted in every place vLLM deployments keep them
(shell exports, `--api-key`, a `--config` YAML, compose `environment:` and `.env`, Kubernetes
`env`, Python keyword arguments, URLs with credentials or `?token=`) is audited and detected in
every format and language, through the CLI and the MCP tools; no planted value may appear in any
output, the unified diffs of "Recommended configuration changes" included."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from vllm_kb.engine.kb import redact

# Every value below is a secret; each must be absent from every output.
SECRETS = {
    "hf_export": "hf_PLANTEDexportTOKEN0123456789abcd",
    "openai_export": "PLANTED-openai-key-0001",
    "api_key_flag": "PLANTED-apikey-flag-0002",
    "yaml_api_key": "PLANTED-yaml-apikey-0003",
    "url_password": "PLANTED-url-password-0004",
    "url_query": "PLANTED-url-query-0005",
    "compose_env": "PLANTED-compose-env-0006",
    "compose_api_key": "PLANTED-compose-flag-0007",
    "dotenv": "PLANTED-dotenv-token-0008",
    "k8s_env": "PLANTED-k8s-env-0009",
    "k8s_flag": "PLANTED-k8s-flag-0010",
    "py_kwarg": "PLANTED-python-kwarg-0011",
    "py_client": "PLANTED-python-client-0012",
    "py_environ": "PLANTED-python-environ-0013",
    "secret_var": "PLANTED-some-secret-0014",
    "password_var": "PLANTED-db-password-0015",
    "pin_url": "PLANTED-pin-url-0016",
    "docker_env": "PLANTED-docker-env-0017",
}
S = SECRETS


def make_project(root: Path) -> Path:
    files = {
        "requirements.txt": f"vllm==0.33.0\nprivate-pkg @ https://ci-user:{S['pin_url']}@pypi.example.com/private-pkg-1.0.tar.gz\n",
        # A script whose every secret line sits next to a line the audit changes, so that the
        # diff's context shows it.
        "deploy/serve.sh": (
            "#!/usr/bin/env bash\nset -euo pipefail\n"
            f"export HF_TOKEN={S['hf_export']}\n"
            f"export OPENAI_API_KEY={S['openai_export']}\n"
            f"export WEBHOOK_SECRET='{S['secret_var']}'\n"
            f"export DB_PASSWORD=\"{S['password_var']}\"\n"
            f"export HF_ENDPOINT=https://mirror:{S['url_password']}@hf-mirror.example.com\n"
            f"export MODEL_INDEX=\"https://models.example.com/index?token={S['url_query']}\"\n"
            "export VLLM_ATTENTION_BACKEND=FLASH_ATTN\n"
            "vllm serve meta-llama/Llama-3.1-8B-Instruct \\\n"
            f"    --api-key {S['api_key_flag']} \\\n"
            "    --swap-space 8 \\\n"
            "    --tensor-parallel-size 1 \\\n"
            "    --enforce-eager\n"
        ),
        "deploy/cfg/serve.yaml": f"api-key: {S['yaml_api_key']}\nenforce-eager: true\nswap-space: 4\n",
        "deploy/cfg/run.sh": "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --config serve.yaml\n",
        "compose/docker-compose.yml": (
            "services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.1\n    env_file: .env\n"
            f"    environment:\n      HF_TOKEN: {S['compose_env']}\n      VLLM_ATTENTION_BACKEND: FLASH_ATTN\n"
            "    command:\n      - --model\n      - meta-llama/Llama-3.1-8B-Instruct\n"
            f"      - --api-key\n      - {S['compose_api_key']}\n      - --enforce-eager\n      - --swap-space\n      - \"8\"\n"
        ),
        "compose/.env": f"HUGGING_FACE_HUB_TOKEN={S['dotenv']}\nTP=2\n",
        "k8s/deploy.yaml": (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.10.1\n"
            "          env:\n            - name: HF_TOKEN\n"
            f"              value: {S['k8s_env']}\n"
            "            - name: VLLM_ATTENTION_BACKEND\n              value: FLASH_ATTN\n"
            "          args:\n            - --model\n            - meta-llama/Llama-3.1-8B-Instruct\n"
            f"            - --api-key\n            - \"{S['k8s_flag']}\"\n            - --enforce-eager\n"
        ),
        "docker/Dockerfile": (
            "FROM vllm/vllm-openai:v0.10.1\n"
            f"ENV HF_TOKEN={S['docker_env']}\n"
            'CMD ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--enforce-eager"]\n'
        ),
        "batch/run.py": (
            "import os\nfrom openai import OpenAI\nfrom vllm import LLM\n\n"
            f"os.environ[\"HF_TOKEN\"] = \"{S['py_environ']}\"\n"
            f"client = OpenAI(api_key=\"{S['py_client']}\", base_url=\"http://localhost:8000/v1\")\n"
            f"llm = LLM(model=\"meta-llama/Llama-3.1-8B-Instruct\", hf_token=\"{S['py_kwarg']}\", enforce_eager=True, swap_space=8)\n"
        ),
    }
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return make_project(tmp_path_factory.mktemp("secrets") / "proj")


def assert_clean(text: str, where: str) -> None:
    leaked = [k for k, v in SECRETS.items() if v in text]
    assert not leaked, f"{where}: planted secrets visible: {leaked}"


def test_the_project_is_audited_at_every_planted_place(project, cli):
    """The test means something only if the audit reads the places the secrets are in."""
    code, out, _ = cli("audit", str(project), "--gpu", "H100-80GB x8", "--format", "json")
    data = json.loads(out)
    files = {s["file"] for s in data["sites"]}
    assert {"deploy/serve.sh", "compose/docker-compose.yml", "k8s/deploy.yaml", "docker/Dockerfile", "batch/run.py"} <= files
    assert any(s["config_file"] for s in data["sites"])
    diffs = "\n".join(b["text"] for s in data["sites"] for b in s["after"])
    assert "--swap-space" in diffs and "HF_TOKEN" in diffs, "the diffs must show the lines around the secrets"
    names = {e["name"] for s in data["sites"] for e in s["env"]}
    assert {"HF_TOKEN", "OPENAI_API_KEY"} <= names
    assert any(st["name"] == "api_key" for s in data["sites"] for st in s["settings"])


def _formats() -> list[str]:
    """Every --format the CLI offers (other formats come and go; each must hide secrets)."""
    try:
        from vllm_kb.engine.check.config import FORMATS
    except ImportError:
        return ["text", "markdown", "json"]
    return list(FORMATS)


@pytest.mark.parametrize("fmt", _formats())
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_audit_outputs_hide_every_secret(project, cli, tmp_path, fmt, lang):
    code, out, err = cli("audit", str(project), "--gpu", "H100-80GB x8", "--format", fmt, "--lang", lang)
    assert code in (0, 1), err
    assert_clean(out + err, f"audit --format {fmt} --lang {lang}")
    # -o writes the same report to a file
    dest = tmp_path / f"report.{fmt}"
    code, out, err = cli("audit", str(project), "--gpu", "H100-80GB x8", "--format", fmt, "--lang", lang, "-o", str(dest))
    assert code in (0, 1), err
    assert_clean(dest.read_text() + out + err, f"audit -o ({fmt}, {lang})")


def test_diff_output_hides_secrets(project, cli):
    """`audit --diff` prints the fixes as a patch: its context lines are project text too."""
    code, out, err = cli("audit", str(project), "--gpu", "H100-80GB x8", "--diff")
    if code == 2 and "--diff" in err:
        pytest.skip("this CLI has no --diff")
    assert "+++ b/" in out, err
    assert_clean(out + err, "audit --diff")


def test_single_file_audit_hides_secrets(project, cli):
    code, out, err = cli("audit", str(project / "deploy" / "serve.sh"), "--gpu", "none", "--format", "json")
    assert code in (0, 1), err
    assert_clean(out + err, "audit of one file")


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_detect_outputs_hide_every_secret(project, cli, fmt, lang):
    code, out, err = cli("detect", str(project), "--format", fmt, "--lang", lang)
    assert code == 0, err
    assert_clean(out + err, f"detect --format {fmt} --lang {lang}")


def test_every_registered_renderer_hides_secrets(project):
    """Any renderer of the report dict (other formats included) gets a redacted dict; and the
    renderers redact again when handed a raw one."""
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.report import markdown, model, text

    rep = audit(project, gpu="H100-80GB x8")
    data = model.build(rep, "en")
    assert_clean(json.dumps(data, ensure_ascii=False), "model.build")
    assert_clean(markdown.render(data), "markdown.render")
    assert_clean(text.render(data, width=120), "text.render")
    import importlib
    import pkgutil

    import vllm_kb.engine.report as report_pkg

    for info in pkgutil.iter_modules(report_pkg.__path__):
        mod = importlib.import_module(f"vllm_kb.engine.report.{info.name}")
        fn = getattr(mod, "render", None)
        if info.name in ("model",) or not callable(fn):
            continue
        try:
            out = fn(data)
        except TypeError:
            continue  # a renderer with another signature
        assert_clean(out if isinstance(out, str) else json.dumps(out, default=str), f"report.{info.name}.render")



@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_mcp_tools_hide_every_secret(project, lang):
    from mcp import Client
    from vllm_kb.mcp_server.server import build_server

    server = build_server([project.parent])
    async with Client(server) as c:
        results = [
            await c.call_tool("audit", {"path": str(project), "gpu": "H100-80GB x8", "lang": lang}),
            await c.call_tool("detect", {"path": str(project), "lang": lang, "all": True}),
            await c.call_tool("estimate_memory", {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "H100-80GB x8",
                                                  "lang": lang}),
        ]
        rid = results[0].structured_content["report_id"]
        results.append(await c.call_tool("audit_details", {"report_id": rid}))
        full = (await c.read_resource(results[0].structured_content["report_uri"])).contents[0].text
    assert_clean(full, f"MCP report resource ({lang})")
    for r in results:
        assert not r.is_error, r.content
        blob = json.dumps(r.structured_content, ensure_ascii=False) + "".join(getattr(x, "text", "") for x in r.content)
        assert_clean(blob, f"MCP ({lang})")
    assert results[0].structured_content["sites"], "the MCP audit must see the sites"


# --- the redaction function itself ------------------------------------------------------------

@pytest.mark.parametrize("text, secret", [
    ("export HF_TOKEN=abc123secret", "abc123secret"),
    ('HF_TOKEN="a b c secret"', "a b c secret"),
    ("OPENAI_API_KEY: sk-live-xyz", "sk-live-xyz"),
    ('{"api_key": "abc123"}', "abc123"),
    ('LLM(model="m", hf_token="tok-1")', "tok-1"),
    ("vllm serve m --api-key s3cr3t --port 1", "s3cr3t"),
    ("vllm serve m --api-key=s3cr3t", "s3cr3t"),
    ('vllm serve m --api-key "s e c"', "s e c"),
    ("vllm serve m \\\n  --api-key \\\n  s3cr3t-cont \\", "s3cr3t-cont"),
    ('command: ["--api-key", "s3cr3t-json"]', "s3cr3t-json"),
    ("+      - --api-key\n+      - s3cr3t-diff", "s3cr3t-diff"),
    ("-        - name: HF_TOKEN\n-          value: plain-k8s", "plain-k8s"),
    ("git+https://user:pa55word@github.com/x/y", "pa55word"),
    ("https://host/x?token=qtok123&x=1", "qtok123"),
    ("https://host/x?a=1&access_token=qtok456", "qtok456"),
    ("curl -H 'Authorization: Bearer abcdefghijklmnop12345'", "abcdefghijklmnop12345"),
    ("HF_TOKEN=${HF_TOKEN:-default-secret}", "default-secret"),
    ("model: x  # uses hf_abcdefghijklmnopqrstuvwxyz012", "hf_abcdefghijklmnopqrstuvwxyz012"),
    ("DB_PASSWORD=hunter2", "hunter2"),
    ("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG", "wJalrXUtnFEMI/K7MDENG"),
])
def test_redact_text_hides(text, secret):
    out = redact.redact_text(text)
    assert secret not in out, out
    assert redact.redact_text(out) == out, "redaction is idempotent"


@pytest.mark.parametrize("text", [
    "HF_TOKEN=$HF_TOKEN", 'api_key=os.environ["OPENAI_API_KEY"]', "--max-num-batched-tokens 8192",
    "--max-prompt-adapter-token 4", "max_num_batched_tokens: 8192", "tokenizer: meta-llama/Llama-3",
    "vllm @ git+ssh://git@github.com/vllm-project/vllm", "KV cache per token: 5 bytes",
    "--num-speculative-tokens 5", "skip_special_tokens=True",
    # vocabulary tokens, not credentials: L285's hf_overrides change showed `"classifier_from_token": ***"no", …`
    '--hf-overrides {"classifier_from_token": ["no", "yes"]}', "pad_token: <|endoftext|>", "eos_token: </s>",
])
def test_redact_text_keeps_what_is_not_a_secret(text):
    assert redact.redact_text(text) == text


def test_redact_structures():
    data = {"settings": [{"name": "api_key", "value": "x1", "raw": "x1", "key": "--api-key"},
                         {"name": "max_num_batched_tokens", "value": 8192, "raw": "8192"}],
            "env": [{"name": "HF_TOKEN", "value": "x2"}], "effective": {"api_key": "x3", "max_num_batched_tokens": 8192},
            "changes": [{"target": "api_key", "value": "x4", "before": "--api-key x4", "after": None}]}
    out = redact.redact(data)
    assert not re.search(r"x[1-4]\b", json.dumps(out)), out
    assert out["settings"][1]["value"] == 8192 and out["effective"]["max_num_batched_tokens"] == 8192


def test_values_the_audit_read_under_a_secret_name_are_hidden_anywhere(tmp_path):
    """`K=value` then `--api-key "$K"`: the line that writes the value names no secret, so only
    the value the audit resolved says it is one. Each audit replaces the last one's values."""
    from vllm_kb.engine.audit import audit

    (tmp_path / "serve.sh").write_text('K=plain-looking-value-1\nvllm serve org/m --api-key "$K" --swap-space 4\n')
    audit(tmp_path, gpu="H100-80GB x1")
    assert redact.redact_text("K=plain-looking-value-1") == "K=***"
    redact.known_secrets(["short", "$HF_TOKEN", "two words here"])  # too short, references, not one word
    assert redact.redact_text("K=plain-looking-value-1 short $HF_TOKEN") == "K=plain-looking-value-1 short $HF_TOKEN"
    redact.known_secrets([])


def test_a_site_location_in_a_file_named_for_a_secret_stays_readable():
    # aibrix samples/adapter/base-api-key.yaml: the site is `…yaml:22`, not a key `…yaml` with the value 22
    assert redact.redact("samples/adapter/base-api-key.yaml:22") == "samples/adapter/base-api-key.yaml:22"
    assert redact.redact("see base-api-key.yaml:22 (api_key: abc123def456)").endswith("(api_key: ***)")
    assert redact.redact("api_key: 1234567890") == "api_key: ***"
