"""SpeculativeConfig.hf_config_override read as steps (tools/vllm_spec_decode.py writes them into
knowledge/vllm/spec_decode.yaml as `mtp_steps`): the rewrite of a draft's config that turns a target
checkpoint into its MTP draft, in source order — `if` a model_type (equal to / containing) or an
architecture, then the `model_type` and `architecture` set (`map`, `by_model_type`), `stop` where it
returns, `unsure` where the reading cannot follow the step."""
from __future__ import annotations

import ast
from pathlib import Path


def _str_list(node) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(e, ast.Constant) for e in node.elts):
        return [e.value for e in node.elts]
    return None


def _subject(node) -> str | None:
    """model_type, arch (hf_config.architectures[0] now) or initial_arch of a compared expression."""
    if isinstance(node, ast.NamedExpr):
        node = node.value
    text = ast.unparse(node)
    if text == "hf_config.model_type":
        return "model_type"
    if text == "hf_config.architectures[0]":
        return "arch"
    if text == "initial_architecture":
        return "initial_arch"
    return None


def _cond(test) -> list[dict] | None:
    """The alternatives a test holds for (any of them), each {subject: [values]} or
    {model_type_contains: [..]}; None where the test asks something else."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        out: list[dict] = []
        for v in test.values:
            got = _cond(v)
            if got is None:
                return None
            out += got
        return out
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    op, left, right = test.ops[0], test.left, test.comparators[0]
    if isinstance(op, ast.Eq) and _subject(left) and (vals := _str_list(right)):
        return [{_subject(left): vals}]
    if isinstance(op, ast.In) and _subject(left) and (vals := _str_list(right)):
        return [{_subject(left): vals}]
    if isinstance(op, ast.In) and isinstance(left, ast.Constant) and ast.unparse(right) == "hf_config.model_type":
        return [{"model_type_contains": [left.value]}]
    if isinstance(op, ast.In) and isinstance(left, ast.Constant) and ast.unparse(right) == "architectures":
        return [{"arch": [left.value]}]
    return None


def _flag(st) -> tuple[str, str] | None:
    """(name, value) of `name = hf_config.model_type == "value"`: a flag that picks the class."""
    if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
            and isinstance(st.value, ast.Compare) and len(st.value.ops) == 1 and isinstance(st.value.ops[0], ast.Eq) \
            and _subject(st.value.left) == "model_type" and isinstance(st.value.comparators[0], ast.Constant):
        return st.targets[0].id, st.value.comparators[0].value
    return None


def _effects(body: list) -> dict:
    out: dict = {}
    maps: dict = {}
    flags: dict = {}
    # a flag counts only when set before the step rewrites model_type (it then reads the old one)
    for st in body:
        if isinstance(st, ast.Assign) and ast.unparse(st.targets[0]) == "hf_config.model_type":
            break
        if got := _flag(st):
            flags[got[0]] = got[1]
    for st in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(st, ast.Assign) and isinstance(st.value, ast.Dict) and len(st.targets) == 1 \
                and isinstance(st.targets[0], ast.Name):
            try:
                maps[st.targets[0].id] = ast.literal_eval(st.value)
            except ValueError:
                pass
    for st in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(st, ast.Return):
            out["stop"] = True
        elif isinstance(st, ast.If):
            out["unsure"] = True  # a nested choice the steps do not follow
        elif isinstance(st, ast.Assign) and len(st.targets) == 1:
            target = ast.unparse(st.targets[0])
            if target == "hf_config.model_type" and isinstance(st.value, ast.Constant):
                out["model_type"] = st.value.value
            elif target == "hf_config":
                out["unsure"] = True  # the config is swapped for another (its text_config)
        elif isinstance(st, ast.Call) and ast.unparse(st.func) == "hf_config.update" and st.args \
                and isinstance(st.args[0], ast.Dict):
            for k, v in zip(st.args[0].keys, st.args[0].values):
                if not (isinstance(k, ast.Constant) and k.value == "architectures"):
                    continue
                elt = v.elts[0] if isinstance(v, ast.List) and len(v.elts) == 1 else None
                if isinstance(elt, ast.Constant):
                    out["architecture"] = elt.value
                elif isinstance(elt, ast.Subscript) and isinstance(elt.value, ast.Name) and elt.value.id in maps:
                    out["map"] = maps[elt.value.id]
                elif isinstance(elt, ast.IfExp) and isinstance(elt.test, ast.Name) and elt.test.id in flags \
                        and isinstance(elt.body, ast.Constant) and isinstance(elt.orelse, ast.Constant):
                    out["pick"] = (flags[elt.test.id], elt.body.value, elt.orelse.value)
                else:
                    out["unsure"] = True
    return out


def mtp_steps(root: Path, config_files: tuple[str, ...]) -> list[dict] | None:
    """The steps of the first of `config_files` (relative to a release's tree) that defines
    hf_config_override; None where none does."""
    for rel in config_files:
        f = root / rel
        if not f.is_file():
            continue
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name == "hf_config_override":
                steps = []
                for st in node.body:
                    if not isinstance(st, ast.If):
                        continue
                    eff = _effects(st.body)
                    if not eff:
                        continue
                    test = st.test
                    unsure = False
                    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
                        test, unsure = test.values[0], True  # the rest asks other fields
                    cond = _cond(test)
                    if cond is None:
                        steps.append({"if": [], "unsure": True, "line": st.lineno})
                        continue
                    if (pick := eff.pop("pick", None)) is not None:
                        # the class follows the model_type the step was entered with: name it for each
                        types = [t for c in cond for t in c.get("model_type", ())]
                        if unsure or any(set(c) != {"model_type"} for c in cond):
                            eff["unsure"] = True
                        else:
                            eff["by_model_type"] = {t: pick[1] if t == pick[0] else pick[2] for t in types}
                    step = {"if": cond, **eff, "line": st.lineno}
                    if unsure:
                        step["unsure"] = True
                    steps.append(step)
                return steps
    return None
