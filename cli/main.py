"""`vllm-kb`: the command line. One error boundary maps every failure to a documented exit
code (0 clean, 1 findings at or above --fail-on — for `detect`: vLLM not used —, 2 usage/knowledge
error, 3 internal error)."""
from __future__ import annotations

import argparse
import sys
import traceback

from vllm_kb.engine.errors import EXIT_INTERNAL, EXIT_USAGE, KnowledgeError, UsageError, VllmKbError

from . import commands, detect_cmd, estimate, mcp_cmd, skill_cmd


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 itself; keep our wording and code
        self.print_usage(sys.stderr)
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="vllm-kb", description="Audit a project's vLLM deployments and RL rollouts against a versioned knowledge base.")
    p.add_argument("--version", action="store_true", help="print versions and exit")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    a = sub.add_parser("audit", help="audit a project (the main job)")
    a.add_argument("path", nargs="?", default=".", help="project folder or single file (default: .)")
    a.add_argument("--gpu", default="auto", help='"H100-80GB x8", "none", or auto (probe this machine with NVML; default)')
    a.add_argument("--vllm-version", help="evaluate as this vLLM release instead of the project's pin")
    a.add_argument("--lang", choices=("en", "zh"), default="en")
    a.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    a.add_argument("--output", "-o", help="write the report to this file instead of stdout")
    a.add_argument("--fail-on", choices=("P0", "P1", "P2", "never"), default="P0",
                   help="exit 1 when a recommendation or finding of this priority or higher exists (default P0)")
    a.add_argument("--exit-zero", action="store_true", help="always exit 0 after a report")
    a.set_defaults(func=commands.audit)

    c = sub.add_parser("checks", help="list or show the checks")
    csub = c.add_subparsers(dest="checks_command", parser_class=_Parser)
    cl = csub.add_parser("list", help="every check, by category")
    cl.add_argument("--lang", choices=("en", "zh"), default="en")
    cl.set_defaults(func=commands.checks_list)
    cs = csub.add_parser("show", help="one check by id or name (B3, kv-cache-fp8)")
    cs.add_argument("check")
    cs.add_argument("--lang", choices=("en", "zh"), default="en")
    cs.set_defaults(func=commands.checks_show)

    k = sub.add_parser("kb", help="knowledge-base tools")
    ksub = k.add_subparsers(dest="kb_command", parser_class=_Parser)
    kv = ksub.add_parser("validate", help="validate every knowledge file (schemas, CEL, names, versions)")
    kv.set_defaults(func=commands.kb_validate)

    detect_cmd.add_parser(sub)
    estimate.add_parser(sub)
    mcp_cmd.add_parser(sub)
    skill_cmd.add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        ns = parser.parse_args(argv)
        if ns.version:
            return commands.print_version()
        func = getattr(ns, "func", None)
        if func is None:
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        return func(ns)
    except KnowledgeError as e:
        print("vllm-kb: the knowledge base is invalid:", file=sys.stderr)
        for p in e.problems:
            print(f"  {p}", file=sys.stderr)
        return e.exit_code
    except VllmKbError as e:
        print(f"vllm-kb: error: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("vllm-kb: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception:
        print("vllm-kb: internal error — please report it with the traceback below.", file=sys.stderr)
        traceback.print_exc()
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
