"""A script that builds vLLM's serve parser only to list its flags starts no engine (runpod worker-vllm CI);
the same script that also constructs LLM(...) still does."""
from vllm_kb.engine.scan import argv_entry

_DUMP = """
from vllm.entrypoints.openai.cli_args import make_arg_parser
from vllm.utils import FlexibleArgumentParser

def main():
    p = make_arg_parser(FlexibleArgumentParser())
    print(sorted(s for a in p._actions for s in a.option_strings))

if __name__ == "__main__":
    main()
"""


def test_flag_listing_script_is_no_entry_point():
    assert argv_entry._inspect(_DUMP, "scripts/list_flags.py") is None


def test_script_that_also_starts_an_engine_stays_an_entry_point():
    text = "from vllm import LLM\n" + _DUMP.replace("    print(", "    LLM(model='facebook/opt-125m')\n    print(")
    assert argv_entry._inspect(text, "scripts/list_flags.py") is not None


def test_server_script_without_flag_listing_is_unchanged():
    text = _DUMP.replace("    print(sorted(s for a in p._actions for s in a.option_strings))", "    args = p.parse_args()")
    assert argv_entry._inspect(text, "scripts/serve.py") is not None
