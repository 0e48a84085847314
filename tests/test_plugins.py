"""vLLM plugins (knowledge/vllm/plugins.yaml, engine/check/unknown_flags.py): a flag a plugin the
project uses adds is the plugin's, not a vLLM unknown option; an unknown flag where the project
installs an unlisted plugin is a P1; a close spelling is renamed by --fix only when it is trivially
the same flag."""
import pytest

from vllm_kb.engine.kb import plugins


def _remarks(write_project, files, gpu="H100-80GB x1"):
    from vllm_kb.engine.audit import audit

    root = write_project(files)
    (sr,) = audit(root, gpu=gpu).sites
    return {r.subject: r for r in sr.remarks if r.code in ("unknown-option", "plugin-option")}


def test_vllm_omni_flags_with_omni_on_the_launch_are_the_plugins(write_project):
    # vllm-omni #3571: `vllm serve mistralai/Voxtral-4B-TTS-2603 --omni --stage-configs-path …` (vllm-omni 0.18)
    r = _remarks(write_project, {"requirements.txt": "vllm==0.11.0\n", "serve.sh":
                 "#!/bin/bash\nvllm serve mistralai/Voxtral-4B-TTS-2603 --omni --stage-configs-path voxtral_tts.yaml --port 8091\n"})
    assert {k: (v.code, v.priority, v.fix) for k, v in r.items()} == {
        "omni": ("plugin-option", "P2", []), "stage_configs_path": ("plugin-option", "P2", [])}
    assert "vllm-omni" in r["stage_configs_path"].message["en"]


def test_a_plugin_installed_by_the_project_owns_its_flags_without_its_marker(write_project):
    r = _remarks(write_project, {"requirements.txt": "vllm==0.11.0\nvllm-omni==0.14.0\n", "serve.sh":
                 "#!/bin/bash\nvllm serve Qwen/Qwen-Image --stage-init-timeout 600\n"})
    assert r["stage_init_timeout"].code == "plugin-option"


def test_a_plugin_image_counts_as_installed(write_project):
    r = _remarks(write_project, {"docker-compose.yaml": "services:\n  omni:\n    image: vllm/vllm-omni:v0.22.0\n    ipc: host\n"
                 "    command: [\"vllm\", \"serve\", \"Qwen/Qwen2.5-Omni-7B\", \"--deploy-config\", \"d.yaml\"]\n"})
    assert r["deploy_config"].code == "plugin-option"


def test_a_plugin_flag_without_the_plugin_stays_p0_and_is_never_renamed(write_project):
    # the harmful edit this replaces: --stage-configs-path → --hf-config-path
    r = _remarks(write_project, {"requirements.txt": "vllm==0.11.0\n", "serve.sh":
                 "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --stage-configs-path stages.yaml\n"})
    f = r["stage_configs_path"]
    assert (f.code, f.priority, f.fix) == ("unknown-option", "P0", [])
    assert "--hf-config-path" in f.message["en"] and "vllm-omni" in f.message["en"]


def test_a_flag_no_listed_plugin_has_is_p0_even_with_the_plugin(write_project):
    # vllm-omni #4508: `--stage-0-devices` in the vllm/vllm-omni:v0.22.0 image fails with "unrecognized arguments"
    r = _remarks(write_project, {"requirements.txt": "vllm==0.11.0\nvllm-omni==0.22.0\n", "serve.sh":
                 "#!/bin/bash\nvllm serve zai-org/GLM-Image --omni --port 8091 --stage-0-devices 0\n"})
    assert (r["stage_0_devices"].code, r["stage_0_devices"].priority) == ("unknown-option", "P0")


def test_an_unlisted_plugin_makes_an_unknown_flag_p1(write_project):
    r = _remarks(write_project, {"requirements.txt": "vllm==0.10.2\nvllm-spyre==0.9.0\n", "serve.sh":
                 "#!/bin/bash\nvllm serve ibm-granite/granite-3.3-8b-instruct --spyre-warmup-shapes 64\n"})
    f = r["spyre_warmup_shapes"]
    assert (f.code, f.priority, f.fix) == ("unknown-option", "P1", [])
    assert "vllm-spyre" in f.message["en"]


@pytest.mark.parametrize("flag", ["-max-model-len", "--Max-Model-Len", "--max_model_len_"[:-1]])
def test_a_trivially_different_spelling_is_renamed(write_project, flag):
    r = _remarks(write_project, {"requirements.txt": "vllm==0.11.0\n", "serve.sh":
                 f"#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct {flag} 4096\n"})
    for f in r.values():
        assert f.code == "unknown-option" and f.safe and f.fix[0][1] == "max_model_len"


