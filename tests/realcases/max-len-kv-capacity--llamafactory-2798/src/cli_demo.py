# Interactive chat through LLaMA-Factory's ChatModel (arguments come from the command line).
from llmtuner import ChatModel


def main():
    chat_model = ChatModel()
    history = []
    while True:
        query = input("\nUser: ")
        if query.strip() == "exit":
            break
        history.append({"role": "user", "content": query})
        reply = ""
        for piece in chat_model.stream_chat(history):
            print(piece, end="", flush=True)
            reply += piece
        history.append({"role": "assistant", "content": reply})


if __name__ == "__main__":
    main()
