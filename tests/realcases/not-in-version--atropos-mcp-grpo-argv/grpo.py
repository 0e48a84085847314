import subprocess


def start_vllm(model_name: str, port: int):
    # the trainer starts its own OpenAI server for rollouts before each training step
    vllm_command = [
        "python",
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        model_name,
        "--port",
        str(port),
        "--dtype",
        "auto",
        "--gpu-memory-utilization",
        "0.45",
        "--disable-log-requests",
    ]
    return subprocess.Popen(vllm_command)


if __name__ == "__main__":
    start_vllm("Qwen/Qwen2.5-1.5B-Instruct", 9001)
