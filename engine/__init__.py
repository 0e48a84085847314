"""The engine, one package per stage of the pipeline, each importing only the stages below it
(pyproject.toml's import-linter contracts; docs/architecture.md draws it):

    kb ← scan ← check ← fix ← advise ← report ← audit ← diagnosis, validate ← faces

audit.py, diagnosis.py and validate.py orchestrate the stages for `audit`, `diagnose` and
`kb validate`; they hold no rules of their own."""
