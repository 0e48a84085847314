"""What a scanned project writes is shown, never obeyed, and never crashes an output:
escape sequences in a flag's value or a file's name (`--served-model-name "\\e]0;…\\a\\e[2J"`)
reach no output raw — every human format, stderr notes, `--diff`, detect, diagnose, MCP — and a
file name that is not UTF-8 works everywhere (every format, baseline, `--diff`, `--fix`, MCP),
shown as `\\xNN`. A poisoned parser cache cannot run code."""
from __future__ import annotations

import json
import os
import pickle
import re
import shutil
import sys
from pathlib import Path

import pytest

GPU = ("--gpu", "H100-80GB x8")
FORMATS = ["text", "markdown", "json", "sarif", "github", "gitlab", "json-lines", "concise", "summary"]
# ESC, BEL, a C1 CSI, a bidi override, a zero-width space, a CR that does not end a line, DEL
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b]|\r(?!\n)")
HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eevil\u200b\rX\x7f"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile") / "proj"
    root.mkdir()
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    quoted = HOSTILE.replace("'", "")
    (root / "serve.sh").write_text(f"#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --served-model-name '{quoted}' "
                                   "--swap-space 4\n")
    (root / "cfg.yaml").write_text(f'served-model-name: "{json.dumps(HOSTILE)[1:-1]}"\nswap-space: 4\n')
    (root / "run.sh").write_text("#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --config cfg.yaml\n")
    name = "evil\x1b[2J.sh"
    (root / name).write_text("#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --swap-space 4\n")
    return root


def raw_controls(text: str) -> list[str]:
    return sorted({repr(m.group(0)) for m in RAW.finditer(text)})


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_control_character_reaches_any_format(hostile, cli, fmt):
    code, out, err = cli("audit", str(hostile), *GPU, "--format", fmt)
    assert code in (0, 1), err
    assert raw_controls(out) == [] and raw_controls(err) == [], (fmt, raw_controls(out), raw_controls(err))
    if fmt == "json":  # escaped by construction, still the same value
        names = [s["value"] for site in json.loads(out)["sites"] for s in site["settings"] if s["name"] == "served_model_name"]
        assert HOSTILE.replace("'", "") in [n if isinstance(n, str) else n[0] for n in names]
    if fmt in ("text", "markdown"):
        assert "\\x1b" in out  # visible, not dropped


def test_no_control_character_in_diff_fix_notes_detect_diagnose(hostile, cli, tmp_path):
    code, out, err = cli("audit", str(hostile), *GPU, "--diff")
    assert raw_controls(out + err) == []
    assert "+" in out and not any(ln.startswith("+") and not ln.startswith("+++") and "\\x1b" in ln for ln in out.splitlines())
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(hostile, copy)
    code, out, err = cli("audit", str(copy), *GPU, "--fix")
    assert raw_controls(out + err) == []
    assert HOSTILE.replace("'", "") in (copy / "serve.sh").read_bytes().decode(), "the fix keeps the bytes it does not target"
    for fmt in ("text", "json"):
        code, out, err = cli("detect", str(hostile), "--format", fmt)
        assert raw_controls(out + err) == []
        code, out, err = cli("diagnose", str(hostile), *GPU, "--error", f"bad name {HOSTILE}", "--format", fmt)
        assert raw_controls(out + err) == []


def test_an_error_message_is_escaped(cli, tmp_path):
    code, out, err = cli("audit", str(tmp_path / "nope\x1b[2J"), *GPU)
    assert code == 2 and raw_controls(err) == [] and "\\x1b" in err


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_results_carry_no_raw_control_character(hostile):
    from mcp import Client
    from vllm_kb.mcp_server.server import build_server

    server = build_server([hostile.parent])
    async with Client(server) as c:
        r = await c.call_tool("audit", {"path": str(hostile), "gpu": "H100-80GB x8"})
    blob = json.dumps(r.structured_content, ensure_ascii=False) + "".join(getattr(x, "text", "") for x in r.content)
    assert not r.is_error and raw_controls(blob) == []


# --- file names that are not UTF-8 ------------------------------------------------------------

