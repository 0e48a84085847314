"""Cheap reads of Python source text, for prefilters that decide whether a file is worth parsing:
the names its import statements bind, and the text between a call's parentheses. Each answer
over-approximates what `ast` would read, or says it cannot tell (None): a prefilter built on
them only ever lets a file through that the parse might need, never drops one. A text outside
ASCII is read through `as_python_reads` first (Python reads names NFKC-normalised)."""
from __future__ import annotations

import re
from functools import lru_cache

_FROM = re.compile(r"(?:^|[;:])[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+$")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_NAME = re.compile(r"[^\W\d]\w*")


def as_python_reads(text: str) -> str:
    """The text with each name written outside ASCII NFKC-normalised, as Python reads a name
    (`ＬＬＭ` is `LLM`, `cafe\u0301` is `café`); everything else as written, so that quotes,
    brackets and comments stay where they are (a compatibility character in a string, `＂`, is
    not a quote). A name's normal form is a name (Unicode's identifier classes are closed under
    NFKC): nothing but names changes."""
    if text.isascii():
        return text
    import unicodedata

    if unicodedata.is_normalized("NFKC", text):
        return text
    out: list[str] = []
    last = 0
    n = len(text)
    for m in _NON_ASCII.finditer(text):
        a, b = m.start(), m.end()
        if a < last:
            continue
        while a > last and (text[a - 1].isalnum() or text[a - 1] == "_"):
            a -= 1
        while b < n and (text[b].isalnum() or text[b] == "_" or not text[b].isascii()):
            b += 1
        run = text[a:b]
        out += (text[last:a], unicodedata.normalize("NFKC", run) if ("a" + run).isidentifier() else run)
        last = b
    out.append(text[last:])
    return "".join(out)


def word_with(text: str, word: str, tail: re.Pattern, after_dot: bool = False) -> bool:
    """Whether `word` stands in `text` as a name (no name character before it, nor a `.` unless
    `after_dot`) with `tail` matching right after it: the same answer as a search for
    `(?<![\\w.])word` + tail, found by str.find per occurrence (such a pattern, starting with a
    look-behind, is tried at every position of the text: seconds on vLLM's tree)."""
    i = text.find(word)
    while i >= 0:
        before = text[i - 1] if i else " "
        if not (before.isalnum() or before == "_" or before == "." and not after_dot) and tail.match(text, i + len(word)):
            return True
        i = text.find(word, i + 1)
    return False


_CLASS_TAIL = re.compile(r"[ \t]+(\w+)[ \t]*\(([^)]*)\)")


def class_heads(text: str) -> list[tuple[str, str]]:
    """(name, bases text) of every `class Name(…)` at a line's start: what
    `re.findall(r"^[ \\t]*class[ \\t]+(\\w+)[ \\t]*\\(([^)]*)\\)", text, re.M)` returns, found by str.find of
    `class` (the multi-line `^` is tried at every position of the text)."""
    out: list[tuple[str, str]] = []
    pos = 0  # where the last head found ends: the next one starts on a later line
    i = text.find("class")
    while i >= 0:
        start = text.rfind("\n", 0, i) + 1
        m = _CLASS_TAIL.match(text, i + 5) if start >= pos and not text[start:i].strip(" \t") else None
        if m is not None:
            out.append((m.group(1), m.group(2)))
            pos = m.end()
            i = text.find("class", pos)
        else:
            i = text.find("class", i + 1)
    return out


def imports(text: str) -> list[tuple[str, str]] | None:
    """(local name, module) for every name an import statement of the text may bind, read at
    each word `import`: `from M import a as b` → (a, M), (b, M); `import a.b` → (a, a), (b, a); a
    relative module keeps its dots; the module "" where the text before `import` is not the
    plain `from M ` of a statement's start (`from a . b import c`, a continuation, a docstring's
    prose). Every word of what follows `import` to the end of the statement comes out (the name
    bound is one of them), so a word of a comment or a string may too. None only when
    parentheses after `import` are not closed."""
    out: list[tuple[str, str]] = []
    for at in _import_words(text):
        start = text.rfind("\n", 0, at) + 1
        prefix = text[start:at]
        m = _FROM.search(prefix)
        k = start - 1 - (start > 1 and text[start - 2] == "\r")  # the previous line's end
        continued = k > 0 and text[k - 1] == "\\"
        if m is not None and not continued:
            module = m.group(1)
        elif not continued and (not prefix.strip() or prefix.rstrip()[-1] in ";:"):
            module = None  # `import a.b as c, d`: each item's own module
        else:
            module = ""
        names = _names_after(text, at + 6)
        if names is None:
            return None
        for item in names.split(","):
            words = _NAME.findall(item)
            if words:
                out.extend((word, words[0] if module is None else module) for word in words)
    return out


def _import_words(text: str):
    """Where `(?<![\\w.])import(?!\\w)` matches, by str.find (the look-behind pattern is tried at
    every position of the text)."""
    i = text.find("import")
    while i >= 0:
        before = text[i - 1] if i else " "
        after = text[i + 6] if i + 6 < len(text) else " "
        if not (before.isalnum() or before in "_.") and not (after.isalnum() or after == "_"):
            yield i
        i = text.find("import", i + 6)


