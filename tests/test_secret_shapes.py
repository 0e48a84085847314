"""A corpus of secret shapes (one planted value each, in the place real projects keep it) that
no output may show: every report format in both languages, `--diff`, the notes `--fix` prints,
`detect`, `diagnose` (an error text that quotes a secret too), the MCP tools' results (the
audit's pages and the full report resource too) and the MCP server's own log. Diffs never show `***` on a `+` line (a patch would write it over the
secret), and `--fix --unsafe-fixes` keeps every secret's bytes in the files."""
from __future__ import annotations

import json
import logging
import re
import shutil
from pathlib import Path

import pytest

# name → value; every value is unique and must never appear in an output
SHAPES = {
    "sh_export_hf": "hf_PLANTEDsh1aaaaaaaaaaaaaaaaaaaa",
    "sh_export_openai": "PLANTED-sh-openai-02",
    "sh_prefix_env": "PLANTED-sh-prefix-03",
    "sh_api_key": "PLANTED-sh-apikey-04",
    "sh_api_key_eq": "PLANTED-sh-apikeyeq-05",
    "sh_api_keyz": "PLANTED-sh-apikeyz-06",
    "sh_mysql": "PLANTEDmysql07",
    "sh_cmdsub": "PLANTED-sh-cmdsub-08",
    "sh_bearer": "PLANTEDbearer09abcdefghijkl",
    "sh_url_user": "PLANTED-sh-urlpass-10",
    "sh_url_query": "PLANTED-sh-urlquery-11",
    "sh_default": "PLANTED-sh-default-12",
    "sh_aws": "PLANTED-sh-aws-13",
    "sh_hf_token_flag": "PLANTED-sh-hftokenflag-14",
    "sh_hf_cli": "PLANTED-sh-hfcli-15",
    "sh_pgpassword": "PLANTED-sh-pgpass-16",
    "sh_sshpass": "PLANTED-sh-sshpass-17",
    "sh_docker_login": "PLANTED-sh-dockerlogin-18",
    "sh_password_stdin": "PLANTED-sh-stdin-19",
    "sh_wandb": "PLANTED-sh-wandb-20",
    "sh_git_oauth": "PLANTED-sh-gitoauth-21",
    "shape_ghp": "ghp_PLANTEDghp22aaaaaaaaaaaaaaaaaaaaa",
    "shape_sk": "sk-PLANTEDsk23aaaaaaaaaaaaaaaaaaaaaa",
    "shape_akia": "AKIAPLANTED24AAAAAAA",
    "shape_jwt": "eyJPLANTED25aaaaaa.eyJhbGciOiJIUzI1NiJ9.PLANTEDsig25aaaa",
    "shape_slack": "xoxb-PLANTED26-aaaaaaaaaa",
    "yaml_api_key": "PLANTED-yaml-apikey-27",
    "compose_env_map": "PLANTED-compose-map-28",
    "compose_env_list": "PLANTED-compose-list-29",
    "compose_cmd": "PLANTED-compose-cmd-30",
    "k8s_env": "PLANTED-k8s-env-31",
    "k8s_arg_eq": "PLANTED-k8s-argeq-32",
    "helm_token": "PLANTED-helm-token-33",
    "dotenv": "PLANTED-dotenv-34",
    "py_environ": "PLANTED-py-environ-35",
    "py_setdefault": "PLANTED-py-setdefault-36",
    "py_getenv": "PLANTED-py-getenv-37",
    "py_kwarg": "PLANTED-py-kwarg-38",
    "py_client": "PLANTED-py-client-39",
    "py_login": "PLANTED-py-login-40",
    "py_dict": "PLANTED-py-dict-41",
    "py_header": "PLANTEDpyheader42abcdefgh",
    "docker_env": "PLANTED-docker-env-43",
    "docker_arg": "PLANTED-docker-arg-44",
    "docker_cmd": "PLANTED-docker-cmd-45",
    "docker_pip": "PLANTED-docker-pip-46",
    "pin_url": "PLANTED-pin-url-47",
    "toml_index": "PLANTED-toml-index-48",
    "verl_wandb": "PLANTED-verl-wandb-49",
    # the shell model's reach: docker run (and nvidia-docker) arguments and environment, arrays,
    # functions, `bash -c`, Makefile variables, CI steps
    "docker_run_env": "PLANTED-dockerrun-env-51",
    "docker_run_key": "PLANTED-dockerrun-key-52",
    "docker_run_file": "PLANTED-dockerrun-envfile-53",
    "nvidia_docker_env": "PLANTED-nvdocker-env-54",
    "sh_array": "PLANTED-sh-array-55",
    "sh_function": "PLANTED-sh-function-56",
    "sh_bash_c": "PLANTED-sh-bashc-57",
    "make_var": "PLANTED-make-var-58",
    "ci_env": "PLANTED-ci-env-59",
    "ci_run": "PLANTED-ci-run-60",
    "sh_plain_var": "PLANTED-sh-plainvar-61",
}
S = SHAPES
ERROR_SECRET = "PLANTED-error-text-50"


