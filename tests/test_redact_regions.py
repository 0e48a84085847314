"""A long text is redacted region by region (engine/kb/redact.py, `_redact_regions`): only the
lines that hold a trigger word, with the lines a match can run onto. It must give exactly what the
whole-text redaction gives, on texts built from the shapes that span lines (a flag's value after a
backslash or on a YAML list's next line, a Kubernetes env entry, a URL's user-info, a command's
password) mixed with lines that hold none."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vllm_kb.engine.kb import redact

LINES = [
    "x = 1", "def f(a, b):", "    return a", "", "   ", "# plain comment",
    "--api-key \\", "  sk-abcdefghijklmnopqrstuvwxyz12", "--hf-token", "- --api-key", "  - PLANTEDsecret",
    "- name: HF_TOKEN", "  value: hf_PLANTEDaaaaaaaaaaaaaaaaaaaaaa", "name: OPENAI_API_KEY", "value: \"quoted one\"",
    "HF_TOKEN=PLANTEDvalue123", "export API_KEY='PLANTED two'", "api_key: PLANTED3", "password = \"hunter22\"",
    "url = 'https://user:PLANTEDpw@host/x'", "git clone https://PLANTEDtoken1234567890@github.com/a/b",
    "curl 'https://h/x?sig=PLANTEDsig&x=1'", "Authorization: Basic PLANTEDbasic1234", "Bearer PLANTEDbearer12345",
    "mysql -u root -pPLANTEDmysql", "sshpass -p PLANTEDssh ssh h", "echo PLANTEDstdin | docker login --password-stdin",
    "wandb login PLANTEDwandb", "os.environ.setdefault(\"HF_TOKEN\", \"PLANTEDpair\")", "TOKEN=$(cat /run/PLANTED)",
    "--api-key=\"`cat k`\"", "max_tokens = 4", "special_token = 5", "kv_token = 'x'", "name = 'no secret here'",
    "--model m \\", "  --tensor-parallel-size 2", "KEY=\u212aey", "\u212aEY=PLANTEDkelvin", "\r", "a\rb --api-key\r",
    "eyJaaaaaaaaaaaa.bbbbbbbbbbbb.cccccccccccc", "AKIAABCDEFGHIJKLMNOP", "-p PLANTEDp", "--password", "  hunter2",
    # lines outside ASCII: ſ folds onto s, a CJK comment beside a secret, İ lowers to two characters
    "\u017fecret = 'PLANTEDlongs'", "# 说明 api_key = 'PLANTEDcjk'", "x = '中文'", "\u0130 = 1",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=80), st.booleans())
def test_regions_give_what_the_whole_text_gives(lines, final_newline):
    text = "\n".join(lines) + ("\n" if final_newline else "")
    assert redact._redact_regions(text) == redact._redact_text(text)


def test_a_long_text_takes_the_region_path_and_still_hides_everything():
    filler = "".join(f"value_{i} = compute({i})\n" for i in range(400))
    text = filler + "--api-key \\\n  PLANTEDlong\n" + filler + "- name: HF_TOKEN\n  value: PLANTEDk8s\n" + filler
    assert len(text) >= redact._REGIONS_FROM and "${" not in text
    out = redact.redact_text(text)
    assert "PLANTED" not in out
    assert out == redact._redact_text(text)