def _names_after(text: str, i: int) -> str | None:
    """What follows `import` to the end of its statement, comments left out: a parenthesised
    list (None when it is not closed), or the rest of the line and the lines a `\\` joins to it,
    to a `;`."""
    j = i
    while j < len(text) and text[j] in " \t\f":
        j += 1
    paren = text.startswith("(", j)
    parts = []
    for code in _code_lines(text, j + paren):
        if paren:
            if ")" in code:
                parts.append(code.split(")", 1)[0])
                return ",".join(parts)
        elif ";" in code or not code.rstrip().endswith("\\"):
            parts.append(code.split(";", 1)[0])
            return ",".join(parts)
        parts.append(code.rstrip().removesuffix("\\"))
    return None if paren else ",".join(parts)


def _code_lines(text: str, i: int):
    """The lines from `i` on (ended as Python ends them: `\\n`, `\\r\\n`, `\\r`), each to its `#`."""
    while i <= len(text):
        e = _EOL.search(text, i)
        end = len(text) if e is None else e.start()
        line = text[i:end]
        yield line.split("#", 1)[0]
        if e is None:
            return
        i = e.end()


# what may follow a call's root name before its `(`: attributes (`.sub.f`), white space, a
# continuation, a comment that ends its line, the `)` of a parenthesised callee
_CALL_TAIL = re.compile(r"(?:[ \t\f\r\n)\\]|#[^\n\r]*(?![^\n\r])|\.(?:[ \t\f\r\n\\]|#[^\n\r]*(?![^\n\r]))*[^\W\d]\w*)*\(")
_STOPS = re.compile(r"[()\[\]{}#'\"]")
_EOL = re.compile(r"[\r\n]")
_PREFIX = frozenset("rRbBfFuUtT")


def call_spans(text: str, root: str):
    """(start, end) of the text between the parentheses of every call whose callee starts from
    the name `root` (`root(…)`, `root.a.b(…)`, `(root).a(…)`), end None where the text cannot be
    followed to the closing parenthesis (an f-string or t-string with a `{` inside, whose
    fields may hold quotes, or no closing parenthesis): the caller must then assume the worst.
    str.find per occurrence, then the tail at that place (a pattern that starts with a
    look-behind is tried at every position of the text)."""
    rx = _root_called(root)  # the name, then the tail (a look-ahead): a short name's every other
    m = rx.search(text)  # occurrence (`re` in `return`) is passed over in C, not one by one here
    while m is not None:
        i = m.start()
        before = text[i - 1] if i else " "
        if not (before.isalnum() or before in "_."):
            tail = _CALL_TAIL.match(text, i + len(root))
            yield tail.end(), _close(text, tail.end())  # type: ignore[union-attr]  # the look-ahead matched it
        m = rx.search(text, i + 1)


@lru_cache(maxsize=16384)  # a large tree imports thousands of names (vLLM's: compiling them again was 1 %)
def _root_called(root: str) -> re.Pattern:
    return re.compile(re.escape(root) + "(?=" + _CALL_TAIL.pattern + ")")


def _close(text: str, i: int) -> int | None:
    depth = 1
    n = len(text)
    while True:
        m = _STOPS.search(text, i)
        if m is None:
            return None
        c = m.group()
        i = m.end()
        if c == "#":  # to the end of its line (`\r` alone ends one too)
            e = _EOL.search(text, i)
            i = n if e is None else e.start()
        elif c in "'\"":
            j = m.start()
            while j > 0 and text[j - 1] in _PREFIX:
                j -= 1
            prefix = text[j:m.start()].lower()
            quote = text[m.start():m.start() + 3] if text.startswith(c * 3, m.start()) else c
            end = _string_end(text, m.start() + len(quote), quote)
            if end is None or (("f" in prefix or "t" in prefix) and not _plain_fields(text[m.start() + len(quote):end - len(quote)])):
                return None
            i = end
        elif c in "([{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.start()


def _plain_fields(body: str) -> bool:
    """Whether an f-string's end is where its first closing quote is: its fields hold no quote,
    backslash or comment and its braces pair (since Python 3.12 a field may hold the literal's own
    quote: `f"{d["k"]}"`)."""
    if "{" not in body:
        return True
    if any(c in body for c in "'\"\\#"):
        return False
    depth = i = 0
    while i < len(body):
        c = body[i]
        if depth == 0 and body.startswith(c * 2, i) and c in "{}":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                return False
        i += 1
    return depth == 0


# the rest of a literal after its opening quote, through the closing one (a backslash escapes
# the next character, raw or not: `r"\\""` is one literal; one-line literals stop at a line end)
_REST = {q: re.compile(r"(?:[^%s\\\r\n]|\\[\s\S])*%s" % (q, q)) for q in "'\""}
_REST.update({q * 3: re.compile(r"(?:[^%s\\]|\\[\s\S]|%s(?!%s%s))*%s%s%s" % (q, q, q, q, q, q, q)) for q in "'\""})


def _string_end(text: str, i: int, quote: str) -> int | None:
    m = _REST[quote].match(text, i)
    return None if m is None else m.end()
