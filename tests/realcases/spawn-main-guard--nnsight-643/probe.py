from nnsight.modeling.vllm import VLLM

model = VLLM("meta-llama/Llama-3.2-1B", dispatch=True, gpu_memory_utilization=0.5)

with model.trace("The Eiffel Tower is in the city of", temperature=0.0):
    hidden = model.model.layers[8].output.save()

print(hidden)
