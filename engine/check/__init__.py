"""Stage 3, verdicts: a site's facts (what it sets, the effective engine arguments of its
release, GPU, model, the memory estimate), the YAML checks evaluated over them, the findings
drawn from the vLLM catalog, and the rule registry that names them all (checks and findings
alike); the project's own choices over the verdicts (configuration, suppression comments,
baseline).

May import scan and kb."""
