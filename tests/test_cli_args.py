import pytest
from vllm_kb.engine.kb import catalog
from vllm_kb.engine.scan.cli_args import ArgParser, args_from_words
from vllm_kb.engine.scan.shell import parse
from vllm_kb.engine.scan.shell_expand import Expander

CAT = catalog.load()


def parsed(line, version="0.33.0", positional=True):
    cmd = parse(line)[0]
    ex = Expander()
    for w in cmd.words:
        ex.expand(w)
    return ArgParser(CAT, version, "s.sh").parse(args_from_words(cmd.words), positional_model=positional)


def test_spellings_of_the_same_flag():
    p = parsed("m --gpu_memory_utilization=0.8 -tp 2 --max-num-seqs 64 --enable-prefix-caching")
    assert p.model.value == "m"
    assert p.settings["gpu_memory_utilization"].value == 0.8
    assert p.settings["tensor_parallel_size"].value == 2
    assert p.settings["max_num_seqs"].value == 64
    assert p.settings["enable_prefix_caching"].value is True
    assert p.settings["gpu_memory_utilization"].key == "--gpu_memory_utilization"


def test_negation_json_and_dotted_keys():
    p = parsed("m --no-enable-prefix-caching --speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 5}' "
               "--compilation-config.cudagraph_capture_sizes '[1, 2, 4]' -cc.mode 3")
    assert p.settings["enable_prefix_caching"].value is False
    assert p.settings["speculative_config"].value == {"method": "ngram", "num_speculative_tokens": 5}
    assert p.settings["compilation_config"].value == {"cudagraph_capture_sizes": [1, 2, 4], "mode": 3}


@pytest.mark.parametrize("version,expected", [("0.33.0", ("optimization_level", 3)), ("0.10.2", ("compilation_config", {"level": 3}))])
def test_dash_O_means_different_things_per_release(version, expected):
    p = parsed("m -O3", version=version)
    name, value = expected
    assert p.settings[name].value == value


def test_unresolved_values_and_extra_args_are_kept_apart():
    p = parsed('m --tensor-parallel-size $TP "$@"')
    s = p.settings["tensor_parallel_size"]
    assert not s.resolved and s.note == "$TP"
    assert [a.raw for a in p.extra_args] == ['"$@"']


def test_removed_and_unknown_flags():
    p = parsed("m --swap-space 16 --gpu-memory-utilisation 0.9")
    assert p.settings["swap_space"].known is False  # existed until 0.17
    assert "gpu_memory_utilisation" in p.unknown


def test_config_flag_is_collected():
    p = parsed("--config conf.yaml --port 8000")
    assert p.model is None and p.config_path.text == "conf.yaml"


@pytest.mark.parametrize("line,model,stray", [
    ("--port 8000 Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct", []),  # argparse takes it after options
    ("Qwen/Q --port 8000 extra", "Qwen/Q", ["extra"]),
    ("--max-model-len 4096 Qwen/Q --enforce-eager", "Qwen/Q", []),
    ("$MODEL --port 8000", None, []),  # unresolved, still the model
])
def test_the_model_positional_is_read_wherever_argparse_takes_it(line, model, stray):
    p = parsed(line)
    assert p.model_positional and p.model.value == model and [a.raw for a in p.positionals] == stray


def test_a_list_option_swallows_the_model_and_model_flags_are_told_apart():
    p = parsed("--port 8000 --served-model-name a Qwen/Q")
    assert p.model is None and p.swallowed[0] == "--served-model-name" and p.first_is_option
    assert p.settings["served_model_name"].value == ["a", "Qwen/Q"]
    assert parsed("--model Qwen/Q").model_flag == "flag" and parsed("--model=Qwen/Q").model_flag == "equals"
    assert not parsed("--model Qwen/Q").model_positional
    p = parsed('"$@"')
    assert p.model is None and [a.raw for a in p.extra_args] == ['"$@"']
    assert parsed("org/m --port 1", positional=False).positionals[0].raw == "org/m"  # api_server takes none


@pytest.mark.parametrize("line", ["m --enable-chunked-prefill --max-model-len 32000", "m --max-model-len 32000 --enable-chunked-prefill"])
def test_an_optional_boolean_value_alone_is_on_and_takes_no_flag_as_its_value(line):
    # 0.5.3-0.8.4: StoreBoolean with nargs="?" and const "True" (vllm/engine/arg_utils.py)
    p = parsed(line, version="0.6.0")
    assert p.settings["enable_chunked_prefill"].value is True
    assert p.settings["max_model_len"].value == 32000


def test_an_optional_boolean_value_given_is_read():
    assert parsed("m --enable-chunked-prefill False", version="0.6.0").settings["enable_chunked_prefill"].value is False


def test_a_positional_and_model_flag_keep_both_values():
    # vllm#7345: `vllm serve NAME --model PATH` (0.5.2-0.5.4 serve NAME; 0.11.1+ move PATH to the front)
    p = parsed("llava1.5-7b --model /mnt/models/ --tensor-parallel-size 2", version="0.5.4")
    assert p.model.value == "llava1.5-7b" and p.model_positional and p.model_flagged.value == "/mnt/models/"


@pytest.mark.parametrize("version,priority", [("0.5.4", "P1"), ("0.5.5", "P0"), ("0.13.0", "P0")])
def test_l33_on_a_positional_and_model_flag(tmp_path, version, priority):
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "serve.sh").write_text("vllm serve llava1.5-7b --model /mnt/models/ --trust-remote-code\n")
    (site,) = audit(tmp_path, gpu="RTX-3090 x2").sites
    res = next(r for r in site.results if r.check.id == "L33")
    assert (res.status, res.priority) == ("recommended", priority)
    if version == "0.5.4":
        assert site.facts["launch"]["model_flag_value"] == "/mnt/models/"
    (tmp_path / "serve.sh").write_text("vllm serve /mnt/models/ --served-model-name llava1.5-7b --trust-remote-code\n")
    res = next(r for r in audit(tmp_path, gpu="RTX-3090 x2").sites[0].results if r.check.id == "L33")
    assert res.status != "recommended" or res.priority not in ("P0", "P1")
