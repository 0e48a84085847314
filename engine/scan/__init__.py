"""Stage 2, reading a project: the walk (gitignore-aware, never out of the root), dependency
pins, and one scanner per syntax (shell launches and their `--config` YAML, Python calls,
framework launchers and configs, containers and manifests), producing `Site`s — every setting
with the file, line and key it was written with. project.py runs them over a tree.

May import kb only."""
