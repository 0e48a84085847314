from vllm_kb.engine.scan.shell import parse
from vllm_kb.engine.scan.shell_expand import Expander, split_assignment


def words(cmd):
    return [w.raw for w in cmd.words]


def test_continuations_quotes_comments_and_operators():
    text = 'A=1\n# vllm serve nope\nvllm serve m \\\n  --x "a b" \'{\n "k": 1}\' && echo ok # tail\n'
    cmds = parse(text)
    assert [words(c) for c in cmds] == [["A=1"], ["vllm", "serve", "m", "--x", '"a b"', "'{\n \"k\": 1}'"], ["echo", "ok"]]
    assert cmds[1].line == 3 and cmds[1].words[3].line == 4


def test_a_backslash_ending_the_file_is_no_word():
    # bash drops a continuation backslash with nothing after it (om-ai-lab/VLM-R1's vllm_ascend_server.sh ends so);
    # a backslash before a space is a word of one space
    assert [words(c) for c in parse("vllm serve m \\\n  --trust-remote-code \\")] == [["vllm", "serve", "m", "--trust-remote-code"]]
    assert [[w.literal for w in c.words] for c in parse("vllm serve m \\  ")] == [["vllm", "serve", "m", " "]]


def test_heredoc_bodies_and_redirections_are_not_commands():
    text = "cat <<EOF > x\nvllm serve inside\nEOF\nnohup vllm serve m > log 2>&1 &\n"
    cmds = parse(text)
    assert [words(c) for c in cmds] == [["cat"], ["nohup", "vllm", "serve", "m"]]


def test_expansion_against_earlier_assignments_and_defaults():
    ex = Expander()
    cmds = parse('M=${1:-org/model}\nTP=4\nvllm serve $M -tp "${TP}" --x ${UNSET:-7} --y $NOPE "$@"\n')
    for c in cmds[:2]:
        ex.assign(*split_assignment(c.words[0]))
    ws = [ex.expand(w) for w in cmds[2].words]
    assert ws[2].value == "org/model" and "default of ${1:-org/model}" in ws[2].assumed
    assert ws[4].value == "4"
    assert ws[6].value == "7" and ws[6].assumed
    assert ws[8].value is None and ws[8].unresolved == "$NOPE"
    assert ws[9].is_all_args


def test_word_offsets_point_into_the_text():
    text = "vllm serve m --gpu-memory-utilization 0.8\n"
    w = parse(text)[0].words[3]
    assert text[w.start:w.end] == "--gpu-memory-utilization"


def test_cluster_wrappers_before_vllm_serve():
    from vllm_kb.engine.scan.launchers import find_launch
    from vllm_kb.engine.scan.shell import parse
    from vllm_kb.engine.scan.shell_expand import Expander

    for line in ('ray job submit --address="http://127.0.0.1:8265" --job-id vllm-server -- vllm serve m --port 8000',
                 "srun -N 1 --gpus=8 --container-image vllm/vllm-openai:v0.11.0 vllm serve m --port 8000"):
        (cmd,) = parse(line)
        ex = Expander()
        for w in cmd.words:
            ex.expand(w)
        launch = find_launch(cmd.words)
        assert launch is not None and launch.kind == "vllm serve", line
        assert cmd.words[launch.argv_start].value == "m"


def test_a_vllm_binary_named_for_its_release_is_a_launch(tmp_path):
    # GPUStack runs a per-release executable: /var/lib/gpustack/bin/vllm_v0.10.0 serve … (gpustack #2616)
    from vllm_kb.engine.audit import audit

    (tmp_path / "run.sh").write_text("/var/lib/gpustack/bin/vllm_v0.10.0 serve Qwen/Qwen3-4B --enable-reasoning --reasoning-parser deepseek_r1\n"
                                     "vllm_helper serve x\n")
    (sr,) = audit(tmp_path, gpu="RTX-4090", vllm_version="0.10.0").sites
    assert sr.site.kind == "vllm serve" and sr.site.model.value == "Qwen/Qwen3-4B"


