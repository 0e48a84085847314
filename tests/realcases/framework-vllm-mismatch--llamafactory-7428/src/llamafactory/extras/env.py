VERSION = "0.9.2.dev0"