def make(root: Path) -> Path:
    files = {
        "requirements.txt": f"vllm==0.33.0\nprivate @ https://ci:{S['pin_url']}@pypi.example.com/p-1.0.tar.gz\n",
        "pyproject.toml": ('[project]\nname = "x"\n\n[[tool.uv.index]]\nname = "private"\n'
                           f'url = "https://ci:{S["toml_index"]}@pypi.example.com/simple"\n'),
        "serve.sh": (
            "#!/bin/bash\n"
            f"export HF_TOKEN={S['sh_export_hf']}\n"
            f"export OPENAI_API_KEY={S['sh_export_openai']}\n"
            f"export AWS_SECRET_ACCESS_KEY={S['sh_aws']}\n"
            f"export PGPASSWORD='{S['sh_pgpassword']}'\n"
            f"export HF_HUB_TOKEN=$(echo {S['sh_cmdsub']})\n"
            f"export MODEL_TOKEN=${{MODEL_TOKEN:-{S['sh_default']}}}\n"
            f"mysql -uroot -p{S['sh_mysql']} metrics < init.sql\n"
            f"sshpass -p {S['sh_sshpass']} scp weights.tar gpu-node:/data\n"
            f"docker login -u ci -p {S['sh_docker_login']} registry.example.com\n"
            f"echo {S['sh_password_stdin']} | docker login --password-stdin -u ci ghcr.io\n"
            f"wandb login {S['sh_wandb']}\n"
            f"huggingface-cli login --token {S['sh_hf_cli']}\n"
            f"git clone https://oauth2:{S['sh_git_oauth']}@gitlab.example.com/ml/adapters.git\n"
            f"curl -H 'Authorization: Bearer {S['sh_bearer']}' https://api.example.com/v1/models\n"
            f"curl 'https://models.example.com/x?token={S['sh_url_query']}'\n"
            f"export HF_ENDPOINT=https://mirror:{S['sh_url_user']}@hf-mirror.example.com\n"
            f"# old tokens: {S['shape_ghp']} {S['shape_sk']} {S['shape_akia']} {S['shape_jwt']} {S['shape_slack']}\n"
            f"VLLM_API_KEY={S['sh_prefix_env']} vllm serve meta-llama/Llama-3.1-8B-Instruct \\\n"
            f"    --api-key {S['sh_api_key']} \\\n"
            "    --swap-space 8 \\\n"
            f"    --hf-token {S['sh_hf_token_flag']} \\\n"
            "    --enforce-eager\n"
            f"vllm serve Qwen/Qwen2.5-7B-Instruct --api-key={S['sh_api_key_eq']} --swap-space 4 --port 8001\n"
            f"vllm serve Qwen/Qwen2.5-7B-Instruct --api-keyz {S['sh_api_keyz']} --port 8002\n"
        ),
        "cfg/serve.yaml": f"api-key: {S['yaml_api_key']}\nswap-space: 4\n",
        "cfg/run.sh": "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --config serve.yaml\n",
        "compose/docker-compose.yml": (
            "services:\n  a:\n    image: vllm/vllm-openai:v0.33.0\n"
            f"    environment:\n      HF_TOKEN: {S['compose_env_map']}\n"
            f"    command: [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\", \"--api-key\", \"{S['compose_cmd']}\", \"--swap-space\", \"4\"]\n"
            "  b:\n    image: vllm/vllm-openai:v0.33.0\n"
            f"    environment:\n      - HUGGING_FACE_HUB_TOKEN={S['compose_env_list']}\n"
            "    command:\n      - --model\n      - Qwen/Qwen2.5-7B-Instruct\n      - --enforce-eager\n"
        ),
        "compose/.env": f"HF_TOKEN={S['dotenv']}\n",
        "k8s/deploy.yaml": (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.33.0\n"
            f"          env:\n            - name: HF_TOKEN\n              value: {S['k8s_env']}\n"
            f"          args: [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\", \"--api-key={S['k8s_arg_eq']}\", \"--swap-space\", \"4\"]\n"
        ),
        "helm/values.yaml": (
            "servingEngineSpec:\n  modelSpec:\n    - name: m\n      repository: vllm/vllm-openai\n      tag: v0.33.0\n"
            f"      modelURL: Qwen/Qwen2.5-7B-Instruct\n      hfToken: {S['helm_token']}\n"
            "      vllmConfig:\n        maxModelLen: 32768\n        extraArgs: [\"--swap-space\", \"4\"]\n"
        ),
        "docker/Dockerfile": (
            "FROM vllm/vllm-openai:v0.33.0\n"
            f"ARG HF_TOKEN={S['docker_arg']}\n"
            f"ENV HF_TOKEN={S['docker_env']}\n"
            f"RUN pip install --index-url https://ci:{S['docker_pip']}@pypi.example.com/simple private\n"
            f"CMD [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\", \"--api-key\", \"{S['docker_cmd']}\", \"--swap-space\", \"4\"]\n"
        ),
        "batch/run.py": (
            "import os\nimport requests\nfrom huggingface_hub import login\nfrom openai import OpenAI\nfrom vllm import LLM\n\n"
            f"os.environ[\"HF_TOKEN\"] = \"{S['py_environ']}\"\n"
            f"os.environ.setdefault(\"HUGGING_FACE_HUB_TOKEN\", \"{S['py_setdefault']}\")\n"
            f"KEY = os.getenv(\"OPENAI_API_KEY\", \"{S['py_getenv']}\")\n"
            f"login(token=\"{S['py_login']}\")\n"
            f"CREDS = {{\"api_key\": \"{S['py_dict']}\"}}\n"
            f"requests.get(\"https://api.example.com\", headers={{\"Authorization\": \"Bearer {S['py_header']}\"}})\n"
            f"client = OpenAI(api_key=\"{S['py_client']}\")\n"
            f"llm = LLM(model=\"Qwen/Qwen2.5-7B-Instruct\", hf_token=\"{S['py_kwarg']}\",\n"
            "          swap_space=8, enforce_eager=True)\n"
        ),
        "docker/run.sh": (
            "#!/bin/bash\n"
            f"docker run --gpus all --ipc=host -e HF_TOKEN={S['docker_run_env']} \\\n"
            "    vllm/vllm-openai:v0.33.0 --model Qwen/Qwen2.5-7B-Instruct \\\n"
            f"    --api-key {S['docker_run_key']} --swap-space 4\n"
            f"docker run --gpus all --shm-size 16g --env VLLM_API_KEY={S['docker_run_file']} "
            "vllm/vllm-openai:v0.33.0 --model Qwen/Qwen2.5-7B-Instruct --enforce-eager\n"
            f"nvidia-docker run -e HUGGING_FACE_HUB_TOKEN={S['nvidia_docker_env']} vllm/vllm-openai:v0.33.0 "
            "--model Qwen/Qwen2.5-7B-Instruct --swap-space 4\n"
        ),
        "shell/model.sh": (
            "#!/bin/bash\n"
            f"ARGS=(--api-key \"{S['sh_array']}\" --swap-space 4)\n"
            "vllm serve Qwen/Qwen2.5-7B-Instruct \"${ARGS[@]}\" --port 8010\n"
            "serve() {\n  vllm serve \"$1\" --api-key \"$2\" --enforce-eager --port 8011\n}\n"
            f"serve Qwen/Qwen2.5-7B-Instruct {S['sh_function']}\n"
            f"bash -c \"vllm serve Qwen/Qwen2.5-7B-Instruct --api-key {S['sh_bash_c']} --swap-space 4 --port 8012\"\n"
            # a name that says nothing: only the flag it reaches makes the value a secret
            f"K={S['sh_plain_var']}\n"
            "vllm serve Qwen/Qwen2.5-7B-Instruct --api-key \"$K\" --swap-space 4 --port 8015\n"
        ),
        "Makefile": (
            f"API_KEY := {S['make_var']}\n\n"
            "serve:\n\tvllm serve Qwen/Qwen2.5-7B-Instruct --api-key $(API_KEY) --swap-space 4 --port 8013\n"
        ),
        ".github/workflows/serve.yml": (
            "name: serve\non: push\njobs:\n  serve:\n    runs-on: gpu\n"
            f"    env:\n      HF_TOKEN: {S['ci_env']}\n"
            "    steps:\n      - run: |\n"
            f"          vllm serve Qwen/Qwen2.5-7B-Instruct --api-key {S['ci_run']} --swap-space 4 --port 8014\n"
        ),
        "rl/ppo.yaml": (
            "actor_rollout_ref:\n  rollout:\n    name: vllm\n    enforce_eager: true\n    swap_space: 4\n"
            f"trainer:\n  logger: [wandb]\n  wandb_api_key: {S['verl_wandb']}\n"
        ),
    }
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return make(tmp_path_factory.mktemp("shapes") / "proj")


