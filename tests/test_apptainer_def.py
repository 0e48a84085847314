"""An Apptainer/Singularity definition file's `%post` pip install is the release the `.sif` built from it runs
(olcf/olcf_containers_examples frontier/sample_apps/vllm_singlenode: vllm0141rocm72.def pins
`vllm==0.14.1+rocm700`, the sbatch beside it runs `apptainer exec … vllm0141rocm72.sif vllm serve`;
https://github.com/olcf/olcf_containers_examples)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

DEF = """Bootstrap: docker
From: rocm/pytorch:rocm7.2_ubuntu24.04_py3.12_pytorch_release_2.9.1

%post
pip install --upgrade pip cmake
pip install vllm==0.14.1+rocm700 --extra-index-url https://wheels.vllm.ai/rocm/0.14.1/rocm700
"""
SBATCH = """#!/bin/bash
#SBATCH -N 1
APPTAINER_CMD="apptainer exec --fakeroot --writable-tmpfs vllm0141rocm72.sif "
srun -N1 -n1 $APPTAINER_CMD vllm serve --tensor-parallel-size 8 openai/gpt-oss-20b --port 8000 &
"""


def test_def_file_pins_the_site_beside_it(write_project):
    (sr,) = audit(write_project({"vllm0141rocm72.def": DEF, "launch.sbatch": SBATCH})).sites
    assert sr.version.version == "0.14.1+rocm700" and sr.version.pin.file == "vllm0141rocm72.def"


def test_a_def_that_is_no_recipe_pins_nothing(write_project):
    (sr,) = audit(write_project({"names.def": "pip install vllm==0.14.1\n", "launch.sbatch": SBATCH})).sites
    assert sr.version.version != "0.14.1"
