"""Classes that are vllm.LLM under another name (engine/scan/python_subclass.py): a subclass in the
same file or in another project module, a public wrapper (knowledge/deploy/llm_wrappers.yaml), and
a subclass whose own __init__ parameters are not engine arguments."""


def values(s):
    return {k: v.value for k, v in s.settings.items() if v.resolved}


def test_a_public_wrapper_is_an_llm_site(scanned):
    (s,) = scanned({"gen.py": 'from bonito import Bonito\nb = Bonito("org/m", max_model_len=10000)\n'})
    assert s.kind == "LLM()" and s.model.value == "org/m" and values(s) == {"max_model_len": 10000}
    assert "Bonito" in s.mode_evidence


def test_a_subclass_in_the_same_file(scanned):
    (s,) = scanned({"run.py": 'from vllm import LLM\n\nclass MyLLM(LLM):\n    def extra(self):\n        pass\n\n'
                              'llm = MyLLM(model="org/m", tensor_parallel_size=2)\n'})
    assert s.line == 7 and s.model.value == "org/m" and values(s) == {"tensor_parallel_size": 2}


def test_a_subclass_imported_from_another_project_module(scanned):
    sites = scanned({
        "pkg/__init__.py": "",
        "pkg/engine.py": 'import vllm\n\nclass Engine(vllm.LLM):\n    def __init__(self, model, tag="x", **kwargs):\n'
                         '        self.tag = tag\n        super().__init__(model=model, **kwargs)\n',
        "app/main.py": 'from pkg.engine import Engine\neng = Engine("org/m", tag="y", gpu_memory_utilization=0.8)\n',
        "app/other.py": 'from somewhere.else import Engine\nEngine("org/x", gpu_memory_utilization=0.5)\n'})
    (s,) = [x for x in sites if x.file == "app/main.py"]
    assert s.model.value == "org/m" and values(s) == {"gpu_memory_utilization": 0.8} and not s.unknown
    assert [o["code"] for o in s.opaque] == ["wrapper-arg"]
    assert not [x for x in sites if x.file == "app/other.py"]  # another package's Engine


def test_a_subclass_with_fixed_parameters_of_its_own_is_not_read(scanned):
    text = ('from vllm import LLM\n\nclass Fixed(LLM):\n    def __init__(self, path):\n        super().__init__(model=path)\n\n'
            'Fixed("org/m")\n')
    assert scanned({"run.py": text}) == []


# https://github.com/canopyai/Orpheus-TTS/issues/44 — OrpheusModel builds AsyncEngineArgs with its
# own bfloat16 default; on a P40 vLLM refuses it
def test_a_forwarder_gives_its_parameters_and_defaults_to_the_engine(scanned):
    (s,) = scanned({"tts.py": 'from orpheus_tts import OrpheusModel\nm = OrpheusModel("canopylabs/orpheus-3b-0.1-ft", '
                              'tokenizer="t", max_model_len=2048)\n'})
    assert s.kind == "AsyncEngineArgs()" and s.model.value == "canopylabs/orpheus-3b-0.1-ft"
    assert values(s) == {"dtype": "bfloat16", "max_model_len": 2048} and "default of OrpheusModel" in s.settings["dtype"].note
    assert [o["code"] for o in s.opaque] == ["wrapper-arg"] and not s.unknown  # its own tokenizer


def test_a_forwarder_keyword_is_renamed_and_its_mapping_spread(scanned):
    (s,) = scanned({"rag.py": 'from langchain_community.llms import VLLM\nllm = VLLM(model="org/m", tensor_parallel_size=2,\n'
                              '    max_new_tokens=128, temperature=0.8, vllm_kwargs={"gpu_memory_utilization": 0.5})\n'})
    assert s.kind == "LLM()" and s.model.value == "org/m"
    assert values(s) == {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.5} and not s.unknown
    (o,) = [x for x in scanned({"tts.py": 'from orpheus_tts import OrpheusModel\nm = OrpheusModel(model_name="org/x", dtype="half")\n'})
            if x.file == "tts.py"]
    assert o.model.value == "org/x" and o.model.key == "model_name" and values(o) == {"dtype": "half"}


def test_a_fix_adds_the_keyword_to_the_forwarder_call(cli, write_project):
    root = write_project({"tts.py": 'from orpheus_tts import OrpheusModel\nm = OrpheusModel(model_name="org/x")\n',
                          "requirements.txt": "vllm==0.7.3\n"})
    cli("audit", str(root), "--gpu", "T4", "--fix")
    assert 'OrpheusModel(model_name="org/x", dtype="half")' in (root / "tts.py").read_text()


# https://github.com/LMCache/lmcache-vllm/issues/29 — the drop-in package re-exports vllm
def test_a_module_that_reexports_vllm_binds_its_names(scanned):
    sites = scanned({"a.py": 'from lmcache_vllm import vllm\nllm = vllm.LLM(model="org/a", tensor_parallel_size=2)\n',
                     "b.py": 'import lmcache_vllm.vllm as v\nllm = v.LLM(model="org/b")\n',
                     "c.py": 'from lmcache_vllm.vllm import LLM\nllm = LLM(model="org/c")\n',
                     "d.py": 'from other_pkg import vllm\nllm = vllm.LLM(model="org/d")\n'})
    assert [(s.file, s.model.value) for s in sites] == [("a.py", "org/a"), ("b.py", "org/b"), ("c.py", "org/c")]
