"""`vllm-kb diagnose`: the decision tree of knowledge/decision_tree.yaml (tree.py), walked for a
symptom over a site's audit facts (walk.py), its leaves turned into changes in the site's own
syntax, and its `kb validate` lint (lint.py). The run over a project is engine/diagnosis.py;
the record a face shows is engine/report/diagnosis.py."""