def assert_clean(text: str, where: str) -> None:
    leaked = [k for k, v in SHAPES.items() if v in text] + (["error_text"] if ERROR_SECRET in text else [])
    assert not leaked, f"{where}: secrets visible: {leaked}"


def assert_no_masked_plus_lines(diff: str, where: str) -> None:
    bad = [ln for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++") and "***" in ln]
    assert not bad, f"{where}: a + line carries ***: {bad}"


def test_the_corpus_has_forty_shapes_and_the_audit_reads_them(project, cli):
    assert len(SHAPES) >= 40
    code, out, _ = cli("audit", str(project), "--gpu", "H100-80GB x8", "--format", "json")
    files = {s["file"] for s in json.loads(out)["sites"]}
    assert {"serve.sh", "compose/docker-compose.yml", "k8s/deploy.yaml", "docker/Dockerfile", "batch/run.py",
            "helm/values.yaml", "rl/ppo.yaml", "docker/run.sh", "shell/model.sh", "Makefile",
            ".github/workflows/serve.yml"} <= files


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "sarif", "github", "json-lines", "summary"])
def test_every_format_hides_every_shape(project, cli, fmt, lang):
    code, out, err = cli("audit", str(project), "--gpu", "H100-80GB x8", "--format", fmt, "--lang", lang)
    assert code in (0, 1), err
    assert_clean(out + err, f"--format {fmt} --lang {lang}")
    if fmt in ("markdown", "json"):
        diffs = "\n".join(re.findall(r"```diff\n(.*?)```", out, re.S)) if fmt == "markdown" else \
            "\n".join(b["text"] for s in json.loads(out)["sites"] for b in s["after"])
        assert_no_masked_plus_lines(diffs, f"report diffs ({fmt})")


