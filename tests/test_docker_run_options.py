"""Unknown words among `docker run`'s options are not the image (engine/scan/docker_run.py): an unquoted
`${DETACH:+$DETACH}` that is an option or nothing, and the elements a loop appends to a `CMD=(docker run …)`
array before `"$IMAGE"` (pulsar-gb10-vllm-stack serve.sh, https://github.com/luisefigueroa/pulsar-gb10-vllm-stack,
eval68: the project's main launcher was missed)."""
from vllm_kb.engine.audit import audit

LIB = """\
VLLM_IMAGE_MAINLINE="${VLLM_IMAGE_MAINLINE:-vllm/vllm-openai:v0.26.0}"
load_conf() {
  IMAGE="" CONTAINER_ENV=()
  . "$REPO_DIR/models/$1.conf"
  IMAGE="${IMAGE:-$VLLM_IMAGE_MAINLINE}"
}
"""
SERVE = """\
#!/usr/bin/env bash
# serve one vLLM profile
REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$REPO_DIR/scripts/lib.sh"
DETACH=""
[ "${2:-}" = "-d" ] && DETACH="-d"
load_conf "$1"
CMD=(docker run --name pulsar ${DETACH:+$DETACH} --gpus all --ipc=host)
for e in ${CONTAINER_ENV[@]+"${CONTAINER_ENV[@]}"}; do CMD+=(-e "$e"); done
CMD+=("$IMAGE" --model Qwen/Qwen3-8B --gpu-memory-utilization 0.85)
exec "${CMD[@]}"
"""


def _sites(tmp_path, serve=SERVE):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "lib.sh").write_text(LIB)
    (tmp_path / "serve.sh").write_text(serve)
    return audit(tmp_path, gpu="A100-80GB").sites


def test_image_from_a_sourced_function_behind_unknown_options(tmp_path):
    (sr,) = _sites(tmp_path)
    assert sr.site.kind == "vllm serve" and sr.site.file == "serve.sh"
    assert sr.facts["vllm"]["version"] == "0.26.0" and sr.site.settings["gpu_memory_utilization"].value == 0.85


def test_an_unknown_image_with_flags_only_is_still_no_site(tmp_path):
    # nothing says what `$OTHER` runs: its flags alone make no vLLM launch
    assert not _sites(tmp_path, SERVE.replace('"$IMAGE"', '"$OTHER"'))


K8S = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: backend
          image: {image}
          ports:
            - containerPort: 8000
"""


def test_project_app_image_named_for_vllm_is_no_server(tmp_path):
    # vllm-optimizer (https://github.com/belonghim/vllm-optimizer): its FastAPI backend and nginx frontend images
    from vllm_kb.engine.scan.images import is_vllm_like_image

    assert not is_vllm_like_image("quay.io/acme/vllm-optimizer-backend:dev")
    assert not is_vllm_like_image("quay.io/acme/vllm-optimizer-frontend:dev")
    assert is_vllm_like_image("opea/vllm-gaudi:1.2") and is_vllm_like_image("quay.io/modh/vllm:rhoai-2.20")
    (tmp_path / "dep.yaml").write_text(K8S.format(image="quay.io/acme/vllm-optimizer-backend:dev"))
    assert not audit(tmp_path, gpu="A100-80GB").sites
    (tmp_path / "dep.yaml").write_text(K8S.format(image="quay.io/acme/vllm-cuda:0.10.0"))
    assert len(audit(tmp_path, gpu="A100-80GB").sites) == 1


CLUSTER = """\
#!/usr/bin/env bash
# start the head rank of a vLLM cluster
REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$REPO_DIR/scripts/lib.sh"
load_conf "$1"
build_cmd() {
  local -a cmd=(docker run -d --name head --gpus all --network host)
  cmd+=("$IMAGE" --model Qwen/Qwen3-8B --nnodes 2 --node-rank 0)
  _DOCKER_CMD=("${cmd[@]}")
}
build_cmd
HEAD_RUN=("${_DOCKER_CMD[@]}")
if ! cid=$("${HEAD_RUN[@]}"); then
  exit 1
fi
"""


def test_launch_whose_output_is_kept_and_a_library_above_the_script(tmp_path):
    # pulsar-gb10-vllm-stack cluster/start-cluster.sh: REPO_DIR is the folder above the script's, and the
    # head's `docker run -d` runs inside `cid=$(…)`
    (tmp_path / "cluster").mkdir()
    (tmp_path / "cluster" / "start.sh").write_text(CLUSTER)
    (sr,) = _sites(tmp_path, serve="#!/bin/bash\necho nothing\n")
    assert sr.site.file == "cluster/start.sh" and sr.facts["vllm"]["version"] == "0.26.0"
    assert sr.site.settings["nnodes"].value == 2


def test_output_of_a_plain_command_is_no_launch(tmp_path):
    (tmp_path / "run.sh").write_text('#!/bin/bash\n# vllm\nID=$(docker ps -q --filter name=vllm)\nV=$(python -c "import vllm")\n')
    assert not audit(tmp_path, gpu="A100-80GB").sites


def test_values_emptied_before_a_profile_picked_at_run_time_are_unknown(tmp_path):
    # `MODEL=""` and then `. "models/$1.conf"`: the profile sets the model; a virtualenv's activate sets none
    script = '#!/bin/bash\nMODEL="" PORT=""\n. "{src}"\nvllm serve "$MODEL" --port "${{PORT:-8000}}"\n'
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "run.sh").write_text(script.format(src="$(dirname \"$0\")/models/$1.conf"))
    (sr,) = audit(tmp_path / "a", gpu="A100-80GB").sites
    assert sr.site.model is not None and sr.site.model.resolved is False
    assert sr.site.settings["port"].value == 8000
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "run.sh").write_text(script.format(src="$VENV/bin/activate").replace('MODEL=""', "MODEL=Qwen/Qwen3-8B"))
    (sr,) = audit(tmp_path / "b", gpu="A100-80GB").sites
    assert sr.site.model.value == "Qwen/Qwen3-8B"
