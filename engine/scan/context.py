"""What every scanner gets: the project root, a safe file reader, the vLLM catalog and the
version each file's sites are read against, and a place to report files it had to skip."""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.encoding import decode, sniff
from vllm_kb.engine.scan import model_downloads

MAX_FILE_BYTES = 2 * 1024 * 1024
# what starts a suppression comment (engine/check/suppressions.py): `read` notes the files without it
COMMENT_MARKER = b"vllm-kb:"


def parse_python(text: str, filename: str = "<unknown>"):
    """ast.parse without the SyntaxWarnings (`"\\d"`, `1if x`) it prints about the audited code."""
    import ast
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(text, filename=filename)
    # a module that is one `if 1:` (or `if True:`) runs that block as its body: read it so. A Python file
    # written inside YAML is parsed that way on the YAML's own lines (engine/scan/yaml_python.py)
    if len(tree.body) == 1 and isinstance(only := tree.body[0], ast.If) and not only.orelse \
            and isinstance(only.test, ast.Constant) and type(only.test.value) in (int, bool) and only.test.value:
        tree.body = only.body
    return tree


def texts_with(ctx, files: list[str], suffix: str | tuple[str, ...], *needles: str):
    """(file, text) of each file with that suffix (or one of them) whose text holds every needle:
    the cheap test a project-wide index makes before it parses anything."""
    for rel in files:
        if rel.endswith(suffix):
            text = ctx.read(rel)
            if text and all(n in text for n in needles):
                yield rel, text


def _within(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _commit(pin) -> str | None:
    from vllm_kb.engine.scan import framework_git

    if getattr(pin, "source", "") != "git":
        return None
    g = framework_git.parse(pin.text)
    return g.ref if g is not None and g.kind == "commit" else None


def _lower_bound(spec: str) -> str | None:
    import re

    m = re.search(r"(?:>=|~=|\^|==)\s*([\d.]+)", spec or "")
    return m.group(1) if m else None


@dataclass
class Skipped:
    file: str
    line: int | None
    code: str  # why, as a key of knowledge/i18n.yaml › skip.<code>
    detail: str = ""  # the parser's own message, when there is one

    @property
    def reason(self) -> str:
        return f"{self.code}: {self.detail}" if self.detail else self.code

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}" if self.line else f"{self.file}: {self.reason}"


