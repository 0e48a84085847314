import pytest
from vllm_kb.engine.kb import cel


def ev(expr, facts):
    return cel.compile(expr).evaluate(facts)


def test_numbers_compare_across_int_and_double():
    facts = {"engine": {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.9}}
    assert ev("engine.tensor_parallel_size == 2", facts).value is True
    assert ev("engine.tensor_parallel_size > 1.5", facts).value is True
    assert ev("engine.gpu_memory_utilization < 1", facts).value is True
    assert ev("engine.tensor_parallel_size in [1, 2, 4]", facts).value is True
    assert ev("2 + engine.tensor_parallel_size * 2 == 6", facts).value is True


def test_missing_fact_is_unknown_and_names_it():
    out = ev("gpu.arch == 'hopper'", {"engine": {}})
    assert out.value is None and out.missing == ("gpu.arch",)


def test_short_circuit_does_not_need_the_missing_side():
    assert ev("engine.enforce_eager || gpu.fp8", {"engine": {"enforce_eager": True}}).value is True


def test_has_macro_is_a_confident_false():
    assert ev("has(args.max_model_len)", {"args": {}}).value is False


def test_registered_version_functions():
    facts = {"vllm": {"version": "0.10.2"}}
    assert ev('version_ge(vllm.version, "0.10.0")', facts).value is True
    assert ev('version_lt(vllm.version, "0.9.2")', facts).value is False
    assert ev('version_in(vllm.version, ">=0.10,<0.11")', facts).value is True


def test_paths_and_functions_are_extracted_statically():
    p = cel.compile('engine.speculative_config.method in ["eagle"] && args.x.exists(v, v > gpu.count) && size(env.A) > 0')
    assert ("engine", "speculative_config", "method") in p.paths
    assert ("gpu", "count") in p.paths and ("v",) not in p.paths
    assert "size" in p.functions and "exists" not in p.functions  # macros are not calls


def test_non_bool_result_is_not_a_verdict():
    out = ev("engine.kv_cache_dtype", {"engine": {"kv_cache_dtype": "fp8"}})
    assert out.value is None and "not a bool" in out.error


def test_value_expressions_return_plain_python():
    val, err = cel.compile('{"method": model.m, "n": 3}').compute({"model": {"m": "eagle3"}})
    assert err is None and val == {"method": "eagle3", "n": 3}


def test_syntax_error_is_reported():
    with pytest.raises(cel.CelSyntaxError):
        cel.compile("engine.x ==")