def test_a_vllm_binary_named_for_its_release_runs_that_release_whatever_the_project_pins(tmp_path):
    # GPUStack's vllm_v0.6.3 is 0.6.3 even beside a requirements pin or with none: --reasoning-parser
    # came in 0.7.1, so that launch stops on the unknown flag (gpustack #2616's class)
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.10.0\n")
    (tmp_path / "run.sh").write_text("/var/lib/gpustack/bin/vllm_v0.6.3 serve Qwen/Qwen2.5-7B-Instruct --reasoning-parser deepseek_r1\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert (sr.version.version, sr.version.basis, sr.version.pinned) == ("0.6.3", "executable", True)
    assert [(f.id, f.priority) for f in sr.remarks if f.id.startswith("not-in-version")] == [("not-in-version:reasoning_parser", "P0")]



def test_the_set_u_safe_array_expansion_gives_the_arrays_words(tmp_path):
    # vLLM 0.34's .buildkite/scripts/scheduled_integration_test/deepseek_v2_lite_prefetch_offload.sh:
    # `vllm serve "$MODEL" … ${EXTRA_ARGS+"${EXTRA_ARGS[@]}"}` was one stray positional word
    from vllm_kb.engine.audit import audit

    (tmp_path / "run.sh").write_text('E=()\nE+=(--enforce-eager --max-model-len 2048)\nvllm serve Qwen/Qwen2-7B ${E+"${E[@]}"}\n'
                                     'F=()\nvllm serve Qwen/Qwen2-7B --port 8001 ${F+"${F[@]}"}\n')
    rep = audit(tmp_path, gpu="A100-80GB")
    first, second = sorted(rep.sites, key=lambda s: s.site.line)
    assert first.site.settings["max_model_len"].value == 2048 and first.site.settings["enforce_eager"].value is True
    assert not [f for s in (first, second) for f in s.remarks if f.priority == "P0"]


def test_one_outer_unquoting_for_operands_and_written_words():
    # shell_lexer's `${X:-"a b"}` operand and check/json_values' word as a file writes it: one helper;
    # shell_params' reading (padded) lets white space around the quoted word go, and only there
    from vllm_kb.engine.scan.shell_lexer import outer_unquoted
    assert outer_unquoted("'{\"a\": 1}'") == '{"a": 1}' and outer_unquoted('"a b"') == "a b"
    assert outer_unquoted("'a\"") == "'a\"" and outer_unquoted("'") == "'"
    assert outer_unquoted(' "a b" ') == ' "a b" ' and outer_unquoted(' "a b" ', padded=True) == "a b"
    assert outer_unquoted(" a ", padded=True) == " a "


def test_a_helpers_quoted_all_arguments_after_shift_may_be_no_word_at_all():
    # eval89 0xquinto/inference-engineering-portfolio (https://github.com/0xquinto/inference-engineering-portfolio)
    # scripts/run_gpu_spec_decoding.sh: start_vllm takes model and port, `shift 2`, then passes "$@" to vLLM;
    # called with just those two, "$@" is no word (bash) — not a stray positional; an extra word still is one
    ex = Expander()
    (w,) = parse('x "$@"\n')[0].words[1:]
    ex.positional = []
    assert ex.expand_fields(w) == []
    (w,) = parse('x "${A[@]}"\n')[0].words[1:]
    ex.arrays["A"] = []
    assert ex.expand_fields(w) == []
    assert [f.value for f in ex.expand_fields(parse('x "a$@" ""\n')[0].words[1])] == ["a"]
    assert [f.value for f in ex.expand_fields(parse('x ""\n')[0].words[1])] == [""]


def test_a_helpers_arguments_after_shift_reach_vllm_only_where_the_call_gives_more(tmp_path):
    from vllm_kb.engine.audit import audit

    (tmp_path / "run.sh").write_text('start_vllm() {\n    local model=$1\n    local port=$2\n    shift 2\n'
                                     '    python3 -m vllm.entrypoints.openai.api_server --model "$model" --port "$port" "$@" &\n}\n'
                                     'start_vllm "Qwen/Qwen3-8B" 8010\nstart_vllm "Qwen/Qwen3-8B" 8011 --enforce-eager\n'
                                     'start_vllm "Qwen/Qwen3-8B" 8012 stray\n')
    # before 0.10.0 the api_server module takes no positional at all (from 0.10.0 one is model_tag, ignored)
    (tmp_path / "requirements.txt").write_text("vllm==0.9.2\n")
    got = {s.site.line: [f.id for f in s.remarks if f.priority == "P0"] for s in audit(tmp_path, gpu="A100-80GB").sites}
    assert got == {7: [], 8: [], 9: ["stray-positional"]}