def test_a_close_but_different_name_is_proposed_but_never_a_safe_edit(write_project):
    """The one clearly closest option is the proposed change (what the reporter would type), but a
    close spelling may be another option: only `--fix --unsafe-fixes` applies it."""
    r = _remarks(write_project, {"requirements.txt": "vllm==0.11.0\n", "serve.sh":
                 "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-length 4096\n"})
    f = r["max_model_length"]
    assert f.priority == "P0" and "--max-model-len" in f.message["en"]
    assert [(op.kind, v) for op, v in f.fix] == [("rename", "max_model_len")] and not f.safe


def test_two_about_as_close_names_are_only_named(write_project):
    r = _remarks(write_project, {"requirements.txt": "vllm==0.11.0\n", "serve.sh":
                 "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-num-seq 8\n"})
    f = r.get("max_num_seq")
    assert f is None or f.fix == [] or not f.safe


def test_package_names_that_are_no_plugin():
    assert plugins.packages_in("FROM vllm/vllm-openai:v0.9.1\nRUN pip install vllm-flash-attn vllm_spyre\n") == {"vllm-spyre"}
    assert plugins.packages_in("image: quay.io/ascend/vllm-ascend:v0.9.1\n") == {"vllm-ascend"}


def test_a_dockerfile_installs_only_what_its_run_and_from_name(write_project):
    # yanglinfang/research_chats (eval79): CMD [..., "--log-dir", "vllm_logs"] installs no "vllm-logs" plugin,
    # so its unknown flags stay P0; a RUN that installs a plugin (continued over lines) still counts
    df = ('FROM nvidia/cuda:12.1.0-runtime-ubuntu22.04\nRUN pip install vllm==0.10.2\n'
          'ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
          'CMD ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-batch-tokens", "8192", "--log-dir", "vllm_logs"]\n')
    r = _remarks(write_project, {"Dockerfile": df})
    assert {k: (v.code, v.priority) for k, v in r.items()} == {
        "max_batch_tokens": ("unknown-option", "P0"), "log_dir": ("unknown-option", "P0")}
    assert plugins.packages_in(df, dockerfile=True) == set()
    assert plugins.packages_in("FROM python:3.12\nRUN pip install \\\n    vllm==0.10.2 \\\n    vllm-spyre==0.9.0\n",
                               dockerfile=True) == {"vllm-spyre"}


def _env_remarks(write_project, files):
    from vllm_kb.engine.audit import audit

    (sr,) = audit(write_project(files), gpu="H100-80GB x1").sites
    return {r.subject for r in sr.remarks if r.code == "env-not-in-version"}


def test_a_plugins_own_variables_are_not_reported_as_vllm_variables(write_project):
    # fix85 (hicann/cann-recipes-train, eval85): `export VLLM_ASCEND_ENABLE_NZ=0` was "not a vLLM 0.11.0 variable";
    # vllm-ascend's envs.py reads it (0.11.0 wheel). Any name under its prefix is the plugin's; another unknown
    # VLLM_* stays reported
    script = "#!/bin/bash\nexport VLLM_ASCEND_ENABLE_NZ=0\nexport VLLM_ASCEND_NOT_YET_READ=1\nexport VLLM_NO_SUCH_THING=1\nvllm serve Qwen/Qwen2.5-7B-Instruct\n"
    assert _env_remarks(write_project, {"requirements.txt": "vllm==0.11.0\n", "serve.sh": script}) == {"VLLM_NO_SUCH_THING"}


def test_a_plugin_variable_outside_its_prefix_needs_the_plugin(write_project):
    # VLLM_VERSION is vllm-ascend's (its envs.py), not vLLM's: quiet only where the project uses vllm-ascend
    script = "#!/bin/bash\nexport VLLM_VERSION=0.11.0\nvllm serve Qwen/Qwen2.5-7B-Instruct\n"
    assert _env_remarks(write_project, {"requirements.txt": "vllm==0.11.0\n", "serve.sh": script}) == {"VLLM_VERSION"}
    assert _env_remarks(write_project, {"requirements.txt": "vllm==0.11.0\nvllm-ascend==0.11.0\n", "serve.sh": script}) == set()
    assert plugins.env_owner("VLLM_ASCEND_ENABLE_NZ", frozenset()) == "vllm-ascend"
    assert plugins.env_owner("VLLM_VERSION", frozenset()) is None


def test_the_extractor_reads_the_vllm_keys_of_env_variables():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    from plugin_flags import env_names

    text = ('import os\nfrom typing import Any, Callable, Dict\nenv_variables: Dict[str, Callable[[], Any]] = {\n'
            '    "MAX_JOBS": lambda: os.getenv("MAX_JOBS", None),\n'
            '    "VLLM_ASCEND_ENABLE_NZ": lambda: int(os.getenv("VLLM_ASCEND_ENABLE_NZ", 1)),\n'
            '    "VLLM_VERSION": lambda: os.getenv("VLLM_VERSION", None),\n}\nOTHER = {"VLLM_X": 1}\n')
    assert env_names(text) == {"VLLM_ASCEND_ENABLE_NZ", "VLLM_VERSION"}


