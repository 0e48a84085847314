"""Which of the project's Python files name a function: the first files, in the project's order,
whose text holds a name (`name in text`, exactly), for python_callers' bound on the modules it
follows.

A plain search read every file's text again for each name looked for (214 names on vLLM's own
tree, 80 MB of Python each time, a fifth of the audit), and most names are in no other file.
The files are now taken in blocks, and each block keeps the distinct words of its files (the text
cut at ASCII whitespace and punctuation, which no identifier holds): a name that is in no word of
a block is in none of its files, so only the blocks whose words hold it are searched file by file.
The answer is the one the plain search gives, and the files are read in the same order and at the
same moments (a file is read when a search first needs it, so the skip records of unreadable files
come in the same order)."""
from __future__ import annotations

import string

BLOCK = 64  # files per block (128: no faster on vLLM's tree); the words of a block are about 9 % of its text
_PUNCT = string.punctuation.replace("_", "").encode()  # `_` is in identifiers
_CUT = bytes.maketrans(_PUNCT, b" " * len(_PUNCT))


class _Blocks:
    """(file, text) of the project's Python files that import something, read as far as a search
    has needed, and the words of each whole block of them."""

    def __init__(self, files: list[str]):
        self.files = files
        self.pos = 0  # the next file of `files` to read
        self.pairs: list[tuple[str, str]] = []
        self.words: list[bytes] = []  # the words of pairs[i * BLOCK:(i + 1) * BLOCK], one per line

    def _index_full_blocks(self) -> None:
        while (len(self.words) + 1) * BLOCK <= len(self.pairs):
            start = len(self.words) * BLOCK
            found: set[bytes] = set()
            for _, text in self.pairs[start:start + BLOCK]:  # file by file: no copy of the whole block's text
                found.update(text.encode("utf-8", "surrogatepass").translate(_CUT).split())
            self.words.append(b"\n".join(found))


def _blocks(ctx) -> _Blocks:
    held = ctx.__dict__.get("_py_name_blocks")
    if held is None or held.files is not ctx.files:
        held = ctx.__dict__["_py_name_blocks"] = _Blocks(ctx.files)
    return held


def files_naming(ctx, name: str, skip: str, limit: int) -> list[str]:
    """The first `limit` Python files of the project other than `skip` that import something and
    whose text holds `name`, in the project's order (fewer when fewer do)."""
    b = _blocks(ctx)
    out: list[str] = []
    key = name.encode("utf-8", "surrogatepass")
    # the words cut at punctuation and whitespace: a name holding either is searched in every file
    exact = name.isidentifier()
    for i, words in enumerate(b.words):
        if exact and key not in words:
            continue
        for rel, text in b.pairs[i * BLOCK:(i + 1) * BLOCK]:
            if rel != skip and name in text:
                out.append(rel)
                if len(out) >= limit:
                    return out
    for rel, text in b.pairs[len(b.words) * BLOCK:]:
        if rel != skip and name in text:
            out.append(rel)
            if len(out) >= limit:
                return out
    while b.pos < len(b.files):
        rel = b.files[b.pos]
        b.pos += 1
        if not rel.endswith(".py"):
            continue
        text = ctx.read(rel)
        if not (text and "import" in text):
            continue
        b.pairs.append((rel, text))
        b._index_full_blocks()
        if rel != skip and name in text:
            out.append(rel)
            if len(out) >= limit:
                return out
    return out
