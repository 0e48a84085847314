from swift.llm import (ModelType, get_default_template_type, get_template,
                       get_vllm_engine, inference_vllm)

model_type = ModelType.qwen2_7b_instruct
llm_engine = get_vllm_engine(model_type, tensor_parallel_size=1)
template = get_template(get_default_template_type(model_type), llm_engine.hf_tokenizer)
print(inference_vllm(llm_engine, template, [{"query": "你好"}]))
