import os

import torch
import torch.multiprocessing as mp

model_path = "Qwen/Qwen2.5-7B"
gen_device = 4
clip_param = 0.2


def grpo_step(engine, batch):
    logps = engine(batch["inputs"]).logits.log_softmax(-1)
    ratio = torch.exp(logps - batch["gen_logps"])
    loss = -torch.min(ratio * batch["adv"], torch.clamp(ratio, 1 - clip_param, 1 + clip_param) * batch["adv"]).mean()
    return loss


def gen_worker(queue, device):
    os.environ["CUDA_VISIBLE_DEVICES"] = f"{device}"
    from vllm import LLM, SamplingParams
    vllm_gen = LLM(model=model_path, gpu_memory_utilization=0.5)
    sample = SamplingParams(n=8, temperature=0.9, max_tokens=700)
    old_logps = SamplingParams(temperature=0, max_tokens=1, prompt_logprobs=1)
    for step in range(1000):
        if step % 3 == 0 and not queue.empty():
            inner = vllm_gen.llm_engine.model_executor.driver_worker.model_runner.model
            inner.load_weights(queue.get().items())
        outs = vllm_gen.generate(["What is 2+2?"], sample)
        ids = [list(o.prompt_token_ids) + list(c.token_ids) for o in outs for c in o.outputs]
        scored = vllm_gen.generate(prompt_token_ids=ids, sampling_params=old_logps)
        print([s.prompt_logprobs[-1] for s in scored])


if __name__ == "__main__":
    mp.set_start_method("spawn")
    q = mp.Queue()
    mp.Process(target=gen_worker, args=(q, gen_device)).start()
    from transformers import AutoModelForCausalLM
    model = AutoModelForCausalLM.from_pretrained(model_path, torch_dtype=torch.bfloat16)
    loss = grpo_step(model, {"inputs": None, "gen_logps": None, "adv": None})
    loss.backward()
