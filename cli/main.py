"""`vllm-kb`: the command line. One error boundary maps every failure to a documented exit
code (0 clean, 1 findings at or above --fail-on — for `detect`: vLLM not used —, 2 usage/knowledge
error, 3 internal error)."""
from __future__ import annotations

import argparse
import sys
import traceback

from vllm_kb.engine.kb import regex_cache

regex_cache.install()  # before the modules below compile their patterns

from vllm_kb.engine.kb.errors import EXIT_INTERNAL, EXIT_USAGE, KnowledgeError, UsageError, VllmKbError

from vllm_kb.cli import audit_cmd, commands, detect_cmd, diagnose_cmd, estimate, gpu_cmd, hook_cmd, mcp_cmd, skill_cmd, upgrade_cmd


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 itself; keep our wording and code
        self.print_usage(sys.stderr)
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="vllm-kb", description="Audit a project's vLLM deployments and RL rollouts against a versioned knowledge base.")
    p.add_argument("--version", action="store_true", help="print versions and exit")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    a = sub.add_parser("audit", help="audit a project (the main job)",
                       description="Audit a project's vLLM launch sites against the knowledge base; configuration in "
                                   "[tool.vllm-kb] (pyproject.toml) or .vllm-kb.toml, flags win.")
    audit_cmd.add_arguments(a)
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
    diagnose_cmd.add_parser(sub)
    upgrade_cmd.add_parser(sub)
    gpu_cmd.add_parser(sub)
    hook_cmd.add_parser(sub)
    mcp_cmd.add_parser(sub)
    skill_cmd.add_parser(sub)
    return p


def _one_shot_gc() -> None:
    """A command that runs once and exits needs no cycle collector: what it builds lives until
    the end, and its collections scanned the loaded knowledge and the parsed files again and
    again (12 % of the CPU of an audit of vLLM's own tree, 15 % of a cold 20-file audit; the peak
    memory of the 10,000-file benchmark tree is the same without it). The MCP server, which
    stays, keeps it."""
    import gc

    gc.disable()


def _exit_now(rc: int) -> None:
    """End a one-shot command at once: the exit handlers run (the CEL cache is written back,
    logging flushed) and the output is flushed, then the process ends without freeing, object
    by object, the knowledge and the parsed project it holds (with the cycle collector off,
    a tenth of a second on a small project and more on a large one). Where another thread still
    runs, the interpreter's own shutdown joins it instead."""
    import atexit
    import os
    import threading

    if threading.active_count() > 1:
        return
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: what the interpreter's own flush would report
            return
    os._exit(rc)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if argv is None and args[:1] != ["mcp"]:  # the console script, not a caller in a process that stays
        _one_shot_gc()
        rc = _main(argv, args)
        _exit_now(rc if isinstance(rc, int) else 0 if rc is None else 1)
        return rc
    return _main(argv, args)


def _main(argv: list[str] | None, args: list[str]) -> int:
    if args[:1] == ["hook"]:  # its own boundary: an agent's hook must exit 0 whatever happens
        return hook_cmd.main(args[1:])
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
        from vllm_kb.engine.kb.safe_text import escape

        for p in e.problems:
            print(f"  {escape(str(p))}", file=sys.stderr)
        return e.exit_code
    except VllmKbError as e:
        from vllm_kb.engine.kb.redact import redact_text
        from vllm_kb.engine.kb.safe_text import escape

        print(f"vllm-kb: error: {escape(redact_text(str(e)))}", file=sys.stderr)
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
