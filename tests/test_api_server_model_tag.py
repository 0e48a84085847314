"""From 0.10.0 `python -m vllm.entrypoints.openai.api_server` parses with make_arg_parser, which adds an
optional positional `model_tag` (0.10.0 openai/cli_args.py; 0.34.0 common/cli_args.py:440) that only
`vllm serve` reads: one stray word (`--disable_frontend_multiprocessing True`, dongteng/vllm_learn_fss
.vscode/launch.json, https://github.com/dongteng/vllm_learn_fss) is taken and ignored, not refused.
A second one, or any on 0.9.x, is still "unrecognized arguments"."""
from vllm_kb.engine.audit import audit

LINE = "python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B --enforce-eager True{more}\n"


def _stray(tmp_path, pin: str, more: str = ""):
    (tmp_path / "requirements.txt").write_text(pin)
    (tmp_path / "run.sh").write_text(LINE.format(more=more))
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    return [f.message["en"] for f in sr.remarks if f.code == "stray-positional" and f.priority == "P0"]


def test_one_stray_word_is_the_model_tag_from_0_10(tmp_path):
    assert _stray(tmp_path, "vllm==0.10.0\n") == []
    assert len(_stray(tmp_path, "vllm==0.9.2\n")) == 1
    (only,) = _stray(tmp_path, "vllm==0.11.0\n", " False")
    assert "False" in only


# Arnavd83/avocado (https://github.com/Arnavd83/avocado): its vLLM 0.6.4 -> 0.13.0 upgrade notes record
# start_vllm.sh moved to `python -m vllm.entrypoints.openai.api_server meta-llama/Llama-3.1-8B-Instruct
# --host 0.0.0.0 ...` on the v0.13.0 image, the model a positional; the module takes it as model_tag and
# serves its default model (Qwen/Qwen3-0.6B from 0.10.0). The images up to v0.11.0 run that module as their
# entrypoint, so a compose `command:` giving the model first is the same launch (vLLM #22072: `serve` was
# taken as the model_tag there).
TAGGED = "exec python3 -m vllm.entrypoints.openai.api_server meta-llama/Llama-3.1-8B-Instruct --host 0.0.0.0 --port 8001\n"
COMPOSE = "services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.1\n    command: [\"Qwen/Qwen2.5-7B-Instruct\", \"--port\", \"8000\"]\n"


def _l33(sr):
    return next(r for r in sr.results if r.check.id == "L33")


def test_a_positional_model_to_the_api_server_is_ignored_from_0_10(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.13.0\n")
    (tmp_path / "start_vllm.sh").write_text(TAGGED)
    (tmp_path / "serve.sh").write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8001\n")
    (tmp_path / "flag.sh").write_text("python -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct\n")
    (tmp_path / "docker-compose.yml").write_text(COMPOSE)
    sites = {sr.site.file: sr for sr in audit(tmp_path, gpu="H100-80GB x1").sites}
    for name, word in (("start_vllm.sh", "meta-llama/Llama-3.1-8B-Instruct"), ("docker-compose.yml", "Qwen/Qwen2.5-7B-Instruct")):
        sr = sites[name]
        res = _l33(sr)
        assert (res.status, res.priority) == ("recommended", "P1") and word in res.reason_text("en")
        # the word is not the model vLLM loads: every other check sees the model as unknown
        assert sr.site.model is None and not [f for f in sr.remarks if f.code == "stray-positional"]
        (ch,) = [c for c in sr.changes if c.target == "model"]
        assert ch.before == word and ch.line == (1 if name == "start_vllm.sh" else 4)
        assert ch.after == (f"--model {word}" if name == "start_vllm.sh" else f'"--model", "{word}"')
    for control in ("serve.sh", "flag.sh"):
        assert _l33(sites[control]).status != "recommended"


def test_before_0_10_the_word_is_refused_instead(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.9.2\n")
    (tmp_path / "start_vllm.sh").write_text(TAGGED)
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    assert _l33(sr).status != "recommended"
    assert [f.priority for f in sr.remarks if f.code == "stray-positional"] == ["P0"]


def test_a_switch_value_is_no_model_to_write(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.13.0\n")
    (tmp_path / "run.sh").write_text("python -m vllm.entrypoints.openai.api_server --enforce-eager True\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    assert "model_tag" not in sr.site.launch and _l33(sr).status != "recommended"
