# shared helpers: source only
REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VLLM_IMAGE_MAINLINE="${VLLM_IMAGE_MAINLINE:-vllm/vllm-openai:v0.26.0}"

load_conf() {
  local conf="$REPO_DIR/models/$1.conf"
  MODEL="" IMAGE="" CONTAINER_ENV=() ENGINE_ARGS=()
  . "$conf"
  IMAGE="${IMAGE:-$VLLM_IMAGE_MAINLINE}"
  GPU_MEM_UTIL="${GPU_MEM_UTIL:-0.80}"
}
