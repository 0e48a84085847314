"""`vllm serve` behind a variable a script leaves empty or sets to a profiler (`${NSYS_CMD} vllm serve …`),
nested in `srun … bash -c "docker exec -d NAME bash -c '…'"` (crazyguitar/pysheeet run.sbatch, eval73):
vLLM is what runs, whatever runs in front of it."""

SBATCH = """#!/bin/bash
NSYS_CMD=""
if [[ "${ENABLE_NSYS}" == "true" ]]; then
  NSYS_CMD="nsys profile -o /tmp/p"
fi
start() {
  local extra="--host 0.0.0.0 --port 8000 --max-model-len 8192"
  srun --nodes=1 bash -c \\
    "docker exec -d ray-head bash -c '${NSYS_CMD} vllm serve Qwen/Qwen2.5-7B-Instruct ${extra} 2>&1 | tee /tmp/log'"
}
start
"""


def test_a_profiler_prefix_variable_in_nested_shells(scanned):
    (site,) = scanned({"run.sbatch": SBATCH})
    assert site.kind == "vllm serve" and site.settings["max_model_len"].value == 8192


def test_an_unknown_word_before_other_programs_is_no_launch(scanned):
    assert scanned({"run.sh": "#!/bin/bash\n$TOOL vllm-serve m\n$TOOL vllm bench serve\n"}) == []
