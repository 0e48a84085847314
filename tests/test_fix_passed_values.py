"""A keyword whose value the call only passes on — a parameter, a caller's argument, an argparse or
environment default — is never overwritten with a literal at the call: that would silently drop
whatever the callers, the command line or the deployment give. The change is said with where the
value comes from (`blocked: from_default`), and `--fix` leaves the keyword as it is."""
import json

HELPER = ("from vllm import LLM\n\n\n"
          "def build(max_len=131072):\n"
          "    return LLM(model=\"meta-llama/Meta-Llama-3.1-8B-Instruct\", max_model_len=max_len)\n")


def _l15(out):
    return [c for st in json.loads(out)["sites"] for c in st["changes"] if "L15" in c["checks"]]


def test_a_parameter_passed_to_the_engine_is_changed_where_it_is_set(cli, write_project):
    root = write_project({"engine.py": HELPER, "requirements.txt": "vllm==0.8.4\n"})
    code, out, _ = cli("audit", str(root), "--gpu", "L4", "--format", "json")
    (ch,) = _l15(out)
    assert ch["blocked"] == "from_default" and "max_len" in ch["origin"] and ch["fixable"] is False
    cli("audit", str(root), "--gpu", "L4", "--fix", "--unsafe-fixes")
    after = (root / "engine.py").read_text()
    assert "def build(max_len=131072):" in after and "max_model_len=max_len" in after


def test_the_blocked_change_says_where_in_both_languages(cli, write_project):
    root = write_project({"engine.py": HELPER, "requirements.txt": "vllm==0.8.4\n"})
    _, en, _ = cli("audit", str(root), "--gpu", "L4")
    _, zh, _ = cli("audit", str(root), "--gpu", "L4", "--lang", "zh")
    assert "change it where that value is set" in en and "请在设定该值的地方修改" in zh


def test_a_literal_at_the_call_is_still_written(cli, write_project):
    root = write_project({"engine.py": HELPER.replace("max_model_len=max_len", "max_model_len=131072"),
                          "requirements.txt": "vllm==0.8.4\n"})
    code, out, _ = cli("audit", str(root), "--gpu", "L4", "--format", "json")
    (ch,) = _l15(out)
    assert ch["blocked"] is None and ch["fixable"] is True
