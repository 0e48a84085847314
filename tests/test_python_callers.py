"""A parameter read through what the module's own calls pass (engine/scan/python_callers.py): the
model and TP a wrapper class or a helper function hands to `LLM(...)` are the arguments of its
instantiation or call, not the parameter's default; calls that disagree, or a function the
module passes on, leave it unknown."""
import textwrap

from vllm_kb.engine.audit import audit


def _site(tmp_path, src: str, version: str = "0.8.5"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "run.py").write_text(textwrap.dedent(src))
    (sr,) = audit(tmp_path, gpu="8xH100").sites
    return sr


def _p0(sr) -> set[str]:
    return {r.check.id for r in sr.results if r.priority == "P0"}


def test_wrapper_class_instantiation_gives_model_and_tp(tmp_path):
    sr = _site(tmp_path, """
        from vllm import LLM

        class Generator:
            def __init__(self, model_name: str, tp: int = 1):
                self.llm = LLM(model=model_name, tensor_parallel_size=tp)

        gen = Generator("Qwen/Qwen2.5-7B-Instruct", tp=8)
    """)
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    tp = sr.site.settings["tensor_parallel_size"]
    assert tp.value == 8 and "line 8" in (tp.note or "")
    assert "L1" in _p0(sr)  # 28 heads over 8 ranks


def test_self_attribute_set_in_init_from_the_instantiation(tmp_path):
    sr = _site(tmp_path, """
        from vllm import LLM

        class Engine:
            def __init__(self, model_name, tp=1):
                self.model_name = model_name
                self.tp = tp

            def load(self):
                self.llm = LLM(model=self.model_name, tensor_parallel_size=self.tp)

        e = Engine("Qwen/Qwen2.5-7B-Instruct", tp=8)
        e.load()
    """)
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert sr.site.settings["tensor_parallel_size"].value == 8


def test_helper_function_called_from_main(tmp_path):
    sr = _site(tmp_path, """
        from vllm import LLM

        def build(model_path, tp):
            return LLM(model=model_path, tensor_parallel_size=tp)

        def main():
            name = "Qwen/Qwen2.5-7B-Instruct"
            llm = build(name, 8)

        if __name__ == "__main__":
            main()
    """)
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert sr.site.settings["tensor_parallel_size"].value == 8


def test_namespace_passed_from_parse_args(tmp_path):
    sr = _site(tmp_path, """
        import argparse
        from vllm import LLM

        def run(args):
            llm = LLM(model=args.model, tensor_parallel_size=args.tp)

        if __name__ == "__main__":
            p = argparse.ArgumentParser()
            p.add_argument("--model", default="Qwen/Qwen2.5-7B-Instruct")
            p.add_argument("--tp", type=int, default=8)
            run(p.parse_args())
    """)
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert sr.site.settings["tensor_parallel_size"].value == 8


def test_calls_that_disagree_leave_it_unknown(tmp_path):
    sr = _site(tmp_path, """
        from vllm import LLM

        def build(model_path, tp):
            return LLM(model=model_path, tensor_parallel_size=tp)

        a = build("Qwen/Qwen2.5-7B-Instruct", 4)
        b = build("Qwen/Qwen2.5-7B-Instruct", 8)
    """)
    tp = sr.site.settings["tensor_parallel_size"]
    assert not tp.resolved and "different values" in (tp.note or "")
    assert "L1" not in _p0(sr)


def test_a_function_passed_on_is_not_followed(tmp_path):
    sr = _site(tmp_path, """
        from vllm import LLM

        def build(model_path, tp=1):
            return LLM(model=model_path, tensor_parallel_size=tp)

        build("Qwen/Qwen2.5-7B-Instruct", 8)
        handlers = {"default": build}
    """)
    assert sr.site.model is None or not sr.site.model.resolved
    assert "L1" not in _p0(sr)


