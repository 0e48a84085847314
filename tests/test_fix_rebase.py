"""`--fix --unsafe-fixes` and a change that moves a pin (engine/fix/rebase.py): the pin goes first
and alone, and the other changes are the ones the release it moves to asks for — never the old
release's (a flag the new release refuses, a parser name only the old one needed). What the old
release asked for and the new one does not is reported, in English and Chinese; a pin moved
down gets the lower release's changes; a tag and a flag on one line compose; a second run
writes nothing."""
from __future__ import annotations

import shutil

import pytest
import realcases_score as score
from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import apply as apply_fixes
from vllm_kb.engine.fix import rebase
from vllm_kb.engine.kb import catalog as catalog_mod

# vllm-project/vllm#27761: DeepSeek-OCR on vLLM 0.11.0, which does not register it (0.11.1 does). At
# 0.11.0, on an FP8 GPU, B3 asks for an FP8 KV cache with --calculate-kv-scales; the range the pin
# change writes over the project's range (>=0.11.1) runs the newest release, which no longer has that
# option (gone from 0.28). (An exact pin is rewritten exact, ==0.11.1, where the option still exists.)
OCR = {
    "requirements.txt": "vllm<=0.11.0\n",
    "serve.sh": "#!/bin/bash\n# DeepSeek-OCR with its n-gram logits processor\nvllm serve deepseek-ai/DeepSeek-OCR \\\n"
                "    --logits_processors vllm.model_executor.models.deepseek_ocr:NGramPerReqLogitsProcessor\n",
}
# vllm-project/vllm#17609: Qwen3-32B in the v0.8.5.post1 image with --reasoning-parser qwen3, which
# that release does not have. L38 offers both the parser 0.8.5 has (deepseek_r1) and the image that
# has qwen3 (v0.9.0); once the tag moves, qwen3 is the right parser and stays. The tag and the
# flags are on one line.
QWEN3_DOCKER = {
    "run.sh": "#!/bin/bash\ndocker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5.post1 --model Qwen/Qwen3-32B "
              "--tensor-parallel-size 4 --max-model-len 16384 --enable-reasoning --reasoning-parser qwen3\n",
}


def _fix(root, gpu, exclude=None):
    return apply_fixes.run(lambda overlay: audit(root, gpu=gpu, overlay=overlay, exclude=exclude), unsafe=True)


def _pending(root, gpu, exclude=None):
    return [ch for _, ch, _ in apply_fixes.pending(audit(root, gpu=gpu, exclude=exclude), True)]


def _written_args_exist(root, gpu, res, exclude=None) -> None:
    """Every option the fixes set is one the release of the fixed project has (the catalog)."""
    cat = catalog_mod.load()
    fixed = audit(root, gpu=gpu, overlay={f: res.texts[f] for f in res.changed_files}, exclude=exclude)
    for sr in fixed.sites:
        for a in res.applied:
            if a.op == "set" and a.file == sr.site.file and cat.arg(a.target) is not None:
                assert cat.arg(a.target).exists(sr.lookup_version), (a.target, sr.lookup_version)


def test_an_option_the_new_release_refuses_is_not_written_with_the_bump(write_project):
    root = write_project(OCR)
    planned = _pending(root, "RTX-4090")
    # the audit at 0.11.0 asks for the bump and, beside it, for an option the bumped release refuses
    assert any(ch.op == "pin" and ch.target == "vllm" for ch in planned)
    assert any(ch.target == "calculate_kv_scales" for ch in planned)
    res = _fix(root, "RTX-4090")
    assert res.converged and not res.refused
    assert [a.after for a in res.applied if a.op == "pin"] == ["vllm>=0.11.1"]
    assert not [a for a in res.applied if a.target == "calculate_kv_scales"]  # not written, then not taken out
    assert "calculate" not in res.texts["serve.sh"]
    now = audit(root, gpu="RTX-4090", overlay=res.texts).sites[0].lookup_version
    assert not catalog_mod.load().arg("calculate_kv_scales").exists(now)
    _written_args_exist(root, "RTX-4090", res)
    # the new release's own changes are written (an FP8 KV cache it takes without the option)
    assert "--kv_cache_dtype fp8" in res.texts["serve.sh"]
    [held] = res.rebased
    assert (held.change.file, held.change.target, held.change.checks, held.was, held.now, held.instead) == \
        ("serve.sh", "calculate_kv_scales", ["B3"], "0.11.0", now, None)


