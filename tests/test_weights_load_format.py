"""The weight files a checkpoint holds against the suffixes --load-format reads (check L165):
a folder inside the project is listed (names only), a Hub upload's row says its formats."""
from __future__ import annotations

import json

from vllm_kb.engine.kb.checkpoint import read_checkpoint

CONFIG = json.dumps({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
                     "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 32000})


def test_a_project_folder_lists_its_weight_formats(write_project):
    root = write_project({"ckpt/config.json": CONFIG, "ckpt/pytorch_model.bin": "", "ckpt/training_args.bin": "",
                          "ckpt/optimizer.pt": "", "bare/config.json": CONFIG})
    assert read_checkpoint(root, "ckpt").weights == ("bin",)
    assert read_checkpoint(root, "bare").weights == ()  # weights not in the project: nothing is said


def test_safetensors_load_format_on_a_bin_folder_is_refused(write_project, json_site, p0s):
    serve = "vllm serve ./ckpt --load-format safetensors\n"
    bin_only = write_project({"ckpt/config.json": CONFIG, "ckpt/pytorch_model.bin": "", "serve.sh": serve,
                              "requirements.txt": "vllm==0.8.5\n"})
    assert "L165" in p0s(json_site(bin_only))


def test_weights_the_load_format_reads_start(tmp_path, write_project, json_site, p0s):
    serve = "vllm serve ./ckpt --load-format safetensors\n"
    both = write_project({"ckpt/config.json": CONFIG, "ckpt/model.safetensors": "", "ckpt/pytorch_model.bin": "",
                          "serve.sh": serve, "requirements.txt": "vllm==0.8.5\n"}, tmp_path / "a")
    auto = write_project({"ckpt/config.json": CONFIG, "ckpt/pytorch_model.bin": "", "serve.sh": "vllm serve ./ckpt\n",
                          "requirements.txt": "vllm==0.8.5\n"}, tmp_path / "b")
    bare = write_project({"ckpt/config.json": CONFIG, "serve.sh": serve, "requirements.txt": "vllm==0.8.5\n"}, tmp_path / "c")
    for root in (both, auto, bare):
        assert "L165" not in p0s(json_site(root))