@pytest.mark.parametrize("unsafe", [(), ("--unsafe-fixes",)])
def test_diff_and_fix_notes_hide_secrets_and_keep_their_bytes(project, cli, tmp_path, unsafe):
    code, out, err = cli("audit", str(project), "--gpu", "H100-80GB x8", "--diff", *unsafe)
    assert "+++ b/" in out, err
    assert_clean(out + err, "--diff")
    assert_no_masked_plus_lines(out, "--diff")
    copy = tmp_path / "proj"
    shutil.copytree(project, copy)
    before = {p: p.read_text() for p in copy.rglob("*") if p.is_file()}
    code, out, err = cli("audit", str(copy), "--gpu", "H100-80GB x8", "--fix", *unsafe)
    assert_clean(out + err, "--fix")
    after = {p: p.read_text() for p in copy.rglob("*") if p.is_file()}
    assert after != before, "the fixes were written"
    for name, value in SHAPES.items():
        n_before = sum(t.count(value) for t in before.values())
        assert sum(t.count(value) for t in after.values()) == n_before, f"--fix changed the secret {name}"


def test_a_typo_of_a_security_flag_is_named_never_dropped(project, cli):
    # `--api-keyz` is close to `--api-key` but not trivially the same flag: the candidate is named in
    # the finding, and --fix neither renames nor drops it (engine/check/unknown_flags.py)
    code, out, _ = cli("audit", str(project), "--gpu", "H100-80GB x8", "--format", "json")
    doc = json.loads(out)
    changes = [c for s in doc["sites"] for c in s["changes"] if c["target"] == "api_keyz"]
    assert changes == [], changes
    assert any("--api-key" in r.get("title", "") for s in doc["sites"] for r in s["recommendations"]
               if r["check"].startswith("unknown-option"))
    removals = [c for s in json.loads(out)["sites"] for c in s["changes"]
                if c["op"] in ("unset", "unset_env") and re.search(r"api_key|token|ssl|password", c["target"], re.I)]
    assert all(not c["safe"] for c in removals), removals


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_detect_and_diagnose_hide_secrets(project, cli, fmt):
    code, out, err = cli("detect", str(project), "--format", fmt)
    assert_clean(out + err, f"detect {fmt}")
    error = f"vllm: error: unrecognized arguments: --api-keyz {ERROR_SECRET} (HF_TOKEN={ERROR_SECRET})"
    code, out, err = cli("diagnose", str(project), "--gpu", "H100-80GB x8", "--error", error, "--format", fmt)
    assert_clean(out + err, f"diagnose {fmt}")
    # no vLLM wording matches: the closest launch checks by the error's words, which quote it
    error = f"crash: shared memory segment too small for the workers, HF_TOKEN={ERROR_SECRET} Bearer {ERROR_SECRET}"
    code, out, err = cli("diagnose", str(project), "--gpu", "H100-80GB x8", "--error", error, "--format", fmt)
    assert_clean(out + err, f"diagnose {fmt} (closest)")


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_results_and_log_hide_secrets(project, caplog):
    from mcp import Client
    from vllm_kb.mcp_server.server import build_server

    caplog.set_level(logging.DEBUG)
    server = build_server([project.parent], log_level="DEBUG")
    async with Client(server) as c:
        audit = await c.call_tool("audit", {"path": str(project), "gpu": "H100-80GB x8"})
        rid, cursor, pages = audit.structured_content["report_id"], None, []
        while True:  # the full report a page at a time, and whole as a resource
            page = await c.call_tool("audit_details", {"report_id": rid, "cursor": cursor})
            pages.append(page)
            cursor = page.structured_content["next_cursor"]
            if not cursor:
                break
        full = (await c.read_resource(audit.structured_content["report_uri"])).contents[0].text
        assert_clean(full, "MCP report resource")
        results = [audit, *pages,
                   await c.call_tool("detect", {"path": str(project)}),
                   await c.call_tool("diagnose", {"path": str(project), "gpu": "H100-80GB x8",
                                                  "error": f"--api-key {ERROR_SECRET}: bad"})]
    for r in results:
        blob = json.dumps(r.structured_content, ensure_ascii=False) + "".join(getattr(x, "text", "") for x in r.content)
        assert_clean(blob, "MCP result")
    assert_clean(caplog.text, "MCP server log")
