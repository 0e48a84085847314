python openai_api_server.py
