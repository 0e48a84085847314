"""One way to lower a verdict and say why. A P0 means vLLM refuses to start; where the audit cannot
be sure of that (an unpinned or untagged install, a wrapper it cannot see through, a vendored copy's
tests, a cause another check owns) the verdict is lowered and the reason is appended to its words,
the same for a check's Result and a site's Finding."""
from __future__ import annotations

from vllm_kb.engine.kb.knowledge import Knowledge, Text


def note(kb: Knowledge, key: str, /, **kw) -> Text:
    """A UI string (knowledge/i18n.yaml) in both languages, as the words to append."""
    return Text(en=kb.t(key, "en", **kw), zh=kb.t(key, "zh", **kw))


def lower(item, to: str, why: Text | None = None, *, unsafe: bool = True) -> None:
    """`item` (a check's Result or a site's Finding) at priority `to` unless it is already less urgent
    ("P0" < "P1" < "P2"; one without a priority takes `to`), with `why` appended to its words (a
    Result's reason, a Finding's message); `unsafe`: --fix then writes its change only with
    --unsafe-fixes, as a change that holds in only some of the releases the project runs."""
    if item.priority is None or item.priority < to:
        item.priority = to
    if unsafe:
        item.safe = False
    if why is None:
        return
    if isinstance(getattr(item, "reason", None), Text):
        item.reason = Text(en=item.reason.en + why.en, zh=item.reason.zh + why.zh)
    else:
        item.message = {"en": item.message["en"] + why.en, "zh": item.message["zh"] + why.zh}
