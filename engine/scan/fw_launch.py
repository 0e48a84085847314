"""Framework launches inside shell commands: `trl grpo|vllm-serve …`, `python -m
verl.trainer.main_ppo key=value …`, `python -m openrlhf.cli.train_ppo_ray --vllm.num_engines …`
(also under `ray job submit … --` and `deepspeed --module`), `llamafactory-cli api cfg.yaml k=v`,
`swift rlhf|rollout|deploy …`, and `accelerate launch train.py --config recipe.yaml` for TRL
scripts. Each yields the framework's keys as written, with their words, for frameworks.build_site."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import hydra_entry, nemo_rl_config, trl_script
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.framework_site import Entry, mapping_entries
from vllm_kb.engine.scan.launchers import _PYTHON, _interpreter_by_module, program_start
from vllm_kb.engine.scan.shell import Word
from vllm_kb.engine.scan.site import Setting

TRL_COMMANDS = {"grpo", "rloo", "dpo", "online_dpo", "online-dpo", "kto", "sft", "reward", "gkd", "xpo", "nash_md", "ppo"}
SWIFT_COMMANDS = {"rlhf", "rollout", "infer", "deploy", "sft", "pt", "app", "eval", "export", "sample"}
# ms-swift 1.x's example scripts (examples/pytorch/llm/, e.g. v1.7.3): each only calls the main of a `swift` command
SWIFT_EXAMPLES = {"llm_infer.py": "infer", "llm_deploy.py": "deploy", "llm_sft.py": "sft", "llm_app_ui.py": "app"}
LF_COMMANDS = {"api", "chat", "webchat", "webui", "train", "eval", "export"}
# LLaMA-Factory before llamafactory-cli (llmtuner 0.6.x/0.7.0, run from a checkout): these scripts build
# ChatModel() from their command line exactly as `llamafactory-cli api|chat|webchat` does later
LF_SCRIPTS = {"api_demo.py": "api", "cli_demo.py": "chat", "web_demo.py": "webchat"}
# keys only LLaMA-Factory's HfArgumentParser takes: other projects ship an api_demo.py/cli_demo.py too
_LF_KEYS = {"template", "infer_backend", "finetuning_type", "vllm_maxlen", "vllm_gpu_util", "vllm_enforce_eager",
            "vllm_max_lora_rank", "vllm_dtype", "infer_dtype", "vllm_config"}
_NUMBER = re.compile(r"^-?\d+(\.\d+)?([eE][-+]?\d+)?$")


@dataclass
class FwLaunch:
    framework: str
    kind: str  # what the report calls it: 'trl grpo', 'verl main_ppo', 'openrlhf train_ppo_ray', …
    style: str  # flags | hydra | kv
    args_start: int
    command: str | None = None  # swift/llamafactory subcommand
    serve: bool = False  # `trl vllm-serve`: the rollout server itself
    env: list = field(default_factory=list)
    program_start: int = 0
    config: str | None = None  # the config a project Hydra entry point names (engine/scan/hydra_entry.py)
    base_configs: list = field(default_factory=list)  # configs its `defaults:` list composes first
    script: str | None = None  # `python X.py …` as written: the user script a TRL launch runs
    module: str | None = None  # `python -m verl.trainer.X`: the module as written (engine/scan/vendored.py lacks_module)


def find(words: list[Word], ctx: ScanContext | None = None, rel: str | None = None) -> FwLaunch | None:
    if (got := program_start(words)) is None:
        return None
    i, env = got
    vals, n = [w.value for w in words], len(words)
    base = "python" if vals[i] == "-m" else (vals[i] or _interpreter_by_module(words, i) or "").rsplit("/", 1)[-1]  # `uv run -m …`
    if base in ("accelerate", "torchrun", "deepspeed"):
        return _launcher(words, vals, i + 1 if base != "accelerate" else i + 2, env, i, ctx, rel)  # `accelerate launch`
    if base == "trl" and i + 1 < n:
        return _trl(vals[i + 1] or "", i + 2, env, i)
    if base == "swift" and i + 1 < n and vals[i + 1] in SWIFT_COMMANDS:
        return FwLaunch("ms-swift", f"swift {vals[i + 1]}", "flags", i + 2, command=vals[i + 1], env=env, program_start=i)
    if base == "megatron" and i + 1 < n and vals[i + 1] == "rlhf":  # ms-swift's Megatron CLI (GRPO from 3.11.0)
        return FwLaunch("ms-swift", "megatron rlhf", "flags", i + 2, command="megatron-rlhf", env=env, program_start=i)
    if base in ("llamafactory-cli", "lmf") and i + 1 < n and vals[i + 1] in LF_COMMANDS:
        # `llamafactory-cli api --template qwen …`: flags go to HfArgumentParser as written; only a
        # config file first takes `key=value` overrides (0.9.3+)
        style = "flags" if i + 2 < n and (vals[i + 2] or "").startswith("--") else "kv"
        return FwLaunch("llamafactory", f"llamafactory-cli {vals[i + 1]}", style, i + 2, command=vals[i + 1], env=env, program_start=i)
    if base.endswith(".py") and ctx is not None and rel is not None:
        # `uv run examples/run_grpo_math.py …`: NeMo-RL's run scripts are run as the program itself
        return _nemo_rl(vals, i, env, i, ctx, rel)
    if _PYTHON.match(base):
        j = i if vals[i] == "-m" else i + 1
        while j < n and (vals[j] or "").startswith("-") and vals[j] != "-m":
            j += 1
        if j + 1 < n and vals[j] == "-m" and vals[j + 1] in ("torch.distributed.run", "torch.distributed.launch"):
            return _launcher(words, vals, j + 2, env, i, ctx, rel)  # what `torchrun` is
        if j + 2 < n and vals[j] == "-m" and vals[j + 1] in _TRL_CLI:  # the `trl` console script's module
            return _trl(vals[j + 2] or "", j + 3, env, i)
        if j + 1 < n and vals[j] == "-m":
            return _module(vals[j + 1] or "", j + 2, env, i, ctx, rel)
        return _script(vals, j, env, i, ctx, rel, words)
    return None


# `python -m trl.cli.main vllm-serve …` (eval81, CODE-GRPO's run scripts): what `trl vllm-serve` runs
_TRL_CLI = ("trl.cli", "trl.cli.main", "trl")


def _trl(cmd: str, start: int, env, program: int) -> FwLaunch | None:
    if cmd == "vllm-serve":
        return FwLaunch("trl", "trl vllm-serve", "flags", start, serve=True, env=env, program_start=program)
    if cmd in TRL_COMMANDS:
        return FwLaunch("trl", f"trl {cmd}", "flags", start, command=cmd, env=env, program_start=program)
    return None


def _launcher(words: list[Word], vals: list, j: int, env, program: int, ctx, rel) -> FwLaunch | None:
    """Past a launcher's options (`--nnodes=${WORLD_SIZE}` is an option even with its value unknown)
    to the module or script it runs."""
    n = len(vals)
    while j < n and (vals[j] if vals[j] is not None else words[j].raw or "").startswith("-"):
        if vals[j] in ("--module", "-m") and j + 1 < n:  # torchrun -m/--module: the script is a module
            return _module(vals[j + 1] or "", j + 2, env, program, ctx, rel)
        v = vals[j] if vals[j] is not None else words[j].raw or ""
        j += 1 if "=" in v or j + 1 >= n or (vals[j + 1] or "").startswith("-") else 2
    return _script(vals, j, env, program, ctx, rel, words)


def verl_command(name: str) -> str | None:
    """What a verl entry point does with vLLM (knowledge/frameworks/verl.yaml › entry_points):
    train, generate, or nothing (None)."""
    from vllm_kb.engine.kb import frameworks

    table = frameworks.get("verl").raw.get("entry_points", {})
    if name in table:
        return table[name] or None
    # other entry points that train are `main…` modules (main_ppo_split, fully_async_main); the rest
    # (model_merger, utils, …) start no engine
    return "train" if "main" in name and not any(w in name for w in ("sft", "eval")) else None


def _module(mod: str, start: int, env, program: int, ctx=None, rel=None) -> FwLaunch | None:
    if mod == "verl.trainer.main":
        # EasyR1's entry point (verl itself has main_ppo): `config=examples/config.yaml worker.rollout.X=…`
        return FwLaunch("easyr1", "easyr1 verl.trainer.main", "hydra", start, command="train", env=env, program_start=program)
    if mod == "agentlightning.verl":
        # Agent Lightning's verl trainer (agentlightning/verl/entrypoint.py): a hydra main over verl's PPO
        # config (config_path pkg://agentlightning/verl) that builds verl's workers, vLLM rollout included
        return FwLaunch("verl", "agentlightning.verl", "hydra", start, command="train", env=env, program_start=program)
    if mod.startswith("verl."):
        name = mod.rsplit(".", 1)[-1]
        command = verl_command(name)
        if command is None:
            return None
        return FwLaunch("verl", f"verl {name}", "hydra", start, command=command, env=env, program_start=program, module=mod)
    if (sky := _skyrl(mod)) is not None:
        return FwLaunch("skyrl", f"skyrl {mod.rsplit('.', 1)[-1]}", "hydra", start, command=sky, env=env, program_start=program)
    if mod.startswith("openrlhf.cli."):
        name = mod.rsplit(".", 1)[-1]  # batch_inference builds its own LLM() from its own flags (knowledge: openrlhf.yaml)
        return FwLaunch("openrlhf", f"openrlhf {name}", "flags", start, command="batch_inference" if name == "batch_inference" else None,
                        env=env, program_start=program)
    if mod.startswith("swift.cli.") and mod.rsplit(".", 1)[-1] in SWIFT_COMMANDS:  # `swift <cmd>` is this module
        cmd = mod.rsplit(".", 1)[-1]
        return FwLaunch("ms-swift", f"swift {cmd}", "flags", start, command=cmd, env=env, program_start=program)
    if mod in ("trl.scripts.vllm_serve", "trl.scripts.vllm_serve.main"):
        return FwLaunch("trl", "trl vllm-serve", "flags", start, serve=True, env=env, program_start=program)
    if mod.startswith("trl.scripts.") or mod == "trl":
        return None
    entry = hydra_entry.find(ctx, rel, module=mod) if rel else None
    if entry is not None:
        return FwLaunch("verl", f"verl {mod.rsplit('.', 1)[-1]}", "hydra", start, command="train", env=env, program_start=program,
                        config=entry.config, base_configs=entry.defaults)
    # verl's recipes (recipe/<name>/<x>_main.py: dapo's main_dapo, fully_async_policy's fully_async_main, verl #3842)
    if re.match(r"^recipe\.[\w.]+\.main", mod) or (re.match(r"^recipe\.[\w.]+$", mod) and verl_command(mod.rsplit(".", 1)[-1]) == "train"):
        return FwLaunch("verl", f"verl {mod.rsplit('.', 1)[-1]}", "hydra", start, command="train", env=env, program_start=program)
    return None


# SkyRL (knowledge/frameworks/skyrl.yaml): skyrl.train.entrypoints.{main_base,serve,main_generate}, the older
# skyrl_train.entrypoints.main_base, and the examples' own entry points built on main_base
# (examples/train/<topic>/main_<x>.py, examples/train_integrations/<x>/entrypoints/main_<x>.py)
_SKYRL = re.compile(r"^(?:skyrl\.train\.entrypoints|skyrl_train\.entrypoints|examples\.train(?:_integrations)?\.[\w.]+)\.(main_\w+|serve)$")


def _skyrl(mod: str) -> str | None:
    """What a SkyRL entry point does with vLLM: serve (its server group), generate (main_generate) or train."""
    if (m := _SKYRL.match(mod)) is None:
        return None
    name = m.group(1)
    return "serve" if name == "serve" else "generate" if name.endswith("generate") else "train"


def _script(vals: list, j: int, env, program: int, ctx=None, rel=None, words: list[Word] | None = None) -> FwLaunch | None:
    """`python train_grpo.py --config recipe.yaml --use_vllm …`: a user script that parses TRL
    keys (TrlParser), or a project Hydra entry point that runs verl. Recognised by the keys it
    is given, or by the recipe or config it reads."""
    if j < len(vals) and vals[j] is None and words is not None and (cmd := _swift_by_import(words[j])):
        return FwLaunch("ms-swift", f"swift {cmd}", "flags", j + 1, command=cmd, env=env, program_start=program)
    if j >= len(vals) or not (vals[j] or "").endswith(".py"):
        return None
    script = vals[j]
    entry = hydra_entry.find(ctx, rel, script=script) if rel else None
    if entry is not None:
        return FwLaunch("verl", f"verl {script.rsplit('/', 1)[-1]}", "hydra", j + 1, command="train", env=env,
                        program_start=program, config=entry.config, base_configs=entry.defaults)
    if rel and (mod := hydra_entry.reexported_main(ctx, rel, script)) is not None:
        return _module(mod, j + 1, env, program, ctx, rel)  # `from verl.trainer.main_ppo import main; main()`
    rest = [v for v in vals[j + 1:] if v]
    if ctx is not None and rel is not None and (nemo := _nemo_rl(vals, j, env, program, ctx, rel)) is not None:
        return nemo
    swift = re.search(r"(?:^|/)swift/cli/(\w+)\.py$", script)  # ms-swift's own CLI file, what `swift <cmd>` runs
    if swift and swift.group(1) in SWIFT_COMMANDS:
        return FwLaunch("ms-swift", f"swift {swift.group(1)}", "flags", j + 1, command=swift.group(1), env=env, program_start=program)
    if (cmd := SWIFT_EXAMPLES.get(script.rsplit("/", 1)[-1])) and ("pytorch/llm/" in script or any(
            v.lstrip("-").split("=")[0] in ("infer_backend", "ckpt_dir", "model_type") for v in rest)):
        # ms-swift 1.x run from its checkout: examples/pytorch/llm/llm_infer.py is `infer_main()`, what `swift infer` runs
        return FwLaunch("ms-swift", f"swift {cmd}", "flags", j + 1, command=cmd, env=env, program_start=program)
    if script.rsplit("/", 1)[-1] == "train_ppo_ray.py" and any(v.lstrip("-").split("=")[0] in ("vllm_num_engines", "vllm.num_engines") for v in rest):
        # OpenRLHF run from its checkout: examples/train_ppo_ray.py up to 0.3.x, the CLI file later
        return FwLaunch("openrlhf", "openrlhf train_ppo_ray", "flags", j + 1, env=env, program_start=program)
    if (name := script.rsplit("/", 1)[-1]) in LF_SCRIPTS and _llamafactory_args(rest, ctx, rel):
        return FwLaunch("llamafactory", f"llamafactory {name}", "flags", j + 1, command=LF_SCRIPTS[name], env=env, program_start=program)
    if script.endswith("vllm_infer.py"):
        return FwLaunch("llamafactory", "llamafactory vllm_infer.py", "flags", j + 1, command="vllm_infer", env=env, program_start=program)
    if (any(v.lstrip("-").replace("-", "_").split("=")[0] in ("use_vllm", "vllm_mode", "vllm_gpu_memory_utilization") for v in rest)
            or "--config" in rest) and trl_script.runs_trl(ctx, rel, script, rest):
        return FwLaunch("trl", f"python {script.rsplit('/', 1)[-1]}", "flags", j + 1, command="script", env=env, program_start=program,
                        script=script)
    return None


# ms-swift's CLI file found through the installed package: `$(python -c "import swift,os;
# print(os.path.dirname(swift.__file__))")/cli/rlhf.py`, or a variable holding such a substitution
_SWIFT_IMPORTED = re.compile(r"\$\([^\ue001]*(?:import\s+swift\b|swift\.__file__)[\s\S]*?/cli/(\w+)\.py\b")


def _swift_by_import(word: Word) -> str | None:
    """The `swift <cmd>` an unresolved script path runs when the command substitution that makes it
    asks Python where ms-swift is installed (cmyandlqs/grpo_qwen2.5's train_grpo.sh, eval66)."""
    m = _SWIFT_IMPORTED.search(word.text or "")
    return m.group(1) if m and m.group(1) in SWIFT_COMMANDS else None


def _llamafactory_args(rest: list, ctx, rel) -> bool:
    """LLaMA-Factory's own keys among the flags, or one config file that holds them (`python
    src/api_demo.py cfg.yaml`: its parser reads a lone .yaml/.json argument as the arguments)."""
    if any(v.startswith("--") and v[2:].split("=", 1)[0] in _LF_KEYS for v in rest):
        return True
    if len(rest) != 1 or not rest[0].endswith((".yaml", ".yml", ".json")) or ctx is None or rel is None:
        return False
    ref = ctx.resolve_ref(rel, rest[0])
    text = ctx.read(ref) if ref else None
    try:
        data = (json.loads(text) if ref.endswith(".json") else yamlio.load(text).data) if text else None
    except (yamlio.YamlError, ValueError):
        return False
    return isinstance(data, dict) and bool(set(map(str, data)) & _LF_KEYS)


def _nemo_rl(vals: list, j: int, env, program: int, ctx, rel: str) -> FwLaunch | None:
    """`uv run [python] examples/run_grpo_math.py --config cfg.yaml policy.model_name=…`: a NeMo-RL
    run script whose config (given, or the script's own default) generates with vLLM."""
    script = vals[j] or ""
    got = nemo_rl_config.launch(ctx, rel, script, [v for v in vals[j + 1:] if v])
    if got is None:
        return None
    return FwLaunch("nemo-rl", f"nemo-rl {script.rsplit('/', 1)[-1]}", "hydra", j + 1, command=got[0], env=env,
                    program_start=program, config=got[1])


def _typed(text: str, hydra: bool = False):
    t = text.strip()
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    # Hydra's override grammar (and OmegaConf's YAML) spell null `null`: `key=None` is the string "None",
    # which verl hands on as it is (hydra OverrideLexer.g4 NULL; hydra-ecosystem/hydra#1473)
    if low in (("null", "~") if hydra else ("none", "null", "~")):
        return None
    if _NUMBER.match(t):
        f = float(t)
        return int(f) if f.is_integer() and "." not in t and "e" not in low else f
    if t[:1] in "{[":
        try:
            return json.loads(t)
        except ValueError:
            try:
                return yamlio.load(t).data
            except yamlio.YamlError:
                return t
    return t


def entries(words: list[Word], launch: FwLaunch, rel: str) -> tuple[list[Entry], list[Word], list[Word]]:
    """(framework keys as read, positional words, words that could not be resolved)."""
    out: list[Entry] = []
    positionals, opaque = [], []
    i = launch.args_start
    n = len(words)
    while i < n:
        w = words[i]
        if w.value is None:
            lit = w.literal
            if lit.startswith("--") and "=" in lit:
                # --config-path="$PROJECT_DIR/config": the key is known, only its value is not
                key, _, val = lit[2:].partition("=")
                out.append(Entry(key, _setting("--" + key, None, False, rel, w, (i, i), "cli", val, w.unresolved)))
            elif launch.style in ("hydra", "kv") and re.match(r"^[+~]{0,2}[A-Za-z_][\w.]*=", lit):
                # data.train_files=$HOME/…: an unknown value for a known key, not unknown arguments
                key, _, val = lit.partition("=")
                out.append(Entry(key, _setting(key, None, False, rel, w, (i, i), "hydra-override" if launch.style == "hydra" else "cli", lit, w.unresolved)))
            else:
                opaque.append(w)
            i += 1
            continue
        t = w.value
        if launch.style in ("hydra", "kv") and not t.startswith("-") and "=" in t:
            key, _, val = t.partition("=")
            out.append(Entry(key, _setting(key, _typed(val, launch.style == "hydra"), True, rel, w, (i, i), "hydra-override" if launch.style == "hydra" else "cli", t, w.assumed)))
            i += 1
            continue
        if t.startswith("--") and len(t) > 2:
            key, eq, val = t[2:].partition("=")
            if eq:
                out.append(Entry(key, _setting("--" + key, _typed(val), True, rel, w, (i, i), "cli", t, w.assumed)))
                i += 1
                continue
            nxt = words[i + 1] if i + 1 < n else None
            if nxt is None or (nxt.value is not None and nxt.value.startswith("--")) or (nxt.value is None and nxt.is_all_args):
                out.append(Entry(key, _setting("--" + key, True, True, rel, w, (i, i), "cli", "", None)))
                i += 1
                continue
            if nxt.value is None:
                out.append(Entry(key, _setting("--" + key, None, False, rel, w, (i, i + 1), "cli", nxt.raw, nxt.unresolved)))
            else:
                out.append(Entry(key, _setting("--" + key, _typed(nxt.value), True, rel, w, (i, i + 1), "cli", nxt.raw, nxt.assumed)))
            i += 2
            continue
        if not t.startswith("-"):
            positionals.append(w)
        i += 1
    return out, positionals, opaque


def generation_keys(entries: list[Entry]) -> None:
    """verl main_generation reads its own top-level `rollout:` and `model:` blocks: the same keys
    as the trainer's `actor_rollout_ref.rollout` / `actor_rollout_ref.model`."""
    for e in entries:
        bare = e.written.lstrip("+~")
        lead = e.written[:len(e.written) - len(bare)]
        if bare.startswith(("rollout.", "model.")):
            e.written = lead + "actor_rollout_ref." + bare


def _setting(key, value, resolved, rel, w, span, syntax, raw, note) -> Setting:
    return Setting(key, value, resolved and value is not None, rel, w.line, key, raw, syntax, note, span=span)


def config_entries(ctx: ScanContext, rel: str, framework: str, flatten: bool, section: tuple = ()) -> list[Entry]:
    """A framework config file's keys (nested paths joined with dots for Hydra configs); `section`: the
    mapping inside the file the script hands to the framework (engine/scan/trl_section.py)."""
    text = ctx.read(rel)
    if text is None:
        return []
    try:
        if rel.endswith(".json"):
            data = json.loads(text)
            doc = yamlio.Document(data=data)
        else:
            doc = yamlio.load(text)
    except (yamlio.YamlError, ValueError) as e:
        ctx.skip(rel, "yaml-error", getattr(e, "line", None), str(e))
        return []
    data = doc.data
    for k in section:
        data = data.get(k) if isinstance(data, dict) else None
    if not isinstance(data, dict):
        return []
    ctx.referenced.add(rel)
    return mapping_entries(data, doc, rel, flatten, section, len(section))
