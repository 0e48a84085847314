"""Classes of false P0 found by auditing real repositories (the sweep of December 2026): a value
near a registered name where a plugin can register more, a family's broad pattern claiming a later
release of another architecture."""
from __future__ import annotations

import json

import pytest

from vllm_kb.engine.kb import knowledge, models

CONFIG = """\
model: vllm-ascend/Qwen3-235B-A22B-W8A8
tensor-parallel-size: 8
kv-transfer-config: '{"kv_connector": "MooncakeConnectorV1", "kv_role": "kv_producer"}'
"""


def _findings(cli, root):
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    return {(r["check"].split(":")[0], r["priority"]) for s in json.loads(out)["sites"] for r in s["recommendations"]
            if r["kind"] == "finding"}


@pytest.mark.parametrize("install, expect", [
    ("vllm==0.13.0\nvllm-ascend==0.13.0\n", ("value-unlisted", "P1")),  # vllm-ascend registers MooncakeConnectorV1
    ("vllm==0.13.0\n", ("value-unknown", "P0")),  # nothing registers it: a misspelt MooncakeConnector
])
def test_a_connector_near_a_listed_one_is_a_typo_only_without_a_plugin(cli, write_project, install, expect):
    root = write_project({"requirements.txt": install, "serve.sh": "vllm serve --config prefill.yaml\n",
                          "prefill.yaml": CONFIG})
    got = _findings(cli, root)
    assert expect in got, got


AIBRIX = ("vllm serve Qwen/Qwen2.5-1.5B-Instruct --kv-transfer-config "
          "'{\"kv_connector\":\"AIBrixOffloadingConnectorV1Type1\", \"kv_role\":\"kv_both\"%s}'\n")


@pytest.mark.parametrize("install, extra, expect", [
    ("vllm==0.9.2\naibrix_kvcache\n", "", ("value-unlisted", "P0")),  # aibrix #1525: only AIBrix's vLLM build has it
    ("vllm==0.9.2\n", ', \"kv_connector_module_path\":\"my.mod\"', ("value-unlisted", "P1")),  # a module may hold it
])
def test_a_vendor_build_connector_on_stock_vllm(cli, write_project, install, extra, expect):
    root = write_project({"requirements.txt": install, "serve.sh": AIBRIX % extra})
    got = _findings(cli, root)
    assert expect in got, got


def test_a_vendor_build_connector_without_a_stock_vllm_pin_is_not_a_p0(cli, write_project):
    root = write_project({"Dockerfile": "FROM aibrix/vllm-openai:v0.9.2-aibrix\n", "serve.sh": AIBRIX % ""})
    got = _findings(cli, root)
    assert ("value-unlisted", "P0") not in got, got


@pytest.mark.parametrize("name", ["zai-org/GLM-4.7", "vllm-ascend/GLM-4.7-W8A8", "zai-org/GLM-4.7-Flash"])
def test_a_later_dotted_glm_release_is_not_the_dense_glm_4_9b(name):
    fam = models.family_of(name, knowledge.load().models)
    assert fam is None or fam.get("moe") is not False, fam and fam["id"]


OME_RUNTIME = """\
apiVersion: ome.io/v1beta1
kind: ClusterServingRuntime
metadata: {name: vllm-vision}
spec:
  engineConfig:
    volumes:
      - name: dshm
        emptyDir: {medium: Memory}
    runner:
      name: ome-container
      image: docker.io/vllm/vllm-openai:v0.9.0.1
      command: [python3, -m, vllm.entrypoints.openai.api_server, --port, "8080", --model, $(MODEL_PATH),
                --tensor-parallel-size, "2", --limit-mm-per-prompt, image=1, --max-model-len, "8192"]
      volumeMounts:
        - {mountPath: /dev/shm, name: dshm}
      resources:
        limits: {nvidia.com/gpu: 2}
"""


def test_an_ome_runner_is_a_container_with_its_image_and_shm(cli, write_project):
    code, out, err = cli("audit", str(write_project({"rt.yaml": OME_RUNTIME})), "--gpu", "H100-80GB x2", "--isolated", "-q",
                         "--format", "json")
    (site,) = json.loads(out)["sites"]
    assert site["vllm"]["version"] == "0.9.0.1"  # a four-part release read from the tag
    assert not [r["check"] for r in site["recommendations"] if r["priority"] == "P0"]


