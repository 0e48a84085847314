# PowerShell, native Windows Python 3.11 environment "llamafactory"
Set-Location C:\dev\AI_Vtuber\LLaMA-Factory-0.9.0
llamafactory-cli chat .\infer_vllm.yaml
