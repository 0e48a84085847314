"""The one place vllm-kb's version and home are written. pyproject.toml reads __version__
(`[tool.setuptools.dynamic]`), the package reports it, and tests/test_packaging.py holds every
other file that names either (CHANGELOG.md, server.json, the Claude plugin, action.yml, docs)
to these two lines. A release bumps __version__ and tags the commit `v<version>`."""
from __future__ import annotations

__version__ = "0.1.0"
REPOSITORY = "https://github.com/vllm-kb/vllm-kb"


def docs_url(version: str = __version__) -> str:
    """This release's docs/ folder in the repository: the pages a report links to describe the
    knowledge this release ships, not whatever the default branch holds today."""
    return f"{REPOSITORY}/blob/v{version}/docs/"
