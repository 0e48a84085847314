"""argparse takes a unique prefix of a long option (allow_abbrev, which no vLLM release turns off):
`--served-model` is `--served-model-name` in every release, including 0.2.0–0.4.1 where that option
belonged to the server's own parser and not yet to EngineArgs (a Dockerfile of October 2023 ran
`api_server --served-model $MODEL_ID` on 0.2.0). A prefix of several options stays refused."""
from vllm_kb.engine.audit import audit


def _remarks(tmp_path, pin: str, line: str):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "run.sh").write_text(f"#!/bin/sh\n{line}\n")
    (sr,) = audit(tmp_path, gpu="A100-40GB").sites
    return [(f.code, f.priority, f.subject) for f in sr.remarks if f.priority == "P0"]


def test_a_unique_prefix_of_a_server_option_is_that_option_before_042(tmp_path):
    line = "python -m vllm.entrypoints.openai.api_server --served-model foo --model mistralai/Mistral-7B-v0.1"
    assert _remarks(tmp_path, "0.2.0", line) == []


def test_a_unique_prefix_is_accepted_in_a_later_release(tmp_path):
    line = "vllm serve mistralai/Mistral-7B-v0.1 --served-model foo --gpu-memory-util 0.8"
    assert _remarks(tmp_path, "0.6.0", line) == []


def test_a_prefix_of_several_options_is_still_refused(tmp_path):
    # --max-num starts --max-num-seqs and --max-num-batched-tokens: "ambiguous option"
    line = "vllm serve mistralai/Mistral-7B-v0.1 --max-num 8"
    assert [c for c, _p, _s in _remarks(tmp_path, "0.6.0", line)] == ["unknown-option"]


# opea-project/GenAIInfra kubeai/models/*-gaudi.yaml (https://github.com/opea-project/GenAIInfra) run
# `--disable-log-request`: 0.1.0–0.16.0 take it as --disable-log-requests, 0.17.0 dropped that option,
# so the prefix has that option's history (P0 where pinned past it, P1 on an untagged image), never
# "vLLM has no option".
LOG_REQ = "vllm serve mistralai/Mistral-7B-v0.1 --disable-log-request"


def test_a_prefix_of_a_removed_option_is_that_option_in_its_releases(tmp_path):
    assert _remarks(tmp_path, "0.16.0", LOG_REQ) == []


def test_a_prefix_of_a_removed_option_is_refused_as_removed_after_it(tmp_path):
    (code, _s), = [(c, s) for c, _p, s in _remarks(tmp_path, "0.17.0", LOG_REQ)]
    assert code == "not-in-version"


def test_a_prefix_of_a_removed_option_on_an_untagged_image_is_p1(tmp_path):
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  vllm:\n    image: vllm/vllm-openai:latest\n"
        "    command: [\"--model\", \"mistralai/Mistral-7B-v0.1\", \"--disable-log-request\"]\n")
    (sr,) = audit(tmp_path, gpu="A100-40GB").sites
    hits = [(f.code, f.priority) for f in sr.remarks if (f.subject or "").replace("_", "-") == "disable-log-request"]
    assert hits and all(p != "P0" for _c, p in hits)
