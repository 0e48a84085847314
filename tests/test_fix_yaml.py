"""YAML fixes edit exactly the bytes of the value they target (engine/fix/yaml_edits.py), from
the parser's positions (engine/kb/yamlpos.py): never a block rewrite, never a lost line."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml
from vllm_kb.engine.fix import edits, yaml_edits

GPU = ("--gpu", "H100-80GB x8", "--isolated")

VERL = """# verl trainer config
actor_rollout_ref:
  hybrid_engine: true
  model:
    path: Qwen/Qwen2.5-7B-Instruct
  rollout:
    name: vllm
    tensor_model_parallel_size: 2
    gpu_memory_utilization: 0.6
    enforce_eager: True
    free_cache_engine: True
    max_num_batched_tokens: 8192
trainer:
  n_gpus_per_node: 8
"""


def run(text: str, fn, *args) -> str:
    d = yaml_edits.doc(text)
    got = fn(text, d, *args)
    assert got is not None, "expected an edit"
    return edits.apply(text, got)


def test_verl_nested_fix_keeps_the_next_line(cli, tmp_path):
    """The reported data loss: `enforce_eager: True` followed by `free_cache_engine: True` in a
    nested rollout block; --fix --unsafe-fixes rewrote the first line and deleted the second."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "ppo.yaml").write_text(VERL)
    code, _, err = cli("audit", str(root), *GPU, "--fix", "--unsafe-fixes", "--format", "json")
    assert code in (0, 1), err
    new = (root / "ppo.yaml").read_text()
    old_lines, new_lines = VERL.splitlines(), new.splitlines()
    assert "    free_cache_engine: True" in new_lines
    assert "    enforce_eager: False" in new_lines  # the file's own spelling of booleans
    # every line but the targeted one is still there, in order
    kept = [ln for ln in old_lines if ln != "    enforce_eager: True"]
    it = iter(new_lines)
    assert all(any(ln == x for x in it) for ln in kept), new
    data = yaml.safe_load(new)
    assert data["actor_rollout_ref"]["rollout"]["free_cache_engine"] is True
    assert data["trainer"] == {"n_gpus_per_node": 8}


def test_set_a_nested_value_touches_only_its_bytes():
    text = "a:\n  b:\n    c: 1   # keep\n    d: 2\ne: 3\n"
    assert run(text, yaml_edits.set_value, ("a", "b", "c"), 5) == "a:\n  b:\n    c: 5   # keep\n    d: 2\ne: 3\n"


def test_quoting_follows_the_value_replaced():
    text = "a: 'x'\nb: \"y\"\nc: z\n"
    out = run(text, yaml_edits.set_value, ("a",), "it's")
    assert out.startswith("a: 'it''s'\n")
    assert run(text, yaml_edits.set_value, ("b",), "q").splitlines()[1] == 'b: "q"'
    assert run(text, yaml_edits.set_value, ("c",), "true").splitlines()[2] == 'c: "true"'  # a string stays a string
    assert yaml.safe_load(run(text, yaml_edits.set_value, ("c",), "a: b #c")) ["c"] == "a: b #c"


def test_insert_in_a_block_mapping_at_its_indentation():
    text = "top:\n    x: 1\n    inner:\n        y: 2\n# trailing comment\nother: 3\n"
    out = run(text, yaml_edits.set_value, ("top", "z"), "fp8")
    assert out == "top:\n    x: 1\n    inner:\n        y: 2\n    z: fp8\n# trailing comment\nother: 3\n"
    out = run(text, yaml_edits.set_value, ("top", "inner", "w"), 1)
    assert "        y: 2\n        w: 1\n" in out


def test_insert_creates_the_missing_chain():
    out = run(VERL, yaml_edits.set_value, ("actor_rollout_ref", "rollout", "engine_kwargs", "vllm"), {"kv_cache_dtype": "fp8"})
    assert "    max_num_batched_tokens: 8192\n    engine_kwargs:\n      vllm:\n        kv_cache_dtype: fp8\ntrainer:" in out
    assert yaml.safe_load(out)["actor_rollout_ref"]["rollout"]["engine_kwargs"] == {"vllm": {"kv_cache_dtype": "fp8"}}


def test_insert_in_flow_mappings_and_lists():
    text = "a: {x: 1}\nb: {}\nc: [--x, '1']\nd: []\n"
    assert run(text, yaml_edits.set_value, ("a", "k"), 2).startswith("a: {x: 1, k: 2}\n")
    assert "b: {k: 2}\n" in run(text, yaml_edits.set_value, ("b", "k"), 2)
    assert "c: [--x, '1', --y, '2']\n" in run(text, yaml_edits.append_items, ("c",), ["--y", "2"])
    assert "d: [--y]\n" in run(text, yaml_edits.append_items, ("d",), ["--y"])


def test_a_null_value_becomes_a_mapping():
    text = "a:\n  vllm:   # engine kwargs\nb: 1\n"
    out = run(text, yaml_edits.set_value, ("a", "vllm", "k"), "v")
    assert out == "a:\n  vllm:   # engine kwargs\n    k: v\nb: 1\n"


