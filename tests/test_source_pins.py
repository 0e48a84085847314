"""vLLM built from its sources (engine/scan/source_pins.py): a git URL, a checkout built in place, a
nightly wheel or a development version is no release, so an option only newer releases dropped (or,
where the build may be newer than every release, an option no release has) is a P1, never a P0; a
development version of a known release is judged between that release and the one before it."""
from __future__ import annotations

import pytest

OLD = "vllm serve Qwen/Qwen3-8B --enable-reasoning --reasoning-parser deepseek_r1\n"  # dropped in 0.10
NEW = "vllm serve Qwen/Qwen3-8B --frobnicate-kv 4\n"  # in no release: maybe main's own



SOURCES = {
    "git requirement": {"requirements.txt": "vllm @ git+https://github.com/vllm-project/vllm.git@main\n"},
    "git in a script": {"setup.sh": "pip install git+https://github.com/vllm-project/vllm@4fd9d6a85c00ac01\n"},
    "git in a Dockerfile": {"Dockerfile": "FROM python:3.12\nRUN pip install git+https://github.com/vllm-project/vllm@4fd9d6a\n"},
    "checkout": {"setup.sh": "git clone https://github.com/vllm-project/vllm.git\ncd vllm\nVLLM_USE_PRECOMPILED=1 pip install -e .\n"},
    "nightly": {"Dockerfile": "FROM python:3.12\nRUN pip install -U vllm --pre --extra-index-url https://wheels.vllm.ai/nightly\n"},
}


@pytest.mark.parametrize("serve", [OLD, NEW])
@pytest.mark.parametrize("how", sorted(SOURCES))
def test_a_build_from_source_gets_no_p0_for_its_options(write_project, how, serve, json_site, p0s):
    site = json_site(write_project({**SOURCES[how], "serve.sh": serve}))
    assert site["vllm"]["basis"] == "source", site["vllm"]
    assert not p0s(site)


def test_an_image_that_builds_vllm_from_a_commit_and_serves_it(write_project, json_site, p0s):
    df = ("FROM nvidia/cuda:12.8.0-devel-ubuntu22.04\nRUN pip install git+https://github.com/vllm-project/vllm@4fd9d6a\n"
          'CMD ["vllm", "serve", "Qwen/Qwen3-8B", "--frobnicate-kv", "4"]\n')
    site = json_site(write_project({"Dockerfile": df}))
    assert site["vllm"]["basis"] == "source" and not p0s(site)


def test_a_dev_version_names_its_release(write_project, json_site, p0s):
    site = json_site(write_project({"requirements.txt": "vllm==0.6.4.dev12+g1a2b3c4d\n", "serve.sh": OLD}))
    assert site["vllm"]["basis"] == "source" and site["vllm"]["version"] == "0.6.4"
    # neither 0.6.3 nor 0.6.4 has the reasoning flags: the launch fails
    assert {"not-in-version:enable_reasoning", "not-in-version:reasoning_parser"} <= set(p0s(site))
    site = json_site(write_project({"requirements.txt": "vllm==0.6.4.dev12+g1a2b3c4d\n", "serve.sh": NEW}))
    assert any(c.startswith("unknown-option") for c in p0s(site))  # a known release's dev build: a typo stays P0


@pytest.mark.parametrize("pin", ["vllm==0.10.0+cu128\n", "vllm==0.10.0\n", "git+https://github.com/huggingface/trl\nvllm==0.10.0\n"])
def test_releases_and_other_git_urls_stay_releases(write_project, pin, json_site, p0s):
    site = json_site(write_project({"requirements.txt": pin, "serve.sh": OLD}))
    assert site["vllm"]["basis"] != "source"


def test_an_environment_assignment_is_no_plugin_package():
    from vllm_kb.engine.kb.plugins import packages_in

    assert packages_in("VLLM_USE_PRECOMPILED=1 pip install -e .") == set()
    assert packages_in("pip install vllm-omni==0.14.0 vllm_spyre>=1") == {"vllm-omni", "vllm-spyre"}