@pytest.fixture
def latin1(tmp_path) -> Path:
    if sys.platform == "darwin":
        pytest.skip("APFS refuses names that are not UTF-8")
    root = tmp_path / "proj"
    root.mkdir()
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    name = os.fsdecode(b"d\xe9ploy\xff.sh")  # Latin-1 bytes: surrogate escapes in Python
    (root / name).write_text("#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --swap-space 4\n")
    return root


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_name_that_is_not_utf8_works_in_every_format(latin1, cli, fmt):
    code, out, err = cli("audit", str(latin1), *GPU, "--format", fmt)
    assert code in (0, 1), err
    assert "d\\xe9ploy\\xff.sh" in (json.loads(out)["sites"][0]["file"] if fmt == "json" else out.replace("\\\\", "\\"))


def test_a_name_that_is_not_utf8_works_with_baseline_diff_and_fix(latin1, cli, tmp_path):
    bl = tmp_path / "baseline.json"
    code, out, err = cli("audit", str(latin1), *GPU, "--baseline", str(bl), "--update-baseline")
    assert code in (0, 1) and bl.exists(), err
    assert any(e["file"] == "d\\xe9ploy\\xff.sh" for e in json.loads(bl.read_text())["findings"])
    code, out, err = cli("audit", str(latin1), *GPU, "--baseline", str(bl), "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["recommendations"]["P0"] == 0, "the baseline hides what it lists"
    code, out, err = cli("audit", str(latin1), *GPU, "--diff")
    assert code == 1 and "+++ b/d\\xe9ploy\\xff.sh" in out
    code, out, err = cli("audit", str(latin1), *GPU, "--fix")
    assert "--swap-space" not in (latin1 / os.fsdecode(b"d\xe9ploy\xff.sh")).read_text(), err


@pytest.mark.anyio
async def test_mcp_audit_of_a_name_that_is_not_utf8(latin1):
    from mcp import Client
    from vllm_kb.mcp_server.server import build_server

    server = build_server([latin1.parent])
    async with Client(server) as c:
        r = await c.call_tool("audit", {"path": str(latin1), "gpu": "H100-80GB x8"})
        assert not r.is_error, r.content
        site = r.structured_content["sites"][0]["id"]
        assert site.startswith("d\\xe9ploy\\xff.sh:")
        page = await c.call_tool("audit_details", {"report_id": r.structured_content["report_id"], "site": site})
    assert not page.is_error, page.content
    assert page.structured_content["items"][0]["file"] == "d\\xe9ploy\\xff.sh"


# --- the parser cache -------------------------------------------------------------------------

class _Boom:
    def __reduce__(self):
        return (os.system, ("touch PWNED-BY-CACHE",))


def _payload() -> bytes:
    # lark reads one line, then unpickles: this file runs a command when lark loads it
    return b"0\n" + pickle.dumps(_Boom())


def _audit(tmp_path, cache) -> None:
    import subprocess

    env = dict(os.environ, VLLM_KB_CACHE_DIR=str(cache))
    fixtures = Path(__file__).parent / "fixtures" / "stale-serve"
    run = subprocess.run([sys.executable, "-m", "vllm_kb.cli.main", "audit", str(fixtures), "--gpu", "H100 x4",
                          "--isolated", "--format", "json"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr


def _warm(tmp_path_factory, prepare) -> Path:
    """A cache one cold audit wrote (after `prepare(cache)`), copied (modes kept) into each test of
    its kind below rather than written again by a cold audit in every one."""
    work = tmp_path_factory.mktemp("warm")
    cache = work / "cache"
    prepare(cache)
    _audit(work, cache)
    return cache


def _own_folders(cache: Path) -> None:
    (cache / "cel").mkdir(parents=True, mode=0o700)
    os.chmod(cache, 0o700)


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory) -> Path:
    return _warm(tmp_path_factory, _own_folders)


@pytest.fixture(scope="module")
def warm_translations(tmp_path_factory) -> Path:
    return _warm(tmp_path_factory, lambda cache: None)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX ownership")
@pytest.mark.parametrize("how", ["folder-open-to-others", "file-writable-by-others", "file-of-another-user", "link"])
def test_a_poisoned_cache_cannot_run_code(tmp_path, how, warm_cache):
    """A pickle planted in the cache (lark's CEL tables are a pickle) is never loaded unless the
    user's own, unshared file wrote it: the folder must be the user's, 0700; the file the user's,
    writable by no one else, not a link."""
    import subprocess

    import lark

    cache = tmp_path / "cache"
    target = cache / "cel" / f"cel-grammar-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.cache"
    shutil.copytree(warm_cache, cache, symlinks=True)  # a real cache file first
    assert target.exists()
    # a warm start runs the predicates' cached translations and builds no parser: without them the
    # parser, and so its tables, are needed again
    shutil.rmtree(cache / "cel-py")
    evil = tmp_path / "evil.pickle"
    evil.write_bytes(_payload())
    # the payload is live: lark itself would run it
    subprocess.run([sys.executable, "-c", f"from lark import Lark; Lark('start: \"a\"', parser='lalr', cache={str(evil)!r})"],
                   cwd=tmp_path, capture_output=True)
    assert (tmp_path / "PWNED-BY-CACHE").exists(), "the test payload must be able to run"
    (tmp_path / "PWNED-BY-CACHE").unlink()
    target.unlink()
    if how == "link":
        target.symlink_to(evil)
    else:
        target.write_bytes(_payload())
    if how == "folder-open-to-others":
        os.chmod(cache / "cel", 0o777)
    elif how == "file-writable-by-others":
        os.chmod(target, 0o666)
    elif how == "file-of-another-user":
        if os.getuid() != 0:
            pytest.skip("needs root to give a file away")
        os.chown(target, 65534, 65534)
    _audit(tmp_path, cache)
    assert not (tmp_path / "PWNED-BY-CACHE").exists(), f"{how}: the planted pickle ran"
    assert not (stat_mode := os.stat(cache / "cel").st_mode & 0o077), oct(stat_mode)
    if how != "link":
        assert cache.joinpath("cel-py").is_dir(), "the parser ran (and wrote the translations again)"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX ownership")
@pytest.mark.parametrize("how", ["folder-open-to-others", "file-writable-by-others", "link"])
def test_a_poisoned_translation_cannot_run_code(tmp_path, how, warm_translations):
    """A predicate's cached translation is Python the engine evaluates (engine/kb/cel.py): one
    planted where the user's own, unshared cache would keep it is never run."""
    cache = tmp_path / "cache"
    shutil.copytree(warm_translations, cache, symlinks=True)  # what an audit cached
    entries = sorted((cache / "cel-py").glob("*.json"))
    assert entries, "the audit cached its translations"
    planted = tmp_path / "planted.json"
    for path in entries:
        bundle = json.loads(path.read_text())  # predicate's source → its translation
        assert bundle and all("code" in entry for entry in bundle.values())
        for entry in bundle.values():
            entry["code"] = "__import__('os').system('touch PWNED-BY-CACHE') and False"
        entry = bundle
        if how == "link":
            planted.write_text(json.dumps(entry))
            path.unlink()
            path.symlink_to(planted)
        else:
            path.write_text(json.dumps(entry))
            if how == "file-writable-by-others":
                os.chmod(path, 0o666)
    if how == "folder-open-to-others":
        os.chmod(cache / "cel-py", 0o777)
    _audit(tmp_path, cache)
    assert not (tmp_path / "PWNED-BY-CACHE").exists(), f"{how}: the planted translation ran"


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_upgrade_outputs_escape_and_survive_odd_names(hostile, cli, fmt, tmp_path):
    code, out, err = cli("upgrade", str(hostile), "--to", "0.34.0", "--gpu", "H100-80GB x8", "--format", fmt)
    assert code in (0, 1), err
    assert raw_controls(out + err) == []
    if sys.platform != "darwin":
        root = tmp_path / "odd"
        root.mkdir()
        (root / "requirements.txt").write_text("vllm==0.10.1\n")
        (root / os.fsdecode(b"s\xff.sh")).write_text("#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --swap-space 4\n")
        code, out, err = cli("upgrade", str(root), "--to", "0.34.0", "--format", fmt)
        assert code in (0, 1), err
