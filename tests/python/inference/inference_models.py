"""Models saved with paddle.static.save_inference_model for the paddle.inference tests, and the
Executor's outputs on them (the reference the predictors must match)."""
import os

import numpy as np

import paddle
from static_testing import new_programs, static_mode


def save_mlp(directory, seed=1):
    """An MLP (two fc layers) saved as `directory`/mlp.pdmodel/.pdiparams; returns the prefix."""
    with static_mode():
        paddle.seed(seed)
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 6], "float32")
            hidden = paddle.static.nn.fc(x, 8, activation="relu")
            out = paddle.nn.functional.softmax(paddle.static.nn.fc(hidden, 3))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        prefix = os.path.join(directory, "mlp")
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
    return prefix


def save_cnn(directory, seed=2):
    """Conv2D + BatchNorm2D + ReLU + MaxPool2D + Linear in eval mode, with non-trivial running
    statistics; two outputs (the logits and the pooled features)."""
    with static_mode():
        paddle.seed(seed)
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            image = paddle.static.data("image", [None, 3, 8, 8], "float32")
            conv = paddle.nn.Conv2D(3, 4, 3, padding=1)
            norm = paddle.nn.BatchNorm2D(4)
            pool = paddle.nn.MaxPool2D(2)
            linear = paddle.nn.Linear(4 * 4 * 4, 5)
            for layer in (conv, norm, pool, linear):
                layer.eval()
            features = pool(paddle.nn.ReLU()(norm(conv(image))))
            logits = linear(paddle.flatten(features, 1))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        rng = np.random.default_rng(seed)
        scope = paddle.static.global_scope()
        for name, value in ((norm._mean.name, rng.standard_normal(4) * 0.1),
                            (norm._variance.name, rng.uniform(0.5, 2.0, 4))):
            scope.find_var(name).get_tensor().set(value.astype("float32"), paddle.CPUPlace())
        prefix = os.path.join(directory, "cnn")
        paddle.static.save_inference_model(prefix, [image], [logits, features], exe,
                                           program=main)
    return prefix


def executor_outputs(prefix, feed):
    """What the static Executor computes from the saved files, in the fetch order."""
    with static_mode():
        exe = paddle.static.Executor(paddle.CPUPlace())
        program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
        return exe.run(program, feed=dict(zip(feed_names, feed)), fetch_list=fetch_targets)
