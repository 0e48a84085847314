"""The code cells of a Jupyter notebook (.ipynb, nbformat 4) with where each line is written: the
JSON is read with the json module's own decoder, value by value (JSONDecoder.raw_decode at each
scalar's offset), so every element of a cell's `source` comes with its offset in the file."""
from __future__ import annotations

import json
import re

_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\r\n]*")


def code_cells(text: str) -> list[list[tuple[int, str]]] | None:
    """Per code cell, (offset in the file, text) of each element of its `source`; None when the
    text is not a notebook."""
    try:
        (doc, where), _end = _read(text, _WS.match(text, 0).end())  # type: ignore[union-attr]
    except (ValueError, IndexError, RecursionError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("cells"), list):
        return None
    out = []
    for cell, at in zip(doc["cells"], where["cells"]):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src, pos = cell.get("source"), at.get("source")
        if isinstance(src, str):
            out.append([(pos, src)])
        elif isinstance(src, list) and all(isinstance(s, str) for s in src):
            out.append(list(zip(pos, src)))
    return out


def _read(text: str, i: int):
    """(value, where) of the JSON value at i: where is the string's offset, or the same shape of
    lists and dicts. Scalars are the json module's own decoding (raw_decode at their offset)."""
    c = text[i]
    if c == "{":
        obj: dict = {}
        where: dict = {}
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        if text[i] == "}":
            return (obj, where), i + 1
        while True:
            key, i = _DECODER.raw_decode(text, i)
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            if text[i] != ":":
                raise ValueError("':' expected")
            (val, at), i = _read(text, _WS.match(text, i + 1).end())  # type: ignore[union-attr]
            obj[key], where[key] = val, at
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            if text[i] == "}":
                return (obj, where), i + 1
            if text[i] != ",":
                raise ValueError("',' expected")
            i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
    if c == "[":
        arr: list = []
        where_l: list = []
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        if text[i] == "]":
            return (arr, where_l), i + 1
        while True:
            (val, at), i = _read(text, i)
            arr.append(val)
            where_l.append(at)
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            if text[i] == "]":
                return (arr, where_l), i + 1
            if text[i] != ",":
                raise ValueError("',' expected")
            i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
    val, end = _DECODER.raw_decode(text, i)
    return (val, i), end


def pip_lines(text: str) -> str:
    """The notebook's `%pip install …` / `!pip install …` code lines as Dockerfile RUN lines, each on
    its line of the notebook (every other line blank): the packages its cells run with. The lines a
    trailing backslash continues it on follow it as written (one package a line), so they join it."""
    cells = code_cells(text) or []
    lines = [""] * (text.count("\n") + 1)
    for cell in cells:
        cont = False
        for at, src in cell:
            body = src.strip()
            if "\n" in body:
                cont = False
                continue
            if cont:
                lines[text.count("\n", 0, at)] = body
            elif body[:1] in ("%", "!") and "install" in body:
                lines[text.count("\n", 0, at)] = "RUN " + body[1:]
            else:
                continue
            cont = body.endswith("\\")
    return "\n".join(lines)
