"""Read one vLLM release's Python sources with `ast` and return a catalog snapshot, by source
kind: the values the interpreter passes around (values.py), modules and classes read from the
sources (sources.py), the small interpreter (interp_expr.py, interp.py), engine arguments and
`vllm serve` flags (flags.py), env vars and enums (env_enums.py). tools/vllm_catalog_extract.py
is the entry point; tools/vllm_catalog.py merges the snapshots into knowledge/vllm/catalog.json."""
