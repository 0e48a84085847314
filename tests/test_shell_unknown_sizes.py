"""A shell expansion whose size the files do not say stays unknown, never 1: `read -a` of an unknown line,
an array built from an unquoted unknown expansion, arrays that differ between branches, and positional
parameters after an unquoted unknown argument. Real case: longyongchao/CopyPasteLRM scripts/utils/vllm.sh
(https://github.com/longyongchao/CopyPasteLRM), `IFS=',' read -ra GPUS <<< "$cuda_devices"; local
tp_size=${#GPUS[@]}`, read as TP 1, which gave 35 wrong "TP 1 leaves GPUs idle" P1s."""
from __future__ import annotations

import pytest

M = "Qwen/Qwen2.5-7B-Instruct"
LAUNCH = f"CUDA_VISIBLE_DEVICES=$devs vllm serve {M} --tensor-parallel-size $tp\n"

UNKNOWN = {
    "read-a": 'devs=$VLLM_DEVICES\nIFS="," read -ra GPUS <<< "$devs"\ntp=${#GPUS[@]}\n',
    "read-a-in-function": ('launch() {\n  local devs=$1\n  IFS="," read -ra GPUS <<< "$devs"\n  local tp=${#GPUS[@]}\n  '
                           + LAUNCH + '}\nlaunch "$VLLM_DEVICES"\n'),
    "array-of-unquoted-unknown": "devs=0,1\nGPUS=($(echo $VLLM_DEVICES | tr , ' '))\ntp=${#GPUS[@]}\n",
    "branches-differ": 'devs=0,1\nif [ "$(hostname)" = big ]; then GPUS=(0 1 2 3); else GPUS=(0 1); fi\ntp=${#GPUS[@]}\n',
    "argc-after-unquoted": "devs=0,1\nrun() { tp=$#; }\nrun $VLLM_DEVICE_LIST\n",
}
KNOWN = {
    "literal-array": ("devs=0,1\nGPUS=(0 1 2 3)\ntp=${#GPUS[@]}\n", 4),
    "quoted-unknown-element": ('devs=0,1\nGPUS=("$A" "$B")\ntp=${#GPUS[@]}\n', 2),
    "branches-same-length": ('devs=0,1\nif [ "$(hostname)" = big ]; then GPUS=(0 1); else GPUS=(2 3); fi\ntp=${#GPUS[@]}\n', 2),
    "argc-quoted": 'devs=0,1\nrun() { tp=$#; }\nrun "$A" "$B"\n',
}


@pytest.mark.parametrize("name", sorted(UNKNOWN))
def test_an_unknown_size_stays_unknown(scanned, name):
    text = UNKNOWN[name] if "launch" in UNKNOWN[name] else UNKNOWN[name] + LAUNCH
    (s,) = scanned({"run.sh": text})
    tp = s.settings["tensor_parallel_size"]
    assert tp.value is None and not tp.resolved


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_a_known_size_is_counted(scanned, name):
    text, want = KNOWN[name] if isinstance(KNOWN[name], tuple) else (KNOWN[name], 2)
    (s,) = scanned({"run.sh": text + LAUNCH})
    assert s.settings["tensor_parallel_size"].value == want
