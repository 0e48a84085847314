"""A JSON-valued option whose text, as the command line hands it to vLLM, is not JSON: the shell
removed the double quotes of an unquoted `{"method":"ngram"}` (leaving `{method:ngram}`), a brace
or quote is missing or extra, or the value carries literal quote characters around the braces
(`'{…}'` built with printf or written inside a YAML string). argparse stops before anything
starts: every parse path vLLM has used for such an option refuses it — `json.loads` through
parse_type/optional_type ("Value … cannot be converted to <function loads …>", 0.8.5+ arg_utils
`parse_type`; "invalid loads value" before), a pydantic config's `validate_json`
("Invalid JSON", 0.11+ `parse_dataclass`), CompilationConfig.from_cli's `ast.literal_eval`
(0.6.5–0.8.5.post1: a SyntaxError) and the `KEY=VALUE` list parser of 0.5.5–0.8.x
(`nullable_kvs`: "Each item should be in the form KEY=VALUE").

Which parser reads the text depends on the release: CompilationConfig.from_cli read --compilation-config
with `ast.literal_eval` from 0.6.5 to 0.8.5.post1 (0.8.5 vllm/config.py:3534), so a Python dict
(`{'level': 3}`) starts there and JSON's `true`/`null` stop it ("invalid from_cli value"); from 0.9.0
(`cls(**json.loads(…))`, then `TypeAdapter.validate_json`, then the dataclass parser) and for every
other dict option in every release the text is JSON only, so a Python dict stops argparse.
Bare human-readable numbers (`{"cpu_bytes_to_use": 80m}`) are expanded first, as vLLM 0.20+ does
for its config classes (arg_utils `_expand_json_human_readable_numbers`)."""
from __future__ import annotations

import ast
import json

from vllm_kb.engine.check.memory.runtime import expand_json_human
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.knowledge import FixOp
from vllm_kb.engine.kb.versions import parse, try_parse
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan.cli_args import coerce
from vllm_kb.engine.scan.shell_lexer import outer_unquoted
from vllm_kb.engine.scan.site import Finding, Site

CODE = "option-not-json"
CODES = {CODE: "P0"}

# Options whose text vLLM parses only as JSON (or a config class's JSON) in every release that has
# them, so literal quote characters around the braces can never parse: the config classes
# (engine/check/config_keys.py) and --speculative-config (optional_type(json.loads), 0.8.3+).
# Options typed dict|str (--hf-overrides: union_dict_and_str) keep a non-brace text as a string.
_JSON_ONLY = frozenset({"compilation_config", "speculative_config", "kv_transfer_config", "kv_events_config",
                        "structured_outputs_config", "attention_config", "eplb_config", "ec_transfer_config",
                        "profiler_config", "kernel_config", "pooler_config", "override_pooler_config"})
# The CORS lists: argparse parses each with type=json.loads in every release that has them (0.1.0
# vllm/entrypoints/openai/api_server.py:285 .. 0.9.2 openai/cli_args.py:103; from 0.10.0
# FrontendArgs._customize_cli_kwargs sets json.loads and drops nargs: 0.19.0 openai/cli_args.py:292,
# 0.34.0 common/cli_args.py:400). A bare `*` or `a,b` is no JSON: "argument --allowed-origins: invalid
# loads value: '*'" and argparse exits (eval86 MharoonZ/gemma4-modal-vllm-inference on 0.19.0).
_JSON_LISTS = frozenset({"allowed_origins", "allowed_methods", "allowed_headers"})


# CompilationConfig.from_cli's ast.literal_eval: 0.6.5 config.py:2708 .. 0.8.5.post1 config.py:3534;
# 0.9.0 config.py from_cli is `cls(**json.loads(cli_value))`
_LITERAL_EVAL = {"compilation_config": (parse("0.6.5"), parse("0.9.0"))}


def _literal_eval_release(name: str, version: str) -> bool:
    span = _LITERAL_EVAL.get(name)
    v = try_parse(version)
    return span is not None and v is not None and span[0] <= v < span[1]


def _as_json(text: str):
    try:
        return json.loads(expand_json_human(text))
    except (ValueError, RecursionError):
        return None


