"""The calls a framework's or serving wrapper's vLLM adapter makes to vLLM's own functions, held
against each release's signature (tools/framework_vllm_calls.py, rows `call` of
knowledge/frameworks/vllm_uses.yaml): an unexpected keyword, or a required one the call does not give,
is Python's TypeError where the call runs — at launch a P0 (Ray Serve LLM 2.46 with vLLM 0.9,
ray-project/ray#52975)."""
import ast
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

from vllm_kb.engine.check import framework_imports
from vllm_kb.engine.kb import compat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import framework_vllm_calls as calls  # noqa: E402


def _args(src: str) -> ast.arguments:
    return ast.parse(src).body[0].args


def test_python_refuses_an_unknown_keyword_and_a_missing_required_one():
    f = _args("def f(a, tools, *, model_config, trust_remote_code=None): ...")
    assert calls.problem(f, 0, ["a", "tools", "trust_remote_code"], False) == ("missing keyword-only", "model_config")
    assert calls.problem(f, 2, ["model_config"], False) is None
    assert calls.problem(f, 1, ["model_config"], False) == ("missing positional", "tools")
    assert calls.problem(f, 2, ["model_config", "x"], False) == ("keyword", "x")
    # a spread (*args / **kw) may hold the missing ones: only the written keywords are judged
    assert calls.problem(f, 0, ["x"], True) == ("keyword", "x") and calls.problem(f, 0, [], True) is None
    assert calls.problem(_args("def g(a, **kw): ..."), 1, ["anything"], False) is None


def _release(root: Path, files: dict[str, str]) -> str:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return str(root)


def test_the_signature_follows_re_exports_and_keeps_only_transparent_decorators(tmp_path):
    src = _release(tmp_path / "r1", {
        "vllm/__init__.py": "from vllm.entrypoints.chat_utils import resolve\n",
        "vllm/entrypoints/__init__.py": "",
        "vllm/entrypoints/chat_utils.py": """\
            from .utils import helper as renamed
            @deprecate_kwargs("trust_remote_code")
            def resolve(chat_template, *, model_config, trust_remote_code=None): ...
            @some_registry.register
            def wrapped(a): ...
            class Holder:
                def __init__(self, x, *, y=1): ...
            """,
        "vllm/entrypoints/utils.py": "def helper(a, b=2): ...\n"})
    assert calls.judge(src, "vllm", "resolve", 1, [], False) == ("missing keyword-only", "model_config")
    assert calls.judge(src, "vllm.entrypoints.chat_utils", "renamed", 1, ["c"], False) == ("keyword", "c")
    assert calls.judge(src, "vllm.entrypoints.chat_utils", "wrapped", 0, ["zzz"], False) is None  # not read
    assert calls.judge(src, "vllm.entrypoints.chat_utils", "Holder", 1, ["z"], False) == ("keyword", "z")
    assert calls.judge(src, "vllm.entrypoints.chat_utils", "absent", 0, ["z"], False) is None


def test_a_call_in_a_seeded_function_is_read_against_every_release(tmp_path):
    versions = ["0.8.5", "0.9.0"]
    _release(tmp_path / "0.8.5", {"vllm/__init__.py": "", "vllm/chat_utils.py": "def resolve(t, *, trust_remote_code=None): ...\n"})
    _release(tmp_path / "0.9.0", {"vllm/__init__.py": "", "vllm/chat_utils.py": "def resolve(t, *, model_config, trust_remote_code=None): ...\n"})
    trees = {"pkg/engine.py": ast.parse(textwrap.dedent("""\
        class Engine:
            async def start(self):
                from vllm.chat_utils import resolve
                self.fmt = resolve(None, trust_remote_code=True)
                try:
                    resolve(None, trust_remote_code=True, model_config=None)
                except TypeError:
                    pass
        """))}
    (row,) = calls.call_uses(trees, {"pkg/engine.py": {"Engine.start": "launch"}}, tmp_path, versions)
    # the call under `try … except TypeError` (Ray 2.47's fallback) is not judged
    assert (row["call"], row["line"], row["when"], row["vllm"]) == ("vllm.chat_utils.resolve", 4, "launch", [">=0.8.5,<0.9.0"])
    assert row["refused"] == {"missing keyword-only model_config": [">=0.9.0"]}


def test_ray_2_46_misses_model_config_from_vllm_0_9_and_passes_trust_remote_code_vllm_0_10_1_drops():
    (row,) = compat.vllm_use_rows("ray", "2.46.0")
    use = next(u for u in row["uses"] if u.get("call") == "vllm.entrypoints.chat_utils.resolve_chat_template_content_format")
    assert (use["function"], use["when"]) == ("VLLMEngine.start", "launch")
    assert use["refused"]["missing keyword-only model_config"] == [">=0.9.0,<0.10.1"]
    site = SimpleNamespace(kind="ray.serve.llm", framework=None, settings={}, framework_keys={})
    (r,) = framework_imports._call_breaks("ray", "2.46.0", "0.9.2", site)
    assert "missing 1 required keyword-only argument: 'model_config'" in r.raw["error"] and not r.raw["after_start"]
    (r,) = framework_imports._call_breaks("ray", "2.46.0", "0.10.2", site)
    assert "unexpected keyword argument 'trust_remote_code'" in r.raw["error"]
    assert not framework_imports._call_breaks("ray", "2.46.0", "0.8.5", site)
    # 2.47 passes model_config and falls back to the old call under `except TypeError`
    assert not [u for r in compat.vllm_use_rows("ray", "2.47.0") for u in r["uses"] if u.get("call", "").endswith("content_format")]


