"""VS Code debug configurations that start vLLM: `.vscode/launch.json` (or a copy elsewhere) with a
debugpy/python configuration whose `"module"` is one of vLLM's entry points (`vllm.entrypoints.openai.
api_server`, `vllm.entrypoints.cli.main`) or whose `"program"` is the `vllm` script or an entry module's
file. VS Code runs `python -m MODULE ARGS…` (or `python PROGRAM ARGS…`) with the configuration's `env`
over its own, so the launch is the argv a shell would give; the `args` array is where fixes go, each
item edited at its own bytes (engine/fix/deploy_edits.py, the JSON spans a Dockerfile's exec form
uses). The file is JSONC: comments and trailing commas are blanked before it is parsed, offsets kept.
`${workspaceFolder}`, `${env:X}`, `${input:x}` and the like are filled by VS Code when it runs: unknown
here, never guessed. A string `args` (`"${command:pickArgs}"`, a whole command line) has no item
positions: read, not edited.

Real shape: dongteng/vllm_learn_fss (https://github.com/dongteng/vllm_learn_fss), .vscode/launch.json and
code/course2/launch.json: `"module": "vllm.entrypoints.openai.api_server"` with `--tensor-parallel-size`
and `--enforce-eager` in `args`, a trailing comma in the array."""
from __future__ import annotations

import json
import re
import shlex

from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.common import launch_site, yaml_word
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Setting, Site

# the modules that parse vLLM's serve arguments when run with -m (cli.main takes `serve` first)
_MODULES = ("vllm.entrypoints.openai.api_server", "vllm.entrypoints.api_server", "vllm.entrypoints.cli.main")
_VARIABLE = re.compile(r"\$\{[^}]*\}")  # a VS Code variable: filled when the configuration runs


def is_launch_json(rel: str) -> bool:
    return rel.rpartition("/")[2] == "launch.json"


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site] | None:
    """The sites of a VS Code launch.json; None when the file is not one (another tool's launch.json is
    read by the JSON pass as before)."""
    clean = jsonc_clean(text)
    try:
        data, spans = parse_with_spans(clean)
    except ValueError:
        return None
    configs = data.get("configurations") if isinstance(data, dict) else None
    if not isinstance(configs, list):
        return None
    out: list[Site] = []
    for i, cfg in enumerate(configs):
        if isinstance(cfg, dict) and (head := _head(cfg)) is not None:
            site = _site(ctx, rel, text, cfg, ("configurations", i), head, spans)
            if site is not None:
                out.append(site)
    return out


def _head(cfg: dict) -> list[str] | None:
    """The argv before `args`: `python -m MODULE` or the `vllm` script; None for any other program."""
    if str(cfg.get("type", "")) not in ("debugpy", "python") or cfg.get("request", "launch") != "launch":
        return None
    module, program = cfg.get("module"), cfg.get("program")
    if isinstance(module, str) and module.strip() in _MODULES:
        return ["python", "-m", module.strip()]
    if isinstance(program, str):
        path = program.replace("\\", "/")
        name = path.rpartition("/")[2]
        if name in ("vllm", "vllm.exe"):
            return ["vllm"]
        for m in _MODULES:  # the entry module's own file (`${workspaceFolder}/vllm/entrypoints/openai/api_server.py`)
            if path.endswith("/" + m.replace(".", "/") + ".py"):
                return ["python", "-m", m]
    return None


def _site(ctx: ScanContext, rel: str, text: str, cfg: dict, path: tuple, head: list[str], spans: dict) -> Site | None:
    ex = Expander()
    start = spans.get(path, (0, 0))[0]
    line = _line(text, spans.get(path + ("module",), spans.get(path + ("program",), (start, 0)))[0])
    words = [yaml_word(t, line, ex) for t in head]
    argv_pos: list = [None] * len(words)
    args, append = cfg.get("args"), None
    if isinstance(args, list) and all(isinstance(a, (str, int, float)) for a in args):
        for j, a in enumerate(args):
            a_span = spans.get(path + ("args", j))
            words.append(_word(str(a), _line(text, a_span[0]) if a_span else line, ex))
            # only a string item is rewritten in place: a number's bytes are no JSON string
            argv_pos.append({"json": list(a_span)} if a_span and isinstance(a, str) else None)
        where = spans.get(path + ("args",))
        if where is not None:
            last = spans.get(path + ("args", len(args) - 1))
            append = {"json_after": last[1], "empty": False} if args and last else {"json_after": where[0] + 1, "empty": True}
    elif isinstance(args, str):
        try:
            parts = shlex.split(args)
        except ValueError:
            parts = [args]
        a_line = _line(text, spans.get(path + ("args",), (start, 0))[0])
        words += [_word(p, a_line, ex) for p in parts]
        argv_pos += [None] * len(parts)
    elif args is not None:
        return None
    env = _env(rel, text, cfg, path, spans)
    end = max(w.line for w in words)
    extra = {"argv_pos": argv_pos, "argv_append": append if all(p is not None for p in argv_pos[len(head):]) else None}
    site = launch_site(ctx, rel, words, line, end, "vscode-launch", "json", env, None, extra)
    if site is not None:
        site.mode_evidence = f"{rel}:{line} (a VS Code debug configuration)"
    return site