def test_remove_only_whole_lines_and_keep_comments():
    text = "a:\n  x: 1\n  y: 2  # why y\n  z: 3\n"
    assert run(text, yaml_edits.remove, ("a", "x")) == "a:\n  y: 2  # why y\n  z: 3\n"
    assert run(text, yaml_edits.remove, ("a", "y")) == "a:\n  x: 1\n  # why y\n  z: 3\n"
    last = run("a:\n  x: 1\nb: 2", yaml_edits.remove, ("b",))
    assert last == "a:\n  x: 1"
    # the last key of a nested mapping: the mapping stays a mapping
    assert yaml.safe_load(run("a:\n  x: 1\nb: 2\n", yaml_edits.remove, ("a", "x"))) == {"a": {}, "b": 2}


def test_remove_a_block_value_with_its_lines_only():
    text = "a:\n  x:\n    - 1\n    - 2\n  y: 3\n"
    assert run(text, yaml_edits.remove, ("a", "x")) == "a:\n  y: 3\n"


def test_flow_and_list_removals():
    assert run("a: {x: 1, y: 2}\n", yaml_edits.remove, ("a", "x")) == "a: {y: 2}\n"
    assert run("a: {x: 1, y: 2}\n", yaml_edits.remove, ("a", "y")) == "a: {x: 1}\n"
    text = "cmd:\n  - --a\n  - --b  # b\n  - '1'\n  - --c\n"
    assert run(text, yaml_edits.remove_items, ("cmd",), 0, 0) == "cmd:\n  - --b  # b\n  - '1'\n  - --c\n"
    assert run(text, yaml_edits.remove_items, ("cmd",), 1, 2) == "cmd:\n  - --a\n  - --c\n"
    assert run('c: ["--a", "1", "--b"]\n', yaml_edits.remove_items, ("c",), 0, 1) == 'c: ["--b"]\n'


def test_anchors_are_never_edited_through_an_alias():
    text = "base: &b\n  x: 1\nv: &v 0.9\nuse:\n  <<: *b\n  w: *v\n"
    d = yaml_edits.doc(text)
    assert yaml_edits.set_value(text, d, ("v",), 0.5) is None  # other keys read it
    out = run(text, yaml_edits.set_value, ("use", "w"), 0.5)  # the alias token only
    assert out.endswith("  w: 0.5\n") and "v: &v 0.9" in out
    out = run(text, yaml_edits.set_value, ("use", "x"), 2)  # inherited via <<: overridden in place
    data = yaml.safe_load(out)
    assert data["use"]["x"] == 2 and data["base"]["x"] == 1


def test_crlf_files_keep_crlf():
    text = "a:\r\n  x: 1\r\nb: 2\r\n"
    out = run(text, yaml_edits.set_value, ("a", "k"), 2)
    assert out == "a:\r\n  x: 1\r\n  k: 2\r\nb: 2\r\n"
    assert run(text, yaml_edits.remove, ("b",)) == "a:\r\n  x: 1\r\n"


def test_json_files_get_json():
    text = '{\n\t"a": 1,\n\t"vllm_engine_kwargs": {"x": true}\n}\n'
    out = run(text, yaml_edits.set_value, ("vllm_engine_kwargs", "y"), "fp8")
    assert json.loads(out) == {"a": 1, "vllm_engine_kwargs": {"x": True, "y": "fp8"}}
    out = run(text, yaml_edits.set_value, ("b",), {"k": None and 1 or "v"})
    assert json.loads(out)["b"] == {"k": "v"}
    out = run(text, yaml_edits.remove, ("a",))
    assert json.loads(out) == {"vllm_engine_kwargs": {"x": True}}


def test_fixture_configs_fix_in_place(cli, tmp_path):
    src = Path(__file__).parent / "fixtures" / "rl-verl"
    root = tmp_path / "verl"
    shutil.copytree(src, root)
    code, _, err = cli("audit", str(root), *GPU, "--fix", "--unsafe-fixes", "--format", "json")
    assert code in (0, 1), err
    for p in root.rglob("*.yaml"):
        yaml.safe_load(p.read_text())



def k8s(command: str, args: str) -> str:
    return ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.10.1\n"
            f"          command: {command}\n          args: {args}\n")


def test_container_fixes_follow_the_words_the_shell_reads(cli, tmp_path):
    """A container's argv is run as a shell would run it (`nohup vllm …`, `sh -c "vllm …"`): a
    fix edits the list item the site's word came from, and nothing when the word lives inside an
    inner script (no item of its own)."""
    wrapped = tmp_path / "wrapped"
    wrapped.mkdir()
    (wrapped / "k8s.yaml").write_text(k8s('["nohup", "vllm", "serve"]',
                                          '["org/m", "--swap-space", "4", "--port", "8000"]'))
    code, out, err = cli("audit", str(wrapped), *GPU, "--fix")
    text = (wrapped / "k8s.yaml").read_text()
    assert '["nohup", "vllm", "serve"]' in text, text
    assert '"--swap-space"' not in text and '"4"' not in text and '"--port", "8000"' in text, text
    inner = tmp_path / "inner"
    inner.mkdir()
    # the script's own arguments ($0, $1, …) are items after it: none of them is a word of the site
    before = k8s('["sh", "-c"]', '["vllm serve org/m --swap-space 4 --port 8000", "sh", "a1", "a2", "a3", "a4", "a5"]')
    (inner / "k8s.yaml").write_text(before)
    code, out, err = cli("audit", str(inner), *GPU, "--fix")
    assert (inner / "k8s.yaml").read_text() == before
