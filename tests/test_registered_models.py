"""engine/scan/registered_models.py: architectures a project registers with vLLM itself are
implemented whatever the release ships, so L21 never says "not supported" for them."""
import json

from vllm_kb.engine.scan import registered_models


class _Ctx:
    def __init__(self, files):
        self.files = files

    def read(self, rel):
        return self.files.get(rel)


def test_each_spelling_of_a_registration_is_read():
    files = {
        "a.py": "from vllm import ModelRegistry\nModelRegistry.register_model('MyLM', 'pkg.mod:MyLM')\n",
        "b.py": "import vllm\n\ndef register():\n    vllm.ModelRegistry.register_model(model_arch='OtherLM', model_cls=object)\n",
        "c.py": "from vllm import ModelRegistry\nNAME = input()\nModelRegistry.register_model(NAME, object)\n",  # not a literal
        "d.py": "registry.register_model('NotVllm', object)\n",
    }
    got = registered_models.index(_Ctx(files), list(files))
    assert got == {"MyLM": "a.py:2", "OtherLM": "b.py:4"}


# DeepSeek-OCR's recipe registers its model class before LLM() on vLLM 0.8.5, which has none
SERVER = ("from vllm import LLM\nfrom vllm.model_executor.models.registry import ModelRegistry\n"
          "from deepseek_ocr import DeepseekOCRForCausalLM\n\n"
          "ModelRegistry.register_model(\"DeepseekOCRForCausalLM\", DeepseekOCRForCausalLM)\n"
          "llm = LLM(model=\"deepseek-ai/DeepSeek-OCR\", hf_overrides={\"architectures\": [\"DeepseekOCRForCausalLM\"]},\n"
          "          trust_remote_code=True, max_model_len=8192)\n")


def _l21(cli, root):
    code, out, _ = cli("audit", str(root), "--gpu", "A100-80GB", "--format", "json")
    return [r for st in json.loads(out)["sites"] for r in st["recommendations"] if r["check"] == "L21"]


def test_a_registered_architecture_is_not_refused(cli, write_project):
    assert _l21(cli, write_project({"server.py": SERVER, "requirements.txt": "vllm==0.8.5\n"})) == []


def test_without_the_registration_the_release_refuses_it(cli, write_project):
    text = SERVER.replace("ModelRegistry.register_model(\"DeepseekOCRForCausalLM\", DeepseekOCRForCausalLM)\n", "")
    (r,) = _l21(cli, write_project({"server.py": text, "requirements.txt": "vllm==0.8.5\n"}))
    assert r["priority"] == "P0"
