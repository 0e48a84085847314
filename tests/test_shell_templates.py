"""Shell scripts kept as Jinja templates (engine/scan/shell_templates.py): read as the script they
render to, every template expression unknown — never a value, a positional word or a missing flag.
The shapes are princeton-ddss/blackfish's Slurm and local templates
(https://github.com/princeton-ddss/blackfish, lib/src/blackfish/server/templates/)."""
from __future__ import annotations

import re

import pytest

from vllm_kb.engine.scan.shell_templates import rendered

SLURM = """{% extends "base_slurm.sh" %}
{% block command %}
export SINGULARITY_NO_EVAL=1
apptainer run {{ '--nv' if job.gpus else '' }} \\
  --bind {{ cfg.model_dir }}:/data \\
  {{ profile.cache_dir }}/images/vllm-openai_v0.9.2.sif \\
  --model /data/snapshots/{{ cfg['revision'] }} \\
  --port $port \\
  --max-model-len 8192 \\
{%- if cfg.quantization %}
  --quantization {{ cfg.quantization }} \\
  --enforce-eager \\
{%- endif %}
  --tensor-parallel-size {{ job.gpus }} \\
  {{ cfg.extra if cfg.extra else '' }}
{%- endblock %}
"""

LOCAL = """{% block command %}
{%- if provider == "docker" %}
{% set tag = "v0.9.2" %}
docker run -d --gpus all -p {{ port }}:8000 vllm/vllm-openai:v0.9.2 \\
  --model {{ model }} \\
  --dtype {% if half %}half{% else %}bfloat16{% endif %} \\
  --max-model-len 4096 \\
{%- elif provider == 'apptainer' %}
{% raw %}
port=$(ss -Htan | awk '{{print $4}}' | head -n 1)
{% endraw %}
apptainer exec --nv docker://vllm/vllm-openai:v0.9.2 vllm serve {{ model }} --port $port --max-model-len 2048
{%- endif %}
{%- endblock %}
"""

J2 = """#!/bin/bash
{# the model is filled in by the deploy role #}
{% if eager %}
EAGER="--enforce-eager"
{% endif %}
vllm serve {{ model }} --max-model-len {{ max_len }} --gpu-memory-utilization 0.85 $EAGER
"""


@pytest.mark.parametrize("text", [SLURM, LOCAL, J2])
def test_the_rendering_keeps_every_offset(text):
    got = rendered(text)
    assert len(got) == len(text) and got.count("\n") == text.count("\n")
    outside = re.sub("\ue000[^\ue001]*\ue001", "", got)  # a hole shows the expression it stands for
    assert "{{" not in outside.replace("'{{print $4}}'", "") and "{%" not in outside


def test_a_raw_block_keeps_its_text():
    assert "port=$(awk '{{print $4}}')\n" in rendered("{% raw %}\nport=$(awk '{{print $4}}')\n{% endraw %}\n")


def values(s):
    return {k: v.value for k, v in s.settings.items() if v.resolved}


def test_an_apptainer_template_of_the_pulled_vllm_image_is_a_site(scanned):
    (s,) = scanned({"server/templates/text_generation_slurm.sh": SLURM})
    assert s.line == 4 and s.image == "vllm/vllm-openai:v0.9.2"
    # the flags under `{% if %}` inside the command are neither given nor left out
    assert values(s) == {"max_model_len": 8192}
    assert "quantization" not in s.settings and "enforce_eager" not in s.settings
    assert not s.settings["tensor_parallel_size"].resolved and not s.model.resolved
    assert not s.remarks  # no template expression is a stray positional


def test_each_branch_command_is_a_site_and_an_inline_choice_is_unknown(scanned):
    sites = scanned({"templates/serve_local.sh": LOCAL})
    assert [(s.line, values(s)) for s in sites] == [(4, {"max_model_len": 4096}), (12, {"max_model_len": 2048})]
    assert not sites[0].settings["dtype"].resolved and not any(s.remarks for s in sites)


def test_a_script_template_by_suffix(scanned):
    (s,) = scanned({"roles/vllm/templates/serve.sh.j2": J2})
    # EAGER is set in one branch only: unknown, never read as given
    assert values(s) == {"gpu_memory_utilization": 0.85}
    assert not s.settings["max_model_len"].resolved and not s.remarks


def test_no_p0_from_template_expressions(write_project, json_site, p0s):
    root = write_project({"templates/text_generation_slurm.sh": SLURM})
    assert p0s(json_site(root)) == []
