"""`--enable-chunked-prefill true` where the flag is a switch: argparse's store_true, or the
BooleanOptionalAction vLLM gives every bool field from 0.8.5 on (0.8.5 vllm/engine/arg_utils.py:150-152),
takes no value, so the word after it is one more positional and argparse stops ("unrecognized
arguments: true"). 0.5.3-0.8.4 declared the flag StoreBoolean with nargs='?' (0.8.4 arg_utils.py:783-790)
and took the word. The words name that cause and what to write instead, for any such flag the catalog
records a kind history for (knowledge/vllm/catalog.json › cli_flags › kind)."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.versions import parse

_BOOL_WORD = re.compile(r"(?i)(true|yes|on)|(false|no|off)")


def words(cat, version: str, prev, word: str | None) -> dict[str, str] | None:
    """The finding's words for `word` after the option `prev` (an argv item), where that option is a switch in
    `version` and the word a boolean's spelling; None otherwise (the plain stray-positional words stand)."""
    m = _BOOL_WORD.fullmatch(word or "")
    flag = prev.text if m and prev is not None and prev.text and prev.text.startswith("--") and "=" not in prev.text else None
    e = cat.flag(flag) if flag else None
    kind = e.field("kind", version) if e is not None and e.exists(version) else None
    if m is None or flag is None or e is None or kind not in ("switch", "negatable"):
        return None
    raw = e._raw.get("kind")
    changes = [c for c in (raw.get("changes") or []) if parse(c[0]) <= cat.index_version(version)] if isinstance(raw, dict) else []
    kb = load()
    out = {}
    for lang in ("en", "zh"):
        history = ""
        took = [i for i, c in enumerate(changes) if c[1] == "value"]
        if took and took[-1] + 1 < len(changes):
            since = changes[took[-1] + 1][0]
            last = [v for v in cat.versions if v < parse(since)]
            history = kb.t("finding.switch_value_history", lang, since=since, first=changes[took[-1]][0],
                           last=str(last[-1]) if last else since)
        if m.group(1):
            fix = kb.t("finding.switch_value_alone", lang, flag=flag, word=word)
        elif kind == "negatable":
            fix = kb.t("finding.switch_value_negate", lang, flag=flag, negated="--no-" + flag[2:])
        else:
            fix = kb.t("finding.switch_value_drop", lang, flag=flag)
        out[lang] = kb.t("finding.switch_value", lang, flag=flag, word=word, version=version, history=history, fix=fix)
    return out
