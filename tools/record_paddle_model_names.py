"""Records what PaddlePaddle's paddle.vision.models give on the cases of
tests/python/vision/model_cases.py, into tests/python/vision/data/:

- vision_model_params.json: paddle.vision.models.__all__, the signature (argument names, kinds
  and defaults) of each of those names and of paddle.vision.ops.ConvNormActivation, and for
  every case the state_dict's names and shapes in order and the output shapes of an eval-mode
  forward on the case's input;
- <case>.pdparams (paddle.save) and <case>_reference.npz (input, output) for the cases of
  SAVED_STATE_CASES: a random state dict set into the model and the output it gives.

Run with PaddlePaddle's Python (3.3.1 recorded the committed files):
    /opt/venv-paddle/bin/python tools/record_paddle_model_names.py

With --live OUT_DIR it instead writes, for the cases of LIVE_REFERENCE_CASES, the random state
dict, input and output of each into OUT_DIR/<case>.npz: test_vision_models.py runs that at test
time when PADDLE_REFERENCE_PYTHON names PaddlePaddle's interpreter, keeping the big state dicts
out of the repository."""
import inspect
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "..", "tests", "python", "vision")
DATA_DIR = os.path.join(CASES_DIR, "data")
sys.path.insert(0, CASES_DIR)

import paddle  # noqa: E402
import paddle.vision.models as models  # noqa: E402
from model_cases import (CASES, LIVE_REFERENCE_CASES, SAVED_STATE_CASES, build,  # noqa: E402
                         random_state, sample_input)


def signature_of(obj):
    """[name, kind, repr(default) or None] of each argument of a function or a class's
    __init__."""
    parameters = inspect.signature(obj).parameters.values()
    return [[p.name, p.kind.name, None if p.default is p.empty else repr(p.default)]
            for p in parameters]


def names_and_shapes(model):
    return [(name, list(value.shape)) for name, value in model.state_dict().items()]


def outputs_of(model, x):
    model.eval()
    with paddle.no_grad():
        out = model(paddle.to_tensor(x))
    return list(out) if isinstance(out, (tuple, list)) else [out]


def run_with_random_state(key):
    """The case's model with a random state set, its input, state and outputs."""
    model = build(models, key)
    state = random_state(names_and_shapes(model))
    model.set_state_dict({name: paddle.to_tensor(value) for name, value in state.items()})
    x = sample_input(key)
    return model, x, state, [o.numpy() for o in outputs_of(model, x)]


def record_committed():
    recorded = {"paddle_version": paddle.__version__, "all": sorted(models.__all__),
                "signatures": {name: signature_of(getattr(models, name))
                               for name in sorted(models.__all__)},
                "cases": {}}
    recorded["signatures"]["ConvNormActivation"] = signature_of(
        paddle.vision.ops.ConvNormActivation)
    for key in CASES:
        paddle.seed(0)
        model = build(models, key)
        outputs = outputs_of(model, sample_input(key))
        recorded["cases"][key] = {"params": names_and_shapes(model),
                                  "output_shapes": [list(o.shape) for o in outputs]}
        print(f"{key}: {len(recorded['cases'][key]['params'])} entries", flush=True)
        del model
    path = os.path.join(DATA_DIR, "vision_model_params.json")
    cases = recorded.pop("cases")
    with open(path, "w") as f:
        # One case per line, so that a change shows in a diff as the cases it touches.
        f.write(json.dumps(recorded)[:-1] + ', "cases": {\n')
        lines = [f"{json.dumps(key)}: {json.dumps(value, separators=(',', ':'))}"
                 for key, value in cases.items()]
        f.write(",\n".join(lines))
        f.write("\n}}\n")
    print(f"wrote {path}")

    for key in SAVED_STATE_CASES:
        model, x, _, outputs = run_with_random_state(key)
        paddle.save(model.state_dict(), os.path.join(DATA_DIR, f"{key}.pdparams"))
        np.savez_compressed(os.path.join(DATA_DIR, f"{key}_reference.npz"), input=x,
                            **{f"output{i}": o for i, o in enumerate(outputs)})
        print(f"wrote {key}.pdparams and {key}_reference.npz")


def record_live(out_dir):
    for key in LIVE_REFERENCE_CASES:
        _, x, state, outputs = run_with_random_state(key)
        arrays = {f"state/{name}": value for name, value in state.items()}
        arrays.update({f"output{i}": o for i, o in enumerate(outputs)})
        np.savez(os.path.join(out_dir, f"{key}.npz"), input=x, **arrays)


def main(argv):
    if len(argv) == 2 and argv[0] == "--live":
        record_live(argv[1])
    elif not argv:
        record_committed()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
