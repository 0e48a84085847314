# the vendored verl's synchronous PPO entry point (stand-in)
import hydra
