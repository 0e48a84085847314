import subprocess

import torch
from transformers import AutoModelForCausalLM

device = "cuda" if torch.cuda.is_available() else "cpu"
model_name = "Qwen/Qwen2.5-1.5B-Instruct"


def train(steps: int = 10) -> None:
    model = AutoModelForCausalLM.from_pretrained(model_name, torch_dtype=torch.bfloat16)
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    # the rollout server runs beside the policy on the same GPU
    server = subprocess.Popen([
        "python", "-m", "vllm.entrypoints.openai.api_server",
        "--model", model_name,
        "--port", "9001",
        "--gpu-memory-utilization", "0.45",
    ])
    for _ in range(steps):
        batch = torch.randint(0, 100, (1, 16), device=device)
        loss = model(batch, labels=batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    server.terminate()


if __name__ == "__main__":
    train()
