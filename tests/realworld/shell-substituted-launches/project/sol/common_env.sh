# helpers the run scripts source
sol_activate_env() {
  eval "$(conda shell.bash hook)"
  conda activate grpo
}

sol_python() {
  [ -n "${CONDA_PREFIX:-}" ] || { echo "no env" >&2; exit 1; }
  printf '%s\n' "${CONDA_PREFIX}/bin/python"
}
