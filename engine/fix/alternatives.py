"""Another way out of a failure, beside the change its rule makes: a rule's `set` or `unset` marked
`alternative: true` (L15: a lower max_model_len, or a higher gpu_memory_utilization where no
trainer shares the GPU; L7: --quantization left out where it quantizes 16-bit weights online). It is said in the site's own keys, as a change marked "alternative" that
`--fix` never writes: two levers of one failure written together would change more than either
needs. A report (and tests/realcases_score.py) reads it as a proposed change like any other."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


def alternatives(items: list, changes: dict, make: Callable[[Any, Any], Any], env_names: Any = None) -> list:
    """The alternatives of `items` (Fixables), made by `make(op, value)`; none for a setting that
    another change (`changes`, keyed ("arg", target)) already sets. At an application server's env
    file (`env_names`: argument → the variable it reads, engine/scan/deploy/app_env.py) a number its
    line already sets is said as that variable (TENSOR_PARALLEL_SIZE=2): the change there is held
    (told, not written), and an alternative is never written either."""
    out: list = []
    for item in items:
        for op, value in item.ops:
            if not op.alternative or op.kind == "pin" or ("arg", op.target) in changes or any(c.target == op.target for c in out):
                continue  # a pin's alternative is engine/fix/pins.py's
            ch = make(op, value)
            name = env_names.get(op.target) if isinstance(env_names, dict) else None
            if ch is not None and ch.blocked == "from_env" and ch.after is None and name and op.kind == "set" \
                    and isinstance(value, (int, float)) and not isinstance(value, bool):
                ch.after, ch.blocked = f"{name}={value}", None
            # a removal (unset) has no text after it: the setting it removes is what it names
            if ch is not None and (ch.after is not None or (op.kind == "unset" and ch.before is not None)) and not ch.blocked:
                ch.checks, ch.priority, ch.blocked = [item.id], item.priority, "alternative"
                out.append(ch)
    return out
