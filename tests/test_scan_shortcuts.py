"""The scan's shortcuts give what the long way gives: the suppression comments are found after the
scan let go of its texts (ScanContext.unmarked), a file the scan never read is still read for
them, envfile.beside joins paths as PurePosixPath does, and the prefilters' searches answer as the
plain loops they replace."""
from __future__ import annotations

import os
import random
from pathlib import Path, PurePosixPath
from types import SimpleNamespace

from vllm_kb.engine.check import suppressions
from vllm_kb.engine.kb import catalog
from vllm_kb.engine.scan import envfile, python_opaque, python_prefilter
from vllm_kb.engine.scan.context import ScanContext


def _ctx(root: Path, files: list[str]) -> ScanContext:
    ctx = ScanContext(root=root.resolve(), catalog=catalog.load(), default_version=catalog.load().newest)
    ctx.files = files
    return ctx


def test_comments_are_found_after_the_texts_are_let_go(tmp_path):
    (tmp_path / "serve.sh").write_text("vllm serve m --max-model-len 4096  # vllm-kb: ignore[L1] -- known\n")
    (tmp_path / "other.sh").write_text("echo hello\n")
    (tmp_path / "later.py").write_text("x = 1  # vllm-kb: ignore\n")  # never read by the scan
    files = ["later.py", "other.sh", "serve.sh"]
    ctx = _ctx(tmp_path, files)
    for rel in ("other.sh", "serve.sh"):
        assert ctx.read(rel)
    assert ctx.unmarked == {"other.sh"}
    ctx.release()
    got = suppressions.collect(SimpleNamespace(ctx=ctx, root=tmp_path, files=files))
    assert sorted(got) == ["later.py", "serve.sh"]
    assert got["serve.sh"][0].names == ["L1"] and got["later.py"][0].bare


def test_a_link_out_of_the_root_is_not_read_for_comments(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.py").write_text("# vllm-kb: ignore\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "x.py").symlink_to(outside / "x.py")
    (root / "sub").symlink_to(outside, target_is_directory=True)
    got = suppressions.collect(SimpleNamespace(ctx=None, root=root, files=["x.py", "sub/x.py"]))
    assert got == {}


def _beside_long(rel: str, name: str) -> str:
    folder = PurePosixPath(rel).parent
    joined = PurePosixPath(folder, name) if not name.startswith("/") else PurePosixPath(name.lstrip("/"))
    parts: list[str] = []
    for p in joined.parts:
        if p == "..":
            if not parts:
                return ""
            parts.pop()
        elif p != ".":
            parts.append(p)
    return "/".join(parts)


def test_beside_joins_as_pure_posix_path_does():
    segs = ["a", "b", ".", "..", "", "x.sh", ".env", "//", "..."]
    rng = random.Random(0)
    for _ in range(20000):
        rel = "/".join(rng.choice(segs) for _ in range(rng.randint(0, 5)))
        name = "/".join(rng.choice(segs) for _ in range(rng.randint(0, 4)))
        rel = "/" + rel if rng.random() < 0.1 else rel
        name = "/" + name if rng.random() < 0.2 else name
        assert envfile.beside(rel, name) == _beside_long(rel, name), (rel, name)


def _read_long(root: str, rel: str) -> str | None:
    """suppressions._read as it was: the path resolved in full, a 2 MiB read."""
    full = os.path.realpath(os.path.join(root, rel))
    if not full.startswith(root.rstrip(os.sep) + os.sep):
        return None
    try:
        with open(full, "rb") as f:
            data = f.read(suppressions.MAX_BYTES + 1)
    except OSError:
        return None
    if len(data) > suppressions.MAX_BYTES or suppressions.MARKER.encode() not in data or b"\x00" in data[:8192]:
        return None
    return data.decode("utf-8-sig")


def test_reading_for_comments_resolves_paths_as_realpath_does(tmp_path):
    root, out = tmp_path / "root", tmp_path / "out"
    for d in (root / "a" / "b", root / "c", out):
        d.mkdir(parents=True)
    for f in (root / "a" / "x.py", root / "a" / "b" / "y.py", root / "c" / "z.yaml", root / "top.py", out / "q.py"):
        f.write_text("x = 1  # vllm-kb: ignore\n")
    (root / "a" / "lc").symlink_to("../c", target_is_directory=True)
    (root / "a" / "b" / "ln.py").symlink_to("../../top.py")
    (root / "lo").symlink_to(out, target_is_directory=True)
    (root / "c" / "lq.py").symlink_to(out / "q.py")
    segs = ["a", "b", "c", ".", "..", "", "x.py", "y.py", "z.yaml", "top.py", "lc", "ln.py", "nope", "lo", "q.py", "lq.py"]
    rng, inside, found = random.Random(0), {}, 0
    real = os.path.realpath(root)
    for _ in range(3000):
        rel = "/".join(rng.choice(segs) for _ in range(rng.randint(1, 4)))
        got = suppressions._read(real, rel, inside)
        assert got == _read_long(real, rel), rel
        found += got is not None
    assert found > 50


def _calls_long(text: str, names: list[str]) -> bool:
    """python_prefilter._calls_a_callee as it was: every place of each name, by str.find."""
    for name in names:
        i = text.find(name)
        while i >= 0:
            before = text[i - 1] if i else " "
            if not (before.isalnum() or before == "_") and python_prefilter._TO_PAREN.match(text, i + len(name)):
                return True
            i = text.find(name, i + 1)
    return False


def test_the_callee_search_finds_what_every_place_of_a_name_finds():
    # names that overlap themselves (`LLMLLM`), hold each other (VLLM, LLM) or end in what follows them
    names = ["LLM", "VLLM", "LLMLLM", "aa", "run", "Popen", "é"]
    pieces = ["LLM", "VLLM", "LLMLL", "a", "aa", "run", "Popen", "é", "_", ".", "(", ")", " ", "\t", "\n", "\\\n",
              "#", "# c\n", "\r", "x", "9", "=", "\f", "ÉÉ"]
    rng = random.Random(0)
    hits = 0
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        picked = rng.sample(names, rng.randint(1, 3))
        got = python_prefilter._calls_a_callee(text, picked)
        assert got == _calls_long(text, picked), (text, picked)
        hits += got
    assert hits > 100


def test_two_sizing_names_are_told_as_the_count_told_them():
    rng = random.Random(0)
    words = list(python_opaque.DISTINCT[:4]) + ["x", "tensor_parallel", "max_model"]
    for _ in range(5000):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 4)))
        assert python_opaque.could_hold(text) == (sum(1 for n in python_opaque.DISTINCT if n in text) >= 2), text


