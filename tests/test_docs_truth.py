"""Docs that cannot go stale. Every command shown in the README and docs/ runs here, in a copy of
the bundled example (a block that cannot — it needs a network, a GPU, another program, or runs
until stopped — says so with `<!-- doc-test: skip REASON … -->` above it); every `vllm-kb`
flag written anywhere in the docs exists; every count of the knowledge is generated
(tools/doc_counts.py); the MCP tools docs/agents.md lists are the server's; the repository URL,
the release tag and the action versions are the ones the package states."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import doc_counts  # noqa: E402
from vllm_kb.engine.kb import about  # noqa: E402

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
HAND_WRITTEN = doc_counts.pages()
SHELLS = ("bash", "sh", "shell", "console")
# why a shown command may not run here; the reason's first word
SKIP_REASONS = {"network": "needs the network", "gpu": "needs a GPU", "tool": "needs another program",
                "server": "runs until stopped", "example": "a file's content, not commands", "ci": "run by .ci/run",
                "benchmark": "takes minutes on purpose"}
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```", re.S | re.M)
MARK = re.compile(r"<!-- doc-test: skip (?P<reason>\w+)[^>]*-->\s*$")


@dataclass
class Block:
    page: Path
    line: int
    lang: str
    body: str
    skip: str | None

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = MARK.search(before)
        skip = mark["reason"] if mark else ("ci" if before.strip() in ("<!-- ci:setup -->", "<!-- ci:test -->") else None)
        out.append(Block(page, text[: m.start()].count("\n") + 1, m["lang"], m["body"], skip))
    return out


def commands(body: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, comments and blank lines dropped."""
    out = []
    for line in body.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if words:
            out.append(shlex.join(words))
    return out


SHELL_BLOCKS = [b for p in PAGES for b in blocks(p) if b.lang in SHELLS]
# what runs (or says why it cannot) one by one; an example of a file's content is not a command
SHOWN = [b for b in SHELL_BLOCKS if b.skip != "example"]


def test_every_skip_names_a_known_reason():
    for b in SHELL_BLOCKS:
        if b.skip is not None:
            assert b.skip in SKIP_REASONS, f"{b.id}: doc-test skip reason {b.skip!r} (known: {', '.join(SKIP_REASONS)})"


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A copy of the bundled example as a project of its own, and a home folder of its own."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "examples/quickstart", project)
    (project / ".git").mkdir()
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.chdir(project)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("VLLM_KB_DOCS_URL", raising=False)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return project, env


def _run(cmd: str, project: Path, env: dict, capsys) -> tuple[int, str]:
    """A plain `vllm-kb …` runs in this process (fast); anything with shell syntax under bash."""
    if cmd.startswith("vllm-kb ") and not re.search(r"[|&;<>$()`*]", cmd):
        from vllm_kb.cli.main import main

        code = main(shlex.split(cmd)[1:])
        return code, capsys.readouterr().err
    run = subprocess.run(["bash", "-c", cmd], cwd=project, env=env, capture_output=True, text=True, timeout=300)
    return run.returncode, run.stderr


@pytest.mark.parametrize("block", SHOWN, ids=[b.id for b in SHOWN])
def test_shown_commands_run(block, sandbox, capsys):
    if block.skip is not None:
        pytest.skip(f"{block.id}: {SKIP_REASONS.get(block.skip, block.skip)} (marked in the page)")
    project, env = sandbox
    cmds = commands(block.body)
    assert cmds, f"{block.id}: a shell block with no command"
    for cmd in cmds:
        assert cmd.split()[0] in ("vllm-kb", "python", "python3"), f"{block.id}: `{cmd}` runs another program: mark the block"
        code, err = _run(cmd, project, env, capsys)
        # 0 clean, 1 findings (the example has a P0 on purpose); 2 would be a flag or a file that is not there
        assert code in (0, 1), f"{block.id}: `{cmd}` exited {code}\n{err[-2000:]}"


# --- every vllm-kb flag the docs write exists -------------------------------------------------------

def _parsers():
    from vllm_kb.cli.main import build_parser

    def walk(p, name):
        yield name, p
        for a in p._actions:
            if a.dest == "command" or getattr(a, "choices", None) and isinstance(a.choices, dict):
                for sub, sp in (a.choices or {}).items():
                    yield from walk(sp, f"{name} {sub}")

    return dict(walk(build_parser(), "vllm-kb"))


def _doc_texts() -> list[tuple[str, str]]:
    files = PAGES + [ROOT / "action.yml", ROOT / ".pre-commit-hooks.yaml", ROOT / "CHANGELOG.md"]
    return [(str(f.relative_to(ROOT)), f.read_text(encoding="utf-8")) for f in files]


INVOCATION = re.compile(r"vllm-kb((?: [a-z][a-z-]*)*)((?: +(?:\[|\||-|[^\s`|\[\]]+)[^\s`]*)*)")


