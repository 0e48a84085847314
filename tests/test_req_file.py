"""A requirements file read as pip reads it (engine/scan/req_file.py), the one reader behind the
project's pins (scan/pins.py), the files an include names (scan/req_chains.py) and ROLL's per-backend
alternatives (scan/pin_alternatives.py). Each case is a line the two earlier readers read apart."""
from __future__ import annotations

from vllm_kb.engine.kb import catalog
from vllm_kb.engine.scan import pin_alternatives, req_file
from vllm_kb.engine.scan.context import ScanContext


def _pins(text: str) -> list[tuple[str, int, str, str | None]]:
    return [(p.package, p.line, p.text, p.exact) for p in req_file.pins("requirements.txt", text)]


def test_a_comment_starts_at_white_space_or_the_line_start_not_inside_a_word():
    # pip: `(^|\s+)#.*$`: after a tab too (the pins reader cut only at ` #` and lost this pin) ...
    assert _pins("vllm==0.8.4\t# the last V0 release\n# vllm==0.9.0\n") == [("vllm", 1, "vllm==0.8.4", "0.8.4")]
    # ... and never inside a URL, whose `#egg=` fragment stays (the alternatives reader cut at every `#`)
    ((pkg, _, text, exact),) = _pins("verl @ git+https://github.com/volcengine/verl@v0.4.1#egg=verl  # rollout\n")
    assert (pkg, text, exact) == ("verl", "verl @ git+https://github.com/volcengine/verl@v0.4.1#egg=verl", "0.4.1")


def test_a_continued_line_is_one_requirement_at_its_first_line():
    text = "torch==2.6.0 \\\n    --hash=sha256:aa\nvllm \\\n  ==0.8.5 \\\n    --hash=sha256:bb\n"
    assert _pins(text) == [("torch", 1, "torch==2.6.0", "2.6.0"), ("vllm", 3, "vllm   ==0.8.5", "0.8.5")]


def test_option_lines_name_no_requirement_but_an_editable_one_does():
    text = ("-r common.txt\n-c constraints.txt\n--extra-index-url https://wheels.vllm.ai/nightly\n"
            "-e git+https://github.com/volcengine/verl@v0.4.1#egg=verl\n--editable=.\n")
    assert _pins(text) == [("verl", 4, "git+https://github.com/volcengine/verl@v0.4.1#egg=verl", "0.4.1")]


def test_markers_and_hashes_are_not_the_version():
    text = 'vllm==0.10.2 ; python_version >= "3.9" --hash=sha256:cc\ntransformers>=4.57 ; sys_platform == "linux"\n'
    got = req_file.pins("requirements.txt", text)
    assert [(p.package, p.spec, p.exact) for p in got] == [("vllm", "==0.10.2", "0.10.2"), ("transformers", ">=4.57", None)]


def test_an_alternative_installs_what_its_included_file_pins(tmp_path):
    # requirements_torch260_vllm.txt's `-r requirements_common.txt` (alibaba/ROLL): pip installs the
    # common file's pins with the variant's, the variant's own first
    files = {"requirements_common.txt": "transformers==4.51.0\nvllm\n",
             "requirements_torch260_vllm.txt": "-r requirements_common.txt\nvllm==0.8.4  # V0\n",
             "requirements_torch280_vllm.txt": "-r requirements_common.txt\ntransformers==4.57.0\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    ctx = ScanContext(root=tmp_path, catalog=catalog.load(), default_version="0.10.2", files=sorted(files) + ["conf/rlvr.yaml"])
    names = pin_alternatives.files(ctx, "conf/rlvr.yaml")
    assert names == ["requirements_torch260_vllm.txt", "requirements_torch280_vllm.txt"]
    assert pin_alternatives.files(ctx, "conf/rlvr.yaml") is names  # the folder index is built once per project
    got = pin_alternatives.releases(ctx, names)
    assert [(v == ctx.catalog.newest, p.file, p.text) for v, p in got] == [
        (False, "requirements_torch260_vllm.txt", "vllm==0.8.4"), (True, "requirements_common.txt", "vllm")]
