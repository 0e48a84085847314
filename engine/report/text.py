"""Terminal report (rich): the same content as the Markdown report, laid out for a console.

Prose may wrap at the terminal's width; code never does. A change (`deploy/serve.sh:14: remove
`--swap-space 8``), a diff line or a command is printed as one line however long (rich's
soft wrap: the terminal may fold it on screen, but a copy gives the line whole), so what a
person copies from the report is what vLLM needs. Each site with a memory estimate gets a bar
of one GPU's memory (engine/report/memory_bar.py)."""
from __future__ import annotations

import io

from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report.compact import same_as

STATUS_STYLE = {"enabled": "green", "not_enabled": "dim", "recommended": "yellow", "not_applicable": "dim", "unknown": "magenta"}
PRIO_STYLE = {"P0": "bold red", "P1": "yellow", "P2": "cyan"}
# a unified diff's lines by their first characters
DIFF_STYLE = (("+++", "bold"), ("---", "bold"), ("@@", "cyan"), ("+", "green"), ("-", "red"))


def _code(console, line: str, style: str = "") -> None:
    """One line of code, a command or a diff: never wrapped or cropped."""
    from rich.text import Text

    console.print(Text(line, style=style), soft_wrap=True)


def _diff(console, text: str) -> None:
    for line in text.splitlines():
        _code(console, line, next((st for head, st in DIFF_STYLE if line.startswith(head)), ""))


def _memory_bar(console, mem: dict, gpu_gib, t) -> None:
    from rich.text import Text

    from vllm_kb.engine.report import memory_bar

    parts = memory_bar.split(mem, gpu_gib)
    if parts is None:
        return
    line = Text("  ")
    for seg, n in memory_bar.cells(parts):
        line.append(memory_bar.GLYPH[seg] * n, style=memory_bar.STYLE[seg])
    console.print(Text(t("memory_bar.heading"), style="bold"))
    console.print(line, soft_wrap=True)
    console.print(Text("  " + memory_bar.legend(parts, t)))