def test_the_report_says_what_the_old_release_asked_for(write_project, cli):
    for lang, words in (("en", "was planned for vLLM 0.11.0; left out: after the pin change, the audit at vLLM"),
                        ("zh", "是按 vLLM 0.11.0 规划的，已略去：修改版本约束后")):
        root = write_project(OCR)
        code, _, err = cli("audit", str(root), "--gpu", "RTX-4090", "--isolated", "--diff", "--unsafe-fixes", "--lang", lang)
        line = next(x for x in err.splitlines() if "0.11.0" in x)
        assert words in line and "--calculate_kv_scales" in line and "B3" in line, err
    # --fix writes the bump and the new release's changes; a second run writes nothing
    root = write_project(OCR)
    cli("audit", str(root), "--gpu", "RTX-4090", "--isolated", "--fix", "--unsafe-fixes")
    assert (root / "requirements.txt").read_text() == "vllm>=0.11.1\n"
    fixed = {p: (root / p).read_bytes() for p in OCR}
    _, _, err = cli("audit", str(root), "--gpu", "RTX-4090", "--isolated", "--fix", "--unsafe-fixes")
    assert "nothing to fix" in err and "planned for" not in err, err
    assert {p: (root / p).read_bytes() for p in OCR} == fixed


def test_a_tag_bump_keeps_what_the_new_release_takes_on_the_same_line(write_project):
    root = write_project(QWEN3_DOCKER)
    assert {ch.target for ch in _pending(root, "A100-80GB x4")} >= {"vllm", "reasoning_parser"}
    res = _fix(root, "A100-80GB x4")
    assert res.converged and not res.refused
    # one line, two passes: the tag, then what v0.9.0 asks (--enable-reasoning is gone there); the
    # parser 0.8.5 would have needed instead of qwen3 is not written; four workers in Docker's 64 MiB /dev/shm (L40)
    # get --ipc=host on the same line
    assert res.texts["run.sh"] == QWEN3_DOCKER["run.sh"].replace("v0.8.5.post1", "v0.9.0").replace("--enable-reasoning ", "") \
        .replace("docker run ", "docker run --ipc=host ")
    assert [(r.change.target, r.change.after, r.was, r.now) for r in res.rebased] == \
        [("reasoning_parser", "--reasoning-parser deepseek_r1", "0.8.5.post1", "0.9.0")]
    assert _fix(write_project(res.texts, root), "A100-80GB x4").changed_files == []


def _case(tmp_path, name):
    dst = tmp_path / name
    shutil.copytree(score.HERE / name, dst)
    return dst, score.load(dst)["gpu"], (lambda rel: rel == "case.yaml")


def test_a_change_both_releases_ask_for_is_written_with_the_tag(tmp_path):
    # vllm-project/vllm#9840: `--task` needs the v0.6.4 image; the --enforce-eager A2 removes is as
    # wrong at 0.6.4 as at 0.6.3.post1: both are written, in the one manifest, nothing is held
    root, gpu, skip = _case(tmp_path, "not-in-version--vllm-9840")
    res = _fix(root, gpu, skip)
    assert {(a.op, a.target) for a in res.applied} == {("pin", "vllm"), ("unset", "enforce_eager")}
    assert res.changed_files == ["k8s/deployment.yaml"] and not res.rebased and not res.refused
    text = res.texts["k8s/deployment.yaml"]
    assert "vllm/vllm-openai:v0.6.4" in text and "--enforce-eager" not in text
    assert apply_fixes.run(lambda ov: audit(root, gpu=gpu, exclude=skip, overlay={**res.texts, **ov}),
                           unsafe=True).changed_files == []


def test_vllm_is_not_moved_down_where_a_later_framework_release_takes_it(tmp_path):
    # verl-project/verl#7626 as replayed: verl's main (0.8.0.dev) declares vllm<=0.12.0 below the 0.24.0
    # written. Until fwfix (5ae73f5b) L43 moved vLLM down to 0.12.0 (and the rebase then asked for
    # --calculate-kv-scales at 0.12.0); now a later verl release that takes 0.24.0 is proposed first and
    # vLLM's move down is only the alternative, which --fix does not write: vLLM stays, nothing is rebased
    root, gpu, skip = _case(tmp_path, "batched-tokens-lt-max-len--verl-7626")
    res = _fix(root, gpu, skip)
    assert not any(a.op == "pin" and a.target == "vllm" for a in res.applied) and not res.rebased
    assert any(a.target == "max_num_batched_tokens" for a in res.applied)
    _written_args_exist(root, gpu, res, skip)


@pytest.mark.parametrize("ops,now,later", [
    (["set", "pin", "unset"], ["pin"], ["set", "unset"]),
    (["set", "env"], ["set", "env"], []),
    (["pin", "pin"], ["pin", "pin"], []),
])
def test_a_pass_with_a_pin_writes_pins_alone(ops, now, later):
    class Ch:
        def __init__(self, op):
            self.op = op

    got = rebase.split([(None, Ch(op), {}) for op in ops])
    assert [[t[1].op for t in part] for part in got] == [now, later]
