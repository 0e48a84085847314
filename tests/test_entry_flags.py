"""A project module with its own argparse that builds `LLM(tensor_parallel_size=args.tp, …)`, run by a
shell script with options (engine/scan/entry_flags.py): the options the command gives reach the
site, by argparse's rules; an option no command gives keeps its default; commands that disagree,
or an unknown value, leave it unknown. ZetangForward/MyRLHF runs OpenRLHF's batch_inference module
this way, once through `read -r -d '' CMD <<EOF … EOF; python -m $CMD` (eval75)."""
import textwrap

from vllm_kb.engine.audit import audit

GEN = """
    import argparse


    def generate(args):
        from vllm import LLM

        llm = LLM(model=args.model_path, tensor_parallel_size=args.tp, max_num_seqs=args.max_num_seqs,
                  enable_prefix_caching=args.prefix, gpu_memory_utilization=args.mem)
        return llm


    if __name__ == "__main__":
        p = argparse.ArgumentParser()
        p.add_argument("--model_path", type=str, default="Qwen/Qwen2.5-0.5B-Instruct")
        p.add_argument("--tp", type=int, default=1)
        p.add_argument("--max_num_seqs", type=int, default=256)
        p.add_argument("--prefix", action="store_true", default=False)
        p.add_argument("--mem", type=float, default=0.9)
        generate(p.parse_args())
"""


def _site(tmp_path, scripts: dict[str, str], gpu: str = "8xH100"):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "__init__.py").write_text("")
    (tmp_path / "tools" / "gen.py").write_text(textwrap.dedent(GEN))
    for name, text in scripts.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    (sr,) = audit(tmp_path, gpu=gpu).sites
    assert sr.site.file == "tools/gen.py"
    return sr


def test_module_options_reach_the_llm_site(tmp_path):
    sr = _site(tmp_path, {"run.sh": """
        # generate with vLLM
        python -m tools.gen --model_path Qwen/Qwen2.5-7B-Instruct --tp 8 --max_num_seqs 64 --prefix
    """})
    s = sr.site.settings
    assert s["tensor_parallel_size"].value == 8 and "run.sh:3" in s["tensor_parallel_size"].note
    assert s["max_num_seqs"].value == 64
    assert s["enable_prefix_caching"].value is True
    assert s["gpu_memory_utilization"].value == 0.9 and "default of --mem" in s["gpu_memory_utilization"].note
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert "L1" in {r.check.id for r in sr.results if r.priority == "P0"}  # 28 heads over 8 ranks


def test_script_path_equals_form_and_unique_prefix(tmp_path):
    sr = _site(tmp_path, {"run.sh": """
        # vllm offline generation
        python tools/gen.py --tp=2 --max_num 32
    """})
    assert sr.site.settings["tensor_parallel_size"].value == 2
    assert sr.site.settings["max_num_seqs"].value == 32  # argparse takes a unique prefix


def test_read_whole_heredoc_then_python_m(tmp_path):
    sr = _site(tmp_path, {"run.sh": """
        TP=4
        read -r -d '' gen_cmd <<EOF
        tools.gen
           --tp $TP \\
           --max_num_seqs 48 \\
           --prefix
        EOF
        echo "vllm generation: $gen_cmd"
        python -m $gen_cmd
    """})
    assert sr.site.settings["tensor_parallel_size"].value == 4
    assert sr.site.settings["max_num_seqs"].value == 48
    assert sr.site.settings["enable_prefix_caching"].value is True


def test_commands_that_disagree_leave_it_unknown(tmp_path):
    sr = _site(tmp_path, {"a.sh": "# vllm\npython -m tools.gen --tp 2\n", "b.sh": "# vllm\npython -m tools.gen --tp 4 --prefix\n"})
    tp = sr.site.settings["tensor_parallel_size"]
    assert tp.value is None and not tp.resolved and "different values" in tp.note
    assert not sr.site.settings["enable_prefix_caching"].resolved  # given by one command, the default by the other


def test_unknown_value_is_unknown_not_the_default(tmp_path):
    sr = _site(tmp_path, {"run.sh": "# vllm\npython -m tools.gen --tp $NGPU --max_num_seqs x\n"})
    assert not sr.site.settings["tensor_parallel_size"].resolved
    mns = sr.site.settings["max_num_seqs"]
    assert not mns.resolved and "no int" in mns.note


def test_no_launching_command_keeps_the_defaults(tmp_path):
    sr = _site(tmp_path, {"other.sh": "# vllm\npython -m tools.other --tp 4\n"})
    assert sr.site.settings["tensor_parallel_size"].value == 1
    assert "default of --tp" in sr.site.settings["tensor_parallel_size"].note
