"""Which Hub repository a local model folder holds, where the project itself says so: the command
or call that fills the folder (`huggingface-cli download X --local-dir P`, `hf download`,
`modelscope download --model X --local_dir P`, `git clone https://huggingface.co/X P`,
`snapshot_download(repo_id=X, local_dir=P)`, `hf_hub_download(…, local_dir=P)`, `wget`/`curl` of a
file's `…/X/resolve/<revision>/<file>` URL, renamed or not, or a Python export: `m =
AutoModelForCausalLM.from_pretrained(X)` then `m.save_pretrained(P)`, which writes X's config.json)
in a script, a Dockerfile, a notebook, a README. vLLM then reads X's config.json from P, so the folder's facts are
X's for certain, not a guess from the folder's name (engine/check/candidates.py `linked`).

Only what is written in the file is read: a literal, or a variable the same file assigns a literal
to (`MODEL=Qwen/Qwen3-8B`, `ENV`/`ARG` in a Dockerfile, a module-level Python constant). A folder
the project fills from two different repositories links to neither."""
from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass

from vllm_kb.engine.kb.model_resolve import own_part

_REPO = re.compile(r"^[A-Za-z0-9][\w.-]{0,95}/[\w.-]{1,95}$")
# the files a download is written in: scripts, containers, notebooks, docs, CI and manifests
_SUFFIXES = (".sh", ".bash", ".zsh", ".py", ".ipynb", ".md", ".rst", ".txt", ".yaml", ".yml", ".bat", ".ps1",
             ".dockerfile", ".mk", ".cfg", ".toml")
_NAMES = ("Dockerfile", "Containerfile", "Makefile", "Justfile", "Procfile")
_CLI = re.compile(r"\b(huggingface-cli|hf|modelscope)\s+download\b")
_CLONE = re.compile(r"\bgit\s+(?:lfs\s+)?clone\b")
_CLONE_URL = re.compile(r"^https?://(?:www\.)?(?:huggingface\.co|hf-mirror\.com|modelscope\.cn)/"
                        r"(?:models/)?([A-Za-z0-9][\w.-]*/[\w.-]+?)(?:\.git)?/?$")
_FETCH = re.compile(r"\b(wget|curl)\b")
_RESOLVE_URL = re.compile(r"^https?://(?:huggingface\.co|hf-mirror\.com)/([A-Za-z0-9][\w.-]*/[\w.-]+)/resolve/[^/]+/(.+?)(?:\?.*)?$")
_PY_CALL = re.compile(r"\b(?:snapshot_download|hf_hub_download)\s*\(([^()]{0,800})\)", re.S)
_PY_KW = re.compile(r"\b(repo_id|model_id|local_dir)\s*=\s*(?:[rfbu]?(['\"])(.*?)\2|([A-Za-z_]\w*))")
_PY_FIRST = re.compile(r"^\s*[rbu]?(['\"])(.*?)\1")
_PY_FIRST_NAME = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:,|$)")
# an export: `m = Class.from_pretrained(X, …)` and `m.save_pretrained(P)` in one file
_PY_LOAD = re.compile(r"^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)\.from_pretrained\s*\(([^()]{0,800})\)", re.M)
_PY_ASSIGN = re.compile(r"^[ \t]*([A-Za-z_]\w*)[ \t]*=(?!=)", re.M)
_PY_SAVE = re.compile(r"\b([A-Za-z_]\w*)\.save_pretrained\s*\(\s*(?:[rbu]?(['\"])([^'\"\n]*)\2|([A-Za-z_]\w*)\s*[,)])")
# not the model's weights and config (a tokenizer's files say nothing of the architecture), or a
# checkpoint the load changes (quantized as it loads: the folder holds another quantization)
_NOT_MODEL = re.compile(r"Tokenizer|Processor|FeatureExtractor|Config$|Peft|Adapter")
_CHANGES = re.compile(r"\b(?:quantization_config|load_in_4bit|load_in_8bit)\b")
_PY_CONST = re.compile(r"^([A-Za-z_]\w*)\s*(?::\s*\w+\s*)?=\s*[rbu]?(['\"])([^'\"\n]*)\2\s*(?:#.*)?$", re.M)
_SH_ASSIGN = re.compile(r"^\s*(?:export\s+|ENV\s+|ARG\s+)?([A-Za-z_]\w*)=(\"[^\"\n]*\"|'[^'\n]*'|[^\s;&|]*)", re.M)
_SH_VAR = re.compile(r"\$\{([A-Za-z_]\w*)(?::-[^}]*)?\}|\$([A-Za-z_]\w*)")
_LIST_SEP = re.compile(r"[\"']\s*,\s*[\"']")
_OPS = frozenset({"&&", "||", ";", "|", ">", ">>", "2>&1", "&"})
# options of `huggingface-cli download` / `hf download` that take a value (the rest are flags)
_HF_VALUED = frozenset({"--repo-type", "--revision", "--cache-dir", "--local-dir", "--token", "--include", "--exclude",
                        "--max-workers", "--local-dir-use-symlinks", "--format"})
