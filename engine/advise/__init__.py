"""Stage 5, advice beyond single checks: scenario templates matched and rendered for a site,
the decision tree walked for a symptom, reference tables with the estimator's numbers beside
them, and `detect` (does a project use vLLM at all). Advice is written as changes through fix.

May import fix, check, scan and kb."""