def test_every_vllm_kb_flag_in_the_docs_exists():
    parsers = _parsers()
    problems = []
    for name, text in _doc_texts():
        for line in text.splitlines():
            for m in re.finditer(r"(?<![\w/.-])vllm-kb (?=[a-z])", line):
                rest = line[m.start():].split("`")[0].split("#")[0]
                words = rest.replace("[", " ").replace("]", " ").replace("|", " ").split()
                cmd = "vllm-kb"
                i = 1
                while i < len(words) and f"{cmd} {words[i]}" in parsers:
                    cmd = f"{cmd} {words[i]}"
                    i += 1
                if cmd == "vllm-kb":
                    continue  # prose: "vllm-kb reads …"
                opts = {o for a in parsers[cmd]._actions for o in a.option_strings}
                choices = {o: a.choices for a in parsers[cmd]._actions for o in a.option_strings if a.choices}
                for j, w in enumerate(words[i:], i):
                    flag = w.split("=")[0].rstrip(",.;:)")
                    if re.fullmatch(r"--?[a-z][a-z0-9-]*", flag) and flag not in opts:
                        problems.append(f"{name}: `{cmd}` has no {flag}")
                    if flag in choices and j + 1 < len(words) and "=" not in w:
                        value = words[j + 1].strip("\"',.;:)")
                        if re.fullmatch(r"[\w.-]+", value) and value.isascii() and value not in choices[flag] \
                                and not value.isupper() and value not in ("SPEC", "V", "FILE", "N", "ID"):
                            problems.append(f"{name}: `{cmd} {flag}` has no value {value!r}")
    assert not problems, "\n".join(sorted(set(problems)))


# --- counts are generated --------------------------------------------------------------------------

UNMARKED = re.compile(r"\b\d[\d,]*\s+(?:versioned\s+)?(?:" + "|".join(re.escape(n) for n in doc_counts.NOUNS) + r")\b")


def test_no_count_is_typed_by_hand():
    files = [*HAND_WRITTEN, ROOT / ".claude-plugin/plugin.json", ROOT / "server.json", ROOT / "action.yml"]
    problems = []
    for f in files:
        if "<!-- doc-test: historical" in f.read_text(encoding="utf-8"):
            continue  # a record of past measurements, marked as such
        text = doc_counts.MARKED.sub("<n>", f.read_text(encoding="utf-8"))
        text = re.sub(r"```.*?```", "", text, flags=re.S)  # shown output and commands are not claims
        for m in UNMARKED.finditer(text):
            problems.append(f"{f.relative_to(ROOT)}: {m.group(0)!r} (write it as <!-- n:KEY -->N<!-- /n -->)")
    assert not problems, "\n".join(problems)


def test_marked_counts_follow_the_knowledge():
    from vllm_kb.engine.kb.knowledge import load

    kb = load()
    stale = "<!-- n:checks -->1<!-- /n --> checks in <!-- n:categories -->99<!-- /n --> categories"
    assert doc_counts.refresh(stale, kb) == (f"<!-- n:checks -->{len(kb.checks)}<!-- /n --> checks in "
                                             f"<!-- n:categories -->{len(kb.categories)}<!-- /n --> categories")
    with pytest.raises(KeyError, match="unknown count"):
        doc_counts.refresh("<!-- n:widgets -->3<!-- /n -->", kb)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert doc_counts.refresh(readme, kb) == readme, "run `python tools/gen_docs.py`"


# --- the MCP tools, the repository, the versions ------------------------------------------------------

def test_agents_page_lists_exactly_the_servers_tools():
    import asyncio

    from vllm_kb.mcp_server.server import build_server

    served = {t.name for t in asyncio.run(build_server().list_tools())}
    text = (ROOT / "docs/agents.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))
    assert listed == served, f"docs/agents.md lists {sorted(listed - served)} the server lacks; misses {sorted(served - listed)}"


def test_mcp_add_lines_start_the_server():
    from vllm_kb.cli.main import build_parser

    text = (ROOT / "docs/agents.md").read_text(encoding="utf-8")
    lines = re.findall(r"^(?:claude|codex) mcp add [^\n]*?-- ([^#\n]+)", text, re.M)
    assert len(lines) >= 4
    for server in lines:
        words = shlex.split(server)
        words = words[1:] if words[0] == "uvx" else words
        assert words[0] == "vllm-kb" and build_parser().parse_args(words[1:]).command == "mcp", server


def test_one_repository_one_version_everywhere():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    repo, version = about.REPOSITORY, about.__version__
    owner_repo = repo.removeprefix("https://github.com/")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" in project["dynamic"] and all(u.startswith(repo) for u in project["urls"].values())
    problems = []
    for name, text in _doc_texts() + [("server.json", (ROOT / "server.json").read_text()),
                                      (".claude-plugin/plugin.json", (ROOT / ".claude-plugin/plugin.json").read_text())]:
        for url in re.findall(r"https://github\.com/[\w.-]+/vllm-kb\b", text):
            if url != repo:
                problems.append(f"{name}: {url} (the repository is {repo})")
        for tag in re.findall(r"(?:rev: |" + re.escape(owner_repo) + r"@)(v[\d.]+\w*)", text):
            if tag != f"v{version}":
                problems.append(f"{name}: {tag} (this release is v{version})")
        for old in re.findall(r"upload-sarif@v[0-3]\b", text):
            problems.append(f"{name}: {old} (v4 is current)")
        if "<owner>" in text or "<this repository" in text:
            problems.append(f"{name}: a placeholder for the repository")
    assert not problems, "\n".join(problems)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    top = re.search(r"^## (.+)$", changelog, re.M).group(1)
    assert top == "Unreleased" or top.startswith(f"[{version}]"), f"CHANGELOG.md's newest section {top!r} is not v{version}"
