"""`vllm-kb diagnose`: the decision tree of knowledge/decision_tree.yaml walked over the fixture
projects. Every symptom gives a path and changes a vLLM engineer would make, written in the
site's own syntax; a fact the audit lacks becomes a question, never a guess."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from vllm_kb.engine import diagnosis, validate
from vllm_kb.engine.advise.diagnose import lint as dlint
from vllm_kb.engine.advise.diagnose import tree as dtree
from vllm_kb.engine.advise.diagnose import walk as dwalk
from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_USAGE, UsageError
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report import diagnosis as report_diagnosis

KB = load()
TREE = dtree.tree(KB)
FIXTURES = Path(__file__).parent / "fixtures"
QUICKSTART = Path(__file__).parents[1] / "examples" / "quickstart"
PROJECTS = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
GPU = "H100-80GB x8"
CASES = [(s, case) for s in TREE.symptoms.values() for case in s.cases]


def run(path, symptom=None, lang="en", **kw) -> dict:
    return report_diagnosis.record(diagnosis.diagnose(path, symptom=symptom, gpu=kw.pop("gpu", GPU), **kw), lang)


def site(rec: dict, sid: str) -> dict:
    return next(d for d in rec["diagnoses"] if d["site"] and d["site"]["id"] == sid)


def changes(d: dict) -> dict[str, dict]:
    return {c["target"]: c for c in d["changes"]}


def leaves(d: dict) -> list[str]:
    return [x["node"] for x in d["leaves"]]


# --- the knowledge ---------------------------------------------------------------------------------

@pytest.mark.parametrize("symptom,case", CASES, ids=[f"{s.id}-{c['name']}" for s, c in CASES])
def test_tree_cases(symptom, case):
    assert dwalk.run_case(symptom, case) is None


def test_every_symptom_has_a_tree_and_cases():
    assert set(TREE.symptoms) == set(dtree.SYMPTOMS)
    for s in TREE.symptoms.values():
        assert len(s.cases) >= 2 and s.root.children, s.id
        assert any(c.get("leaves") for c in s.cases) and any(c.get("asks") for c in s.cases), s.id


def test_every_leaf_says_what_to_do_in_both_languages():
    for n in TREE.nodes.values():
        if n.leaf:
            assert n.advice.en and n.advice.zh and n.answer, n.id
            assert n.fix or n.checks or n.id in ("oom.colocated.trainer", "rlhf.other"), f"{n.id}: no change and no check"


def test_lint_catches_broken_trees():
    data = copy.deepcopy(KB.doc("decision_tree.yaml").data)
    root = data["symptoms"][0]["root"]
    root["children"][1]["when"] = 'memory.nope || observed.oom_phase == "zzz"'
    root["children"][1]["children"][1]["fix"][0]["value"] = "fp8_blah"
    root["children"][0]["children"][0]["checks"] = ["Z9"]
    root["children"][2]["id"] = "oom"
    data["matchers"][0]["observed"] = {"nope": True}
    v = validate.Validator()
    dlint.lint(v, data)
    text = "\n".join(str(p) for p in v.problems)
    for want in ("unknown fact 'memory.nope'", "oom_phase has no value 'zzz'", "'fp8_blah' is not an allowed quantization",
                 "no such check 'Z9'", "duplicate node id", "no such observation: 'nope'", "case 'weights-need-tp'"):
        assert want in text, want


def test_error_texts_map_to_symptoms():
    cases = {
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB": ("oom", {}),
        "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization`": ("oom", {"oom_phase": "kv_cache"}),
        "… which is larger than the available KV cache memory (20.1 GiB). Based on the available memory, the estimated "
        "maximum model length is 65536.": ("oom", {"oom_phase": "max_model_len", "logged_max_len": 65536.0}),
        "ValueError: Free memory on device (30.1/79.2 GiB) on startup is less than desired GPU memory utilization": ("oom", {"oom_phase": "free_memory"}),
        "WARNING Sequence group 3 is preempted by PreemptionMode.RECOMPUTE": ("throughput", {"preemption": True}),
        "p99 TTFT is 4 s": ("ttft", {}),
        "TPOT went up after the upgrade": ("itl", {}),
        "wake_up() hangs after the weight sync": ("rlhf", {}),
        "the server is slow": ("throughput", {}),
    }
    for text, (symptom, observed) in cases.items():
        got = dtree.match_text(TREE, text)
        assert got is not None and got[:2] == (symptom, observed), text
    assert dtree.match_text(TREE, "a bloom filter zoomed in") is None  # whole words only ("OOM")


def test_answers_are_checked():
    assert dtree.parse_answers(TREE, ["oom_phase=runtime", "preemption=yes", "logged_max_len=8192"]) == {
        "oom_phase": "runtime", "preemption": True, "logged_max_len": 8192.0}
    for bad, msg in (["nope=1"], "no such observation"), (["oom_phase=later"], "takes one of"), \
                    (["preemption=maybe"], "yes or no"), (["oom_phase"], "ID=VALUE"):
        with pytest.raises(UsageError, match=msg):
            dtree.parse_answers(TREE, bad)


# --- every symptom on every project ----------------------------------------------------------------

@pytest.mark.parametrize("project", PROJECTS + ["quickstart"])
@pytest.mark.parametrize("symptom", dtree.SYMPTOMS)
def test_every_symptom_gives_a_path(project, symptom):
    path = QUICKSTART if project == "quickstart" else FIXTURES / project
    rec = run(path, symptom)
    assert rec["symptom"]["id"] == symptom
    for d in rec["diagnoses"]:
        if d["skipped"]:
            # outside the tree's modes, or a trainer whose engine is diagnosed at its rollout server
            assert (symptom == "rlhf" and d["site"]["mode"] not in ("rlhf_colocate", "rlhf_server")) or "rollout server" in d["skipped"]
            continue
        assert d["path"][0]["node"] == symptom and d["path"][0]["question"]
        assert d["leaves"] or d["questions"], d["site"]
        for q in d["questions"]:
            assert q["needs"] and all(n["hint"] for n in q["needs"]) and q["candidates"]
        for c in d["changes"]:
            assert c["blocked"] or c["after"] or c["before"], c
            assert c["file"], c  # every change names the file it is written in


def test_quickstart_serve_script(monkeypatch):
    monkeypatch.chdir(QUICKSTART)
    serve = "deploy/serve.sh:10"
    oom = site(run(".", "oom"), serve)
    assert [p["node"] for p in oom["path"]] == ["oom", "oom.runtime", "oom.runtime.max-len"]
    assert changes(oom)["max_model_len"]["after"] == "--max-model-len 16384"
    assert any(e["fact"] == "memory.kv_cache_gib" for e in oom["path"][1]["evidence"])

    thr = site(run(".", "throughput"), serve)
    c = changes(thr)
    assert c["enforce_eager"]["op"] == "unset" and c["enforce_eager"]["before"] == "--enforce-eager"
    assert c["enable_prefix_caching"]["before"] == "--no-enable-prefix-caching"
    # Llama-3.3-70B fits on TP 4 of an 8×H100 node: two replicas of TP 4 instead of TP 8
    assert c["tensor_parallel_size"]["value"] == 4 and c["data_parallel_size"]["value"] == 2
    assert "throughput.spec" not in leaves(thr)  # speculative decoding only for an idle server
    assert {q["node"] for q in thr["questions"]} >= {"throughput.tokenizer", "throughput.spec"}

    itl = site(run(".", "itl"), serve)
    c = changes(itl)
    assert c["speculative_config"]["value"]["method"] == "eagle3"
    assert c["max_num_batched_tokens"]["value"] == 4096 and "enforce_eager" in c
    assert itl["diffs"] and "--speculative-config" in itl["diffs"][0]["text"]

    rl = site(run(".", "rlhf"), serve)
    assert rl["skipped"] and not rl["path"]


def test_missing_gpu_becomes_a_question(monkeypatch):
    monkeypatch.chdir(QUICKSTART)
    d = site(run(".", "oom", gpu="none"), "deploy/serve.sh:10")
    assert not d["leaves"] and not d["changes"]
    (q,) = d["questions"]
    assert q["node"] == "oom" and {c["node"] for c in q["candidates"]} >= {"oom.weights", "oom.max-len"}
    assert any("--gpu" in n["hint"] for n in q["needs"])
    # the user's answer decides it
    d = site(run(".", "oom", gpu="none", answers=["oom_phase=runtime"]), "deploy/serve.sh:10")
    assert "oom.runtime.max-len" in leaves(d) and changes(d)["max_model_len"]["value"] == 16384


def test_error_text_with_its_numbers(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    err = ("ValueError: To serve at least one request with the model's max seq len (131072), (40.00 GiB KV cache is "
           "needed, which is larger than the available KV cache memory (20.1 GiB). Based on the available memory, the "
           "estimated maximum model length is 65536.")
    rec = run("stale-serve", error=err, gpu="A100-80GB x4")
    assert rec["symptom"]["id"] == "oom" and rec["matched"]["matcher"] == "max-model-len-too-long"
    d = rec["diagnoses"][0]
    assert "oom.max-len.cap" in leaves(d)
    assert changes(d)["max_model_len"]["after"] == "--max-model-len 65536"  # the number vLLM printed, not a guess


def test_no_project_only_error_text():
    rec = run(None, error="No available memory for the cache blocks", gpu="none")
    (d,) = rec["diagnoses"]
    assert d["site"] is None and not d["changes"]
    (q,) = d["questions"]
    assert q["needs"][0]["observation"] == "colocated"
    assert [c["node"] for c in q["candidates"]] == ["oom.colocated", "oom.weights"]  # max-len, runtime ruled out
    d = run(None, error="No available memory for the cache blocks", gpu="H100 x1", answers={"colocated": False})["diagnoses"][0]
    assert [p["node"] for p in d["path"]][:2] == ["oom", "oom.weights"]
    assert d["questions"][0]["node"] == "oom.weights"  # TP, FP8 … need the model and the settings


def test_colocated_rl_oom_in_framework_syntax(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    d = site(run("rl-trl", "oom"), "scripts/train_recipe.sh:7")
    assert leaves(d) == ["oom.colocated.sleep", "oom.colocated.gmu"]
    c = changes(d)
    assert c["enable_sleep_mode"]["after"] == "--vllm_enable_sleep_mode"  # TRL's flag
    assert c["gpu_memory_utilization"]["after"] == "vllm_gpu_memory_utilization: 0.5"  # in the recipe YAML
    assert c["gpu_memory_utilization"]["file"].endswith("config_demo.yaml")


def test_rlhf_verl_hydra_override(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    rec = run("rl-verl", "rlhf")
    d = site(rec, "scripts/train_math.sh:7")
    assert leaves(d) == ["rlhf.colocate.sleep-on", "rlhf.colocate.gmu"]
    assert changes(d)["gpu_memory_utilization"]["after"] == "actor_rollout_ref.rollout.gpu_memory_utilization=0.5"
    server = site(rec, "recipe_one_step_off/run_grpo_2_6.sh:9")
    assert [p["node"] for p in server["path"]][:2] == ["rlhf", "rlhf.server"]
    h2 = next(x for x in server["leaves"] if x["node"] == "rlhf.server.weights")["checks"][0]
    assert h2["id"] == "H2" and h2["status"] == "not_applicable"  # vLLM 0.12 has no weight_transfer_config


def test_rlhf_openrlhf_and_the_trl_client(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    d = site(run("rl-openrlhf", "rlhf"), "legacy/train_ppo_hybrid.sh:4")
    assert "rlhf.colocate.eager" in leaves(d) and changes(d)["enforce_eager"]["before"] == "--enforce_eager"
    rec = run("rl-trl", "rlhf")
    client = site(rec, "scripts/grpo_server_mode.sh:19")
    assert client["skipped"] and "scripts/grpo_server_mode.sh:8" in client["skipped"]
    server = site(rec, "scripts/grpo_server_mode.sh:8")
    assert {"rlhf.server.weights", "rlhf.server.dev"} <= set(leaves(server))


def test_container_syntax(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    d = site(run("deploy-compose", "oom"), "docker-compose.yml:16")
    assert changes(d)["max_num_seqs"]["after"] == '"--max-num-seqs", "512"'  # halved from 1024, as a command: item


def test_site_selection_and_zh(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    rec = run("rl-trl", "oom", lang="zh", site="scripts/train_recipe.sh")
    assert [d["site"]["id"] for d in rec["diagnoses"]] == ["scripts/train_recipe.sh:7"]
    assert rec["symptom"]["title"] == "显存不足（OOM）"
    assert "sleep mode" in rec["diagnoses"][0]["leaves"][0]["advice"] and "训练" in rec["diagnoses"][0]["leaves"][0]["advice"]
    with pytest.raises(UsageError, match="no launch site"):
        run("rl-trl", "oom", site="nope.sh:3")


# --- the command line ------------------------------------------------------------------------------

def test_cli_text_and_json(fixtures_dir, cli):
    code, out, _ = cli("diagnose", "--symptom", "oom", "stale-serve", "--gpu", "H100 x4")
    assert code == EXIT_CLEAN
    assert "Diagnosis: Out of memory (OOM)" in out and "Path taken:" in out and "Changes:" in out
    assert "scripts/serve.sh" in out and "(oom.runtime)" in out and "estimate" in out
    code, out, _ = cli("diagnose", "--symptom", "itl", "stale-serve", "--gpu", "H100 x4", "--lang", "zh")
    assert code == EXIT_CLEAN and "诊断：token 间延迟（ITL）过高" in out and "诊断路径：" in out and "修改：" in out
    code, out, _ = cli("diagnose", "--symptom", "ttft", "config-yaml", "--gpu", "H100 x4", "--format", "json")
    data = json.loads(out)
    assert code == EXIT_CLEAN and data["schema_version"] == 1 and data["diagnoses"][0]["path"][0]["node"] == "ttft"
    code, out, _ = cli("diagnose", "--error", "CUDA out of memory", "--gpu", "none")
    assert code == EXIT_CLEAN and "--answer colocated=yes|no" in out


def test_cli_usage_errors(fixtures_dir, cli):
    assert cli("diagnose", "stale-serve")[0] == EXIT_USAGE  # no symptom, no error
    assert cli("diagnose", "--symptom", "slow", "stale-serve")[0] == EXIT_USAGE
    code, _, err = cli("diagnose", "--error", "everything is fine", "--gpu", "none")
    assert code == EXIT_USAGE and "no symptom recognised" in err
    code, _, err = cli("diagnose", "--symptom", "oom", "stale-serve", "--answer", "oom_phase=never", "--gpu", "none")
    assert code == EXIT_USAGE and "takes one of" in err


def test_skill_reference_lists_every_node():
    from vllm_kb.skill import build

    files = build.render(KB)
    for lang_prefix in ("references/", "references/zh/"):
        text = files[lang_prefix + "decision-tree.md"]
        assert "coming later" not in text and "后续提供" not in text
        for nid in TREE.nodes:
            assert f"`{nid}`" in text, nid
