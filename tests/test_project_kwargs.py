"""The keywords the project passes to vLLM's constructors (L140): which calls are read, when they
run, and how the audit judges their keywords against the release the folder pins."""
import ast
import sys
import textwrap
from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import schemas, vllm_classes
from vllm_kb.engine.scan import project_calls

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import vllm_class_kwargs as tool  # noqa: E402


def test_the_table_knows_the_renamed_and_removed_keywords():
    assert vllm_classes.takes("SamplingParams", "use_beam_search", "0.6.2") is True
    assert vllm_classes.takes("SamplingParams", "use_beam_search", "0.6.3") is False
    assert vllm_classes.takes("OpenAIServingCompletion", "served_model", "0.4.0.post1") is True
    assert vllm_classes.takes("OpenAIServingCompletion", "served_model", "0.4.1") is False
    assert vllm_classes.takes("OpenAIServingCompletion", "served_model_names", "0.4.1") is True
    assert vllm_classes.is_msgspec("SamplingParams", "0.6.3") and not vllm_classes.is_msgspec("SamplingParams", "0.5.0")
    assert vllm_classes.takes("NotAVllmClass", "x", "0.6.3") is None
    assert not schemas.errors("vllm_classes", vllm_classes.table())


def test_the_tool_reads_init_dataclass_struct_and_leaves_kwargs_open():
    src = textwrap.dedent("""\
        class A:
            def __init__(self, a, *, b=1): pass
        class K:
            def __init__(self, a, **kwargs): pass
        @dataclass
        class D:
            x: int
            y: ClassVar[int] = 0
        class S(msgspec.Struct):
            n: int = 1
        class P(BaseModel):
            z: int
        class Sub(D):
            w: int = 0
        """)
    defs = {n.name: [n] for n in ast.parse(src).body}
    assert tool.accepted(defs["A"][0], defs) == ({"a", "b"}, "init")
    assert tool.accepted(defs["K"][0], defs) is None
    assert tool.accepted(defs["D"][0], defs) == ({"x"}, "dataclass")
    assert tool.accepted(defs["S"][0], defs) == ({"n"}, "msgspec")
    assert tool.accepted(defs["P"][0], defs) is None
    assert tool.accepted(defs["Sub"][0], defs) == ({"w", "x"}, "dataclass")


def test_calls_carry_their_keywords_and_when_they_run():
    module = ast.parse(textwrap.dedent("""\
        from vllm import SamplingParams as SP
        import vllm
        from vllm.entrypoints.openai.serving_completion import OpenAIServingCompletion

        DEFAULT = SP(n=1, **{"use_beam_search": False})

        class Service:
            def __init__(self, engine):
                self.c = OpenAIServingCompletion(engine=engine, served_model="m")

            def handle(self, req):
                params = {"best_of": 2, "temperature": 0.1}
                return vllm.SamplingParams(**params, max_tokens=8)

        def main():
            SP(top_k=5)
        """))
    got = [(c.cls, c.keywords, c.line, c.at_start) for c in project_calls.calls("app.py", module)]
    assert got == [("SamplingParams", ("n", "use_beam_search"), 5, True),
                   ("OpenAIServingCompletion", ("engine", "served_model"), 9, True),
                   ("SamplingParams", ("best_of", "temperature", "max_tokens"), 13, False),
                   ("SamplingParams", ("top_k",), 16, True)]


def test_reading_the_calls_leaves_no_cycle_holding_the_tree():
    """A one-shot command runs without the cycle collector (cli/main.py): a recursive closure in
    `calls` was a cycle that held each launch file's tree to the end (27 MiB of the 10,000-file
    benchmark tree's peak)."""
    import gc

    module = ast.parse("from vllm import SamplingParams\nclass S:\n    def __init__(self):\n"
                       "        if args.x:\n            SamplingParams(n=1)\n")
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        assert [c.line for c in project_calls.calls("app.py", module)] == [5]
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


def _project(root: Path, pin: str | None, text: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "app.py").write_text(textwrap.dedent(text))
    if pin:
        (root / "requirements.txt").write_text(pin + "\n")
    return root


def _l140(rep):
    return [(r.priority, r.reason_text("en")) for sr in rep.sites for r in sr.results
            if r.check.id == "L140" and r.status == "recommended"]


SCRIPT = """\
from vllm import LLM, SamplingParams
llm = LLM(model="facebook/opt-125m")
params = SamplingParams(n=2, use_beam_search=True, temperature=0)
"""


def test_a_keyword_the_pinned_release_dropped_is_p0_at_start_p1_in_a_handler(tmp_path):
    [(prio, text)] = _l140(audit(_project(tmp_path / "start", "vllm==0.6.3", SCRIPT)))
    assert prio == "P0" and "Unexpected keyword argument 'use_beam_search'" in text and "<0.6.3" in text
    handler = SCRIPT.replace("params = SamplingParams", "def generate(p):\n    return SamplingParams")
    [(prio, _)] = _l140(audit(_project(tmp_path / "handler", "vllm==0.6.3", handler)))
    assert prio == "P1"
    [(prio, _)] = _l140(audit(_project(tmp_path / "unpinned", None, SCRIPT)))
    assert prio == "P1"
    assert _l140(audit(_project(tmp_path / "fine", "vllm==0.6.2", SCRIPT))) == []


