import subprocess
import sys


def start_server(model_name: str, port: int) -> subprocess.Popen:
    # the model handler's server, switched from vLLM's OpenAI server module to Dynamo's worker
    server_cmd = [
        sys.executable,
        "-m",
        "dynamo.vllm",
        "--model",
        model_name,
        "--port",
        str(port),
    ]
    return subprocess.Popen(server_cmd)


if __name__ == "__main__":
    start_server("facebook/opt-125m", 48455).wait()
