"""`docker run -d vllm-qwen` beside the Dockerfile that builds it (FROM vllm/vllm-openai, ENTRYPOINT the
project's run_model.sh): the launch is the one the Dockerfile's entrypoint script holds, read once,
not a second site of the image's stock server with no options (maddyrucos/pizzeria_agent llm/, eval73:
one launch counted twice, judged as 0.12.0 and as the newest)."""

FILES = {
    "requirements.txt": "vllm==0.12.0\n",
    "llm/Dockerfile": "FROM vllm/vllm-openai:latest\nWORKDIR /app\nCOPY run_model.sh /app/run_model.sh\n"
                      "ENTRYPOINT [\"/app/run_model.sh\"]\n",
    "llm/run_model.sh": "#!/usr/bin/env bash\npython3 -m vllm.entrypoints.openai.api_server \\\n"
                        "  --model Qwen/Qwen2.5-3B-Instruct --max-model-len 4096\n",
    "llm/run_docker.sh": "docker run -d --name vllm-qwen --gpus all --network host vllm-qwen\n",
}


def test_a_local_image_beside_its_dockerfile_is_that_build(scanned):
    assert [(s.file, s.line) for s in scanned(FILES)] == [("llm/run_model.sh", 2)]


def test_a_local_image_elsewhere_is_still_read(scanned):
    files = {**FILES, "ops/run_docker.sh": FILES["llm/run_docker.sh"]}
    del files["llm/run_docker.sh"]
    assert ("ops/run_docker.sh", 1) in [(s.file, s.line) for s in scanned(files)]