def test_fastchat_worker_with_a_vllm_that_dropped_use_beam_search_fails_each_request(tmp_path):
    root = tmp_path / "fc"
    root.mkdir()
    (root / "requirements.txt").write_text("fschat==0.2.36\nvllm==0.6.3\n")
    (root / "serve.sh").write_text("python3 -m fastchat.serve.vllm_worker --model-path lmsys/vicuna-7b-v1.5\n")

    def l43(rep):
        return [(r.priority, r.reason_text("en")) for sr in rep.sites for r in sr.results
                if r.check.id == "L43" and r.status == "recommended"]
    [(prio, text)] = l43(audit(root))
    assert prio == "P1" and "use_beam_search" in text and "0.6.2" in text  # the worker starts; its requests fail
    (root / "requirements.txt").write_text("fschat==0.2.36\nvllm==0.6.2\n")
    assert l43(audit(root)) == []


def test_a_call_behind_an_option_that_defaults_to_nothing_names_the_option():
    module = ast.parse(textwrap.dedent("""\
        import argparse
        from vllm.lora.request import LoRARequest
        from vllm import SamplingParams

        def build():
            if args.lora_path:
                LoRARequest(lora_name="a", lora_int_id=1, lora_path=args.lora_path)
            if args.adapter is not None and args.debug:
                LoRARequest(lora_name="b", lora_int_id=2, lora_path=args.adapter)
            if not args.plain:
                SamplingParams(n=1)
            else:
                SamplingParams(n=2)
            if args.model:
                SamplingParams(n=3)
            if args.needed:
                SamplingParams(n=4)
            if ready():
                SamplingParams(n=5)

        if __name__ == "__main__":
            p = argparse.ArgumentParser()
            p.add_argument("--lora_path", "-lp", type=str, default=None)
            p.add_argument("--adapter", type=str)
            p.add_argument("--debug", action="store_true")
            p.add_argument("--plain", action="store_true")
            p.add_argument("--model", type=str, default="m")
            p.add_argument("--needed", type=str, required=True)
            args = p.parse_args()
            build()
        """))
    got = [(c.line, c.guard) for c in project_calls.calls("eval.py", module)]
    # a default that is set (--model), a required option and a test of something else run anyway
    assert got == [(7, "--lora_path"), (9, "--adapter"), (11, None), (13, "--plain"), (15, None), (17, None),
                   (19, None)]


OPTIONAL = """\
import argparse
from vllm import LLM
from vllm.lora.request import LoRARequest

def load():
    llm = LLM(model="meta-llama/Llama-2-7b-hf", enable_lora=bool(args.lora_path))
    lora = None
    if args.lora_path:
        lora = LoRARequest(lora_name="a", lora_int_id=1, lora_path=args.lora_path)
    return llm, lora

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--lora_path", "-lp", type=str, default=None)
    args = parser.parse_args()
    load()
"""


def test_a_keyword_behind_an_option_the_project_never_passes_is_p1_and_p0_once_a_script_passes_it(tmp_path):
    # MMLU-Pro: LoRARequest(lora_path=...) under `if args.lora_path:` on vLLM 0.4.2 (lora_local_path there)
    root = _project(tmp_path / "opt", "vllm==0.4.2", OPTIONAL)
    (root / "eval.sh").write_text("python app.py\n")
    [(prio, text)] = _l140(audit(root))
    assert prio == "P1" and "when --lora_path is given" in text
    (root / "eval_lora.sh").write_text("python app.py --lora_path_list x\n")  # another option: still never given
    [(prio, _)] = _l140(audit(root))
    assert prio == "P1"
    (root / "eval_lora.sh").write_text("python app.py -lp /ckpt/adapter\n")  # its short spelling
    [(prio, text)] = _l140(audit(root))
    assert prio == "P0" and "while the server sets up" in text


def _p0s(rep) -> list[str]:
    return [r.check.id for s in rep.sites for r in s.results if r.status == "recommended" and r.priority == "P0"] + \
        [f.code for s in rep.sites for f in s.remarks if f.priority == "P0"]


def test_an_engine_argument_keyword_is_one_p0_under_the_catalog_finding(tmp_path):
    # vLLM #23283 / Trinity-RFT #254: AsyncEngineArgs(disable_log_requests=True) on 0.10.1+ is a
    # TypeError like L140's, but the option is an engine argument: not-in-version owns it (with the
    # edit that removes it), and L140 stays quiet, so the cause gives one P0
    (tmp_path / "requirements.txt").write_text("vllm==0.10.1.1\n", encoding="utf-8")
    (tmp_path / "app.py").write_text(textwrap.dedent("""\
        from vllm.engine.arg_utils import AsyncEngineArgs
        from vllm.engine.async_llm_engine import AsyncLLMEngine

        args = AsyncEngineArgs(model="Qwen/Qwen2.5-7B-Instruct", disable_log_requests=True)
        engine = AsyncLLMEngine.from_engine_args(args)
        """), encoding="utf-8")
    rep = audit(tmp_path, gpu="A100-80GB")
    assert _p0s(rep) == ["not-in-version"]
    assert [r.status for s in rep.sites for r in s.results if r.check.id == "L140"] in ([], ["not_applicable"])


def test_a_call_tried_under_except_typeerror_is_the_projects_own_answer():
    """eval81 CODE-GRPO's TRL: `try: LoRARequest(…, load_inplace=True) except TypeError: <fallback>`."""
    src = textwrap.dedent("""\
        from vllm.lora.request import LoRARequest
        def build(p):
            try:
                return LoRARequest("a", 1, p, load_inplace=True)
            except TypeError:
                pass
            return LoRARequest("a", 2, p)
        def strict(p):
            try:
                return LoRARequest("b", 1, p, load_inplace=True)
            except TypeError:
                raise
        """)
    got = [(c.line, c.keywords) for c in project_calls.calls("gen.py", ast.parse(src))]
    assert got == [(7, ()), (10, ("load_inplace",))]