@pytest.mark.parametrize("image, version", [("opea/vllm-gaudi:1.22.0", None), ("vllm/vllm-openai:v0.10.1.1", "0.10.1.1"),
                                            ("ghcr.io/x/vllm-custom:v0.8.5-cu124", "0.8.5"),
                                            ("lmcache/vllm-openai:v0.3.7", None), ("opea/vllm-gaudi:1.2.0", None),
                                            ("docker.io/lmcache/vllm-openai:v0.3.12-lightweight", None),
                                            # AIBrix's vineyard sample: a build of a commit after 0.6.1, dated 2025-01-18
                                            ("aibrix/vllm-openai:v0.6.1-edb07092-20250118", None),
                                            ("vllm/vllm-openai:v0.10.0-cu128", "0.10.0")])
def test_a_vendor_numbering_beyond_vllm_is_no_release(image, version):
    from vllm_kb.engine.scan.images import image_version

    assert image_version(image) == version


UNTAGGED = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: lmcache}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: lmcache/vllm-openai:latest
          command: [vllm, serve, Qwen/Qwen2.5-7B-Instruct, --kv-transfer-config, '{"kv_connector":"LMCacheConnector","kv_role":"kv_both"}']
"""


def test_a_rename_only_newer_releases_need_is_not_applied_where_the_release_is_unknown(cli, write_project):
    root = write_project({"deploy.yaml": UNTAGGED})
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB", "--isolated", "-q", "--fix")
    assert code in (0, 1), err
    assert '"kv_connector":"LMCacheConnector"' in (root / "deploy.yaml").read_text()  # older images lack LMCacheConnectorV1


# vllm-project/production-stack tutorials/assets/values-23-SR.yaml (a tutorial that runs): the image is
# lmcache/vllm-openai:v0.3.7, i.e. LMCache 0.3.7 (LMCache/LMCache#3251, production-stack#796), with
# Qwen3-8B and two served names. Read as vLLM 0.3.7, it drew three false P0s (Qwen3 unknown to 0.3.x,
# enablePrefixCaching "first in 0.4.0", "qwen3" a stray positional).
LMCACHE_TAGGED = """\
servingEngineSpec:
  modelSpec:
  - name: "qwen3"
    repository: "lmcache/vllm-openai"
    tag: "v0.3.7"
    modelURL: "Qwen/Qwen3-8B"
    vllmConfig:
      extraArgs: ["--served-model-name", "Qwen/Qwen3-8B", "qwen3"]
    requestGPU: 1
"""


def test_a_vendor_numbered_tag_is_not_read_as_a_vllm_release(json_site, p0s, write_project):
    root = write_project({"values.yaml": LMCACHE_TAGGED})
    site = json_site(root)
    assert site["vllm"]["version"] != "0.3.7"
    assert not p0s(site)


# vLLM 0.34's tools/recipes/serve_with_recipe.sh runs `vllm serve --config "${OUTPUT_DIR}/config.yml"`,
# a file its converter writes at run time: whether it names the model is not known, so no P0.
def test_a_config_file_the_project_lacks_gives_no_model_verdict(json_site, p0s, write_project):
    root = write_project({"serve.sh": 'OUT="${1:-out}"\nexec vllm serve --config "${OUT}/config.yml"\n',
                          "requirements.txt": "vllm==0.34.0\n"})
    site = json_site(root)
    assert "L33" not in p0s(site)


def test_a_config_file_without_the_model_still_refuses(json_site, p0s, write_project):
    root = write_project({"serve.sh": "vllm serve --config cfg.yaml\n", "cfg.yaml": "port: 8001\nmax_model_len: 4096\n",
                          "requirements.txt": "vllm==0.34.0\n"})
    site = json_site(root)
    assert "L33" in p0s(site)


# vLLM 0.6.3's own tree: requirements-common.txt says `transformers >= 4.45.0` and mentions no
# vLLM package, so it was never read, while Dockerfile.neuron's `pip install transformers==4.36.2`
# was: every example then "pinned" 4.36.2 and got L52 P0s (llava_onevision needs 4.45).
def test_a_requirements_file_that_names_only_transformers_is_read(cli, write_project):
    root = write_project({"requirements-common.txt": "numpy\ntransformers >= 4.45.0  # Llama 3.2\n",
                          "Dockerfile.neuron": "FROM ubuntu:22.04\nCOPY . /app/vllm\nRUN python3 -m pip install transformers==4.36.2 -U\n",
                          "examples/vl.py": 'from vllm import LLM\nllm = LLM(model="llava-hf/llava-onevision-qwen2-7b-ov-hf", max_model_len=4096)\n'})
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB", "--isolated", "-q", "--format", "json")
    sites = [s for s in json.loads(out)["sites"] if s["file"] == "examples/vl.py"]
    assert sites and "L52" not in [r["check"] for r in sites[0]["recommendations"] if r["priority"] == "P0"]


# AIBrix's samples/vllm-ascend/job.yaml: `vllm serve … --tensor-parallel-size 2` in
# quay.io/ascend/vllm-ascend:v0.11.0rc1-a3 without a /dev/shm volume. The image is vLLM's Ascend
# plugin build: the CUDA build's start-up refusals are not its own (P1 at most).
ASCEND = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: npu}
spec:
  template:
    spec:
      containers:
      - name: prefill
        image: quay.io/ascend/vllm-ascend:v0.11.0rc1-a3
        command: ["/bin/bash", "-c"]
        args: ["vllm serve Qwen/Qwen2.5-0.5B-Instruct --port 8008 --tensor-parallel-size 2"]
"""


