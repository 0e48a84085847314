"""A JSON-valued engine argument (eplb_config, ec_transfer_config, hf_overrides,
limit_mm_per_prompt) as the checks read it. A command line's value reaches them parsed (the scan
reads the JSON); a Python call's or a config file's string value reaches them as written."""
from __future__ import annotations

import json
from typing import Any

UNREADABLE = object()  # a string that is not JSON: each caller says what that means for its verdict


def json_arg(value: Any) -> Any:
    """`value` parsed when it is a string, else as given; UNREADABLE for a string that is not JSON."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return UNREADABLE
