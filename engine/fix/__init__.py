"""Stage 4, changes in the site's own syntax: a verdict's fix ops become changes (a flag, a
keyword argument, a YAML key, a framework key, an env var, spelled for the site's release),
changes become byte edits at the positions the scanners recorded, edits become diffs, and
`--fix`/`--diff` apply them.

May import check, scan and kb."""
