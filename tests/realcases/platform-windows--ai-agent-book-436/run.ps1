# start the local server
$env:HF_HOME = "D:\hf-cache"
python main.py
