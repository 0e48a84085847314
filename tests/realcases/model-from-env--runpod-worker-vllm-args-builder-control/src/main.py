import subprocess

from args_builder import build_vllm_args


def start_vllm():
    argv = ["vllm", "serve", "--host", "127.0.0.1", "--port", "8000"]
    argv += build_vllm_args()
    return subprocess.Popen(argv)


if __name__ == "__main__":
    start_vllm().wait()
