VERSION = "0.8.3.dev0"