@pytest.mark.parametrize("pins,version,low", [
    ({"requirements.txt": "vllm==0.9.3.dev10+g1a2b3c4d\n"}, "0.10.0", "0.9.2"),  # setuptools-scm's next patch: no 0.9.3 came
    # after a release candidate: main's code as likely as the branch's, up to the next minor release (test_pin_precedence)
    ({"requirements.txt": "vllm==0.10.0rc2.dev5+g1a2b3c4d\n"}, "0.10.0", "0.9.2 and 0.11.0"),
    ({"Dockerfile": "FROM python:3.12\nRUN pip install "
      "https://wheels.vllm.ai/1a2b3c4d1a2b3c4d1a2b3c4d1a2b3c4d1a2b3c4d/vllm-0.9.3.dev10%2Bg1a2b3c4-cp38-abi3-manylinux1_x86_64.whl\n"},
     "0.10.0", "0.9.2"),  # a commit's wheel, as pip is given it
    ({"requirements.txt": "vllm @ https://wheels.vllm.ai/1a2b3c4d/vllm-0.9.3.dev10+g1a2b3c4-cp38-abi3-manylinux1_x86_64.whl\n"},
     "0.10.0", "0.9.2"),
])
def test_a_dev_version_of_a_line_no_release_took_lies_between_its_neighbours(write_project, json_site, p0s, pins, version, low):
    site = json_site(write_project({**pins, "serve.sh": OLD}))
    assert site["vllm"]["basis"] == "source" and site["vllm"]["version"] == version
    assert (f"between {low}" if " and " in low else f"between {low} and {version}") in site["vllm"]["source"]
    assert not p0s(site)  # 0.9.2 still takes the reasoning flags 0.10.0 dropped: a P1


def test_the_nightly_wheel_url_is_newer_than_every_release(write_project, json_site, p0s):
    df = "FROM python:3.12\nRUN pip install https://wheels.vllm.ai/nightly/vllm-1.0.0.dev-cp38-abi3-manylinux1_x86_64.whl\n"
    site = json_site(write_project({"Dockerfile": df, "serve.sh": NEW}))
    assert site["vllm"]["basis"] == "source" and not p0s(site)  # an option no release has may be main's own


def test_a_commented_clone_is_no_checkout():
    # jasonacox/TinyLLM vllm/optional_build/Dockerfile.source: the prerequisites in its header comment
    # say to clone vLLM; the build itself copies the context in (eval73)
    from vllm_kb.engine.scan.source_pins import checkout_line

    text = ("# Prerequisites:\n#   git clone https://github.com/vllm-project/vllm.git\n#   cd vllm\n"
            "FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\nCOPY . .\nRUN python3 -m pip install -e .\n")
    assert checkout_line(text) is None
    assert checkout_line(text.replace("#   git clone", "RUN git clone")) == 2
    assert checkout_line("RUN git clone https://github.com/vllm-project/vllm.git  # then\n# pip install -e .\n") is None


def test_a_dev_build_after_a_release_candidate_may_hold_the_next_minor_releases_models(write_project, json_site, p0s):
    # kika/qwen-hotaisle (eval60): a wheel of main after v0.16.0rc2 serves Qwen3.5, whose classes came with 0.17.0;
    # judged as 0.16.0, whose transformers (<5) cannot fall back either: L21 holds only for code before 0.17.0
    site = json_site(write_project({"requirements.txt": "vllm==0.16.0rc2.dev367+g98b0205c3\n",
                                    "serve.sh": "vllm serve Qwen/Qwen3.5-397B-A17B-FP8 --tensor-parallel-size 8\n"}))
    assert site["vllm"]["version"] == "0.16.0" and "between 0.15.1 and 0.17.0" in site["vllm"]["source"]
    l21 = next(c for c in site["checks"] if c["id"] == "L21")
    assert l21["priority"] == "P1" and "<0.17.0" in l21["reason"]
    assert "L21" not in p0s(site)


