"""A Hub upload named without a copy in the project is judged by what its own config.json says
(knowledge/hub_uploads.yaml), and the model a wrapper names only through an argparse default or
a compose `.env` is read."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import hub_uploads
from vllm_kb.engine.kb.knowledge import Knowledge

_SCRIPT = '''import argparse
from vllm import LLM


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="{model}")
    parser.add_argument("--tp", type=int, default=1)
    return parser.parse_args()


def main(args):
    llm = LLM(model=args.model, quantization="awq", tensor_parallel_size=args.tp{extra})
    print(llm.generate("hello"))


if __name__ == "__main__":
    main(get_args())
'''


def _site(tmp_path, model: str, pin: str = "0.2.0", extra: str = "", gpu: str = "A100-80GB"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "run.py").write_text(_SCRIPT.format(model=model, extra=extra))
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return sr


def _l120(sr):
    return next(r for r in sr.results if r.check.id == "L120")


def test_an_argparse_default_returned_by_a_helper_names_the_model(tmp_path):
    sr = _site(tmp_path, "TheBloke/Spicyboros-13B-2.2-AWQ")
    assert sr.facts["model"]["name"] == "TheBloke/Spicyboros-13B-2.2-AWQ"


def test_a_bfloat16_awq_upload_on_the_default_dtype_stops_the_plain_kernel(tmp_path):
    # vLLM #1114: the upload's config.json says bfloat16, `auto` keeps it, the AWQ kernel takes float16 only
    sr = _site(tmp_path, "TheBloke/Spicyboros-13B-2.2-AWQ")
    res = _l120(sr)
    assert res.needs_change and res.priority == "P0"
    assert sr.facts["startup"]["quant_dtype_fix"] == "half"


def test_the_same_upload_in_float16_starts(tmp_path):
    res = _l120(_site(tmp_path, "TheBloke/Spicyboros-13B-2.2-AWQ", extra=', dtype="half"'))
    assert res.status == "enabled"


def test_an_upload_the_table_does_not_hold_stays_unknown(tmp_path):
    # the name says AWQ, nothing says the dtype it was saved in: no claim
    res = _l120(_site(tmp_path, "someone/Other-13B-AWQ"))
    assert not res.needs_change


def test_a_local_folder_of_the_same_name_is_not_the_upload(tmp_path):
    # a folder may be the user's own export; only its own config.json would say
    res = _l120(_site(tmp_path, "./models/Spicyboros-13B-2.2-AWQ"))
    assert not res.needs_change


def test_rows_read_like_the_files(tmp_path):
    table = Knowledge().doc("hub_uploads.yaml").data
    row = hub_uploads.row_for("qwen/qwen2.5-vl-72b-instruct-awq", table)
    assert row is not None
    got = hub_uploads.apply({"name": "Qwen/Qwen2.5-VL-72B-Instruct-AWQ", "quant_source": "name"}, row)
    assert (got["quant_source"], got["quant_method"], got["quant_bits"], got["quant_zero_point"], got["quant_group_size"]) \
        == ("config", "awq", 4, True, 128)
    assert got["torch_dtype"] == "float16" and got["upload_facts"].startswith("https://huggingface.co/")
    assert hub_uploads.row_for("./Qwen/Qwen2.5-VL-72B-Instruct-AWQ", table) is None


def test_a_compose_env_file_names_the_model_of_the_program_its_image_runs(tmp_path):
    (tmp_path / "app.py").write_text('import os\nfrom vllm import LLM\n\nllm = LLM(model=os.getenv("MODEL"))\n')
    (tmp_path / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.4.1\nCOPY app.py /app/app.py\nENTRYPOINT ["python3", "/app/app.py"]\n')
    (tmp_path / ".env").write_text("MODEL=TheBloke/Mistral-7B-v0.1-AWQ\n")
    (tmp_path / "docker-compose.yml").write_text("services:\n  llm:\n    build: .\n    env_file: .env\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert sr.facts["model"]["name"] == "TheBloke/Mistral-7B-v0.1-AWQ"


def test_two_services_building_one_image_with_other_models_say_nothing(tmp_path):
    (tmp_path / "app.py").write_text('import os\nfrom vllm import LLM\n\nllm = LLM(model=os.getenv("MODEL"))\n')
    (tmp_path / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.4.1\nCOPY app.py /app/app.py\nENTRYPOINT ["python3", "/app/app.py"]\n')
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  a:\n    build: .\n    environment:\n      MODEL: org/a-7b\n"
        "  b:\n    build: .\n    environment:\n      MODEL: org/b-7b\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert (sr.facts.get("model") or {}).get("name") is None


def _serve(tmp_path, model: str, pin: str, gpu: str, args: str = ""):
    tmp_path.mkdir()
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(f"#!/bin/sh\nvllm serve {model} {args}\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return sr


def test_a_compressed_tensors_row_gives_the_scheme_and_leaves_the_group_unknown():
    # llm-compressor #1258: only the scheme check of compressed-tensors raises the report's error
    table = Knowledge().doc("hub_uploads.yaml").data
    for name in ("neuralmagic/Qwen2.5-VL-72B-Instruct-quantized.w4a16", "RedHatAI/Qwen2.5-VL-72B-Instruct-quantized.w4a16"):
        row = hub_uploads.row_for(name, table)
        assert row is not None
        got = hub_uploads.apply({"name": name, "quant_source": "name", "quant_group_size": 128}, row)
        assert (got["quant_method"], got["quant_scheme"], got["quant_source"]) == ("compressed-tensors", "wna16", "config")
        assert "quant_group_size" not in got and "quant_block" not in got


@pytest.mark.parametrize("name, pin, old, args", [
    # llm-compressor #1258: Neural Magic's W4A16 on a V100 with 0.7.3
    ("neuralmagic/Qwen2.5-VL-72B-Instruct-quantized.w4a16", "0.7.3", "V100-32GB x2", "--tensor-parallel-size 2 --dtype half"),
    # vLLM #14814: the "GPTQ" upload is compressed-tensors W4A16, whose scheme needs compute capability 8.0 in 0.8.0
    ("ISTA-DASLab/gemma-3-27b-it-GPTQ-4b-128g", "0.8.0", "22GiB cc7.5 x2", "--tensor-parallel-size 2 --max-model-len 4096"),
])
def test_the_compressed_tensors_upload_is_refused_before_ampere_and_runs_on_it(tmp_path, name, pin, old, args):
    l7s = [next(r for r in _serve(tmp_path / d, name, pin, gpu, args).results if r.check.id == "L7")
           for d, gpu in (("old", old), ("a", "A100-80GB x2"))]
    assert l7s[0].needs_change and l7s[0].priority == "P0"
    assert not l7s[1].needs_change


def test_gaunernsts_gemma3_awq_takes_the_plain_kernel_on_turing_and_marlin_on_ampere(tmp_path):
    # vLLM #28857 (0.11.0): the upload's group-32 zero-point AWQ runs on the plain kernel below compute
    # capability 8.0, which refuses bfloat16; AWQ-Marlin takes the same checkpoint in bfloat16 on Ampere
    name = "gaunernst/gemma-3-27b-it-int4-awq"
    turing = _serve(tmp_path / "t", name, "0.11.0", "RTX-2080-Ti x2", "-tp 2 --dtype bfloat16")
    res = _l120(turing)
    assert res.needs_change and res.priority == "P0"
    assert turing.facts["startup"]["quant_kernel"] == "awq"
    ampere = _serve(tmp_path / "a", name, "0.11.0", "RTX-3090 x2", "-tp 2 --dtype bfloat16")
    assert not _l120(ampere).needs_change

