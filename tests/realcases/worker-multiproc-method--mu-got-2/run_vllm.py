import multiprocessing

from fastapi import FastAPI
from vllm import LLM

multiprocessing.set_start_method("spawn", force=True)

model_name = "/models/GOT-OCR2_0"
llm = LLM(model=model_name, tensor_parallel_size=4, trust_remote_code=True, device="cuda",
          gpu_memory_utilization=0.8, dtype="float16")

app = FastAPI()

if __name__ == "__main__":
    import uvicorn
    uvicorn.run(app="run_vllm:app", host="0.0.0.0", port=6106)