@pytest.mark.parametrize("files,version", [
    # eval79 yorelog/vllm-docker-multi-cuda-version: the Dockerfile clones the v0.10.0 tag into the workdir
    ({"Dockerfile": "FROM nvidia/cuda:12.8.0-devel-ubuntu22.04\n"
      "RUN git clone --depth 1 --branch v0.10.0 https://github.com/vllm-project/vllm.git .\n"
      "RUN VLLM_USE_PRECOMPILED=1 pip install -e .\n"}, "0.10.0"),
    ({"setup.sh": "git clone https://github.com/vllm-project/vllm\ncd vllm\ngit checkout v0.9.2\npip install -e .\n"}, "0.9.2"),
    ({"setup.sh": "git clone -b v0.9.2 https://github.com/vllm-project/vllm.git && cd vllm && pip install .\n"}, "0.9.2"),
    ({"setup.sh": "pip install git+https://github.com/vllm-project/vllm@v0.9.2\n"}, "0.9.2"),
    # eval85 hicann/cann-recipes-train: the clone's URL and tag are the Dockerfile's ARGs, the build names the
    # clone's path with an extra; another recipe clones then checks out the tag and builds the path
    ({"Dockerfile": "FROM ubuntu:22.04\nARG VLLM_REPO=https://github.com/vllm-project/vllm.git\nARG VLLM_TAG=v0.10.0\n"
      "RUN git clone --depth 1 $VLLM_REPO --branch $VLLM_TAG /workspace/vllm\n"
      "RUN VLLM_TARGET_DEVICE=\"empty\" python3 -m pip install -e /workspace/vllm/[audio]\n"}, "0.10.0"),
    ({"Dockerfile": "FROM ubuntu:22.04\nRUN git clone https://github.com/vllm-project/vllm.git && \\\n    cd vllm && \\\n"
      "    git checkout v0.9.2\nRUN python3 -m pip install -e /workspace/vllm/ --extra-index https://download.pytorch.org/whl/cpu/\n"},
     "0.9.2"),
])
def test_a_checkout_of_a_release_tag_is_that_release(write_project, json_site, p0s, files, version):
    site = json_site(write_project({**files, "serve.sh": OLD}))
    assert site["vllm"]["basis"] != "source" and site["vllm"]["version"] == version, site["vllm"]
    # a release, not a build that may hold main's code: 0.10.0 has no --enable-reasoning (L31, a P0), 0.9.2 still has it
    assert ("L31" in p0s(site)) == (version == "0.10.0")


@pytest.mark.parametrize("clone", [
    "git clone -b v0.9.2 https://github.com/someone/vllm.git",  # a fork's tag may hold its own changes
    "git clone -b main https://github.com/vllm-project/vllm.git",
    "git clone https://github.com/vllm-project/vllm.git",
])
def test_a_checkout_of_a_branch_or_a_fork_stays_a_source_build(clone):
    from vllm_kb.engine.scan.source_pins import checkout_release

    assert checkout_release(clone + "\ncd vllm\npip install -e .\n") is None


def test_each_recipe_of_a_monorepo_runs_its_own_checkout(write_project, cli):
    # eval85 hicann/cann-recipes-train: one recipe's Dockerfile clones v0.11.0 by name, another's its ARG
    # VLLM_TAG=v0.14.1; the second's launches were judged at the first's release (read for the whole repo)
    import json

    root = write_project({
        "agent/Dockerfile": "FROM ubuntu:22.04\nRUN git clone -b v0.11.0 --depth 1 https://github.com/vllm-project/vllm.git && \\\n"
                            "    cd vllm && VLLM_TARGET_DEVICE=empty pip install -e .\n",
        "agent/serve.sh": OLD,
        "llm/Dockerfile": "FROM ubuntu:22.04\nARG VLLM_TAG=v0.14.1\nRUN git clone --depth 1 https://github.com/vllm-project/vllm.git "
                          "--branch $VLLM_TAG /workspace/vllm\nRUN pip install -e /workspace/vllm/\n",
        "llm/internal/serve.sh": OLD,
    })
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json")
    got = {s["file"]: s["vllm"]["version"] for s in json.loads(out)["sites"]}
    assert got == {"agent/serve.sh": "0.11.0", "llm/internal/serve.sh": "0.14.1"}