def test_a_try_whose_handlers_raise_is_no_guard():
    from vllm_kb.engine.scan.framework_source import unguarded
    tree = ast.parse(textwrap.dedent("""\
        try:
            from vllm import A  # falls back
        except ImportError:
            A = None
        try:
            from vllm import B  # ms-swift: `except Exception: raise`
        except Exception:
            raise
        try:
            from vllm.entrypoints.openai.speech_to_text.protocol import C  # Ray 2.55: SGLang, else raise
        except ImportError:
            try:
                from sglang.srt.entrypoints.openai.protocol import C
            except ImportError:
                raise ImportError("Neither vLLM nor SGLang is installed")
            D = C
        """))
    assert [s.names[0].name for s in unguarded(tree.body)] == ["B", "C"]


def test_ray_serve_llm_imports_on_load_what_later_vllm_moved():
    # ray #62497: 2.54 imports the translations protocol, gone in 0.17; ray #64006: 2.55 speech_to_text, gone in 0.22
    site = SimpleNamespace(kind="ray.serve.llm", framework=None, settings={}, framework_keys={})
    (r,) = framework_imports._load_breaks("ray", "2.54.0", "0.17.0", site)
    assert "vllm.entrypoints.openai.translations" in r.raw["error"] and r.raw["error"].startswith("ModuleNotFoundError")
    (r,) = framework_imports._load_breaks("ray", "2.55.1", "0.22.1", site)
    assert "speech_to_text" in r.raw["error"]
    # 0.20 moved the score protocol too (vllm/entrypoints/pooling/score/ is gone): 2.55 loads only on 0.18–0.19
    assert "pooling.score" in framework_imports._load_breaks("ray", "2.55.1", "0.21.0", site)[0].raw["error"]
    assert not framework_imports._load_breaks("ray", "2.55.1", "0.19.1", site)


def test_more_positional_arguments_than_the_def_takes():
    # verl #4357: init_app_state(engine_client, vllm_config, app.state, args) once vLLM 0.11.1 took three
    f = _args("async def init_app_state(engine_client, state, args): ...")
    assert calls.problem(f, 4, [], False) == ("positional", "4>3") and calls.problem(f, 3, [], False) is None
    assert calls.problem(_args("def g(a, *rest): ..."), 5, [], False) is None


def test_verl_0_6_async_server_passes_vllm_config_positionally_to_init_app_state():
    (row,) = compat.vllm_use_rows("verl", "0.6.1")
    use = next(u for u in row["uses"] if u.get("call") == "vllm.entrypoints.openai.api_server.init_app_state")
    assert (use["function"], use["when"], use["refused"]) == ("vLLMHttpServerBase.run_server", "launch", {"positional 4>3": [">=0.11.1,<0.16.0"]})
    site = SimpleNamespace(kind="python", framework="verl", settings={}, framework_keys={"actor_rollout_ref.rollout.mode": "async"})
    (r,) = [x for x in framework_imports._call_breaks("verl", "0.6.1", "0.11.2", site) if not x.raw["after_start"]]
    assert "init_app_state() takes 3 positional arguments but 4 were given" in r.raw["error"]
    # 0.7.0 calls it with three arguments from vLLM 0.11.1 on (a version test around each call)
    assert not [u for r in compat.vllm_use_rows("verl", "0.7.0") for u in r["uses"] if "call" in u]


def test_a_name_left_unbound_by_a_quiet_try_is_a_name_error_where_it_is_called(tmp_path):
    trees = {"pkg/backend.py": ast.parse(textwrap.dedent("""\
        try:
            from vllm import LLM
            from vllm.old.tokenizer import get_tokenizer
        except ModuleNotFoundError:
            pass

        class Backend:
            def __init__(self):
                self.tok = get_tokenizer("m", trust_remote_code=True)
        """))}
    for v, text in (("0.21.0", "def get_tokenizer(name, **kw): ...\n"), ("0.22.0", None)):
        files = {"vllm/__init__.py": "LLM = 1\n"} | ({"vllm/old/__init__.py": "", "vllm/old/tokenizer.py": text} if text else {})
        _release(tmp_path / v, files)
    (row,) = calls.call_uses(trees, {"pkg/backend.py": {"Backend.__init__": "launch"}}, tmp_path, ["0.21.0", "0.22.0"])
    assert row["refused"] == {"unbound get_tokenizer": [">=0.22.0"]} and row["when"] == "launch"


def test_lm_eval_0_4_9_calls_get_tokenizer_which_vllm_0_22_no_longer_has_at_that_path(tmp_path):
    # lm-eval imports it under `except ModuleNotFoundError: pass`; 0.4.10 tries vllm.tokenizers first (lm-eval PR 3482)
    (tmp_path / "requirements.txt").write_text("lm-eval[vllm]==0.4.8\nvllm==0.22.0\n")
    (tmp_path / "run.sh").write_text("lm_eval --model vllm --model_args pretrained=Qwen/Qwen2.5-0.5B-Instruct --tasks gsm8k\n")
    from vllm_kb.engine.audit import audit
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(x for x in sr.results if x.check.id == "L43")
    assert r.priority == "P0" and "NameError: name 'get_tokenizer' is not defined" in r.reason_text("en")
    assert not [u for r in compat.vllm_use_rows("lm_eval", "0.4.10") for u in r["uses"]]