def test_an_image_built_for_another_accelerator_is_not_judged_by_the_cuda_build(json_site, p0s, write_project):
    from vllm_kb.engine.check.site_platform import platform

    assert platform({}, {}, "quay.io/ascend/vllm-ascend:v0.11.0rc1-a3") == "npu"
    assert platform({}, {}, "rocm/vllm:rocm6.3.1_vllm_0.8.5_20250521") == "rocm"
    assert platform({}, {}, "vllm/vllm-openai:v0.10.0") == "cuda"
    # Intel's LLM Scaler image of vLLM for Arc GPUs (GenAIComps compose_text-generation.yaml: /dev/dri): XPU, where
    # vLLM runs eagerly whatever enforce_eager says (0.10.0 vllm/platforms/xpu.py:108-112), so A2 says nothing
    assert platform({}, {}, "intel/llm-scaler-vllm:latest") == "xpu"
    root = write_project({"job.yaml": ASCEND})
    site = json_site(root, "H100-80GB x2")
    assert not p0s(site)



def test_a_commit_build_is_read_by_its_date_not_its_base_release(json_site, p0s, write_project):
    root = write_project({"deploy.yaml": DEPLOY_TMPL.format(image="aibrix/vllm-openai:v0.6.1-edb07092-20250118")})
    site = json_site(root)
    assert site["vllm"]["basis"] == "image-dated"
    assert "not-in-version:disable_fastapi_docs" not in p0s(site)


DEPLOY_TMPL = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: m}}\nspec:\n  template:\n    spec:\n      containers:\n"
               "      - name: vllm-openai\n        image: {image}\n"
               "        command: [vllm, serve, deepseek-ai/deepseek-coder-6.7b-instruct, --max-model-len, '8192', --disable-fastapi-docs]\n")


# `--limit-mm-per-prompt=image=4` as one word (a compose list item): argparse splits it at the first
# `=`, so 0.6–0.8.4 read `image=4` as their key=value form; the whole word was read as the value
# and called JSON (a false L32 P0 there)
@pytest.mark.parametrize("word, p0", [('"--limit-mm-per-prompt=image=4"', False), ('"--limit-mm-per-prompt={\\"image\\": 4}"', True)])
def test_a_flag_joined_to_its_key_value_pairs_is_read_as_they_are_written(json_site, p0s, write_project, word, p0):
    compose = ("services:\n  vllm:\n    image: vllm/vllm-openai:v0.6.3\n    ipc: host\n"
               f'    command: ["--model", "Qwen/Qwen2-VL-7B-Instruct", {word}, "--max-model-len=8192"]\n')
    site = json_site(write_project({"compose.yaml": compose}), "A100-80GB")
    assert ("L32" in p0s(site)) is p0


@pytest.mark.parametrize("release", ["0.13.0", "0.20.0", "0.34.0"])
def test_a_lower_case_attention_backend_is_the_member_vllm_upper_cases(cli, write_project, release):
    # vLLM #44985: `--attention-backend flash_attn` runs on 0.20.0 (AttentionBackendEnum[value.upper()])
    root = write_project({"requirements.txt": f"vllm=={release}\n",
                          "serve.sh": "vllm serve Qwen/Qwen3-8B --attention-backend flash_attn\n"})
    got = _findings(cli, root)
    assert not {f for f in got if f[0] in ("value-unlisted", "value-unknown")}, got


VERL_72B = """\
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-72B-Instruct \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.tensor_model_parallel_size=4 \\
    actor_rollout_ref.rollout.gpu_memory_utilization=0.5 \\
    trainer.n_gpus_per_node=8 trainer.nnodes=4
"""