# Fluder-Paradyne/vllm_inference (eval105, https://github.com/Fluder-Paradyne/vllm_inference): the image
# clones vLLM and builds it in place, and its ENTRYPOINT runs a script that starts the server; the
# script's release was the word "source", parsed as a version, and the scan lost the file's site
CLONE_IMAGE = ("FROM nvidia/cuda:12.4.0-devel-ubuntu22.04\n"
               "RUN git clone --depth 1 https://github.com/vllm-project/vllm.git && cd vllm && pip3 install -e .\n")
ENTRY_SCRIPTS = {
    "module": ('COPY entrypoint.sh .\nENTRYPOINT ["/workspace/entrypoint.sh"]\n',
               "entrypoint.sh", '#!/bin/bash\nexec python3 -m vllm.entrypoints.openai.api_server "$@"\n'),
    "vllm serve": ('COPY run.sh .\nENTRYPOINT ["./run.sh"]\n', "run.sh", "#!/bin/bash\n" + NEW),
}


@pytest.mark.parametrize("how", sorted(ENTRY_SCRIPTS))
def test_a_script_an_image_built_from_a_checkout_runs_is_a_site(write_project, how, json_site, p0s):
    from vllm_kb.engine.audit import audit

    tail, name, script = ENTRY_SCRIPTS[how]
    root = write_project({"Dockerfile": CLONE_IMAGE + tail, name: script})
    site = json_site(root)
    assert site["file"] == name and site["vllm"]["basis"] == "source" and not p0s(site)
    assert audit(root).skipped == []


def test_one_commands_scanner_error_costs_that_command_alone(write_project, monkeypatch):
    """A bug met on one launch of a script is reported at its line; the script's other launches stay."""
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.scan import scripts

    real = scripts.site_for

    def site_for(ctx, rel, version, c, *a, **kw):
        if any(w.value == "bad/model" for w in c.words):
            raise ValueError("boom")
        return real(ctx, rel, version, c, *a, **kw)

    monkeypatch.setattr(scripts, "site_for", site_for)
    rep = audit(write_project({"serve.sh": "vllm serve bad/model --port 8001\nvllm serve Qwen/Qwen3-8B --port 8002\n"}))
    assert [s.site.line for s in rep.sites] == [2]
    assert [(k.file, k.line, k.code) for k in rep.skipped] == [("serve.sh", 1, "scanner-error")]


BRANCHES = """#!/bin/bash
if [ "$VERL_VERSION" = "0.7.1" ]; then
    VLLM_VERSION="0.12.0"
else
    VLLM_VERSION="0.20.2"
fi
uv pip install "vllm==$VLLM_VERSION" --extra-index-url "https://wheels.vllm.ai/$VLLM_VERSION/$CUDA_VARIANT"
"""


def test_a_version_set_per_branch_is_the_range_over_them(write_project, json_site, p0s):
    """microsoft/agent-lightning scripts/setup_verl.sh (eval119): read as a nightly source build at the newest
    release; the per-release wheel index is no nightly, and one of the branch's releases is installed."""
    site = json_site(write_project({"scripts/setup_verl.sh": BRANCHES, "serve.sh": OLD}))
    assert site["vllm"]["basis"] == "range" and site["vllm"]["version"] == "0.20.2"
    one = BRANCHES.replace('else\n    VLLM_VERSION="0.20.2"\n', "")
    assert json_site(write_project({"scripts/setup_verl.sh": one, "serve.sh": OLD}))["vllm"]["basis"] == "pin"
    nightly = BRANCHES.replace("$VLLM_VERSION/$CUDA_VARIANT", "nightly")
    assert json_site(write_project({"scripts/setup_verl.sh": nightly, "serve.sh": OLD}))["vllm"]["basis"] == "source"
