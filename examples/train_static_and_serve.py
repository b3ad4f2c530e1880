"""Static-graph half of tools/demo.sh: build the two-spirals classifier as a program, train it
with the Executor, save it as an inference model (.pdmodel + .pdiparams, PaddlePaddle's files),
load it into a fresh scope and serve predictions from the loaded program. The model is saved at
the path prefix given as the first argument (default: a new temporary directory), where
tools/demo.sh then serves it from C++ (examples/cpp_inference)."""
import os
import sys
import tempfile

import numpy as np

import paddle
from train_mlp import two_spirals


def main():
    paddle.enable_static()
    paddle.seed(2024)
    rng = np.random.default_rng(2024)
    x_np, y_np = two_spirals(2000, rng)

    main_program, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_program, startup):
        x = paddle.static.data("x", [None, 2], "float32")
        y = paddle.static.data("y", [None], "int64")
        hidden = paddle.static.nn.fc(x, 64, activation="relu")
        hidden = paddle.static.nn.fc(hidden, 64, activation="relu")
        logits = paddle.static.nn.fc(hidden, 2)
        probs = paddle.nn.functional.softmax(logits)
        loss = paddle.nn.functional.cross_entropy(logits, y)
        paddle.optimizer.Adam(learning_rate=0.01,
                              grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0)).minimize(loss)

    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    batch = 200
    for epoch in range(60):
        order = rng.permutation(len(x_np))
        total = 0.0
        for start in range(0, len(order), batch):
            index = order[start:start + batch]
            (value,) = exe.run(main_program, feed={"x": x_np[index], "y": y_np[index]},
                               fetch_list=[loss])
            total += float(value)
        if epoch % 10 == 0 or epoch == 59:
            print(f"epoch {epoch:3d}  loss {total / (len(order) // batch):.4f}")

    prefix = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tempfile.mkdtemp(), "spirals")
    paddle.static.save_inference_model(prefix, [x], [probs], exe, program=main_program)
    print(f"saved {prefix}.pdmodel ({os.path.getsize(prefix + '.pdmodel')} bytes) and "
          f"{prefix}.pdiparams ({os.path.getsize(prefix + '.pdiparams')} bytes)")

    with paddle.static.scope_guard(paddle.static.Scope()):
        program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
        (served,) = exe.run(program, feed={feed_names[0]: x_np}, fetch_list=fetch_targets)
    accuracy = float((served.argmax(axis=1) == y_np).mean())
    print(f"served {len(x_np)} predictions from the loaded model: accuracy {accuracy:.3f}")
    if accuracy < 0.9:
        raise SystemExit("static training did not converge")


if __name__ == "__main__":
    main()