@pytest.mark.parametrize("vllm, fork", [("vllm<=0.6.3", True), ("vllm==0.8.5", False)])
def test_verls_own_vllm_copy_sizes_the_cache_from_free_memory(write_project, vllm, fork):
    # Search-R1's 72B recipe (verl with vllm<=0.6.3): verl/third_party/vllm/vllm_v_0_6_3/worker.py:210
    # takes gpu_memory_utilization of the memory free after the weights, so no "No available memory"
    from vllm_kb.engine.audit import audit
    rep = audit(write_project({"requirements.txt": f"{vllm}\nverl==0.3.0.post1\n", "train.sh": VERL_72B}), gpu="H100-80GB x8")
    (site,) = rep.sites
    assert ("verl_fork_kv" in site.facts["launch"]) == fork
    if fork:
        assert all(r.status == "not_applicable" for r in site.results if r.check.id in ("L15", "L16"))


def test_trl_0_18_drops_a_configs_removed_keys_without_a_word(cli, write_project):
    # open-r1 pins trl==0.18.0; its codeforces recipe still has vllm_device: TrlParser rejects unknown
    # config keys only from 0.19.0 (fail_with_unknown_args)
    config = "model_name_or_path: Qwen/Qwen2.5-Coder-7B-Instruct\nuse_vllm: true\nvllm_device: auto\n"
    for trl, want in (("0.18.0", "P1"), ("0.19.1", "P0")):
        root = write_project({"requirements.txt": f"trl=={trl}\nvllm==0.8.5.post1\n", "config_grpo.yaml": config,
                              "train.sh": "accelerate launch grpo.py --config config_grpo.yaml\n"})
        got = _findings(cli, root)
        assert ("trl-legacy-key", want) in got, (trl, got)


def test_a_broken_later_document_leaves_the_deployment_before_it(write_project):
    # GKE's Llama 4 samples end in a Secret with a `{{HF_TOKEN}}` placeholder: the Deployment above
    # it is still a site, and the skip names the line from which the file could not be read
    from vllm_kb.engine.audit import audit
    manifest = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: vllm}\nspec:\n  template:\n    spec:\n"
                "      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.8.5\n"
                "          args: [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\"]\n"
                "---\napiVersion: v1\nkind: Secret\nmetadata: {name: hf}\nstringData:\n  token: {{HF_TOKEN}}\n")
    rep = audit(write_project({"vllm.yaml": manifest}), gpu="H100-80GB")
    assert len(rep.sites) == 1
    assert [(s.file, s.code, s.line) for s in rep.skipped] == [("vllm.yaml", "yaml-partial", 16)]


def test_a_kserve_token_from_a_secret_counts(write_project):
    # KServe's Llama 3 sample (kserve#3769): HF_TOKEN comes from a secretKeyRef
    from vllm_kb.engine.audit import audit
    isvc = ("apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: llama3}\nspec:\n"
            "  predictor:\n    model:\n      modelFormat: {name: huggingface}\n"
            "      args: [--model_name=llama3, --model_id=meta-llama/meta-llama-3-8b-instruct]\n"
            "      env:\n        - name: HF_TOKEN\n          valueFrom: {secretKeyRef: {name: hf-secret, key: HF_TOKEN}}\n"
            "      resources: {limits: {nvidia.com/gpu: '1'}}\n")
    rep = audit(write_project({"isvc.yaml": isvc}), gpu="A100-80GB")
    (site,) = rep.sites
    assert [r.status for r in site.results if r.check.id == "L51"] != ["recommended"]


def test_lower_case_enum_keys_of_json_configs_are_the_members_vllm_upper_cases(cli, write_project):
    # eval93 muteking/spark-vllm-docker-cn (https://github.com/muteking/spark-vllm-docker-cn): `--compilation-config
    # .cudagraph_mode none`, `-cc '{"cudagraph_mode": "full"}'` and `--attention-config.backend flashinfer` run on 0.34.0
    # (pydantic validators `Enum[value.upper()]`, config/compilation.py:1028, config/attention.py:289); a name no
    # release has stays unlisted
    root = write_project({"requirements.txt": "vllm==0.34.0\n", "serve.sh": (
        "vllm serve Qwen/Qwen3-8B --attention-config.backend flashinfer --compilation-config.cudagraph_mode none\n"
        "vllm serve Qwen/Qwen3-8B --port 8001 --attention-config.backend flashmagic -cc '{\"cudagraph_mode\": \"full\"}'\n")})
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--format", "json")
    got = {r["check"] for s in json.loads(out)["sites"] for r in s["recommendations"] if r["check"].startswith("value-")}
    assert got == {"value-unlisted:attention_config.backend=flashmagic"}, got
