"""The trainer config a `python -m verl.trainer.X` launch runs when the project carries verl itself.

ReCall (scripts/train/train.sh:80) runs `python3 -m verl.trainer.main_ppo` with overrides only; its
setup.py installs src/, so the module is src/verl/trainer/main_ppo.py, whose
`@hydra.main(config_path='config', config_name='ppo_trainer')` composes src/verl/trainer/config/ppo_trainer.yaml
under the overrides. That file is the launch's base, not a deployment of its own: it is marked read
(ctx.referenced) so that engine/scan/configs.py makes no second site of it. Only a copy that holds the
launched module counts (a module the copy lacks runs another checkout: vendored.lacks_module)."""
from __future__ import annotations

import ast
import posixpath

from vllm_kb.engine.scan import vendored
from vllm_kb.engine.scan.framework_source import parse_or_empty


def launched_config(copies, site_file: str, module: str | None, files, read) -> str | None:
    """The copy's config file the launched module's `@hydra.main` composes, or None."""
    copy = vendored.for_site([c for c in copies if c.framework == "verl" and not getattr(c, "label", "")], site_file, "verl") \
        if module else None
    if copy is None or module is None:
        return None
    prefix = copy.root + "/" if copy.root else ""
    path = prefix + module.replace(".", "/") + ".py"
    if path not in files:
        return None
    for node in ast.walk(parse_or_empty(read(path) or "")):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for deco in node.decorator_list:
            if isinstance(deco, ast.Call) and ast.unparse(deco.func) == "hydra.main":
                named = {k.arg: k.value.value for k in deco.keywords if isinstance(k.value, ast.Constant)}
                folder, name = named.get("config_path"), named.get("config_name")
                if not isinstance(folder, str) or not isinstance(name, str) or folder.startswith(("/", "pkg:", "file:")):
                    return None
                config = posixpath.normpath(posixpath.join(posixpath.dirname(path), folder, name if name.endswith((".yaml", ".yml")) else name + ".yaml"))
                return config if config in files else None
    return None