def _word(text: str, line: int, ex: Expander):
    w = yaml_word(text, line, ex)
    if _VARIABLE.search(text):  # VS Code fills it when it runs: the value is not known here
        w.value, w.unresolved = None, text
    return w


def _env(rel: str, text: str, cfg: dict, path: tuple, spans: dict) -> dict[str, Setting]:
    env = cfg.get("env")
    out: dict[str, Setting] = {}
    if not isinstance(env, dict):
        return out
    for k, v in env.items():
        at = spans.get(path + ("env", k))
        ln = _line(text, at[0]) if at else 1
        if isinstance(v, (str, int, float, bool)) and not _VARIABLE.search(str(v)):
            value = "true" if v is True else "false" if v is False else str(v)
            out[str(k)] = Setting(str(k), value, True, rel, ln, str(k), value, "vscode-launch")
        else:
            out[str(k)] = Setting(str(k), None, False, rel, ln, str(k), str(v), "vscode-launch")
    return out


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# --- JSONC ------------------------------------------------------------------------------------

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|,(?=(?:\s|//[^\n]*|/\*.*?\*/)*[\]}])', re.S)


def jsonc_clean(text: str) -> str:
    """The text with comments and trailing commas turned into spaces (line breaks kept): JSON at the
    same offsets."""
    def blank(m: re.Match) -> str:
        s = m.group(0)
        return s if s.startswith('"') else re.sub(r"[^\n]", " ", s)
    return _TOKEN.sub(blank, text)


_WS = re.compile(r"\s*")
_DECODER = json.JSONDecoder()


def parse_with_spans(text: str) -> tuple[object, dict]:
    """json.loads(text), and the (start, end) offsets of every value by its path."""
    spans: dict[tuple, tuple[int, int]] = {}

    def value(i: int, path: tuple) -> tuple[object, int]:
        i = _WS.match(text, i).end()  # type: ignore[union-attr]
        c = text[i:i + 1]
        if c == "{":
            out: dict = {}
            j = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
            if text[j:j + 1] == "}":
                spans[path] = (i, j + 1)
                return out, j + 1
            while True:
                key, j = _DECODER.raw_decode(text, _WS.match(text, j).end())  # type: ignore[union-attr]
                if not isinstance(key, str):
                    raise ValueError("a key that is not a string")
                j = _WS.match(text, j).end()  # type: ignore[union-attr]
                if text[j:j + 1] != ":":
                    raise ValueError("':' expected")
                out[key], j = value(j + 1, path + (key,))
                j = _WS.match(text, j).end()  # type: ignore[union-attr]
                if text[j:j + 1] == ",":
                    j += 1
                    continue
                if text[j:j + 1] != "}":
                    raise ValueError("'}' expected")
                spans[path] = (i, j + 1)
                return out, j + 1
        if c == "[":
            items: list = []
            j = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
            if text[j:j + 1] == "]":
                spans[path] = (i, j + 1)
                return items, j + 1
            while True:
                item, j = value(j, path + (len(items),))
                items.append(item)
                j = _WS.match(text, j).end()  # type: ignore[union-attr]
                if text[j:j + 1] == ",":
                    j += 1
                    continue
                if text[j:j + 1] != "]":
                    raise ValueError("']' expected")
                spans[path] = (i, j + 1)
                return items, j + 1
        got, j = _DECODER.raw_decode(text, i)
        spans[path] = (i, j)
        return got, j

    try:
        data, end = value(0, ())
    except (json.JSONDecodeError, IndexError, RecursionError) as e:
        raise ValueError(str(e)) from e
    if text[end:].strip():
        raise ValueError("text after the JSON")
    return data, spans
