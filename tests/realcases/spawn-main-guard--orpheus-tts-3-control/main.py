# The same quick start on vLLM 0.7.3, the release the README went back to: the model is
# still created at import.
import time
import wave

from orpheus_tts import OrpheusModel

model = OrpheusModel(model_name="canopylabs/orpheus-tts-0.1-finetune-prod")
prompt = "Hello there, this is a short test of the speech model."

start = time.monotonic()
chunks = model.generate_speech(prompt=prompt, voice="tara")
with wave.open("output.wav", "wb") as wf:
    wf.setnchannels(1)
    wf.setsampwidth(2)
    wf.setframerate(24000)
    for chunk in chunks:
        wf.writeframes(chunk)
print(f"done in {time.monotonic() - start:.1f}s")