def _render(data: dict, console) -> None:
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table

    from vllm_kb.engine.kb.safe_text import shown

    data = shown(data)  # secrets hidden, control characters escaped: a renderer never trusts its input
    kb = load()
    lang = data["lang"]

    def t(key, **kw):
        return kb.t(key, lang, **kw)

    p = data["project"]
    head = (f"[bold]{t('report.project')}:[/] {escape(p['root'])} ({t('report.files', n=p['files_scanned'])})\n"
            f"[bold]{t('report.vllm_version')}:[/] {escape(p['vllm']['version'])} — {escape(p['vllm']['source'])}\n"
            f"[bold]{t('report.hardware')}:[/] {escape(data['hardware']['description'])}")
    console.print(Panel(head, title=t("report.title"), expand=False))
    if not data["sites"]:
        console.print(t("report.no_sites"))
    repeats = same_as(data["sites"])
    for n, s in enumerate(data["sites"], 1):
        console.rule(f"[bold]{t('report.site')} {n}: {escape(s['id'])} — {escape(s['kind'])}")
        model = s["model"]["name"] if s["model"] else t("report.not_detected")
        if s["model"] and s["model"].get("resolved_as"):
            m = s["model"]
            model += " — " + (t("report.model_candidates", names=", ".join(m["candidates"])) if m.get("candidates") else
                              t("report.model_resolved", name=m["resolved_as"], how=t("report.identity." + str(m.get("identity")))))
        # where the site's release comes from when it is not the project's (an image tag, a build's
        # install, a stand-in): which source was used, said where the site is
        source = f" — {escape(s['vllm']['source'])}" if s["vllm"]["source"] != p["vllm"]["source"] else ""
        console.print(f"{t('report.model')}: {escape(model)}   {t('report.mode')}: {s['mode']}   "
                      f"{t('report.vllm_version')}: {s['vllm']['version']}{source}")
        gf = s.get("gpu_facts") or {}
        if gf.get("text") and (gf.get("from") != "run" or gf.get("why")):  # the site's GPU is not simply the panel's
            desc = f"{gf['description']} — " if gf.get("description") else ""
            console.print(f"{t('report.hardware')}: {escape(desc + gf['text'])}")
        mem = s.get("memory")
        if mem:
            from vllm_kb.engine.kb.messages import num

            line = t("report.memory_line", weights=num(mem["weights_gib"]), per_gpu=num(mem["weights_per_gpu_gib"]),
                     usable=num(mem["usable_per_gpu_gib"]), gmu=num(s["effective"].get("gpu_memory_utilization")))
            from vllm_kb.engine.report.memory_bar import fit_sentence

            if fit := fit_sentence(mem, t):
                line += " " + fit
            console.print(f"{t('report.memory')}: {escape(line)}")
            _memory_bar(console, mem, gf.get("memory_gib") or (data["hardware"].get("gpu") or {}).get("memory_gib"), t)
        for o in s["opaque"]:
            console.print(f"[magenta]![/] {escape(o)}")
        table = Table(show_header=True, header_style="bold")
        for col in (t("report.category"), t("report.score"), t("report.enabled"), t("report.recommended"), t("report.unknown")):
            table.add_column(col)
        for c in s["scores"]:
            table.add_row(f"{c['category']}. {c['title']}", f"{c['score']}/{c['total']}", ", ".join(c["enabled"]) or "—",
                          ", ".join(c["recommended"]) or "—", ", ".join(c["unknown"]) or "—")
        table.add_row(f"[bold]{t('report.total')}[/]", f"[bold]{s['score']['score']}/{s['score']['total']}[/]", "", "", "")
        console.print(table)
        if s["recommendations"]:
            console.print(f"[bold]{t('report.priorities')}[/]")
            for j, r in enumerate(s["recommendations"]):
                if (first := repeats.get((n, j))) is not None:  # one cause at several sites: told once
                    head = f"{escape(r['file'])}:{r['line']} {escape(r['title'])}" if r["kind"] == "finding" \
                        else f"[bold]{r['check']}[/] {escape(r['title'])}"
                    console.print(f"  [{PRIO_STYLE.get(r['priority'], '')}]{r['priority']}[/] {head} — {escape(t('report.same_as', k=first))}")
                    continue
                if r["kind"] == "finding":
                    console.print(f"  [{PRIO_STYLE.get(r['priority'], '')}]{r['priority']}[/] {escape(r['file'])}:{r['line']} {escape(r['title'])}")
                else:
                    console.print(f"  [{PRIO_STYLE.get(r['priority'], '')}]{r['priority']}[/] [bold]{r['check']}[/] {escape(r['title'])} — {escape(r['reason'])}")
                for c in r["changes"]:
                    where = f"{c['file']}:{c['line']}" if c["line"] else c["file"]
                    fw = s["framework_info"]["name"] if s.get("framework_info") else s["framework"]
                    what = (t("fix.blocked_" + c["blocked"], target=c["target"], framework=fw, origin=c.get("origin", ""), value=c.get("value"), after=c.get("after") or t("fix.remove", what=c["before"])) if c.get("blocked")
                            else t("fix.rename", before=c["before"], after=c["after"]) if c["op"] == "rename"
                            else c["after"] if c["after"] else t("fix.remove", what=c["before"]))
                    _code(console, f"      {where}: {what}")
        for f in s["findings"]:
            console.print(f"  [{PRIO_STYLE.get(f['priority'] or '', '')}]{f['priority'] or '•'}[/] {escape(f['file'])}:{f['line']} {escape(f['message'])}")
        if s["after"]:
            console.print(t("report.changes_note"))
        for b in s["after"]:
            console.print(f"[bold]{t('report.changes_in', file=escape(b['file']))}[/]")
            if b["text"]:
                _diff(console, b["text"])
            if b.get("withheld"):
                console.print(escape(t("fix.withheld", file=b["file"], lines=", ".join(map(str, b["withheld"])))))
        sc = s.get("scenario")
        if sc:  # the closest scenario template; the Markdown and JSON reports carry its rendered config
            line = t("scenario.line", id=sc["id"], name=sc["name"], score=sc["score"], title=sc["title"])
            if sc["differences"]:
                line += "; " + t("scenario.line_diff", changes=", ".join(
                    f"{d['name']} {d['current'] if d['current'] is not None else t('scenario.unset')} → {d['scenario']}" for d in sc["differences"]))
            console.print(f"[bold]{escape(line)}[/]")
    if p["skipped"]:
        console.print(f"[bold]{t('report.skipped_n', n=len(p['skipped']))}[/]")
        for k in p["skipped"]:
            console.print(f"  {escape(k['file'])}{':' + str(k['line']) if k['line'] else ''} — {escape(k['reason'])}")
    sm = data["summary"]
    console.print(t("report.summary", sites=sm["sites"], p0=sm["recommendations"]["P0"], p1=sm["recommendations"]["P1"],
                    p2=sm["recommendations"]["P2"], unknown=sm["unknown"]))
    if sm.get("own_release"):
        console.print(escape(t("report.own_release", n=sm["own_release"], sites=sm["sites"])))
    if groups := _repeated_p0(data):
        console.print(escape(t("report.p0_repeated", groups=", ".join(t("report.p0_repeated_group", check=c, n=n) for c, n in groups))))


def _repeated_p0(data: dict) -> list[tuple[str, int]]:
    """P0 findings with the same check and the same words at two or more sites: one cause that many
    launch scripts share (eval89 yyht/openrlhf_async_pipline: one framework pair, 33 scripts, 33 P0)."""
    seen: dict[tuple[str, str], set] = {}
    for s in data.get("sites") or []:
        for f in s.get("recommendations") or []:
            if f.get("priority") == "P0":
                seen.setdefault((str(f.get("check")), str(f.get("reason"))), set()).add(s.get("id"))
    return [(c, len(ids)) for (c, _), ids in seen.items() if len(ids) > 1]


def print_report(data: dict) -> None:
    from rich.console import Console

    _render(data, Console(highlight=False))


def render(data: dict, width: int = 100, color: bool = False) -> str:
    from rich.console import Console

    buf = io.StringIO()
    _render(data, Console(file=buf, width=width, color_system="standard" if color else None, highlight=False, force_terminal=color))
    return buf.getvalue()
