"""Coding agents and agent libraries that send tools with no tool_choice, which vLLM reads as "auto"
(engine/scan/agent_clients.py, engine/scan/clients.py): they make a server started without
--enable-auto-tool-choice answer HTTP 400 (check L39)."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.agent_clients import agent_clients

SERVE = "vllm serve Qwen/Qwen3-8B --port 18020{flags}\n"
OPENCODE = """{
  // the local server
  "provider": {
    "local": {
      "npm": "@ai-sdk/openai-compatible",
      "options": {"baseURL": "http://192.168.1.7:18020/v1"},
      "models": {"qwen3-8b": {"name": "qwen3-8b"%s}},
    },
  },
}
"""


def _l39(tmp_path, files):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="RTX-3090 x1").sites
    return next(r for r in sr.results if r.check.id == "L39")


def test_opencode_provider_with_comments_and_trailing_commas_is_a_tool_client(tmp_path):
    r = _l39(tmp_path, {"serve.sh": SERVE.format(flags=""), "opencode.jsonc": OPENCODE % ""})
    assert r.status == "recommended" and r.priority == "P1" and "opencode.jsonc:6" in r.reason_text("en")


def test_opencode_with_tools_off_or_a_server_started_for_them_is_fine(tmp_path):
    assert agent_clients({"opencode.json": OPENCODE % ', "tool_call": false'}.get, ["opencode.json"]) == []
    r = _l39(tmp_path, {"serve.sh": SERVE.format(flags=" --enable-auto-tool-choice --tool-call-parser hermes"),
                        "opencode.json": OPENCODE % ""})
    assert r.status == "enabled"


def test_crush_provider_and_a_public_api_provider(tmp_path):
    crush = '{"providers": {"vllm": {"type": "openai", "base_url": "http://gpu-box:8000/v1"}, ' \
            '"or": {"type": "openai", "base_url": "https://openrouter.ai/api/v1"}}}'
    assert agent_clients({"crush.json": crush}.get, ["crush.json"]) == ["crush.json:1"]


def test_langchain_bind_tools_asks_for_auto_unless_it_names_a_choice(tmp_path):
    code = "from langchain_openai import ChatOpenAI\nllm = ChatOpenAI(base_url='http://localhost:18020/v1')\n" \
           "a = llm.bind_tools([search])\nb = llm.bind_tools([search], tool_choice='search')\n"
    r = _l39(tmp_path, {"serve.sh": SERVE.format(flags=""), "app.py": code})
    assert r.status == "recommended" and "app.py:3" in r.reason_text("en") and "app.py:4" not in r.reason_text("en")