def test_vllm_ascend_installed_is_the_npu_platform(write_project):
    """vllm-ascend's register() names its NPUPlatform whatever the machine, and vLLM takes the one
    out-of-tree platform plugin installed (vllm/platforms/__init__.py:226-236 in 0.9.1): CUDA's start-up
    refusals (a GPU count the --gpu spec lacks) are not certain there, P1 at most."""
    from vllm_kb.engine.audit import audit

    serve = "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 4 --max-model-len 8192\n"
    cuda = audit(write_project({"requirements.txt": "vllm==0.9.1\n", "serve.sh": serve}), gpu="A100-80GB x1").sites[0]
    assert any(r.check.id == "L34" and r.priority == "P0" for r in cuda.results)
    root = write_project({"requirements.txt": "vllm==0.9.1\nvllm-ascend==0.9.1\n", "serve.sh": serve})
    (sr,) = audit(root, gpu="A100-80GB x1").sites
    assert sr.facts["site"]["platform"] == "npu" and not any(r.priority == "P0" for r in sr.results)


def test_a_script_starting_the_plugin_image_installs_the_plugin():
    text = "export IMAGE=quay.io/ascend/vllm-ascend:v0.10.0rc1\ndocker run --name vllm-ascend01 -it -d $IMAGE bash\n"
    assert plugins.images_in(text) == {"vllm-ascend"}
    assert plugins.images_in("docker run --name vllm-ascend01 vllm/vllm-openai:v0.9.1\n") == set()


def test_an_architecture_an_installed_plugin_may_register_gets_the_plugin_rule(write_project):
    # vllm-omni#276: `vllm serve Qwen3-Omni… --omni` with vllm-omni installed; vLLM 0.11.0 has no
    # Qwen3OmniMoeForConditionalGeneration, the plugin's general entry point registers its own classes
    from vllm_kb.engine.audit import audit

    launch = "vllm serve Qwen/Qwen3-Omni-30B-A3B-Instruct --omni --port 8091\n"
    (sr,) = audit(write_project({"requirements.txt": "vllm==0.11.0\nvllm-omni==0.11.0rc1\n", "serve.sh": launch}),
                  gpu="A100-80GB x2").sites
    r = next(x for x in sr.results if x.check.id == "L21")
    assert r.priority == "P1" and "vllm_omni_register_models" in repr(r) and "startup.arch_plugin" in repr(r)
    assert plugins.model_registrar(frozenset({"vllm-ascend"})) is None


def test_plugin_call_imports_by_release_and_vllm_plugins():
    """PaddleX's general plugin imports ernie45 (vLLM 0.9.2+) when vLLM calls it: facts only where the pinned
    vLLM calls plugins unguarded (0.7.0+) and lacks the module, and VLLM_PLUGINS does not keep the plugin out."""
    from types import SimpleNamespace

    from vllm_kb.engine.check.plugin_calls import plugin_call_facts

    def facts(version, env=None):
        return {"vllm": {"version": version, "pinned": True}, "env": env or {}}

    def pin(exact):
        return lambda pkg: SimpleNamespace(exact=exact) if pkg == "paddlex" else None

    got = plugin_call_facts(facts("0.8.5"), pin("3.3.0"))
    assert got["plugin_call_module"] == "vllm.model_executor.models.ernie45" and got["plugin_call_vllm"] == ">=0.9.2"
    assert plugin_call_facts(facts("0.8.5"), pin(None))["plugin_call_release"] == "(release not pinned)"
    assert plugin_call_facts(facts("0.9.2"), pin("3.3.0")) == {}  # the module is there
    assert plugin_call_facts(facts("0.6.6"), pin("3.3.0")) == {}  # the call sits inside vLLM's try
    assert plugin_call_facts(facts("0.8.5"), pin("3.2.1")) == {}  # no vllm.general_plugins entry point yet
    assert plugin_call_facts(facts("0.8.5"), lambda pkg: None) == {}  # not installed
    assert plugin_call_facts(facts("0.8.5", {"VLLM_PLUGINS": ""}), pin("3.3.0")) == {}
    assert plugin_call_facts(facts("0.8.5", {"VLLM_PLUGINS": "register_paddlex_genai_models"}), pin("3.3.0"))


def test_diagnose_names_the_plugin_rule_for_a_missing_model_module():
    # DeepSeek-OCR #195: PaddleX's vllm.general_plugins function imports ernie45, which vLLM has from 0.9.2
    from vllm_kb.engine.advise.diagnose.launch import recognise
    from vllm_kb.engine.kb.knowledge import load

    hits = recognise(load(), "ModuleNotFoundError: No module named 'vllm.model_executor.models.ernie45'")
    assert hits and hits[0].id == "L43" and "ernie45" in hits[0].match.text
    assert "L139" in {h.id for h in hits}  # the project's own import stays a candidate
