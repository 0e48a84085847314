"""`--fix` writes every file or none (engine/fix/atomic.py): a failure anywhere writes nothing
and names the file; two paths to one file are written once or refused; a killed run's temporary
file is cleaned by the next one and never read; CRLF stays CRLF; encodings stay."""
from __future__ import annotations

import json
import os

import pytest
from vllm_kb.engine.fix import apply as apply_fixes
from vllm_kb.engine.fix import atomic
from vllm_kb.engine.scan.walk import walk

GPU = ("--gpu", "H100-80GB x8", "--isolated")


def result(**files: tuple[str, str]) -> apply_fixes.FixResult:
    return apply_fixes.FixResult(originals={k.replace("__", "/"): v[0] for k, v in files.items()},
                                 texts={k.replace("__", "/"): v[1] for k, v in files.items()})


def temps(root) -> list[str]:
    return [p.name for p in root.rglob("*") if atomic.is_temp(p.name)]


def test_a_file_changed_on_disk_stops_every_write(tmp_path):
    (tmp_path / "a.sh").write_text("old a\n")
    (tmp_path / "b.sh").write_text("edited meanwhile\n")
    res = result(**{"a.sh": ("old a\n", "new a\n"), "b.sh": ("old b\n", "new b\n")})
    with pytest.raises(apply_fixes.WriteError, match=r"b\.sh: changed on disk.*nothing was changed"):
        apply_fixes.write(tmp_path, res)
    assert (tmp_path / "a.sh").read_text() == "old a\n" and temps(tmp_path) == []


def test_a_fix_that_breaks_the_syntax_writes_nothing(tmp_path):
    (tmp_path / "a.yaml").write_text("a: 1\n")
    (tmp_path / "b.sh").write_text("vllm serve m\n")
    res = result(**{"a.yaml": ("a: 1\n", "a: [1\n"), "b.sh": ("vllm serve m\n", "vllm serve n\n")})
    with pytest.raises(apply_fixes.WriteError, match=r"a\.yaml: the fixed text would not parse"):
        apply_fixes.write(tmp_path, res)
    assert (tmp_path / "b.sh").read_text() == "vllm serve m\n"


def test_a_failure_while_staging_removes_what_was_staged(tmp_path, monkeypatch):
    for n in "abc":
        (tmp_path / f"{n}.sh").write_text(f"old {n}\n")
    res = result(**{f"{n}.sh": (f"old {n}\n", f"new {n}\n") for n in "abc"})
    real_stage = atomic._stage
    calls = []

    def failing(t, data):
        calls.append(t)
        if len(calls) == 3:
            raise KeyboardInterrupt  # SIGTERM is turned into this while writing
        return real_stage(t, data)

    monkeypatch.setattr(atomic, "_stage", failing)
    with pytest.raises(KeyboardInterrupt):
        apply_fixes.write(tmp_path, res)
    assert [(tmp_path / f"{n}.sh").read_text() for n in "abc"] == ["old a\n", "old b\n", "old c\n"]
    assert temps(tmp_path) == []


def test_a_failed_rename_puts_back_what_was_replaced(tmp_path, monkeypatch):
    for n in "ab":
        (tmp_path / f"{n}.sh").write_text(f"old {n}\n")
    res = result(**{f"{n}.sh": (f"old {n}\n", f"new {n}\n") for n in "ab"})
    real_replace = os.replace
    seen = []

    def failing(src, dst):
        seen.append(dst)
        if len(seen) == 2 and str(dst).endswith("b.sh"):
            raise PermissionError(13, "Permission denied")
        return real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", failing)
    with pytest.raises(apply_fixes.WriteError, match=r"b\.sh: cannot replace"):
        apply_fixes.write(tmp_path, res)
    assert (tmp_path / "a.sh").read_text() == "old a\n" and (tmp_path / "b.sh").read_text() == "old b\n"
    assert temps(tmp_path) == []