def _as_literal(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _parses(text: str, name: str, version: str) -> bool:
    """Whether the parser the release uses for this dict option takes the text (a quoted string parses
    too, but no dict option takes one)."""
    read = _as_literal if _literal_eval_release(name, version) else _as_json
    return isinstance(read(text), dict)


def _judged(text: str, name: str) -> bool:
    t = text.strip()
    if t.startswith("{") and t.endswith("}"):
        return True
    # literal quotes around the braces: only where no parser keeps a non-brace text
    return name in _JSON_ONLY and _quoted_braces(t)


def _quoted_braces(t: str) -> bool:
    """`'{…}'` or `"{…}"` with the quote characters part of the value."""
    t = t.strip()
    return len(t) > 4 and t[0] == t[-1] and t[0] in "'\"" and t[1] == "{" and t[-2] == "}"


def findings(site: Site, cat: Catalog, version: str, handled: set[str]) -> list[Finding]:
    """One P0 per JSON-valued option of a command line whose text no parser of vLLM takes."""
    out = []
    for s in site.settings.values():
        if s.name in _JSON_LISTS:
            out += _list_finding(s, cat, version, handled)
            continue
        if not s.resolved or not s.known or s.name in handled or not s.key.startswith("-"):
            continue
        if isinstance(s.value, dict):
            out += _json_on_literal_eval(s, version)
            continue
        if not isinstance(s.value, str):
            continue
        entry = cat.arg(s.name)
        if entry is None or not entry.exists(version) or entry.field("type", version) != "dict":
            continue
        text = s.value
        if "$" in text or "{{" in text or not _judged(text, s.name) or _parses(text, s.name, version):
            continue
        fix = []
        written = _parsed_json(s.raw)
        flag = s.key.split("=", 1)[0]
        literal = _as_literal(text)
        if isinstance(literal, dict) and not _quoted_braces(text):
            # a Python dict on a JSON-only parser: the fix writes the same dict as JSON
            fix = [(FixOp("set", s.name), literal)] if _json_safe(literal) else []
            text_msg = msg("finding.option_not_json_python", flag=flag, value=_short(text), version=version)
        elif _quoted_braces(text):
            # the quotes reach vLLM: a variable expanded unquoted (`vllm serve $ARGS`), a list item or a
            # YAML string keeps them, so "the shell removed them" and a re-quoted value would be wrong
            text_msg = msg("finding.option_not_json_literal", flag=flag, value=_short(text))
        elif written is not None:  # the text as written is JSON: only its quoting was lost
            fix = [(FixOp("set", s.name), written)]
            text_msg = msg("finding.option_not_json_quotes", flag=flag, value=_short(text))
        else:
            text_msg = msg("finding.option_not_json", flag=flag, value=_short(text))
        out.append(Finding(CODE, text_msg, s.file, s.line, "P0", fix=fix, safe=bool(fix), subject=s.name))
    return out


def _json_on_literal_eval(s, version: str) -> list[Finding]:
    """JSON with true/false/null (the scan already read it into a dict) on a release whose from_cli reads
    the text with ast.literal_eval: argparse stops. No JSON fix helps there, so none is offered."""
    if not _literal_eval_release(s.name, version):
        return []
    text = _written_text(s)
    if text is None or _as_json(text) != s.value or isinstance(_as_literal(text), dict):
        return []
    flag = s.key.split("=", 1)[0]
    return [Finding(CODE, msg("finding.option_not_python_literal", flag=flag, value=_short(text), version=version),
                    s.file, s.line, "P0", subject=s.name)]


def _list_finding(s, cat: Catalog, version: str, handled: set[str]) -> list[Finding]:
    """--allowed-origins * : the text is no JSON at all; the fix writes the list it meant as JSON."""
    if not s.resolved or not s.known or s.name in handled or not s.key.startswith("-") or not isinstance(s.value, list):
        return []
    entry = cat.arg(s.name)
    text = _list_text(s)
    if entry is None or not entry.exists(version) or text is None or "$" in text or "{{" in text:
        return []
    try:
        json.loads(text)
        return []
    except ValueError:
        pass
    flag = s.key.split("=", 1)[0]
    value = json.dumps(s.value)
    return [Finding(CODE, msg("finding.option_not_json_list", flag=flag, value=_short(text), json=value), s.file, s.line,
                    "P0", fix=[(FixOp("set", s.name), list(s.value))], safe=True, subject=s.name)]


def _list_text(s) -> str | None:
    """The text a CORS list reaches vLLM as; None unless that text reads as the setting's value (a
    variable's name, an f-string or an expression is not the text)."""
    text = _written_text(s)
    return text if text and coerce(text, "list") == s.value else None


def _written_text(s) -> str | None:
    """The value as written (a Python string, a shell or YAML word without its own quoting)."""
    raw = (s.raw or "").strip()
    if s.syntax == "python-argv":
        try:
            text = ast.literal_eval(raw)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    else:
        text = outer_unquoted(raw)
    return text if isinstance(text, str) else None


def _parsed_json(raw: str) -> dict | None:
    """The value as written in the file, when it is a JSON object once the file's own outer
    quoting is taken off (the shell, not the author, lost its inner quotes)."""
    try:
        value = json.loads(outer_unquoted((raw or "").strip()))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _json_safe(value) -> bool:
    try:
        json.dumps(value, allow_nan=False)
        return True
    except (TypeError, ValueError):
        return False


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "…"
