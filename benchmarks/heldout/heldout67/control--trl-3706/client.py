from trl.extras.vllm_client import VLLMClient

client = VLLMClient("http://0.0.0.0:8000", connection_timeout=10)
print("started init_communicator")
client.init_communicator()
print("done!")
