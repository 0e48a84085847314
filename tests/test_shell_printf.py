"""A launch a shell script writes into another script with printf/echo and runs later
(engine/scan/shell_printf.py): ORGRUI/glm51-vllm-deploy-skill references/serve_vllm_glm51.sh
prints a `docker run … vllm/vllm-openai-rocm:latest` line and `printf '  %q' "${server_cmd[@]}"` into
`$cmd_file` and `nohup`s it (eval75). The written command is one site, with the array's settings at
their own lines and the image, and it reads as the same command written out directly."""
import textwrap

from vllm_kb.engine.audit import audit

WRITER = """
    #!/usr/bin/env bash
    set -euo pipefail
    IMAGE="${VLLM_IMAGE:-vllm/vllm-openai-rocm:latest}"
    TP="${VLLM_TP:-8}"
    DOCKER_RUN=(docker run)
    if ! docker ps >/dev/null 2>&1; then
      DOCKER_RUN=(sudo -S docker run)
    fi
    EXTRA='--enable-prefix-caching --compilation-config={"cudagraph_mode":"PIECEWISE"}'
    read -r -a extra_args <<<"${EXTRA}"
    server_cmd=(
      vllm serve "${MODEL:-Qwen/Qwen2.5-7B-Instruct}"
      --tensor-parallel-size "${TP}"
      --max-model-len 32768
    )
    server_cmd+=("${extra_args[@]}")
    cmd_file="/tmp/serve_$(date +%s).sh"
    {
      echo "#!/usr/bin/env bash"
      if [[ "${DOCKER_RUN[0]}" == "sudo" ]]; then
        printf 'sudo -S docker run --rm --name %q \\\\\\n' "qwen"
      else
        printf 'docker run --rm --name %q \\\\\\n' "qwen"
      fi
      printf '  --network host --device /dev/kfd --device /dev/dri \\\\\\n'
      printf '  %q \\\\\\n' "${IMAGE}"
      printf '  %q' "${server_cmd[@]}"
      echo
    } >"${cmd_file}"
    chmod +x "${cmd_file}"
    nohup "${cmd_file}" >serve.log 2>&1 &
"""

DIRECT = """
    docker run --rm --name qwen --network host --device /dev/kfd --device /dev/dri vllm/vllm-openai-rocm:latest \\
      vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 8 --max-model-len 32768 \\
      --enable-prefix-caching --compilation-config='{"cudagraph_mode":"PIECEWISE"}'
"""


def _sites(tmp_path, name: str, text: str):
    (tmp_path / name).write_text(textwrap.dedent(text).lstrip())
    return audit(tmp_path, gpu="8xMI300X").sites


def _view(sr):
    return {k: s.value for k, s in sr.site.settings.items()}, sr.site.kind, sr.site.image, \
        sorted(r.check.id for r in sr.results if r.priority == "P0")


def test_printf_written_script_is_one_site_like_the_direct_command(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (sr,) = _sites(tmp_path / "a", "serve.sh", WRITER)
    (direct,) = _sites(tmp_path / "b", "serve.sh", DIRECT)
    assert _view(sr) == _view(direct)
    s = sr.site.settings
    assert s["tensor_parallel_size"].value == 8 and s["tensor_parallel_size"].line == 13  # the array's own line
    assert s["compilation_config"].value == {"cudagraph_mode": "PIECEWISE"}
    assert sr.site.image == "vllm/vllm-openai-rocm:latest"
    assert sr.site.line == 18  # the group that writes the file


def test_printf_of_an_array_into_a_sh_file(tmp_path):
    (sr,) = _sites(tmp_path, "gen.sh", """
        cmd=(vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096)
        printf '%q ' "${cmd[@]}" > launch.sh
        bash launch.sh
    """)
    assert sr.site.kind == "vllm serve" and sr.site.settings["max_model_len"].value == 4096


def test_output_that_is_no_script_is_not_read(tmp_path):
    # a log line, not a script: neither a .sh target nor a shebang
    assert _sites(tmp_path, "gen.sh", """
        cmd=(vllm serve Qwen/Qwen2.5-7B-Instruct)
        { printf '%q ' "${cmd[@]}"; echo; } > cmdline.txt
    """) == []


def test_a_format_the_emulation_does_not_know_reads_nothing(tmp_path):
    assert _sites(tmp_path, "gen.sh", """
        cmd=(vllm serve Qwen/Qwen2.5-7B-Instruct)
        { echo "#!/bin/bash"; printf '%-40s %b\\n' "${cmd[@]}"; } > launch.sh
    """) == []


def test_sweep_serve_cmd_is_the_server_it_starts(tmp_path):
    # `vllm bench sweep serve` runs shlex.split(--serve-cmd) once per sweep point (vLLM ≥0.11.1)
    (sr,) = _sites(tmp_path, "sweep.sh", """
        MODEL=Qwen/Qwen2.5-7B-Instruct
        vllm bench sweep serve --serve-cmd "vllm serve ${MODEL} -tp 4 --max-model-len 8192" \\
            --bench-cmd "vllm bench serve --model ${MODEL}"
    """)
    assert sr.site.kind == "vllm serve" and sr.site.settings["tensor_parallel_size"].value == 4
    assert not sr.site.opaque


def test_sweep_with_unseen_arguments_says_so(tmp_path):
    # a --serve-params file or a later --serve-cmd may come with the script's own arguments
    (sr,) = _sites(tmp_path, "sweep.sh", """
        launch() {
            local cmd=(docker run --rm --gpus all myorg/bench:1 "$@")
            "${cmd[@]}"
        }
        launch vllm bench sweep serve --serve-cmd "vllm serve Qwen/Qwen2.5-7B-Instruct" "$@"
    """)
    assert sr.site.kind == "vllm serve" and sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert [o["code"] for o in sr.site.opaque] == ["forwards-args"]


def test_read_a_here_string_splits_at_ifs(tmp_path):
    # CopyPasteLRM scripts/utils/vllm.sh (eval60): the TP is the number of devices listed
    (sr,) = _sites(tmp_path, "serve.sh", """
        DEVICES="0,1,2,3"
        IFS=',' read -ra GPUS <<< "$DEVICES"
        vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size "${#GPUS[@]}"
    """)
    assert sr.site.settings["tensor_parallel_size"].value == 4


def test_read_a_here_string_with_an_unknown_part_stays_unknown(tmp_path):
    (sr,) = _sites(tmp_path, "serve.sh", """
        IFS=',' read -ra GPUS <<< "$CUDA_VISIBLE_DEVICES"
        vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size "${#GPUS[@]}"
    """)
    assert not sr.site.settings["tensor_parallel_size"].resolved


def test_a_record_of_the_launch_the_script_makes_itself_is_not_a_second_site(tmp_path):
    # vllm-ds4-sm120-harness run_b200_baseline.sh (eval68): serve_command.sh is written, never run
    (sr,) = _sites(tmp_path, "bench.sh", """
        args=(serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096)
        {
          printf '#!/usr/bin/env bash\\n'
          printf '%q ' vllm "${args[@]}"
          printf '\\n'
        } > "out/serve_command.sh"
        chmod +x "out/serve_command.sh"
        setsid vllm "${args[@]}" > serve.log 2>&1 &
    """)
    assert sr.site.line == 8


def test_a_redirected_subshell_keeps_its_assignments(tmp_path):
    (sr,) = _sites(tmp_path, "serve.sh", """
        TP=2
        ( TP=4; echo starting ) > log.txt 2>&1
        vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size $TP
    """)
    assert sr.site.settings["tensor_parallel_size"].value == 2
