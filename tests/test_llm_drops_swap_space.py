"""`LLM(swap_space=…)`: LLM.__init__ drops the keyword with a DeprecationWarning in vLLM 0.18.0-0.25.1
(the CLI flag and EngineArgs' field went in 0.18.0); from 0.26.0 it reaches EngineArgs, a TypeError."""
import pytest

from vllm_kb.engine.audit import audit


def _swap(tmp_path, vllm: str, launch: tuple[str, str]):
    name, text = launch
    (tmp_path / name).write_text(text)
    (tmp_path / "requirements.txt").write_text(f"vllm=={vllm}\n")
    rep = audit(tmp_path, gpu="A100-80GB")
    checks = [(r.check.id, r.priority) for s in rep.sites for r in s.results if r.status == "recommended" and r.check.id == "B4"]
    found = [(f.code, f.priority) for s in rep.sites for f in s.remarks if f.subject == "swap_space"]
    return checks, found


LLM = ("app.py", "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-Math-1.5B', swap_space=32)\n")
SERVE = ("serve.sh", "vllm serve Qwen/Qwen2.5-Math-1.5B --swap-space 32\n")


@pytest.mark.parametrize("vllm", ["0.18.0", "0.22.0", "0.25.1"])
def test_llm_drops_it_with_a_warning_while_its_own_code_pops_it(tmp_path, vllm):
    assert _swap(tmp_path, vllm, LLM) == ([("B4", "P2")], [])


@pytest.mark.parametrize(("vllm", "launch"), [("0.26.0", LLM), ("0.22.0", SERVE)])
def test_llm_refuses_it_from_0_26_and_the_cli_from_0_18(tmp_path, vllm, launch):
    checks, found = _swap(tmp_path, vllm, launch)
    assert ("B4", "P0") in checks or ("not-in-version", "P0") in found
