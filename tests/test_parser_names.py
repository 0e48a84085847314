"""Parser names per release (engine/kb/parsers.py, knowledge/vllm/parsers.yaml) and what L38 proposes
for a name the pinned release lacks: a renamed or misspelt name, else the parser that release has
for the model's family."""
from vllm_kb.engine.check.launch_facts import parser_facts
from vllm_kb.engine.kb import catalog, parsers


def test_family_parser_falls_back_to_what_the_release_has():
    cat = catalog.load()
    # Qwen3 on 0.8.5 (before the qwen3 reasoning parser of 0.9.0): deepseek_r1, as its model card said
    assert parsers.for_model("reasoning_parser", "Qwen/Qwen3-32B", "0.8.5", cat) == "deepseek_r1"
    assert parsers.for_model("reasoning_parser", "Qwen/Qwen3-32B", "0.9.0", cat) == "qwen3"
    # no documented fallback: nothing is proposed (Qwen3-Coder's XML tool calls before qwen3_coder)
    assert parsers.for_model("tool_call_parser", "Qwen/Qwen3-Coder-30B-A3B-Instruct", "0.9.2", cat) is None


def test_unknown_reasoning_parser_gets_the_in_release_alternative():
    cat = catalog.load()
    got = parser_facts({"reasoning_parser": "qwen3"}, "0.8.5", cat, model="/models/Qwen3-32B/")
    assert got["reasoning_parser_known"] is False
    assert got["reasoning_parser_suggest"] == "deepseek_r1" and got["reasoning_parser_first"] == "==0.9.0"
    # a misspelling still wins over the family's parser
    got = parser_facts({"reasoning_parser": "deepseek-r1"}, "0.8.5", cat, model="Qwen/Qwen3-8B")
    assert got["reasoning_parser_suggest"] == "deepseek_r1"
