"""OpenCompass model configs write `dict(type=VLLMwithChatTemplate, path=…, model_kwargs=dict(…))`:
the runner builds the class from the dict later, and the class builds `LLM(path,
trust_remote_code=True, **model_kwargs)`. The dict is read as that call; the runner's own keys
(abbr, batch_size, run_cfg …) are not engine arguments, and the engine is not built at import."""
from __future__ import annotations

import json

CONFIG = """\
from opencompass.models import VLLMwithChatTemplate

models = [
    dict(
        type=VLLMwithChatTemplate,
        abbr='qwen2.5-14b-instruct-vllm',
        path='Qwen/Qwen2.5-14B-Instruct',
        model_kwargs=dict(tensor_parallel_size=3, max_model_len=16384),
        max_out_len=4096,
        batch_size=16,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=3),
    )
]
"""


def _site(cli, root, gpu="A100-80GB x4"):
    code, out, err = cli("audit", str(root), "--gpu", gpu, "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return site


def test_the_config_dict_is_the_engine_its_runner_builds(cli, write_project):
    site = _site(cli, write_project({"configs/models/qwen.py": CONFIG}))
    st = {s["name"]: s["value"] for s in site["settings"]}
    assert site["model"]["name"] == "Qwen/Qwen2.5-14B-Instruct" and site["line"] == 4
    assert (st["tensor_parallel_size"], st["max_model_len"]) == (3, 16384)
    assert site["effective"].get("trust_remote_code", True) is True
    assert not {"abbr", "batch_size", "run_cfg", "max_out_len"} & set(st)
    p0 = [r["check"] for r in site["recommendations"] if r["priority"] == "P0"]
    assert p0 == ["L1"]  # 40 heads over 3
    assert "L35" not in [r["check"] for r in site["recommendations"]]  # not built when the config is imported


def test_the_fix_rewrites_the_key_in_model_kwargs(cli, write_project):
    root = write_project({"qwen.py": CONFIG})
    cli("audit", str(root), "--gpu", "A100-80GB x4", "--isolated", "-q", "--fix", "--select", "L1")
    assert "model_kwargs=dict(tensor_parallel_size=2, max_model_len=16384)" in (root / "qwen.py").read_text()


def test_a_dict_of_another_type_is_no_site(cli, write_project):
    other = CONFIG.replace("VLLMwithChatTemplate", "HuggingFacewithChatTemplate")
    code, out, err = cli("audit", str(write_project({"qwen.py": other})), "--gpu", "L4", "--isolated", "-q", "--format", "json")
    assert json.loads(out)["sites"] == []


def test_the_text_test_before_the_walk_lets_every_spelling_of_the_keyword_through():
    """rewrite skips its walk where the text spells no `type=` naming a lazy wrapper; white space,
    a line's continuation, a comment and parentheses around the name are still that keyword."""
    import ast

    from vllm_kb.engine.scan import lazy_config
    from vllm_kb.engine.scan.context import parse_python

    for text in ("m = dict(type=VLLM, path='a')\n", "m = dict(type = ( # the class\n    VLLM), path='a')\n",
                 "m = dict(type\\\n    =VLLM)\n", "m = dict(type  # c\n    = VLLM)\n", "m = dict(type=VLLMx)\n",
                 "m = dict(kind=VLLM)\n", "t = type(VLLM)\n", "m = dict(ｔｙｐｅ=VLLM)\n"):
        walked, tested = parse_python(text), parse_python(text)
        want = lazy_config.rewrite(walked, {"VLLM"})  # no text: always walked
        got = lazy_config.rewrite(tested, {"VLLM"}, text)
        assert (len(got), ast.dump(tested)) == (len(want), ast.dump(walked)), text
