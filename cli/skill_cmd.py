"""`vllm-kb skill build|install`: the Agent Skill bundle rendered from knowledge/.

    vllm-kb skill build [--out DIR]                      refresh skill/vllm-optimization (in a checkout)
    vllm-kb skill install --target claude|codex|agents [--project|--user] [--out DIR]
    vllm-kb skill install --target zip [--out FILE]      a zip to upload (Manus, Claude.ai)

Registered by cli/main.py with `skill_cmd.add_parser(sub)`."""
from __future__ import annotations

import argparse
from pathlib import Path

from vllm_kb.engine.kb.errors import EXIT_CLEAN, UsageError


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("skill", help="build or install the agent skill (SKILL.md + references)")
    # the parser class cli/main.py uses, so errors keep its wording and exit code
    sub = p.add_subparsers(dest="skill_command", parser_class=type(p))

    b = sub.add_parser("build", help="render the skill bundle from the knowledge base")
    b.add_argument("--out", help="folder to write vllm-optimization/ into (default: the checkout's skill/)")
    b.set_defaults(func=run_build)

    i = sub.add_parser("install", help="copy the skill where an agent reads skills, or zip it")
    i.add_argument("--target", required=True, choices=("claude", "codex", "agents", "zip"),
                   help="claude: .claude/skills; codex, agents: .agents/skills; zip: a file to upload")
    scope = i.add_mutually_exclusive_group()
    scope.add_argument("--project", dest="scope", action="store_const", const="project",
                       help="under the current folder (default)")
    scope.add_argument("--user", dest="scope", action="store_const", const="user", help="under your home folder")
    i.add_argument("--out", help="skills folder to install into instead (zip: the file to write)")
    i.set_defaults(func=run_install, scope="project")

    p.set_defaults(func=_need_subcommand)
    return p


def _need_subcommand(ns) -> int:
    raise UsageError("skill: choose `build` or `install` (see vllm-kb skill --help)")


def run_build(ns) -> int:
    from vllm_kb.skill import build

    out = Path(ns.out) if ns.out else build.source_dir()
    if out is None:
        raise UsageError("no checkout to refresh here (the package is installed, not editable); pass --out DIR")
    files = build.render()
    target = build.write(out, files)
    print(f"wrote {target} ({len(files)} files)")
    return EXIT_CLEAN


def run_install(ns) -> int:
    from vllm_kb.skill import install

    where = install.install(ns.target, scope=ns.scope, out=Path(ns.out) if ns.out else None)
    print(f"installed the vllm-optimization skill: {where}")
    return EXIT_CLEAN
