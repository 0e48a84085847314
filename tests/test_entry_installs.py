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
    site = json_site(write_project({"docker-compose.yml": _compose(script)}), gpu="RTX-4090")
    assert p0s(site) == p0


def test_an_image_whose_transformers_is_5_is_left_alone(write_project, json_site, p0s):
    script = f"pip install --no-deps 'transformers>=5.5.0' && vllm serve {MODEL}"
    site = json_site(write_project({"docker-compose.yml": _compose(script, "vllm/vllm-openai:v0.20.0")}), gpu="RTX-4090")
    assert "L155" not in p0s(site)  # 0.20.0 admits transformers 5: its image holds huggingface_hub 1.x


def test_installs_read_options_and_stop_at_the_launch():
    got = installs(["pip install --no-cache-dir -i https://mirror/simple --no-deps transformers==5.5.1 accelerate && "
                    "python3 -m vllm.entrypoints.openai.api_server --model m; pip install peft"])
    assert [(i["package"], i["spec"], i["no_deps"]) for i in got] == [("transformers", "==5.5.1", True), ("accelerate", "", True)]
