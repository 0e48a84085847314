"""`vllm-kb skill build|install`: the Agent Skill bundle rendered from knowledge/.

    vllm-kb skill build [--out DIR]                      refresh skill/vllm-optimization (in a checkout)
    vllm-kb skill build --zip [--out DIR]                vllm-optimization.zip, the one archive to upload (Manus)
    vllm-kb skill install --target claude|codex|agents [--project|--user] [--out DIR]
    vllm-kb skill install --agent claude|codex --hooks [--yes]   also the hooks (.claude/settings.json, .codex/hooks.json)
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
    b.add_argument("--out", help="folder to write vllm-optimization/ into (default: the checkout's skill/; "
                                 "with --zip: the folder for the archive, default the current one)")
    b.add_argument("--zip", action="store_true", help="write the skill as one archive, vllm-optimization.zip, "
                                                      "with the skill folder at its top (what Manus takes as an upload)")
    b.set_defaults(func=run_build)

    i = sub.add_parser("install", help="copy the skill where an agent reads skills, or zip it")
    i.add_argument("--target", "--agent", dest="target", required=True, choices=("claude", "codex", "agents", "zip"),
                   help="claude: .claude/skills; codex, agents: .agents/skills; zip: a file to upload")
    scope = i.add_mutually_exclusive_group()
    scope.add_argument("--project", dest="scope", action="store_const", const="project",
                       help="under the current folder (default)")
    scope.add_argument("--user", dest="scope", action="store_const", const="user", help="under your home folder")
    i.add_argument("--out", help="skills folder to install into instead (zip: the file to write)")
    i.add_argument("--hooks", action="store_true",
                   help="also add vllm-kb's hooks to .claude/settings.json (claude) or .codex/hooks.json (codex), "
                        "after showing the change; other settings and hooks are kept")
    i.add_argument("--yes", "-y", action="store_true", help="write the hooks without asking")
    i.set_defaults(func=run_install, scope="project")

    p.set_defaults(func=_need_subcommand)
    return p


def _need_subcommand(ns) -> int:
    raise UsageError("skill: choose `build` or `install` (see vllm-kb skill --help)")


def run_build(ns) -> int:
    from vllm_kb.skill import build

    if getattr(ns, "zip", False):
        from vllm_kb.skill import install

        path = install.write_zip(Path(ns.out or ".") / f"{build.NAME}.zip", build.render())
        print(f"wrote {path}")
        return EXIT_CLEAN
    out = Path(ns.out) if ns.out else build.source_dir()
    if out is None:
        raise UsageError("no checkout to refresh here (the package is installed, not editable); pass --out DIR")
    files = build.render()
    target = build.write(out, files)
    print(f"wrote {target} ({len(files)} files)")
    return EXIT_CLEAN


def run_install(ns) -> int:
    from vllm_kb.skill import install

    hooks = getattr(ns, "hooks", False)
    if hooks:
        from vllm_kb.skill import hook_files

        hook_files.settings_path(ns.target, ns.scope, Path.cwd(), Path.home())  # --hooks with zip/agents: say so first
    where = install.install(ns.target, scope=ns.scope, out=Path(ns.out) if ns.out else None)
    print(f"installed the vllm-optimization skill: {where}")
    if hooks:
        return _install_hooks(ns)
    return EXIT_CLEAN


def _install_hooks(ns) -> int:
    """Show the change to the agent's settings, then write it on --yes or a "y" at the prompt;
    never silently, never without a terminal to ask on."""
    import sys

    from vllm_kb.skill import hook_files

    p = hook_files.plan(ns.target, ns.scope)
    if not p.changes:
        print(f"the vllm-kb hooks are already in {p.path}")
        return EXIT_CLEAN
    print(f"vllm-kb hooks for {ns.target}: this change to {p.path}")
    print(p.diff(), end="")
    if not ns.yes:
        if not sys.stdin.isatty():
            raise UsageError(f"{p.path} not written: confirm with --yes")
        answer = input(f"write {p.path}? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            print("not written")
            return EXIT_CLEAN
    hook_files.write(p)
    print(f"wrote {p.path}")
    return EXIT_CLEAN
