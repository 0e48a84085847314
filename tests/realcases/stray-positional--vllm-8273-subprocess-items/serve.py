import subprocess

model_path = "/hpcwork/llm/Meta-Llama-3.1-8B-Instruct"
main_command = ["vllm", "serve", f"{model_path}", "--host 127.0.0.1", "--port 6379"]
server_p = subprocess.run(main_command)
