"""The fallback for callables no registry knows (engine/scan/python_opaque.py): a call whose keywords
are mostly vLLM engine arguments is an opaque site — read, never dropped, never a P0."""
import json

ENGINE = ('model="Qwen/Qwen2.5-7B-Instruct", tensor_parallel_size=2, gpu_memory_utilization=0.9, max_model_len=4096, '
          'dtype="bfloat16"')


def values(s):
    return {k: v.value for k, v in s.settings.items() if v.resolved}


def test_an_unknown_callable_with_engine_keywords_is_an_opaque_site(scanned):
    (s,) = scanned({"requirements.txt": "vllm==0.7.3\n",
                    "run.py": f"from somepkg.engines import FastEngine\neng = FastEngine({ENGINE}, voice='x')\n"
                              "other = FastEngine(timeout=3, retries=2, verbose=True)\n"})
    assert s.line == 2 and s.launch["opaque"] and s.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert values(s) == {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.9, "max_model_len": 4096, "dtype": "bfloat16"}
    assert [o["code"] for o in s.opaque] == ["wrapper-arg", "opaque-callable"] and not s.unknown


def test_its_verdicts_are_at_most_p1(cli, write_project):
    root = write_project({"requirements.txt": "vllm==0.7.3\n",
                          "run.py": f"import somepkg\neng = somepkg.Engine({ENGINE})\n"})
    code, out, _ = cli("audit", str(root), "--gpu", "T4", "--format", "json")
    report = json.loads(out)
    assert report["summary"]["recommendations"]["P0"] == 0
    (site,) = report["sites"]
    assert {c["id"] for c in site["checks"] if c["priority"] == "P1"} >= {"L4"}  # bfloat16 on a T4, said at P1
    new = [c for c in site["changes"] if c["line"] is None and c["syntax"] == "python-call"]
    assert all(c["blocked"] for c in new)  # a keyword the wrapper may not hand on is not added


def test_what_is_not_an_opaque_site(scanned):
    files = {
        "requirements.txt": "vllm==0.8.5\n",
        "a.py": f"cfg = dict({ENGINE})\n",  # a mapping, not a launch
        "b.py": f"from tensorrt_llm import LLM\nllm = LLM({ENGINE})\n",  # another engine
        "c.py": f"from mypkg.engine import Engine\nEngine({ENGINE})\n",  # the project's own class: its inside is read
        "mypkg/__init__.py": "", "mypkg/engine.py": "class Engine:\n    pass\n",
        "d.py": "from transformers import AutoModel\nAutoModel.from_pretrained('m', trust_remote_code=True, revision='x', dtype='auto')\n",
        "e.py": "from other import Thing\nThing(model='m', trust_remote_code=True, revision='x', seed=1)\n",  # no vLLM sizing
        "f.py": "from other import Thing\nThing(tensor_parallel_size=2, max_model_len=4096, a=1, b=2, c=3, d=4)\n",  # not a majority
    }
    assert scanned(files) == []


def test_a_file_with_a_real_site_gets_no_opaque_one(scanned):
    (s,) = scanned({"run.py": f"from vllm import LLM\nfrom pkg import Cfg\ncfg = Cfg({ENGINE})\nllm = LLM(model='org/m')\n"})
    assert s.kind == "LLM()" and not s.launch.get("opaque")


def test_a_call_with_fewer_than_three_keywords_is_not_parsed_for(tmp_path):
    """could_pick: 2 where a call of an external name holds a sizing keyword and an `=` for each of
    the three engine keywords `pick` asks of it; 1 where it holds fewer (parsed only for another site,
    its calls read as before)."""
    from vllm_kb.engine.kb import catalog
    from vllm_kb.engine.scan import python_opaque
    from vllm_kb.engine.scan.context import ScanContext

    ctx = ScanContext(tmp_path, catalog.load(), "0.8.5")
    ctx.files = []
    head = "import vllm\nimport pytest\nfrom somepkg import Engine\n# max_num_seqs\n"
    assert python_opaque.could_pick(ctx, head + f"Engine({ENGINE})\n") == 2
    assert python_opaque.could_pick(ctx, head + 'with pytest.raises(ValueError, match="max_model_len=2"):\n    f()\n') == 1
    assert python_opaque.could_pick(ctx, head + "Engine(max_model_len=2, x=1)\n") == 1
    assert python_opaque.could_pick(ctx, head + "Engine(max_model_len=2, x=1, y=2)\n") == 2
    assert python_opaque.could_pick(ctx, head + "Engine(max_model_len=2, x=(f\"{a}\")\n") == 2  # not followed: the worst
    assert python_opaque.could_pick(ctx, "import vllm\nfrom somepkg import Engine\nEngine(max_model_len=2, a=1, b=2)\n") == 0

