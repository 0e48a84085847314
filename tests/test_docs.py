"""docs/ is generated from knowledge/ and the CLI parser (tools/gen_docs.py): the committed pages
equal a fresh render, every check has a page in both languages, and SARIF links point at them."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import gen_docs
from vllm_kb.engine.check.rules import rules
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report.sarif import doc_path


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return gen_docs.render()


def test_committed_docs_are_fresh(files):
    stale = gen_docs.stale(files)
    assert not stale, f"docs/ is stale ({', '.join(stale[:8])}{' …' if len(stale) > 8 else ''}): run `python tools/gen_docs.py`"


def test_rendering_is_deterministic(files):
    assert gen_docs.render() == files


def test_every_check_has_a_page_in_both_languages(files):
    kb = load()
    for c in kb.checks:
        en, zh = files[f"checks/{c.id}.md"], files[f"checks/zh/{c.id}.md"]
        assert en.startswith(f"# {c.id} `{c.name}` — {c.title('en')}") and zh.startswith(f"# {c.id} `{c.name}` — {c.title('zh')}")
        assert f"# vllm-kb: ignore[{c.id}] -- " in en and "## Why it matters" in en and "## 原理" in zh
        for s in c.sources:
            assert s["title"] in en
        assert f"[{c.id}]({c.id}.md)" in files["checks/README.md"] and f"[{c.id}]({c.id}.md)" in files["checks/zh/README.md"]


def test_fix_spellings_on_the_pages_come_from_the_engine(files):
    assert "`--kv-cache-dtype fp8`" in files["checks/B3.md"] and '`kv_cache_dtype="fp8"`' in files["checks/B3.md"]
    assert "remove `--swap-space`" in files["checks/B4.md"] and "删除 `--swap-space`" in files["checks/zh/B4.md"]
    assert "`export VLLM_USE_FASTOKENS=1`" in files["checks/J1.md"]


def test_sarif_help_uris_resolve_to_generated_pages(files):
    for r in rules():
        for lang in ("en", "zh"):
            path, _, anchor = doc_path(r, lang).partition("#")
            assert path in files, path
            if anchor:
                assert f"\n### {anchor}\n" in files[path]


def test_links_between_pages_resolve(files):
    for name, text in files.items():
        here = (Path("docs") / name).parent
        # a code span is not a link: a CEL predicate shows `[0-9](_?[0-9])` (checks/F3.md)
        for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", re.sub(r"`[^`\n]*`", "", text)):
            if link.startswith(("http://", "https://")):
                continue
            target = (ROOT / here / link).resolve()
            rel = target.relative_to(ROOT / "docs").as_posix() if (ROOT / "docs") in target.parents else None
            assert (rel in files) or target.exists(), f"{name} links to {link}"


def test_cli_reference_covers_every_audit_flag(files):
    from vllm_kb.cli.main import build_parser

    text = files["cli.md"]
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in sub.choices:
        assert f"`vllm-kb {name}`" in text, name
    for a in sub.choices["audit"]._actions:
        for opt in (o for o in a.option_strings if o not in ("-h", "--help")):
            assert f"`{opt}`" in text, opt
    for fmt in ("sarif", "github", "json-lines"):
        assert f"`{fmt}`" in text
