"""A local folder known only by its name, named as a training run names its output
(`./merged/qwen2.5-72b-instruct-sft`): the catalogued model the name resembles is a guess, so a
P0 that rests on its facts is a P1 that says so (review17); one the launch's own arguments give
stays P0, and so does a folder named as the model itself or whose config.json the project holds."""
from __future__ import annotations

import json

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check import name_guess

_SERVE = "vllm serve {m} --tensor-parallel-size {tp} --max-model-len 8192\n"
_QWEN72 = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 8192, "intermediate_size": 29568,
           "num_attention_heads": 64, "num_hidden_layers": 80, "num_key_value_heads": 8, "vocab_size": 152064,
           "max_position_embeddings": 32768, "torch_dtype": "bfloat16", "tie_word_embeddings": False}


def _results(root):
    (sr,) = audit(root, gpu="H100-80GB x1").sites
    return {r.check.id: r for r in sr.results}


def _project(write_project, root, model, tp=1, extra=None):
    return write_project({"requirements.txt": "vllm==0.8.5\n", "serve.sh": _SERVE.format(m=model, tp=tp), **(extra or {})}, root)


def test_a_training_runs_folder_gives_no_certain_p0(write_project, tmp_path):
    r = _results(_project(write_project, tmp_path / "sft", "./merged/qwen2.5-72b-instruct-sft"))["L16"]
    assert r.status == "recommended" and r.priority == "P1"
    assert "./merged/qwen2.5-72b-instruct-sft" in r.reason_text("en") and "config.json" in r.reason_text("zh")
    # TP 3 does not divide the catalogued model's 64 heads: that, too, is the guessed model's; three workers
    # on the one GPU the launch sees is the launch's own (no model fact in it): still P0
    r = _results(_project(write_project, tmp_path / "tp", "/data/Qwen2.5-72B-Instruct/checkpoint-500", tp=3))
    assert r["L1"].status == "recommended" and r["L1"].priority == "P1"
    assert r["L34"].status == "recommended" and r["L34"].priority == "P0"



def test_the_control_evaluates_the_p0_checks_only(write_project, tmp_path, monkeypatch):
    """`settle` reads the control only where the site's verdict is a P0: the rest is not evaluated again."""
    from vllm_kb.engine import audit as audit_mod

    seen = []
    real = audit_mod.evaluate_all

    def recording(kb, facts, unresolved, engine_elsewhere=False, only=None):
        seen.append(only)
        return real(kb, facts, unresolved, engine_elsewhere, only=only)

    monkeypatch.setattr(audit_mod, "evaluate_all", recording)
    r = _results(_project(write_project, tmp_path / "tp", "/data/Qwen2.5-72B-Instruct/checkpoint-500", tp=3))
    assert seen[0] is None and {"L1", "L34"} <= seen[-1]
    assert all(r[c].status == "recommended" and r[c].priority in ("P0", "P1") for c in seen[-1])
    seen.clear()
    _results(_project(write_project, tmp_path / "fits", "./merged/qwen2.5-0.5b-instruct-sft"))
    assert seen == [None]  # no P0 at all: no control

def test_a_folder_named_as_the_model_or_read_keeps_its_p0(write_project, tmp_path):
    r = _results(_project(write_project, tmp_path / "named", "/models/Qwen2.5-72B-Instruct"))["L16"]
    assert r.status == "recommended" and r.priority == "P0"
    # the run's folder with its config.json in the project: vLLM reads that, and so does the audit
    root = _project(write_project, tmp_path / "read", "./merged/qwen2.5-72b-instruct-sft",
                    extra={"merged/qwen2.5-72b-instruct-sft/config.json": json.dumps(_QWEN72)})
    r = _results(root)["L16"]
    assert r.status == "recommended" and r.priority == "P0"


def test_named_only():
    fam = {"family": "qwen2.5", "params_b": 72.7}
    assert name_guess.named_only({"name": "./merged/qwen2.5-72b-instruct-sft", **fam})
    assert name_guess.named_only({"name": "/ckpt/qwen2.5-72b/global_step_100/actor/huggingface", **fam})
    assert name_guess.named_only({"name": "/ckpt/run7", "identity": "hint", **fam})
    assert not name_guess.named_only({"name": "/models/Qwen2.5-72B-Instruct", **fam})
    assert not name_guess.named_only({"name": "Qwen/Qwen2.5-72B-Instruct-sft", **fam})  # a Hub id
    assert not name_guess.named_only({"name": "./out/sft", "identity": "download", **fam})
    assert not name_guess.named_only({"name": "./merged/qwen-sft", "arch_source": "config.json", **fam})
    assert not name_guess.named_only({"name": "./merged/unknown-sft"})  # nothing claimed of it
