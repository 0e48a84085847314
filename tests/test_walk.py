"""Which files an audit reads: .gitignore (nested files, negations, anchors, `dir/`, `**`),
.git/info/exclude, VCS/dependency/virtualenv/build folders, symlinks (never out of the root,
loops do not hang), unreadable folders and special files reported, not fatal."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from vllm_kb.engine.scan.walk import GitIgnore, walk


def tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def test_skips_vcs_dependency_virtualenv_and_build_folders(tmp_path):
    tree(tmp_path, {
        "serve.sh": "", "pkg/a.py": "",
        ".git/config": "", ".git/hooks/x.sh": "", "node_modules/m/index.js": "", ".venv/bin/activate": "",
        "venv/lib/x.py": "", "env2/pyvenv.cfg": "", "env2/lib/site.py": "", "build/lib/x.py": "", "dist/x.whl": "",
        "pkg/__pycache__/a.pyc": "", "lib/site-packages/vllm/__init__.py": "", "x.egg-info/PKG-INFO": "",
        ".tox/py/x.py": "", ".mypy_cache/x.json": "",
    })
    assert walk(tmp_path) == ["serve.sh", "pkg/a.py"]


def test_order_is_depth_first_by_name_files_before_subfolders(tmp_path):
    tree(tmp_path, {"b.txt": "", "a/z.txt": "", "a/b/c.txt": "", "a.txt": "", "c/d.txt": ""})
    assert walk(tmp_path) == ["a.txt", "b.txt", "a/z.txt", "a/b/c.txt", "c/d.txt"]


def test_gitignore_globs_anchors_dirs_and_negations(tmp_path):
    tree(tmp_path, {
        ".gitignore": "# comment\n*.log\n/out\nlogs/\n!keep.log\ndocs/**/gen_*.md\n**/tmp/*.yaml\nsub/*.txt\n\\#hash\n",
        "a.log": "", "keep.log": "", "deep/x.log": "", "out/o.py": "", "deep/out/o.py": "", "logs/l.py": "",
        "deep/logs/l.py": "", "logslike": "", "docs/gen_a.md": "", "docs/x/y/gen_b.md": "", "docs/x/keep.md": "",
        "tmp/c.yaml": "", "a/tmp/c.yaml": "", "a/tmp/c.yml": "", "sub/t.txt": "", "sub/deeper/t.txt": "", "#hash": "",
    })
    got = set(walk(tmp_path))
    assert got == {".gitignore", "keep.log", "deep/out/o.py", "logslike", "docs/x/keep.md", "a/tmp/c.yml",
                   "sub/deeper/t.txt"}


def test_nested_gitignore_overrides_the_parent_one(tmp_path):
    tree(tmp_path, {
        ".gitignore": "*.yaml\nsecret/\n",
        "a.yaml": "", "conf/.gitignore": "!*.yaml\n/local.yaml\n", "conf/serve.yaml": "", "conf/local.yaml": "",
        "conf/deep/local.yaml": "", "other/b.yaml": "", "secret/.gitignore": "!*\n", "secret/x.py": "",
    })
    got = set(walk(tmp_path))
    # a folder that is ignored is not entered, so its own .gitignore cannot re-include (as in git)
    assert got == {".gitignore", "conf/.gitignore", "conf/serve.yaml", "conf/deep/local.yaml"}


def test_rules_of_a_folder_gitignore_apply_only_below_it(tmp_path):
    tree(tmp_path, {"a/.gitignore": "*.py\n", "a/x.py": "", "b/x.py": "", "x.py": ""})
    assert set(walk(tmp_path)) == {"a/.gitignore", "b/x.py", "x.py"}


def test_git_info_exclude(tmp_path):
    tree(tmp_path, {".git/info/exclude": "scratch/\n", "scratch/s.sh": "", "serve.sh": ""})
    assert walk(tmp_path) == ["serve.sh"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_agrees_with_git_check_ignore(tmp_path):
    """The same tree through git itself: what git would not track, walk does not return."""
    tree(tmp_path, {
        ".gitignore": "*.log\n!important.log\n/build-out/\ndocs/**/*.tmp\n*.py[co]\nfoo?/\n",
        "a.log": "", "important.log": "", "x/important.log": "", "build-out/a": "", "x/build-out/a": "",
        "docs/a.tmp": "", "docs/q/r/b.tmp": "", "m.pyc": "", "m.py": "", "fooA/x": "", "foo/x": "",
        "sub/.gitignore": "!a.log\n*.md\n", "sub/a.log": "", "sub/r.md": "", "sub/s.txt": "",
    })
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    out = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout.split()
    assert sorted(walk(tmp_path)) == sorted(out)


@pytest.mark.parametrize("line, path, is_dir, expected", [
    ("*.log", "a/b/c.log", False, True),
    ("/a.log", "x/a.log", False, None),
    ("a/*.py", "a/b/c.py", False, None),  # * does not cross /
    ("a/**/c.py", "a/c.py", False, True),
    ("a/**/c.py", "a/b/d/c.py", False, True),
    ("**/c.py", "c.py", False, True),
    ("a/**", "a/b/c", False, True),
    ("build/", "x/build", True, True),
    ("build/", "x/build", False, None),
    ("[abc].txt", "b.txt", False, True),
    ("[!abc].txt", "b.txt", False, None),
    ("trailing\\ ", "trailing ", False, True),
    ("\\!bang", "!bang", False, True),
    ("[unclosed", "[unclosed", False, True),
])
def test_gitignore_patterns(line, path, is_dir, expected):
    assert GitIgnore([line]).match(path, is_dir) is expected


def test_symlinks_never_lead_out_of_the_root_and_loops_do_not_hang(tmp_path):
    outside = tree(tmp_path / "outside", {"leak.sh": "vllm serve x\n", "d/leak.py": ""})
    root = tree(tmp_path / "root", {"serve.sh": "", "real/a.py": ""})
    (root / "to_outside_file.sh").symlink_to(outside / "leak.sh")
    (root / "to_outside_dir").symlink_to(outside)
    (root / "inside_link.py").symlink_to(root / "real" / "a.py")
    (root / "loop").symlink_to(root)  # a folder link to the root itself
    (root / "real" / "up").symlink_to(root / "real")
    (root / "self").symlink_to(root / "self")  # a link to itself
    (root / "a_b").symlink_to(root / "b_a")
    (root / "b_a").symlink_to(root / "a_b")  # two links to each other
    (root / "dangling.yaml").symlink_to(root / "nope.yaml")
    res = walk(root)
    assert sorted(res) == ["inside_link.py", "real/a.py", "serve.sh"]
    assert ("to_outside_file.sh", "outside-root", "") in res.skipped
    assert ("to_outside_dir", "outside-root", "") in res.skipped


def test_audit_of_a_tree_with_links_out_reports_them_and_reads_nothing_outside(tmp_path, cli):
    outside = tree(tmp_path / "outside", {"leak.sh": "#!/bin/bash\nvllm serve LEAKED/model --port 1\n"})
    root = tree(tmp_path / "root", {"serve.sh": "#!/bin/bash\nvllm serve meta-llama/Llama-3.1-8B-Instruct\n"})
    (root / "leak.sh").symlink_to(outside / "leak.sh")
    (root / "loop").symlink_to(root)
    code, out, err = cli("audit", str(root), "--gpu", "none", "--format", "json")
    assert code in (0, 1), err
    assert "LEAKED" not in out
    import json

    data = json.loads(out)
    assert [s["file"] for s in data["sites"]] == ["serve.sh"]
    assert {"file": "leak.sh", "code": "outside-root"}.items() <= data["project"]["skipped"][0].items()


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads every folder")
def test_unreadable_folder_is_reported_not_fatal(tmp_path):
    tree(tmp_path, {"ok.sh": "", "locked/x.sh": ""})
    (tmp_path / "locked").chmod(0)
    try:
        res = walk(tmp_path)
    finally:
        (tmp_path / "locked").chmod(0o755)
    assert res == ["ok.sh"]
    assert res.skipped and res.skipped[0][:2] == ("locked", "unreadable")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifos_and_sockets_are_not_read(tmp_path, cli):
    tree(tmp_path, {"serve.sh": "#!/bin/bash\nvllm serve m\n"})
    os.mkfifo(tmp_path / "pipe.sh")  # reading it would block forever
    import socket

    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "vllm.sock"))
    except OSError:
        pass
    (tmp_path / "null.sh").symlink_to("/dev/null")
    try:  # a device node inside the tree, where the machine allows making one
        os.mknod(tmp_path / "tty.sh", 0o600 | __import__("stat").S_IFCHR, os.makedev(1, 3))
    except (OSError, AttributeError):
        pass
    res = walk(tmp_path)
    assert res == ["serve.sh"]
    # never silently: each is reported with what it is
    expected = [("null.sh", "outside-root", ""), ("pipe.sh", "not-regular", "FIFO")]
    expected += [("vllm.sock", "not-regular", "socket")] if (tmp_path / "vllm.sock").exists() else []
    expected += [("tty.sh", "not-regular", "character device")] if os.path.lexists(tmp_path / "tty.sh") else []
    assert sorted(res.skipped) == sorted(expected)
    code, out, err = cli("audit", str(tmp_path), "--gpu", "none", "--format", "json")
    assert code in (0, 1), err
    skipped = {s["file"]: s["reason"] for s in __import__("json").loads(out)["project"]["skipped"]}
    assert "FIFO" in skipped["pipe.sh"] and "null.sh" in skipped
    sock.close()


def test_a_fifo_named_on_purpose_is_skipped_with_a_reason(tmp_path):
    from vllm_kb.engine.kb import catalog
    from vllm_kb.engine.scan.context import ScanContext

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "pipe.yaml")
    ctx = ScanContext(root=tmp_path, catalog=catalog.load(), default_version="0.10.1")
    assert ctx.read("pipe.yaml") is None
    assert ctx.skipped[0].code == "not-regular"


def test_many_files_walk_fast_enough(tmp_path):
    """Not a timing test: a wide, deep tree is walked once, each folder listed once."""
    for i in range(30):
        tree(tmp_path, {f"d{i}/e{j}/f{k}.py": "" for j in range(5) for k in range(4)})
    res = walk(tmp_path)
    assert len(res) == 600 and len(set(res)) == 600


def test_a_copy_of_vllms_own_source_below_the_root_is_skipped_and_said(tmp_path):
    # eval81 (dehudewf/Inference-and-Deployment-huiwei1): a study repo that carries vLLM's source tree;
    # its tests, examples and engine modules were read as 511 launches of the project, 51 false P0s
    tree(tmp_path, {
        "notes.md": "# notes\n",
        "third_party/vllm/pyproject.toml": '[project]\nname = "vllm"\ndynamic = ["version"]\n',
        "third_party/vllm/vllm/__init__.py": "",
        "third_party/vllm/examples/offline.py": "from vllm import LLM\nLLM(model='m', swap_space=4)\n",
        "old/vllm/setup.py": 'from setuptools import setup\nsetup(\n    name="vllm",\n    version="0.2.7",\n)\n',
        "old/vllm/vllm/__init__.py": "",
        "old/vllm/benchmarks/run.sh": "vllm serve m\n",
        # a project's own package named vllm_app, and a folder named vllm that is not vLLM's source
        "app/pyproject.toml": '[project]\nname = "vllm-app"\n',
        "app/vllm/__init__.py": "",
        "serve/vllm/run.sh": "vllm serve m\n",
    })
    out = walk(tmp_path)
    assert sorted(out) == ["app/pyproject.toml", "app/vllm/__init__.py", "notes.md", "serve/vllm/run.sh"]
    assert sorted(r for r, code, _ in out.skipped if code == "vllm-source") == ["old/vllm", "third_party/vllm"]


def test_vllms_own_source_at_the_root_is_audited_as_it_is(tmp_path):
    tree(tmp_path, {"pyproject.toml": '[project]\nname = "vllm"\n', "vllm/__init__.py": "", "examples/a.py": "x = 1\n"})
    assert sorted(walk(tmp_path)) == ["examples/a.py", "pyproject.toml", "vllm/__init__.py"]


def test_a_requirements_file_an_ignore_pattern_catches_is_read(tmp_path):
    # open-compass/opencompass@a5acc4bb .gitignore has `*.txt` while it commits requirements.txt and
    # requirements/*.txt (setup.py's extras_require reads requirements/vllm.txt): git keeps tracking them
    # and pip reads them, so the audit does too (https://github.com/open-compass/opencompass)
    tree(tmp_path, {".gitignore": "*.txt\noutputs/\n", "requirements.txt": "-r requirements/runtime.txt\n",
                    "requirements/vllm.txt": "vllm\n", "requirements/runtime.txt": "numpy<2.0.0\n",
                    "notes.txt": "", "outputs/requirements.txt": "", "setup.py": ""})
    assert sorted(walk(tmp_path)) == [".gitignore", "requirements.txt", "requirements/runtime.txt",
                                      "requirements/vllm.txt", "setup.py"]
