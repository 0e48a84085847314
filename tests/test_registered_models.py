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
    # a computed name may be any architecture
    assert got == {"MyLM": "a.py:2", "OtherLM": "b.py:4", registered_models.ANY: "c.py:3"}


# dots.ocr's README (vLLM 0.9.1, before vLLM had the class): the vllm console script is patched to
# import the checkpoint's own module, which calls ModelRegistry.register_model when imported
DOTS = ("export hf_model_path=./weights/DotsOCR\n"
        "sed -i '/^from vllm\\.entrypoints\\.cli\\.main import main$/a\\\n"
        "from DotsOCR import modeling_dots_ocr_vllm' `which vllm`\n"
        "vllm serve ${hf_model_path} --trust-remote-code\n")


def test_code_loaded_into_vllm_may_register_any_architecture():
    cases = {
        "launch.sh": DOTS,
        "Dockerfile": "FROM vllm/vllm-openai:v0.9.1\nRUN echo 'import my_models' >> $(which vllm)\n",
        "setup.sh": "sed -i -e '1a import my_models' /opt/conda/bin/vllm\n",
    }
    for name, text in cases.items():
        assert registered_models.index(_Ctx({name: text}), [name]) == {registered_models.ANY: f"{name}:{text.count(chr(10), 0, text.index('echo' if 'echo' in text else 'sed')) + 1}"}, name


def test_what_does_not_load_code_into_vllm():
    cases = {
        "a.sh": "sed -i 's/import a/import b/' train.py\nwhich vllm\n",  # another file; which vllm on its own line
        "b.sh": "sed -n '/import/p' `which vllm`\n",  # reads the script, does not edit it
        "c.sh": "echo 'import x' > notes.txt && vllm serve m\n",
    }
    for name, text in cases.items():
        assert registered_models.index(_Ctx({name: text}), [name]) == {}, name


def test_a_general_plugin_entry_point():
    pyproject = '[project]\nname = "p"\n\n[project.entry-points."vllm.general_plugins"]\nregister = "my_plugin.models:register"\n'
    outside = registered_models.index(_Ctx({"pyproject.toml": pyproject}), ["pyproject.toml"])
    assert outside == {registered_models.ANY: "pyproject.toml:4"}
    # the plugin's module is the project's own: its register_model calls are read like any other file
    files = {"pyproject.toml": pyproject, "src/my_plugin/models.py": "def register():\n    pass\n"}
    assert registered_models.index(_Ctx(files), list(files)) == {}
    setup = "setup(name='p', entry_points={'vllm.general_plugins': ['reg = ext_pkg:register']})\n"
    assert registered_models.index(_Ctx({"setup.py": setup}), ["setup.py"]) == {registered_models.ANY: "setup.py:1"}


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


def test_an_architecture_from_loaded_code_is_p1_not_p0(cli, write_project):
    text = SERVER.replace("ModelRegistry.register_model(\"DeepseekOCRForCausalLM\", DeepseekOCRForCausalLM)\n", "")
    (r,) = _l21(cli, write_project({"server.py": text, "requirements.txt": "vllm==0.8.5\n",
                                    "patch.sh": "echo 'import deepseek_ocr' >> $(which vllm)\n"}))
    assert r["priority"] == "P1" and "patch.sh:1" in r["reason"]