def test_wrapper_instantiated_in_another_module(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "mylib").mkdir()
    (tmp_path / "mylib" / "__init__.py").write_text("")
    (tmp_path / "mylib" / "engine.py").write_text(textwrap.dedent("""
        from vllm import LLM

        class Generator:
            def __init__(self, model_name, tp=1):
                self.llm = LLM(model=model_name, tensor_parallel_size=tp)
    """))
    (tmp_path / "main.py").write_text(textwrap.dedent("""
        from mylib.engine import Generator

        if __name__ == "__main__":
            g = Generator("Qwen/Qwen2.5-7B-Instruct", tp=8)
    """))
    (sr,) = audit(tmp_path, gpu="8xH100").sites
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    tp = sr.site.settings["tensor_parallel_size"]
    assert tp.value == 8 and "main.py:5" in (tp.note or "")
    assert "L1" in _p0(sr)


def test_config_file_the_script_reads(tmp_path):
    (tmp_path / "config.yaml").write_text("model: Qwen/Qwen2.5-7B-Instruct\ntp: 8\n")
    sr = _site(tmp_path, """
        import yaml
        from vllm import LLM

        with open("config.yaml") as f:
            config = yaml.safe_load(f)
        llm = LLM(model=config["model"], tensor_parallel_size=config["tp"])
    """)
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert sr.site.settings["tensor_parallel_size"].value == 8
    assert "L1" in _p0(sr)


def test_config_file_outside_the_project_stays_unknown(tmp_path):
    sr = _site(tmp_path, """
        import json
        from vllm import LLM

        config = json.load(open("/etc/serving/config.json"))
        llm = LLM(model=config["model"], tensor_parallel_size=config["tp"])
    """)
    assert not sr.site.settings["tensor_parallel_size"].resolved



def _imported_by(tmp_path, n: int):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "lib.py").write_text("from vllm import LLM\n\ndef build(name, tp=1):\n    return LLM(model=name, tensor_parallel_size=tp)\n")
    for i in range(n):
        (tmp_path / f"use{i}.py").write_text("from lib import build\n\nbuild('Qwen/Qwen2.5-7B-Instruct', tp=8)\n")
    (sr,) = [s for s in audit(tmp_path, gpu="8xH100").sites if s.site.file == "lib.py"]
    return sr.site.settings["tensor_parallel_size"].value


def test_callers_in_more_modules_than_the_bound_are_not_followed(tmp_path):
    # vLLM's own tree: a helper imported by hundreds of modules made the audit 4× slower and 3 GiB
    # large; past MAX_IMPORTERS modules the callers are not read (the parameter reads as before)
    from vllm_kb.engine.scan.python_callers import MAX_IMPORTERS

    assert _imported_by(tmp_path, MAX_IMPORTERS + 1) != 8


def test_callers_within_the_bound_are_followed(tmp_path):
    assert _imported_by(tmp_path, 2) == 8


def test_script_main_guard_passes_argparse_defaults_to_a_helper(tmp_path):
    # a script binds `args = parser.parse_args()` inside its main guard and hands `args.X` to the
    # helper that builds the engine (SubgraphRAG #19: the model came from an argparse default)
    sr = _site(tmp_path, """
        import argparse
        from vllm import LLM

        def build(model_name, tp=1):
            return LLM(model=model_name, tensor_parallel_size=tp)

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--model", default="Qwen/Qwen2.5-7B-Instruct")
            parser.add_argument("--tp", type=int, default=8)
            args = parser.parse_args()
            build(args.model, args.tp)
    """)
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert sr.site.settings["tensor_parallel_size"].value == 8


def test_another_modules_main_guard_reads_its_own_parser(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.5.5\n")
    (tmp_path / "utils.py").write_text(textwrap.dedent("""
        from vllm import LLM

        def llm_init(model_name, tensor_parallel_size=1):
            return LLM(model=model_name, tensor_parallel_size=tensor_parallel_size)
    """))
    (tmp_path / "main.py").write_text(textwrap.dedent("""
        import argparse
        from utils import llm_init

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("-m", "--model_name", default="meta-llama/Meta-Llama-3.1-8B-Instruct")
            parser.add_argument("--tensor_parallel_size", type=int, default=1)
            args = parser.parse_args()
            llm_init(args.model_name, args.tensor_parallel_size)
    """))
    (sr,) = audit(tmp_path, gpu="RTX-3090").sites
    assert sr.site.model.value == "meta-llama/Meta-Llama-3.1-8B-Instruct"
    assert sr.site.settings["tensor_parallel_size"].value == 1
    assert "L15" in _p0(sr)  # 131,072 tokens of Llama 3.1 do not fit a 24 GB card's cache (0.5.5)
