"""The guard of `--fix` (engine/fix/guard.py): the fixed project is audited in memory before
anything is written; a file whose fixes would bring a P0 the project does not have is left
untouched, all of it, and the report names the checks on both sides; two checks that would
rewrite one setting back and forth lose the less urgent one's change instead of looping."""
from __future__ import annotations

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import apply as apply_fixes
from vllm_kb.engine.fix import edits

# A 72B model across nodes of four 24 GB GPUs, on a release whose Qwen2 has no pipeline
# parallelism: C2 (TP inside the node, PP across) adds --pipeline-parallel-size, L3 removes it,
# C2 adds it again … C2 gives way (P1 against a P0), and none of its changes is written.
QWEN_72B = {
    "requirements.txt": "vllm==0.5.3\n",
    "serve.sh": "#!/bin/bash\nray start --head\nvllm serve Qwen/Qwen2-72B-Instruct \\\n"
                "    --tensor-parallel-size 2 \\\n    --distributed-executor-backend ray\n",
}
# 30B on three GPUs: L1 (heads divide by TP) asks TP 3 → 2, and 30B does not fit two V100s (L16).
TP_HEADS = {"requirements.txt": "vllm==0.4.0\n",
            "run.py": 'from vllm import LLM\n\nllm = LLM(model="huggyllama/llama-30b", tensor_parallel_size=3)\n'}
# Two servers on one GPU: L37 halves their utilisation; B1 (unsafe) would raise it back to 0.9.
SHARED = {"requirements.txt": "vllm==0.10.1\n",
          "start.sh": "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=0\nvllm serve Qwen/Qwen2.5-7B-Instruct --port 8001 &\n"
                      "vllm serve Qwen/Qwen2.5-1.5B-Instruct --port 8002\n"}


def _fix(root, gpu, unsafe=True):
    return apply_fixes.run(lambda overlay: audit(root, gpu=gpu, overlay=overlay), unsafe=unsafe)


def test_l1_proposes_no_tp_that_cannot_hold_the_weights(write_project):
    # the heads need another TP, but the one that splits them cannot hold the weights (it was a
    # change the guard had to refuse for the L16 it brought): L1 says so and proposes nothing
    root = write_project(TP_HEADS)
    res = _fix(root, "V100-32GB x3")
    assert not [r for r in res.refused if "L1" in r.checks]
    assert not [a for a in res.applied if "L1" in a.checks]
    rep = audit(root, gpu="V100-32GB x3")
    assert any(r.check.id == "L1" and r.status == "recommended" and r.priority == "P0" for sr in rep.sites for r in sr.results)


def test_b1_leaves_a_shared_gpu_alone(write_project):
    # a low gpu_memory_utilization beside another engine is deliberate: B1 no longer raises it
    # into what L37 refuses (the loop the guard used to break)
    res = _fix(write_project(SHARED), "H100-80GB x1")
    assert not res.refused and not [a for a in res.applied if "B1" in a.checks]


@pytest.mark.parametrize("files,gpu,loser,winner,kept", [
    (QWEN_72B, "A10G x4", "C2", "L3", "--tensor-parallel-size 2 "),
], ids=["qwen72b-pp"])
def test_two_checks_that_disagree_do_not_loop(write_project, cli, files, gpu, loser, winner, kept):
    root = write_project(files)
    res = _fix(root, gpu)
    assert res.converged and res.passes <= 4
    loops = [r for r in res.refused if r.why == "loop"]
    assert loops and {tuple(r.checks) for r in loops} == {(loser,)} and all(winner in r.conflicts for r in loops)
    assert not [a for a in res.applied if loser in a.checks]  # none of the loser's changes, not half of them
    name = next(f for f in files if f.endswith(".sh"))
    text = res.texts.get(name, files[name])
    assert kept in text, text
    code, _, err = cli("audit", str(root), "--gpu", gpu, "--isolated", "--fix", "--unsafe-fixes")
    assert f"would undo what {winner}" in err and f"for {loser}" in err, err
    # a second run meets the same disagreement and writes nothing
    fixed = (root / name).read_bytes()
    assert _fix(root, gpu).changed_files == []
    assert (root / name).read_bytes() == fixed


def test_a_value_rewritten_and_an_item_appended_after_it_compose():
    """Rewriting the last item of a list and appending after it are one edit each, not a clash
    (compose's `command: [..., "--tensor-parallel-size", "2"]` → TP 1 and DP 8 in one pass)."""
    text = 'command: ["--tp", "2"]\n'
    at = text.index('"2"')
    got = edits.apply(text, [edits.TextEdit(at, at + 3, '"1"'), edits.TextEdit(at + 3, at + 3, ', "--dp", "8"', strict=True)])
    assert got == 'command: ["--tp", "1", "--dp", "8"]\n'
    # the last item removed with the comma before it: what precedes the insertion is still an item
    got = edits.apply(text, [edits.TextEdit(at - 2, at + 3, ""), edits.TextEdit(at + 3, at + 3, ', "x"', strict=True)])
    assert got == 'command: ["--tp", "x"]\n'
    one = 'command: ["--eager"]\n'
    with pytest.raises(edits.EditConflict):  # the only item removed: `, "x"` would follow nothing, it waits
        edits.apply(one, [edits.TextEdit(10, 19, ""), edits.TextEdit(19, 19, ', "x"', strict=True)])
