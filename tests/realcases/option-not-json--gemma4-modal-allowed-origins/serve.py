import subprocess


def serve():
    cmd = [
        "vllm",
        "serve",
        "Qwen/Qwen3-4B",
        "--host",
        "0.0.0.0",
        "--port",
        "8000",
        "--allowed-origins",
        "*",
        "--allowed-methods",
        "*",
        "--allowed-headers",
        "*",
    ]
    subprocess.Popen(cmd)
