"""An application server's own env file as a vLLM site: servers such as api-for-open-llm read a
`.env` (python-dotenv) and build vLLM's engine from it themselves, so a project that runs one holds
no vLLM command or call — only that file (knowledge/deploy/app_servers.yaml). The file's variables
become the engine arguments the server passes, with its own defaults; an example or template file
is not what runs."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from vllm_kb.engine.scan import envfile
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.common import launch_site
from vllm_kb.engine.scan.image_env import entry_command
from vllm_kb.engine.scan.shell import Seg, Word
from vllm_kb.engine.scan.site import Site

_TEMPLATE = re.compile(r"(?:^|[._-])(?:example|sample|template|dist|tmpl|default)s?(?:$|[._-])", re.I)


def is_env_file(rel: str) -> bool:
    if "env" not in rel:  # every name below holds it: no path built for most of the project's files
        return False
    name = PurePosixPath(rel).name
    return (name == ".env" or name.startswith(".env.") or name.endswith(".env")) and not _TEMPLATE.search(name)


def _apps() -> list[dict]:
    from vllm_kb.engine.kb import deploy_tools

    return deploy_tools.load("app_servers")["apps"]


def mentions(text: str) -> bool:
    """A cheap test before the file is parsed: one of the variables an entry's `when` names."""
    return any(name in text for app in _apps() for name in app["when"])


def _word(v: envfile.EnvValue) -> Word:
    w = Word(raw=v.raw, line=v.line, segs=[Seg("lit", v.value or "")], start=-1, end=-1)
    w.value = v.value
    return w


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    values = {k: v for k, v in envfile.parse(text, rel).items() if v.value is not None}
    for app in _apps():
        if not all(str((values.get(k) and values[k].value) or "").strip().lower() == str(want).lower()
                   for k, want in app["when"].items()) or not all(values.get(k) for k in app.get("requires", ())):
            continue
        env = [(k, _word(v)) for k, v in values.items() if k not in app.get("positive", ()) or _positive(v.value)]
        first = min(v.line for k, v in values.items() if k in app["when"])
        words = entry_command(app, {"worker": None, "vllm": None}, env, first, ctx.catalog)
        site = launch_site(ctx, rel, words, first, first, "env-file", "env", {}, None, {"argv_pos": [None] * len(words)})
        if site is None:
            return []
        site.tool = app["id"]
        site.launch["app_server"] = app["name"]
        names = {arg: k for k, arg in app["aliases"].items()}
        site.source = dict(site.source or {}, env_names=names)  # how a fix writes an argument here
        for s in site.settings.values():
            v = values.get(names.get(s.name, ""))
            if v is not None and s.file == rel and s.line == v.line:
                s.syntax = "env-file"  # written as the server's own variable: a fix says to change it there
                s.pos = {**(s.pos or {}), "from_env": f"{v.name} at {v.where}"}
        return [site]
    return []


def _positive(value: str | None) -> bool:
    try:
        return int(str(value).strip()) > 0
    except ValueError:
        return True  # not a number: the server fails on it, not this reading
