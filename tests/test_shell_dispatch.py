"""A script whose one call line runs one of several functions (a dispatcher's `case`), each with its
own `vllm serve`: each launch is its own site at its own line, never one site with the union of
their options (crazyguitar/pysheeet src/llm/vllm/run.sh, eval73: `--host` of the head and `--headless`
of the worker were read as one launch, the Ray branch's `--data-parallel-backend ray` lost)."""

RUN = """#!/bin/bash
MODEL=Qwen/Qwen2.5-7B-Instruct
launch_single() {
  vllm serve "$MODEL" --host 0.0.0.0 --gpu-memory-utilization 0.9
}
launch_ray() {
  vllm serve "$MODEL" --data-parallel-backend ray --data-parallel-size 2
}
launch_worker() {
  local args=(--headless --data-parallel-rpc-port 13345)
  [ "$TP" -gt 1 ] && args+=(--tensor-parallel-size "$TP")
  vllm serve "$MODEL" "${args[@]}"
}
launch() {
  case "$1" in
    single) launch_single ;;
    ray) launch_ray ;;
    worker) launch_worker ;;
  esac
}
launch "$MODE"
"""


def test_each_function_of_a_dispatcher_is_its_own_site(scanned):
    sites = scanned({"run.sh": RUN})
    by_line = {s.line: s for s in sites}
    assert sorted(by_line) == [4, 7, 12]
    assert "headless" not in by_line[4].settings and by_line[4].settings["host"].value == "0.0.0.0"
    assert by_line[7].settings["data_parallel_backend"].value == "ray"
    assert by_line[12].settings["headless"].value is True and "host" not in by_line[12].settings


def test_one_function_called_once_stays_at_its_call(scanned):
    one = "#!/bin/bash\nstart() {\n  vllm serve m --port 8001\n}\nstart\n"
    (site,) = scanned({"run.sh": one})
    assert site.line == 5


TWIN = """#!/bin/bash
start() {
  if command -v setsid >/dev/null 2>&1; then
    setsid vllm serve m --gpu-memory-utilization 0.9 > log 2>&1 &
  else
    vllm serve m --gpu-memory-utilization 0.9 > log 2>&1 &
  fi
}
start
"""


def test_the_same_launch_in_both_branches_is_one_site(scanned):
    # eval68 vllm-ds4-sm120-harness run_b200_baseline.sh: `setsid` when there is one; read as two engines, they
    # were one GPU shared at 0.9 + 0.9 (a false L37 P0)
    (site,) = scanned({"run.sh": TWIN})
    assert site.line == 9


def test_one_calls_alternatives_never_share_a_gpu(write_project):
    from vllm_kb.engine.audit import audit

    two = TWIN.replace("setsid vllm serve m", "setsid vllm serve other")
    rep = audit(write_project({"run.sh": two}), gpu="H100-80GB")
    assert sorted(sr.site.line for sr in rep.sites) == [4, 6]
    assert not any(r.check.id == "L37" and r.status == "recommended" for sr in rep.sites for r in sr.results)


ARMS = """#!/bin/bash
case "${BACKEND}" in
  a) vllm serve m --gpu-memory-utilization 0.9 > a.log 2>&1 & ;;
  b) vllm serve other --gpu-memory-utilization 0.9 > b.log 2>&1 & ;;
esac
"""


def test_launches_in_different_arms_of_a_case_never_share_a_gpu(write_project):
    # crazyguitar/pysheeet run.sbatch (eval73): `case "${DP_BACKEND}" in ray) … mp) … rpc) …`, each arm
    # starting a detached server; read as running together they gave L37 P0s
    from vllm_kb.engine.audit import audit

    def l37(text):
        rep = audit(write_project({"run.sh": text}), gpu="H100-80GB")
        assert len(rep.sites) == 2
        return any(r.check.id == "L37" and r.status == "recommended" for sr in rep.sites for r in sr.results)

    assert not l37(ARMS)
    assert l37("#!/bin/bash\nvllm serve m --gpu-memory-utilization 0.9 > a.log 2>&1 &\n"
               "vllm serve other --gpu-memory-utilization 0.9 > b.log 2>&1 &\n")


ENGINES = """#!/bin/bash
ENGINE="${1:-vllm}"
start_server() {
    local extra_args="$1"
    if [ "$ENGINE" = "vllm" ]; then
        python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B $extra_args &
    elif [ "$ENGINE" = "sglang" ]; then
        python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B $extra_args &
    fi
}
if [ "$ENGINE" = "sglang" ]; then
    start_server "--disable-radix-cache"
else
    start_server "--enable-prefix-caching"
fi
case "$ENGINE" in
    sglang) start_server "--enable-torch-compile" ;;
    vllm) start_server "--enforce-eager" ;;
esac
"""


def test_a_flag_passed_in_the_other_engines_branch_never_reaches_vllm(tmp_path):
    # eval89 0xquinto/inference-engineering-portfolio (https://github.com/0xquinto/inference-engineering-portfolio)
    # 03-prefix-caching/scripts/run_benchmarks.sh: `start_server "--disable-radix-cache"` under
    # `[ "$ENGINE" = "sglang" ]`, and the helper runs vLLM only when ENGINE is vllm: the SGLang flag was read as a
    # vLLM option (false P0); the branches for vLLM keep their own options
    from vllm_kb.engine.audit import audit

    (tmp_path / "run.sh").write_text(ENGINES)
    rep = audit(tmp_path, gpu="A100-80GB")
    assert sorted(sorted(s.site.settings) for s in rep.sites) == [["enable_prefix_caching"], ["enforce_eager"]]
    assert not [f for s in rep.sites for f in s.remarks if f.priority == "P0"]
