"""Stage 1, the knowledge and what it is read with: loading and validating the YAML knowledge
against its schemas (knowledge, schemas, validate, yamlio, resources, cache), the CEL engine,
the catalogs it holds (vLLM releases, models, GPUs and the local NVML probe, frameworks),
bilingual messages, release numbers, secret redaction and the exception root.

Imports nothing of the engine; every later stage may import it."""