def _spawn_named_target(text: str) -> bool | None:
    """Whether a call named like a subprocess function can be a site, read from the parsed module
    as the scanner reads it (python_argv.Spawners; a name imported under a spawn name; SageMaker's
    keywords); None for a text that does not parse."""
    import ast

    from vllm_kb.engine.scan import python_argv, sagemaker

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    imported = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    bound = {a.asname or a.name.split(".")[0] for n in imported for a in n.names}
    spawners = python_argv.spawners(imported)
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        f = call.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
        if name in python_argv.SPAWN_NAMES and (spawners.kind(call) is not None or sagemaker.is_call(call)
                                                 or (isinstance(f, ast.Name) and f.id in bound)):
            return True
    return False


def test_a_subprocess_call_passes_the_prefilter_wherever_the_scanner_can_read_it():
    pieces = ["import os\n", "import subprocess as sp\n", "import asyncio, os.path as p\n", "from subprocess import run\n",
              "from os import system as sh\n", "from vllm import LLM as call\n", "import (\n", "from . import run\n",
              "self.run(x)\n", "os.system('x')\n", "(os) .\\\n run(1)\n", "(os. # c\n system('x'))\n", "sp.Popen(a)\n",
              "run(a)\n", "call(b)\n", "p.run(c)\n", "x.check_output(image_uri=1, env=2)\n", "asyncio.run(m())\n",
              "'os.run(' \n", "# import os\n", "sh('x')\n", "cos.run(1)\n", "p . popen('y')\n"]
    rng = random.Random(0)
    told = parsed = dropped = 0
    for _ in range(4000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))
        truth = _spawn_named_target(text)
        if truth is None:
            continue
        parsed += 1
        got = python_prefilter._may_spawn(text)
        dropped += not got
        assert got or not truth, text
        told += truth
        assert python_prefilter.could_hold_site("vllm\n" + text + "# subprocess\n") or not truth, text
    assert parsed > 1000 and told > 300 and dropped > 100
