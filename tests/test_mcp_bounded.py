"""Answers an agent can hold, on a generated repository with 1,000 launch sites through the MCP
SDK's own client in memory: every answer of `audit`, `audit_details` and `detect` (and of `diagnose`
on 250 sites, below) stays under 20,000 tokens (characters / 4) and the pages add up to the whole
report. The stdio and streamable-HTTP transports are driven end to end on 250 sites (already twenty
times what an unbounded answer could carry over SSE) to keep CI short, each tree audited once: `audit`
over HTTP, `diagnose` (which audits) over stdio; benchmarks/run.py drives stdio on 1,000."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from vllm_kb.mcp_server.server import build_server

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import gen_repo  # noqa: E402

pytestmark = pytest.mark.anyio
TOKENS = 20_000
GPU = "H100-80GB x8"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("big") / "repo"
    gen_repo.generate(root, files=1100, sites=1000, seed=3)
    return root


@pytest.fixture(scope="module")
def mid(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mid") / "repo"
    gen_repo.generate(root, files=300, sites=250, seed=3)
    return root


def tokens(result) -> int:
    """What the client is handed, structured content and text together, at four characters a token."""
    text = "".join(getattr(c, "text", "") for c in result.content)
    return (len(json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))) + len(text)) // 4


async def test_audit_summary_pages_and_resource_in_memory(big):
    server = build_server([big.parent])
    async with Client(server) as c:
        result = await c.call_tool("audit", {"path": str(big), "gpu": GPU})
        assert not result.is_error, result.content
        s = result.structured_content
        assert tokens(result) < TOKENS and s["sites_total"] >= 1000 and not s["complete"]
        assert s["summary"]["recommendations"]["P0"] > 0 and s["urgent"][0]["priority"] == "P0"
        assert sum(s["modes"].values()) == s["sites_total"] and s["verdicts"]["recommended"] > 0
        # every P0 reachable through the pages, none twice
        got, cursor = [], None
        while True:
            page = await c.call_tool("audit_details", {"report_id": s["report_id"], "priority": "P0", "cursor": cursor})
            assert tokens(page) < TOKENS
            got += [(r["site"], r["check"], r["location"]["line"]) for r in page.structured_content["items"]]
            cursor = page.structured_content["next_cursor"]
            if cursor is None:
                break
        assert len(got) == len(set(got)) == s["summary"]["recommendations"]["P0"]
        one = await c.call_tool("audit_details", {"report_id": s["report_id"], "site": s["sites"][0]["id"]})
        assert [x["id"] for x in one.structured_content["items"]] == [s["sites"][0]["id"]]
        check = await c.call_tool("audit_details", {"report_id": s["report_id"], "check": "B4"})
        assert tokens(check) < TOKENS and check.structured_content["items"][0]["id"] == "B4"
        full = json.loads((await c.read_resource(s["report_uri"])).contents[0].text)
        assert len(full["sites"]) == s["sites_total"]
        detect = await c.call_tool("detect", {"path": str(big), "all": True})
        assert tokens(detect) < TOKENS and detect.structured_content["evidence_total"] > len(detect.structured_content["evidence"])


async def test_diagnose_over_stdio(mid):
    """`diagnose` audits the project again (engine/diagnosis.py): asked here over stdio on the 250 sites, its
    pages bound the same way as on 1,000, and the 1,000-site tree is audited once."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "vllm_kb.mcp_server", "--root", str(mid)],
                                   cwd=str(mid), env=dict(os.environ))
    async with Client(params) as c:
        diag = await c.call_tool("diagnose", {"path": ".", "symptom": "oom", "gpu": GPU})
        assert not diag.is_error, diag.content
        assert tokens(diag) < TOKENS and diag.structured_content["diagnoses_total"] >= 250
        assert diag.structured_content["next_cursor"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_audit_over_streamable_http(mid):
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "vllm_kb.mcp_server", "--transport", "http", "--port", str(port),
                             "--root", str(mid)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()
                assert time.monotonic() < deadline, "the HTTP server did not start"
                time.sleep(0.1)
        async with Client(f"http://127.0.0.1:{port}/mcp") as c:
            result = await c.call_tool("audit", {"path": str(mid), "gpu": GPU})
            assert not result.is_error and tokens(result) < TOKENS and result.structured_content["sites_total"] >= 250
            page = await c.call_tool("audit_details", {"report_id": result.structured_content["report_id"]})
            assert tokens(page) < TOKENS and page.structured_content["next_cursor"]
            p1 = await c.call_tool("audit_details", {"report_id": result.structured_content["report_id"], "priority": "P1"})
            assert tokens(p1) < TOKENS and p1.structured_content["items"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
