"""L165: a checkpoint folder whose tensors sit under a top-level prefix the class config.json names has no
module for (knowledge/vllm/weight_prefixes.yaml from tools/vllm_weight_prefixes.py): a multimodal text tower
under a text-only config (vLLM #15031) and a classifier head under the generative class (ms-swift #4289)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from release_tree import write_release  # noqa: E402
from vllm_weight_prefixes import build  # noqa: E402

_UTILS = {"vllm/model_executor/models/utils.py": 'msg = f"There is no module or parameter named \'{prefix}\'"\n'}
_REG = {"vllm/model_executor/models/registry.py":
        '_TEXT_GENERATION_MODELS = {\n    "TextForCausalLM": ("text", "TextForCausalLM"),\n'
        '    "OtherForCausalLM": ("other", "OtherForCausalLM"),\n    "VLForConditionalGeneration": ("vl", "VLForConditionalGeneration"),\n}\n'}
_AUTO = "    def load_weights(self, weights):\n        loader = AutoWeightsLoader(self)\n        return loader.load_weights(weights)\n"


def test_build_reads_the_classes_that_cannot_place_a_prefix(tmp_path):
    files = {**_UTILS, **_REG,
             "vllm/model_executor/models/text.py": "class TextForCausalLM(nn.Module, SupportsPP):\n" + _AUTO,
             # a base from another file may build what this one does not name: not read
             "vllm/model_executor/models/other.py": "from .text import TextForCausalLM as B\n\nclass OtherForCausalLM(B):\n" + _AUTO,
             "vllm/model_executor/models/vl.py": 'M = WeightsMapper(orig_to_new_prefix={"model.": "language_model.model."})\n\n'
                                                 "class VLForConditionalGeneration(nn.Module):\n" + _AUTO}
    write_release(tmp_path / "src" / "0.8.0", files)
    write_release(tmp_path / "src" / "0.8.1", files)
    write_release(tmp_path / "src" / "0.6.2", {**_REG, "vllm/model_executor/models/utils.py": "# no raise yet\n"})
    read, table = build([tmp_path / "src"])
    assert read == ["0.8.0", "0.8.1"]
    assert table == {"TextForCausalLM": {"language_model": [["0.8.0", "0.8.1"]], "score": [["0.8.0", "0.8.1"]]},
                     "VLForConditionalGeneration": {"score": [["0.8.0", "0.8.1"]]}}


def _folder(arch: str, names: list[str]) -> dict[str, str]:
    index = {"metadata": {"total_size": 1}, "weight_map": {n: "model-00001-of-00001.safetensors" for n in names}}
    return {"models/m/config.json": json.dumps({"architectures": [arch], "model_type": "gemma3_text", "hidden_size": 3840,
                                                "num_hidden_layers": 48, "num_attention_heads": 16, "num_key_value_heads": 8,
                                                "vocab_size": 262208, "torch_dtype": "bfloat16"}),
            "models/m/model.safetensors.index.json": json.dumps(index)}


def test_a_text_config_over_multimodal_weights_is_a_p0(tmp_path, write_project, json_site):
    mm = ["language_model.model.embed_tokens.weight", "language_model.model.layers.0.mlp.up_proj.weight",
          "vision_tower.vision_model.embeddings.patch_embedding.weight"]
    serve = "vllm serve ./models/m --max-model-len 8192\n"
    root = write_project({"serve.sh": serve, "requirements.txt": "vllm==0.8.1\n", **_folder("Gemma3ForCausalLM", mm)}, tmp_path / "a")
    site = json_site(root, "A100-80GB")
    assert [r["priority"] for r in site["recommendations"] if r["check"] == "L165"] == ["P0"]
    # the text model's own layout loads
    text = ["model.embed_tokens.weight", "model.layers.0.mlp.up_proj.weight"]
    ok = write_project({"serve.sh": serve, "requirements.txt": "vllm==0.8.1\n", **_folder("Gemma3ForCausalLM", text)}, tmp_path / "b")
    assert "L165" not in [r["check"] for r in json_site(ok, "A100-80GB")["recommendations"]]


def test_a_pooling_task_builds_the_score_head(tmp_path, write_project, json_site):
    cls = ["model.embed_tokens.weight", "score.weight", "visual.patch_embed.proj.weight"]
    files = {"requirements.txt": "vllm==0.8.5\n", **_folder("Qwen2VLForConditionalGeneration", cls)}
    gen = write_project({**files, "serve.sh": "vllm serve ./models/m --max-model-len 8192\n"}, tmp_path / "gen")
    assert [r["priority"] for r in json_site(gen, "A100-80GB")["recommendations"] if r["check"] == "L165"] == ["P0"]
    pool = write_project({**files, "serve.sh": "vllm serve ./models/m --max-model-len 8192 --task classify\n"}, tmp_path / "pool")
    assert "L165" not in [r["check"] for r in json_site(pool, "A100-80GB")["recommendations"]]


def test_a_wrapper_task_keyword_leaves_the_class_unknown(tmp_path, write_project, json_site):
    # ms-swift 3.8+ VllmEngine(task_type='seq_cls') asks vLLM for the classify task, which builds the score head
    cls = ["model.embed_tokens.weight", "score.weight", "visual.patch_embed.proj.weight"]
    files = {"requirements.txt": "vllm==0.8.5\nms-swift==3.8.0\n", **_folder("Qwen2VLForConditionalGeneration", cls)}
    run = "from swift.llm import VllmEngine\n\nif __name__ == '__main__':\n    VllmEngine('./models/m', max_model_len=8192{})\n"
    asked = write_project({**files, "run.py": run.format(", task_type='seq_cls'")}, tmp_path / "asked")
    assert "L165" not in [r["check"] for r in json_site(asked, "A100-80GB")["recommendations"]]
    plain = write_project({**files, "run.py": run.format("")}, tmp_path / "plain")
    assert [r["priority"] for r in json_site(plain, "A100-80GB")["recommendations"] if r["check"] == "L165"] == ["P0"]
