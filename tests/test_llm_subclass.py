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
