"""What a container's own command installs before it starts vLLM (engine/scan/entry_installs.py): the
transformers vLLM then imports is that one, not the image's (L52 reads it), and transformers 5 put in
with --no-deps over an image whose huggingface_hub is 0.x fails at import (L155)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.scan.entry_installs import installs

MODEL = "cyankiwi/gemma-4-26B-A4B-it-AWQ-4bit"  # model_type gemma4: transformers 5.5.0 and up


def _compose(script: str, image: str = "vllm/vllm-openai:v0.19.0") -> str:
    return (f"services:\n  v:\n    image: {image}\n    entrypoint: [\"/bin/bash\", \"-c\"]\n    command:\n      - >\n"
            f"        {script}\n")


@pytest.mark.parametrize("script,p0", [
    # the Aitherium post: --no-deps keeps the image's huggingface_hub 0.x
    (f"pip install --no-deps 'transformers>=5.5.0' && vllm serve {MODEL} --port 8176", ["L155"]),
    (f"pip install --no-deps -U transformers && vllm serve {MODEL}", ["L155"]),  # pip's newest is a 5.x
    # with its huggingface_hub, or without --no-deps: vLLM imports the new transformers and reads gemma4
    (f"pip install --no-deps 'transformers>=5.5.0' 'huggingface_hub>=1.5' && vllm serve {MODEL}", []),
    (f"pip install -U 'transformers>=5.5.0' && vllm serve {MODEL}", []),
    # installed after the server: too late, the image's transformers reads the config
    (f"vllm serve {MODEL} && pip install --no-deps transformers", ["L52"]),
])
def test_the_commands_own_installs(write_project, json_site, p0s, script, p0):
    # the post's card, a 5090: on a 4090 the upload's weights (groups of 32) leave too little cache for 262,144 tokens (L15)
    site = json_site(write_project({"docker-compose.yml": _compose(script)}), gpu="RTX-5090")
    assert p0s(site) == p0


def test_an_image_whose_transformers_is_5_is_left_alone(write_project, json_site, p0s):
    script = f"pip install --no-deps 'transformers>=5.5.0' && vllm serve {MODEL}"
    site = json_site(write_project({"docker-compose.yml": _compose(script, "vllm/vllm-openai:v0.20.0")}), gpu="RTX-5090")
    assert "L155" not in p0s(site)  # 0.20.0 admits transformers 5: its image holds huggingface_hub 1.x


def test_installs_read_options_and_stop_at_the_launch():
    got = installs(["pip install --no-cache-dir -i https://mirror/simple --no-deps transformers==5.5.1 accelerate && "
                    "python3 -m vllm.entrypoints.openai.api_server --model m; pip install peft"])
    assert [(i["package"], i["spec"], i["no_deps"]) for i in got] == [("transformers", "==5.5.1", True), ("accelerate", "", True)]


@pytest.mark.parametrize("spec,need", [
    (">=5.5.0", ">=1.5.0"),  # pip brings its newest hub for the newest transformers: the oldest admitted's floor
    ("==5.5.0", ">=1.5.0,<2.0"),  # transformers 5.5.0's METADATA: huggingface-hub<2.0,>=1.5.0
    ("", ">=1.3.0"),
    ("==5.20.1", ">=1.31.0,<3.0"),
    (">=5.0,<5.4", ">=1.3.0,<2.0"),
])
def test_the_hub_to_install_beside_transformers(spec, need):
    from vllm_kb.engine.check.hub_fit import hub_need
    from pathlib import Path

    from vllm_kb.engine.kb import yamlio

    released = yamlio.load((Path(__file__).parents[1] / "knowledge" / "vllm" / "model_types.yaml").read_text()).data["released"]
    assert hub_need(spec, released) == need


@pytest.mark.parametrize("script,written", [
    # eval84 (aitherium): the hub goes into the same pip command, quoted as its neighbour is
    (f"pip install --no-deps 'transformers>=5.5.0' && vllm serve {MODEL}",
     f"pip install --no-deps 'transformers>=5.5.0' 'huggingface-hub>=1.5.0' && vllm serve {MODEL}"),
    # a bare exact pin: a bounded range written without the shell's redirections
    (f"pip install --no-deps transformers==5.5.0 && vllm serve {MODEL}",
     f"pip install --no-deps transformers==5.5.0 huggingface-hub~=1.5 && vllm serve {MODEL}"),
])
def test_l155_writes_the_hub_into_the_same_command(tmp_path, script, written):
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.fix.pins import pin_edit

    (tmp_path / "docker-compose.yml").write_text(_compose(script))
    (sr,) = audit(tmp_path, gpu="RTX-4090").sites
    (ch,) = [c for c in sr.changes if c.op == "pin" and c.target == "huggingface-hub"]
    text = (tmp_path / "docker-compose.yml").read_text()
    e = pin_edit(ch, text)
    assert e is not None and written in text[:e.start] + e.text + text[e.end:]


def test_a_quote_the_file_doubles_is_not_rewritten():
    from vllm_kb.engine.fix.changes import Change
    from vllm_kb.engine.fix.pins import pin_edit

    ch = Change("pin", "huggingface-hub", ">=1.5.0", "c.yml", "pin", None, "'transformers>=5'", "'transformers>=5' 'huggingface-hub>=1.5.0'")
    assert pin_edit(ch, "command: 'pip install --no-deps ''transformers>=5'' && vllm serve m'\n") is None


def test_a_build_that_installs_transformers_5_with_no_deps_over_the_vllm_image(tmp_path):
    # eval84 (aitherium, first form): compose `build: .` over FROM vllm/vllm-openai:v0.19.0 whose RUN line
    # forces transformers 5 in with --no-deps; the command hands the image's entrypoint only flags
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.fix.pins import pin_edit

    docker = "FROM vllm/vllm-openai:v0.19.0\nRUN pip install --no-deps 'transformers>=5.5.0'\n"
    (tmp_path / "Dockerfile").write_text(docker)
    (tmp_path / "docker-compose.yml").write_text(
        f"services:\n  llm:\n    build: .\n    command: [--model, {MODEL}, --max-model-len, '16384']\n")
    (sr,) = [sr for sr in audit(tmp_path, gpu="RTX-4090").sites if sr.site.file == "docker-compose.yml"]
    assert "L155" in {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"}
    (ch,) = [c for c in sr.changes if c.op == "pin" and c.target == "huggingface-hub"]
    e = pin_edit(ch, docker)
    assert ch.file == "Dockerfile" and e is not None
    assert docker[:e.start] + e.text + docker[e.end:] == \
        "FROM vllm/vllm-openai:v0.19.0\nRUN pip install --no-deps 'transformers>=5.5.0' 'huggingface-hub>=1.5.0'\n"


def test_a_build_that_installs_the_hub_too_is_left_alone(tmp_path):
    from vllm_kb.engine.audit import audit

    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.19.0\n"
                                         "RUN pip install --no-deps 'transformers>=5.5.0' 'huggingface_hub>=1.5.0'\n"
                                         f'CMD ["--model", "{MODEL}"]\n')
    (sr,) = audit(tmp_path, gpu="RTX-4090").sites
    assert "L155" not in {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"}


def test_a_double_quote_a_json_string_escapes_is_not_rewritten():
    from vllm_kb.engine.fix.changes import Change
    from vllm_kb.engine.fix.pins import pin_edit

    ch = Change("pin", "huggingface-hub", ">=1.5.0", "Dockerfile", "pin", None, '"transformers>=5"', '"transformers>=5" "huggingface-hub>=1.5.0"')
    assert pin_edit(ch, 'CMD ["sh", "-c", "pip install --no-deps \\"transformers>=5\\" && vllm serve m"]\n') is None
    assert pin_edit(ch, 'RUN pip install --no-deps "transformers>=5"\n') is not None


def test_another_package_is_not_put_into_a_no_deps_command():
    from types import SimpleNamespace

    from vllm_kb.engine.fix.pins import _beside_install

    site = SimpleNamespace(file="c.yml", line=1, end_line=3, launch={"entry_installs": [
        {"package": "transformers", "spec": ">=5.5.0", "text": "transformers>=5.5.0", "no_deps": True, "quote": "'"}]})
    assert _beside_install(site, "lmcache", ">=0.3") is None  # it would come without its own requirements
    assert _beside_install(site, "huggingface-hub", ">=1.5.0") is not None


def test_a_manifest_running_an_image_a_script_builds_with_no_deps_transformers_5(tmp_path):
    # the same build named by a Kubernetes manifest (own_images.base_of): its RUN installs are the container's
    from vllm_kb.engine.audit import audit

    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.19.0\nRUN pip install --no-deps 'transformers>=5.5.0'\n")
    (tmp_path / "build.sh").write_text("docker build -t registry.example.com/gemma-server:dev .\n")
    (tmp_path / "deploy.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: llm}\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - name: llm\n          image: registry.example.com/gemma-server:dev\n"
        f"          args: [--model, {MODEL}, --max-model-len, '16384']\n")
    (sr,) = [sr for sr in audit(tmp_path, gpu="RTX-4090").sites if sr.site.file == "deploy.yaml"]
    assert "L155" in {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"}
    (ch,) = [c for c in sr.changes if c.op == "pin" and c.target == "huggingface-hub"]
    assert ch.file == "Dockerfile"
