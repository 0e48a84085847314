"""Kubernetes manifests that a shell script writes with a here-document and then applies:
`cat <<EOF >> vllm.yaml` … `kubectl apply -f vllm.yaml`, `cat <<EOF | kubectl apply -f -`,
`tee x.yaml <<EOF` (tchangkiat/aws-cdk-stacks scripts/eks/install-vllm-meta-llama.sh writes a vLLM
Deployment so). The body is read as YAML at its own lines: everything else in the script is blanked
to spaces, so lines and offsets stay the script's own."""
from __future__ import annotations

import re

# the writer and its delimiter: `cat <<EOF >>x.yaml`, `cat > x.yml <<'EOF'`, `tee x.yaml <<-EOF`, `cat <<EOF | kubectl apply -f -`
_OPEN = re.compile(r"^[ \t]*(?:cat|tee)\b(?P<line>[^\n]*?)<<(?P<dash>-?)[ \t]*(?P<q>['\"]?)(?P<delim>[A-Za-z_]\w*)(?P=q)(?P<rest>[^\n]*)$", re.M)
_TARGET = re.compile(r"\.ya?ml\b|kubectl\s+(?:apply|create)\b|oc\s+(?:apply|create)\b")


def bodies(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the here-document bodies that are Kubernetes manifests."""
    out = []
    for m in _OPEN.finditer(text):
        if not _TARGET.search(m.group("line") + m.group("rest")):
            continue
        start = m.end() + 1
        close = re.compile(r"^" + ("[\t]*" if m.group("dash") else "") + re.escape(m.group("delim")) + r"[ \t]*$", re.M)
        end = close.search(text, start)
        if end is None:
            continue
        body = text[start:end.start()]
        if re.search(r"^\s*kind:\s*\w+", body, re.M) and "vllm" in body:
            out.append((start, end.start()))
    return out


def masked(text: str, spans: list[tuple[int, int]]) -> str:
    """The script with everything outside `spans` blanked to spaces (newlines kept)."""
    keep = bytearray(len(text))
    for a, b in spans:
        keep[a:b] = b"\x01" * (b - a)
    return "".join(c if keep[i] or c == "\n" else " " for i, c in enumerate(text))