_MS_VALUED = frozenset({"--model", "--dataset", "--revision", "--cache_dir", "--cache-dir", "--local_dir",
                        "--local-dir", "--include", "--exclude", "--token", "--max-workers"})


@dataclass(frozen=True)
class Download:
    repo: str    # the Hub (or ModelScope) repository, org/name
    folder: str  # the local folder it is written to, as the file writes it
    where: str   # file:line


def _reads(rel: str) -> bool:
    base = rel.rsplit("/", 1)[-1]
    return rel.endswith(_SUFFIXES) or base.startswith(_NAMES)


def index(ctx, files: list[str]) -> list[Download]:
    """Every download into a named local folder the project's files write."""
    out: list[Download] = []
    for rel in files:
        if not _reads(rel):
            continue
        text = ctx.read(rel)
        if not text or not any(w in text for w in ("download", "clone", "/resolve/", "save_pretrained")):
            continue
        out += downloads(text, rel)
    return out


def downloads(text: str, rel: str) -> list[Download]:
    """The downloads one file's text writes (`rel` names it in `where`)."""
    text = text.replace("\\\r\n", " ").replace("\\\n", " ") if "\\\n" in text or "\\\r\n" in text else text
    shell: dict[str, str] = {}  # the file's variables, read when a line holds a command
    out: list[Download] = []
    for n, line in enumerate(text.splitlines(), 1):
        # each command below names its word, and joining an exec-form list only puts spaces between
        # words: a line without any of them holds none (most lines of a file that mentions one)
        if "download" not in line and "clone" not in line and "/resolve/" not in line:
            continue
        if "," in line:  # an exec-form list (`["huggingface-cli", "download", …]`) read as the command it runs
            line = _LIST_SEP.sub(" ", line)
        if (m := _CLI.search(line)) is not None:
            read, start = _cli, m.start()
        elif (m := _CLONE.search(line)) is not None:
            read, start = _clone, m.end()
        elif "/resolve/" in line and (m := _FETCH.search(line)) is not None:
            read, start = _fetch, m.start()
        else:
            continue
        if not shell:
            shell = {m.group(1): m.group(2).strip("\"'") for m in _SH_ASSIGN.finditer(text)}
        got = read(_words(line, shell, start))
        if got:
            out.append(Download(got[0], got[1], f"{rel}:{n}"))
    consts: dict[str, str] | None = None
    for m in _PY_CALL.finditer(text) if "_download" in text else ():
        if consts is None:
            consts = {c.group(1): c.group(3) for c in _PY_CONST.finditer(text)}
        got = _python(m.group(1), consts)
        if got:
            out.append(Download(got[0], got[1], f"{rel}:{text.count(chr(10), 0, m.start()) + 1}"))
    if "save_pretrained" in text and "from_pretrained" in text:
        out += _exports(text, rel, consts if consts is not None else {c.group(1): c.group(3) for c in _PY_CONST.finditer(text)})
    return out


def _exports(text: str, rel: str, consts: dict[str, str]) -> list[Download]:
    """`m.save_pretrained(P)` where every assignment to `m` in the file loads one repository's model
    as it is (not a tokenizer, not quantized while loading): P holds that repository's config.json."""
    loads: dict[str, set[str | None]] = {}
    count: dict[str, int] = {}
    for m in _PY_LOAD.finditer(text):
        var, args = m.group(1), m.group(3)
        count[var] = count.get(var, 0) + 1
        first, name = _PY_FIRST.match(args), _PY_FIRST_NAME.match(args)
        repo = first.group(2) if first else consts.get(name.group(1)) if name else None
        loads.setdefault(var, set()).add(None if _NOT_MODEL.search(m.group(2)) or _CHANGES.search(args) else repo)
    assigned: dict[str, int] = {}
    for m in _PY_ASSIGN.finditer(text):
        assigned[m.group(1)] = assigned.get(m.group(1), 0) + 1
    # a variable assigned anything else as well (`m = m.merge_and_unload()`) is not read
    loaded = {v: next(iter(r)) for v, r in loads.items() if len(r) == 1 and assigned.get(v) == count[v]}
    out = []
    for m in _PY_SAVE.finditer(text):
        folder = m.group(3) if m.group(2) else consts.get(m.group(4) or "")
        got = _pair(loaded.get(m.group(1)), folder)
        if got:
            out.append(Download(got[0], got[1], f"{rel}:{text.count(chr(10), 0, m.start()) + 1}"))
    return out


def _words(line: str, env: dict[str, str], start: int) -> list[str]:
    """The command's words from `start`, variables the file assigns replaced, up to a shell operator."""
    rest = _SH_VAR.sub(lambda m: env.get(m.group(1) or m.group(2), m.group(0)), line[start:])
    rest = rest.strip().strip("`").rstrip('"\'),]')
    try:
        words = shlex.split(rest, comments=True)
    except ValueError:
        words = rest.split()
    out = []
    for w in words:
        if w in _OPS:
            break
        out.append(w.rstrip(";"))
    return out


