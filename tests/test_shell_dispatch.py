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