def test_files_are_fsynced_and_keep_their_mode(tmp_path, monkeypatch):
    f = tmp_path / "serve.sh"
    f.write_text("old\n")
    f.chmod(0o751)
    synced = []
    real = os.fsync
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    apply_fixes.write(tmp_path, result(**{"serve.sh": ("old\n", "new\n")}))
    assert f.read_text() == "new\n" and (f.stat().st_mode & 0o777) == 0o751
    assert len(synced) >= 2  # the file and its folder


def test_two_paths_to_one_file_are_written_once(cli, tmp_path):
    root = tmp_path / "proj"
    (root / "real").mkdir(parents=True)
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    (root / "real/serve.sh").write_text("vllm serve m --swap-space 4\n")
    (root / "serve.sh").symlink_to(root / "real/serve.sh")
    code, _, err = cli("audit", str(root), *GPU, "--fix")
    assert "refusing" not in err, err
    assert (root / "serve.sh").is_symlink() and (root / "real/serve.sh").read_text() == "vllm serve m\n"


def test_two_paths_to_one_file_with_different_fixes_are_refused(tmp_path):
    (tmp_path / "real.sh").write_text("old\n")
    (tmp_path / "link.sh").symlink_to(tmp_path / "real.sh")
    (tmp_path / "other.sh").write_text("x\n")
    res = result(**{"real.sh": ("old\n", "one\n"), "link.sh": ("old\n", "two\n"), "other.sh": ("x\n", "y\n")})
    with pytest.raises(apply_fixes.WriteError, match="one file .a link."):
        apply_fixes.write(tmp_path, res)
    assert (tmp_path / "real.sh").read_text() == "old\n" and (tmp_path / "other.sh").read_text() == "x\n"


def test_a_killed_runs_temp_file_is_cleaned_and_never_read(cli, tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    (root / "serve.sh").write_text("vllm serve m --swap-space 4\n")
    stale = root / ".vllm-kb-fix-999999999-serve.sh.tmp"  # no such process
    stale.write_text("vllm serve m --swap-space 4 --enforce-eager\n")
    assert stale.name not in walk(root)
    code, out, err = cli("audit", str(root), *GPU, "--fix", "-q")
    assert not stale.exists() and temps(root) == []
    assert (root / "serve.sh").read_text() == "vllm serve m\n"


def test_inserted_lines_in_a_crlf_file_end_in_crlf(cli, tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    (root / "job.py").write_bytes(b'from vllm import LLM\r\nllm = LLM(\r\n    model="Qwen/Qwen2.5-7B-Instruct",\r\n'
                                  b'    swap_space=8,\r\n)\r\n')
    (root / "cfg.yaml").write_bytes(b"# serve\r\nswap-space: 4\r\nmax-num-seqs: 8\r\n")
    (root / "run.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct --config cfg.yaml\n")
    code, _, err = cli("audit", str(root), *GPU, "--fix", "--unsafe-fixes", "-q")
    for name in ("job.py", "cfg.yaml"):
        raw = (root / name).read_bytes()
        assert raw != b"" and b"\n" not in raw.replace(b"\r\n", b""), (name, raw)
    assert b"swap" not in (root / "job.py").read_bytes() and b"kv_cache_dtype" in (root / "job.py").read_bytes()
    assert b"kv-cache-dtype: fp8\r\n" in (root / "cfg.yaml").read_bytes()


@pytest.mark.parametrize("codec, bom", [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-32-le", b"\xff\xfe\x00\x00"),
                                        ("utf-8", b"\xef\xbb\xbf")])
def test_utf16_and_utf32_files_are_read_and_written_back_alike(cli, tmp_path, codec, bom):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    (root / "serve.yaml").write_bytes(bom + "# 配置\nswap-space: 4\nmax-num-seqs: 8\n".encode(codec))
    (root / "run.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct --config serve.yaml\n")
    code, out, err = cli("audit", str(root), *GPU, "--format", "json")
    assert '"swap_space"' in out and not json.loads(out)["project"].get("skipped"), \
        "the file is read, not skipped"
    cli("audit", str(root), *GPU, "--fix", "-q")
    raw = (root / "serve.yaml").read_bytes()
    assert raw.startswith(bom) and raw[len(bom):].decode(codec) == "# 配置\nmax-num-seqs: 8\n"
