from PIL import Image
from vllm import LLM, SamplingParams

model_path = "OpenGVLab/InternVL2-8B"

llm = LLM(model=model_path, max_model_len=8192, trust_remote_code=True,
          max_num_seqs=2, dtype="half", enforce_eager=True)

image = Image.open("photo.jpg")
outputs = llm.generate({"prompt": "<image>\nDescribe this picture.", "multi_modal_data": {"image": image}},
                       SamplingParams(max_tokens=128))
