"""The scenario templates rendered without jinja2 (engine/advise/scenarios/template_subset.py) give
jinja2's output byte for byte: every knowledge template over many made-up values, the white-space
rules (trim_blocks, lstrip_blocks, the trailing newline) over made-up templates, and jinja2's own
answer where a value is undefined or a form is outside the subset."""
from __future__ import annotations

import itertools
import random

import jinja2
import pytest

from vllm_kb.engine.advise.scenarios import rendering, template_subset
from vllm_kb.engine.advise.scenarios.model import load


def _jinja(text: str, data: dict) -> str:
    return rendering._jinja().from_string(text).render(**data)


def _subset(text: str, data: dict) -> str:
    nodes = template_subset.compile_template(text, rendering._FILTERS)
    assert nodes is not None, text
    return template_subset.render(nodes, data)


_VALUES = ["x", "a b", "it's", "$HOME", "${VAR}", "", 0, 1, 8192, 0.9, 0.95, True, False, None,
           {"a": 1, "b": [1, 2]}, [1, "two"], "line\nbreak", "中文", "--flag"]


def _data(rng: random.Random) -> dict:
    def arg(i: int) -> dict:
        v = rng.choice(_VALUES)
        flag = rng.choice([None, f"--arg-{i}"])
        return {"name": f"arg_{i}", "value": v, "flag": flag, "cli": rng.choice([None, f"{flag} {v}"]) if flag else None,
                "key": flag[2:] if flag else None, "py": repr(v), "yaml": str(v), "engine": rng.choice([True, False])}
    args = [arg(i) for i in range(rng.randrange(0, 5))]
    return {"model": rng.choice(["meta-llama/Llama-3.1-8B", "/models/my model", "Qwen/Qwen2.5-7B"]), "args": args,
            "env": [{"name": f"VLLM_{i}", "value": rng.choice(_VALUES)} for i in range(rng.randrange(0, 3))],
            "fw": [f"key_{i}: {rng.choice(_VALUES)}" for i in range(rng.randrange(0, 4))],
            "serve_args": [a for a in args if a["cli"]], "config_class": rng.choice(["GRPOConfig", "DPOConfig"]),
            "config_file": rng.choice(["serve.yaml", "conf/vllm config.yaml"]), "version": "0.34.0", "plan": {"tp": 2}}


def test_every_knowledge_template_renders_as_jinja2_does():
    templates = load().templates
    assert templates
    rng = random.Random(0)
    for name, tpl in templates.items():
        assert template_subset.compile_template(tpl["text"], rendering._FILTERS) is not None, name
        for _ in range(200):
            data = _data(rng)
            assert _subset(tpl["text"], data) == _jinja(tpl["text"], data), name
            assert rendering._template(tpl["text"]).render(**data) == _jinja(tpl["text"], data), name


_PIECES = ["{% for x in xs %}", "{% endfor %}", "{% if flag %}", "{% endif %}", "{% for x in xs if x.on %}",
           "{{ x.v }}", "{{ name | py }}", "{{ name|shell|py }}", "\n", "  ", "\t", " text ", "a", "}}", "%}", "{",
           "\n  ", "  \n"]


def _balanced(pieces: list[str]) -> bool:
    depth: list[str] = []
    for p in pieces:
        if p.startswith("{% for"):
            depth.append("for")
        elif p.startswith("{% if"):
            depth.append("if")
        elif p in ("{% endfor %}", "{% endif %}"):
            if not depth or depth.pop() != p[3:-3].replace("end", ""):
                return False
    return not depth


def test_white_space_rules_match_jinja2_on_made_up_templates():
    rng = random.Random(1)
    seen = 0
    while seen < 3000:
        pieces = [rng.choice(_PIECES) for _ in range(rng.randrange(1, 12))]
        if not _balanced(pieces):
            continue
        text = "".join(pieces)
        try:
            jinja2_out = rendering._jinja().from_string(text)
        except jinja2.TemplateSyntaxError:
            continue
        nodes = template_subset.compile_template(text, rendering._FILTERS)
        if nodes is None:
            continue
        seen += 1
        for flag, xs in itertools.product((True, False), ([], [{"v": 1, "on": True}, {"v": "b c", "on": False}])):
            data = {"flag": flag, "xs": xs, "name": "it's"}
            try:
                want = jinja2_out.render(**data)
            except jinja2.UndefinedError:  # the caller hands such a template to jinja2 (rendering._Template)
                with pytest.raises(template_subset.Fallback):
                    template_subset.render(nodes, data)
                continue
            assert template_subset.render(nodes, data) == want, repr(text)


@pytest.mark.parametrize("text", [
    "{{ a['b'] }}", "{{ a.0 }}", "{{ a | upper }}", "{# c #}x", "{%- if a %}x{% endif %}", "{% if a -%}x{% endif %}",
    "{% if a %}x{% else %}y{% endif %}", "{% for a, b in c %}{% endfor %}", "{{ loop.index }}", "{{ none }}",
    "{% if a %}x", "{% endif %}", "{% raw %}{{ a }}{% endraw %}", "a\r\nb", "{{ a ~ b }}", "{% set a = 1 %}",
    "{% for x in xs %}{% endif %}",
])
def test_forms_outside_the_subset_are_left_to_jinja2(text):
    assert template_subset.compile_template(text, rendering._FILTERS) is None


def test_an_undefined_value_gets_jinja2s_own_answer():
    text = "{% for a in args if a.cli %}{{ a.cli }}{% endfor %}"
    with pytest.raises(jinja2.UndefinedError):
        rendering._Template(text).render(args=[{"name": "x"}])
    with pytest.raises(jinja2.UndefinedError):
        rendering._Template("{{ model | shell }}").render()
    # a value jinja2 reads as an attribute before an item (Environment.getattr)
    d = {"items": 1}
    assert rendering._Template("{{ d.items | py }}").render(d=d) == _jinja("{{ d.items | py }}", {"d": d})


def test_the_loop_variable_does_not_leak():
    text = "{% for x in xs %}{{ x }}{% endfor %}{{ x }}"
    data = {"xs": [1, 2], "x": "outer"}
    assert _subset(text, data) == _jinja(text, data) == "12outer"
