"""An option whose value was written as a shell expansion that gives nothing where the command
runs (`--tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE` in a SkyPilot `setup:`, which SkyPilot
does not give that variable; `TP=""`): the unquoted word vanishes, the option reaches vLLM with
no value, and argparse stops before anything starts ("argument --tensor-parallel-size/-tp:
expected one argument", argparse._match_argument, every release)."""
from __future__ import annotations

from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan.cli_args import NO_VALUE
from vllm_kb.engine.scan.site import Finding, Site

CODE = "option-without-value"
CODES = {CODE: "P0"}


def findings(site: Site) -> list[Finding]:
    """One P0 for each option of the site whose value expanded to nothing (engine/scan/cli_args.py
    records the expansion in the setting's note); an option written last with no value at all is
    left to what reads it, as the command line may be cut short by the scan."""
    out = []
    for s in site.unknown.values():
        note = s.note or ""
        if not (s.known and note.startswith(NO_VALUE + ": ") and note.endswith(" expands to nothing")):
            continue
        word = note[len(NO_VALUE) + 2:-len(" expands to nothing")]
        out.append(Finding(CODE, msg("finding.option_without_value", flag=s.key or s.name, word=word), s.file, s.line, "P0",
                           subject=s.name))
    return out