@dataclass
class ScanContext:
    root: Path
    catalog: Catalog
    default_version: str
    versions_by_dir: dict[str, str] = field(default_factory=dict)  # "" is the root
    skipped: list[Skipped] = field(default_factory=list)
    framework_pins: dict = field(default_factory=dict)  # (folder, package) → best Pin
    build_args: dict = field(default_factory=dict)  # Dockerfile → {ARG: value} a compose build gives it (scan/build_args.py)
    # package → Pin installed with the vLLM pin the default release comes from, where that pin is in
    # a folder (docker/Dockerfile): it holds for every file that runs the default release
    default_mates: dict = field(default_factory=dict)
    dependency_pins: list = field(default_factory=list)  # torch & co. (kb/dependency_pins.py), apart from the report's pins
    image_installs: list = field(default_factory=list)  # exact vLLM pins the project's Dockerfiles install (pin_alternatives.installs)
    plugins: frozenset = frozenset()  # vLLM plugin packages the project installs (kb/plugins.py)
    fork_options: dict = field(default_factory=dict)  # option → the vLLM source tree in the project that defines it (scan/fork_source.py)
    # folders whose vLLM is built from its sources (a checkout, a git URL, a dev version): with
    # --vllm-version the release is given, but the kernels are still the ones that build compiled
    source_built: frozenset = frozenset()
    referenced: set[str] = field(default_factory=set)  # config files a command already read
    chart_versions: dict[str, str] = field(default_factory=dict)
    helm_charts: dict = field(default_factory=dict)  # chart folder → deploy/helm_chart.Chart, read once
    files: list[str] = field(default_factory=list)  # the project's files (scan_project sets it)
    absorbed: set[str] = field(default_factory=set)  # site ids another site took in (a KServe runtime)
    llm_subclasses: dict = field(default_factory=dict)  # class name → python_subclass.Wrapper list (project index)
    registered_archs: dict = field(default_factory=dict)  # architecture → `file:line` of the project's register_model
    _downloads: list | None = None  # scan/model_downloads.Download: a Hub repo written into a folder (model_downloads())
    entry_points: dict = field(default_factory=dict)  # project file → argv_entry.EntryPoint | None, read once
    entry_index: dict = field(default_factory=dict)  # scan/entry_modules.index: console scripts, entry-point modules
    vendored: list = field(default_factory=list)  # scan/vendored.Gate: a framework copy's own vLLM gate
    framework_copies: list = field(default_factory=list)  # scan/framework_source.SourceCopy: a copy's vLLM imports
    entry_env: dict = field(default_factory=dict)  # project .py file → the shell commands that run it (scan/entry_env.py)
    # (file, line, end line, Dockerfile, env, argv script or None, --gpus count): a `docker run` of a project image whose
    # Dockerfile runs a project script (scan/deploy/image_entry.py docker_runs)
    image_script_runs: list = field(default_factory=list)
    # (file, Xinference endpoint) → [(line, model, model type, --gpu-idx)]: the launches of models that
    # are not vLLM's (an embedding, a reranker), in the script's order (scan/tool_launch.py)
    xinference_others: dict = field(default_factory=dict)
    task_generation: dict | None = None  # task YAML → (task name, max_gen_toks) (scan/harness_generation.py), read once
    forced_version: str | None = None  # --vllm-version: the release the user says the project runs
    _yaml_index: list | None = None  # values file → vllm-stack release (`helm install --version`)
    _cache: dict[str, str | None] = field(default_factory=dict)
    _overlaid: frozenset = frozenset()  # files whose text `_cache` was given (not on the disk): kept by `release`
    _skip_keys: set[tuple[str, str]] = field(default_factory=set)  # (file, code) already in `skipped`
    _skip_files: set[str] = field(default_factory=set)
    _dirs_inside: dict[str, bool] = field(default_factory=dict)  # folder → resolves inside the root
    # files read whole whose bytes hold no suppression comment's marker: kept by `release`, so
    # that the comments are looked for after it (engine/check/suppressions.py) without reading
    # them all again (2,700 files of the 5,000-file tree: a tenth of its audit)
    unmarked: set[str] = field(default_factory=set)
    _root_real: str = ""
    _file_index: tuple | None = None  # (files list, its length, its set, its module names), built on first use
    _tail_index: tuple | None = None  # (files list, its length, {path tail: files that end with it})
    alternatives_index: tuple | None = None  # (files list, its length, {folder: its variant requirements files}) (scan/pin_alternatives.py)

    def file_set(self) -> frozenset[str]:
        """`files` as a set, built once (scanners ask per file and per site)."""
        return self._indexed()[2]

    def module_names(self) -> frozenset[str]:
        """The top-level module names the project's own files provide: `x` for `x.py` or
        `…/x.py`, a package folder `…/x/__init__.py`, and every first folder `x/…`."""
        return self._indexed()[3]

    def model_downloads(self) -> list:
        """Every download into a named local folder the project's files write (engine/scan/
        model_downloads.py), read on first use: only a site whose model names a local folder asks,
        so a tree without one never reads its docs and notebooks for them."""
        if self._downloads is None:
            self._downloads = model_downloads.index(self, self.files)
        return self._downloads

    def files_ending(self, tail: str) -> list[str]:
        """The project files that are `tail` or end with `/tail`, from an index of every file's
        tails built once (a search of all files per script path was quadratic in a large tree)."""
        files = self.files
        got = self._tail_index
        if got is None or got[0] is not files or got[1] != len(files):
            index: dict[str, list[str]] = {}
            for f in self.file_set():
                parts = f.split("/")
                for k in range(len(parts)):
                    index.setdefault("/".join(parts[k:]), []).append(f)
            got = self._tail_index = (files, len(files), index)
        return got[2].get(tail, [])

    def _indexed(self) -> tuple:
        files = self.files
        got = self._file_index
        if got is None or got[0] is not files or got[1] != len(files):
            names = set()
            for f in files:
                base = f.rsplit("/", 1)
                if f.endswith(".py"):
                    names.add(base[-1][:-3])
                if f.endswith("/__init__.py") and len(base) == 2:
                    names.add(base[0].rsplit("/", 1)[-1])
                if len(base) == 2:
                    names.add(f.split("/", 1)[0])
            got = self._file_index = (files, len(files), frozenset(files), frozenset(names))
        return got

    def framework_pin(self, rel: str, package: str):
        """A framework's pin for a file, by the nearest folder; else, for a file that runs the
        default release, the one installed with the vLLM pin that release comes from."""
        parts = PurePosixPath(rel).parent.parts
        for depth in range(len(parts), -1, -1):
            pin = self.framework_pins.get(("/".join(parts[:depth]), package))
            if pin is not None:
                return pin
        if any("/".join(parts[:depth]) in self.versions_by_dir for depth in range(len(parts) + 1)):
            return None  # its folder has its own vLLM pin
        return self.default_mates.get(package)

    def framework_version(self, rel: str, package: str) -> str | None:
        """The exactly pinned version of a framework for a file, by the nearest folder."""
        pin = self.framework_pin(rel, package)
        return (pin.exact or _lower_bound(pin.spec)) if pin is not None else None

    def framework_commit(self, rel: str, package: str) -> str | None:
        """The commit a framework is installed from, where its pin names one (`pkg @ git+…@<sha>`)."""
        pin = self.framework_pin(rel, package)
        return _commit(pin) if pin is not None else None

    def yaml_docs(self):
        """(file, document) of every YAML file in the project, parsed once: for scanners that link
        one object to another (an InferenceService to its ServingRuntime)."""
        if self._yaml_index is None:
            from vllm_kb.engine.kb import yamlio

            self._yaml_index = []
            for rel in self.files:
                if rel.endswith((".yaml", ".yml")):
                    text = self.read(rel)
                    if text and ("kind:" in text):
                        try:
                            self._yaml_index += [(rel, d) for d in yamlio.load_all(text)]
                        except (yamlio.YamlError, RecursionError):
                            continue
        return self._yaml_index

    @property
    def untagged_image_release(self) -> str:
        """The release an image without a version in its tag (`:latest`, `:nightly`, none) stands for
        when its ENTRYPOINT is chosen: the one --vllm-version names, else the newest catalogued —
        the argv is then read as the release the checks judge it by (`--model` for the api_server
        module of 0.5.4's image, the positional for `vllm serve` from 0.12)."""
        return self.forced_version or self.catalog.newest

    def version_for(self, rel: str) -> str:
        """The catalog release for a file: from the nearest pin at or above its folder."""
        parts = PurePosixPath(rel).parent.parts
        for depth in range(len(parts), -1, -1):
            key = "/".join(parts[:depth])
            if key in self.versions_by_dir:
                return self.versions_by_dir[key]
        return self.default_version

    def skip(self, rel: str, code: str, line: int | None = None, detail: str = "") -> None:
        if (rel, code) not in self._skip_keys:
            self._skip_keys.add((rel, code))
            self._skip_files.add(rel)
            self.skipped.append(Skipped(rel, line, code, detail))

    def one_launch(self, rel: str, line: int | None, read, *args, failed=None):
        """What `read(*args)` gives for one launch of a file (a call, a command, a document); a scanner
        bug met there costs that launch alone, reported as skipped at its line, not the file's others."""
        try:
            return read(*args)
        except RecursionError:
            self.skip(rel, "parse-error", line, "nesting too deep")
        except Exception as e:  # noqa: BLE001 — the boundary of one launch, as guarded() is of one file
            self.skip(rel, "scanner-error", line, f"{type(e).__name__}: {e}"[:160])
        return failed

    def was_skipped(self, rel: str) -> bool:
        return rel in self._skip_files

    def read(self, rel: str) -> str | None:
        """Text of a project file, or None (and a skip record) when it cannot be read as text."""
        if rel in self._cache:
            return self._cache[rel]
        text = None
        if not self._root_real:
            self._root_real = os.path.realpath(self.root)
        full = os.path.join(self._root_real, rel)
        st: os.stat_result | None
        try:
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode) or not self._dir_inside(os.path.dirname(full)):
                st = os.stat(full) if _within(os.path.realpath(full), self._root_real) else None
            if st is None:
                self.skip(rel, "outside-root")
            elif not stat.S_ISREG(st.st_mode):  # a FIFO would block the read forever
                self.skip(rel, "not-regular")
            elif st.st_size > MAX_FILE_BYTES:
                self.skip(rel, "too-large", detail=f"> {MAX_FILE_BYTES // (1024 * 1024)} MiB")
            else:
                with open(full, "rb") as f:
                    # sized reads: read(2 MiB) would allocate 2 MiB for every small file
                    data = f.read(st.st_size + 1)
                    if len(data) > st.st_size:  # grew since the stat
                        data += f.read(MAX_FILE_BYTES + 1 - len(data))
                if len(data) > MAX_FILE_BYTES:  # grew since the stat
                    self.skip(rel, "too-large", detail=f"> {MAX_FILE_BYTES // (1024 * 1024)} MiB")
                else:
                    if COMMENT_MARKER not in data:
                        self.unmarked.add(rel)
                    text = self._decoded(rel, data)
        except (OSError, ValueError) as e:  # ValueError: a NUL byte in the name
            self.skip(rel, "unreadable", detail=str(getattr(e, "strerror", None) or e))
        self._cache[rel] = text
        return text

    def _decoded(self, rel: str, data: bytes) -> str | None:
        if b"\x00" in data[:8192] and not sniff(data)[1]:  # UTF-16/32 say so with a BOM
            self.skip(rel, "binary")
            return None
        try:
            return decode(data)[0]
        except UnicodeDecodeError as e:
            line = data[: e.start].count(b"\n") + 1
            self.skip(rel, "not-utf8", line)
        return None

    # what scanners derive from the texts and keep on the context for the rest of the scan
    # (python_links' modules followed, python_callers' lookups, name_search's words)
    _DERIVED = ("_py_modules", "_py_callers", "_py_name_blocks")

    def release(self) -> None:
        """Let go of every file's text and what the scan derived from them: once the sites' facts
        are built, a file read again (a site's own, for its diff) comes from the disk, once. On
        vLLM's own tree the texts are 120 MiB and the modules followed another 40; the site
        reports made after this reuse that memory instead of adding to it. Texts given in place
        of the disk's (an overlay) stay."""
        self._cache = {rel: self._cache[rel] for rel in self._overlaid if rel in self._cache}
        for key in self._DERIVED:
            self.__dict__.pop(key, None)

    def _dir_inside(self, folder: str) -> bool:
        """Whether a folder resolves inside the root; each folder is resolved once."""
        ok = self._dirs_inside.get(folder)
        if ok is None:
            ok = self._dirs_inside[folder] = _within(os.path.realpath(folder), self._root_real)
        return ok

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def resolve_ref(self, from_file: str, ref: str) -> str | None:
        """A path written in a project file (e.g. `--config conf/x.yaml`), as a project path."""
        ref = ref.strip()
        if not ref or "$" in ref:
            return None
        # a path that names no file (most of python_links' module lookups: 16,000 on vLLM's tree)
        # is told by one stat before a Path is built; the names Path would normalise (a trailing
        # `/` or `/.`) take the long way
        quick = not ref.endswith(("/", "/.")) and ref != "." and not from_file.endswith(("/", "/.")) and from_file not in ("", ".")
        for here in (True, False):  # the file's folder, then the root
            if quick and not os.path.isfile(os.path.join(str(self.root), os.path.dirname(from_file) if here else "", ref)):
                continue
            cand = self.root / (PurePosixPath(from_file).parent if here else PurePosixPath(".")) / ref
            try:
                if cand.is_file():
                    r = cand.resolve()
                    root = self.root.resolve()
                    if root in r.parents:
                        return r.relative_to(root).as_posix()
            except OSError:
                continue
        return None