def _cli(words: list[str]) -> tuple[str, str] | None:
    """(repo, folder) of `huggingface-cli|hf download …` or `modelscope download …`."""
    if len(words) < 2:
        return None
    modelscope = words[0] == "modelscope"
    valued = _MS_VALUED if modelscope else _HF_VALUED
    repo = folder = None
    i = 2
    while i < len(words):
        w = words[i]
        if w.startswith("-"):
            key, eq, val = w.partition("=")
            if not eq and key in valued:
                val = words[i + 1] if i + 1 < len(words) else ""
                i += 1
            if key in ("--local-dir", "--local_dir"):
                folder = val
            elif key == "--model" and modelscope:
                repo = val
        elif repo is None:
            repo = w
        i += 1
    return _pair(repo, folder)


def _clone(words: list[str]) -> tuple[str, str] | None:
    """(repo, folder) of `git clone [options] https://huggingface.co/X [folder]`."""
    plain = [w for w in words if not w.startswith("-")]
    for i, w in enumerate(plain):
        m = _CLONE_URL.match(w)
        if m:
            folder = plain[i + 1] if i + 1 < len(plain) else m.group(1).rsplit("/", 1)[-1]
            return _pair(m.group(1), folder)
    return None


def _fetch(words: list[str]) -> tuple[str, str] | None:
    """(repo, file) of `wget|curl … https://huggingface.co/X/resolve/main/F.gguf`: the file it writes
    (wget -O/-P, curl -o/-O; wget's default is the URL's file name, curl's standard output)."""
    url = next((m for m in map(_RESOLVE_URL.match, words) if m), None)
    if url is None:
        return None
    name = url.group(2).rsplit("/", 1)[-1]
    opts = {"-O": "out", "--output-document": "out", "-P": "dir", "--directory-prefix": "dir"} if words[0] == "wget" \
        else {"-o": "out", "--output": "out", "--output-dir": "dir"}
    out, folder = (name if words[0] == "wget" else None), ""
    for i, w in enumerate(words[1:], 1):
        key, eq, val = w.partition("=")
        if words[0] == "curl" and w in ("-O", "--remote-name"):
            out = name
            continue
        if key in opts:
            val = val if eq else (words[i + 1] if i + 1 < len(words) else "")
            if opts[key] == "out":
                out = val
            else:
                folder = val
    if not out or out == "-":
        return None
    return _pair(url.group(1), posixpath.join(folder, out) if folder else out)


def _python(args: str, consts: dict[str, str]) -> tuple[str, str] | None:
    """(repo, folder) of a snapshot_download / hf_hub_download call's literal arguments."""
    got: dict[str, str] = {}
    for m in _PY_KW.finditer(args):
        value = m.group(3) if m.group(2) else consts.get(m.group(4) or "")
        if value is not None:
            got.setdefault("repo" if m.group(1) != "local_dir" else "folder", value)
    first = _PY_FIRST.match(args)
    if "repo" not in got and first:
        got["repo"] = first.group(2)
    return _pair(got.get("repo"), got.get("folder"))


def _pair(repo: str | None, folder: str | None) -> tuple[str, str] | None:
    if not repo or not folder or not _REPO.match(repo) or "$" in folder or "{" in folder:
        return None
    return repo, folder


def _norm(path: str) -> str:
    p = path.replace("\\", "/").strip()
    p = posixpath.normpath(p) if p else p
    return "" if p == "." else p[2:] if p.startswith("./") else p


def _fits(model: str, folder: str) -> int:
    """How surely `model` is that folder: 3 the same path (or a .gguf file directly in it), 2 the
    same trailing folders (`./models/X` written, `/workspace/models/X` served), 1 the same own name
    past generic folders (engine/kb/model_resolve.py own_part), 0 none."""
    m, f = _norm(model), _norm(folder)
    if not m or not f:
        return 0
    if m == f:
        return 3
    rel_m, rel_f = not m.startswith(("/", "~")), not f.startswith(("/", "~"))
    if (rel_f and not f.startswith("..") and m.endswith("/" + f)) or (rel_m and not m.startswith("..") and f.endswith("/" + m)):
        return 2
    if m.lower().endswith(".gguf") and "/" in m:  # a file the download put in that folder
        return _fits(m.rsplit("/", 1)[0], folder)
    own = own_part(m)
    return 1 if own is not None and own == own_part(f) else 0


def link(model: str, found: list[Download], mounts: dict | None = None) -> Download | None:
    """The download that fills the folder `model` names (or, in a container, the host folder a
    volume mounts there); None when none does, or the closest ones name different repositories."""
    if not found or not isinstance(model, str) or "://" in model or "$" in model:
        return None
    paths = [model]
    for target, sources in (mounts or {}).items():
        t = target.rstrip("/")
        if t and (model == t or model.startswith(t + "/")):
            paths += [str(s).rstrip("/") + model[len(t):] for s in sources if isinstance(s, str)]
    best, hits = 0, []
    for d in found:
        score = max(_fits(p, d.folder) for p in paths)
        if score and score > best:
            best, hits = score, [d]
        elif score and score == best:
            hits.append(d)
    if not hits or len({h.repo.lower() for h in hits}) != 1:
        return None
    return hits[0]
