"""Every example of examples/ runs end to end in a short mode (small data, one or two epochs) as
a user runs it, in its own process, and leaves an inference model that the predictor loads and
runs on an input of the declared shape. The full-size results are in examples/README.md."""
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
FASHION_MNIST = "/usr/share/datasets/fashion-mnist"

# (script, short-mode arguments, inference model file prefix, a line the run must print,
#  the model's inputs as (shape for a batch of 2, dtype))
IMAGE = [([2, 1, 28, 28], "float32")]
EXAMPLES = [
    ("lenet_fashion_mnist/train.py", ["--epochs", "1", "--limit", "256"], "lenet",
     "test accuracy:", IMAGE),
    ("resnet_cifar/train.py", ["--epochs", "1", "--train-size", "128", "--test-size", "64"],
     "resnet18", "test accuracy:", [([2, 3, 32, 32], "float32")]),
    ("text_classifier/train.py", ["--epochs", "1", "--train-size", "256", "--test-size", "64"],
     "text_classifier", "test accuracy:", [([2, 32], "int64")]),
    ("forecasting/train.py", ["--epochs", "1", "--hours", "300"], "lstm_forecaster",
     "test MAE of the next 12 hours:", [([2, 48, 2], "float32")]),
    ("forecasting/train.py", ["--epochs", "1", "--hours", "300", "--cell", "gru"],
     "gru_forecaster", "test MAE of the next 12 hours:", [([2, 48, 2], "float32")]),
    ("crnn_ctc/train.py", ["--epochs", "1", "--train-size", "128", "--test-size", "32"], "crnn",
     "test string accuracy:", [([2, 1, 32, 100], "float32")]),
    ("wide_deep/train.py", ["--epochs", "1", "--train-size", "2048", "--test-size", "512"],
     "wide_deep", "test AUC:", [([2, 13], "float32"), ([2, 26], "int64")]),
]


def run_example(script, args, out):
    done = subprocess.run([sys.executable, os.path.join(ROOT, "examples", script), *args,
                           "--out", str(out)], capture_output=True, text=True, timeout=600,
                          cwd=str(out.parent), env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done.stdout


@pytest.mark.parametrize("script, args, model, expected, inputs", EXAMPLES,
                         ids=[f"{e[0].split('/')[0]}-{e[2]}" for e in EXAMPLES])
def test_example_trains_and_saves_a_servable_model(tmp_path, script, args, model, expected,
                                                   inputs):
    if script.startswith("lenet") and not os.path.isdir(FASHION_MNIST):
        pytest.skip("needs Debian's dataset-fashion-mnist package")
    out = tmp_path / "out"
    stdout = run_example(script, args, out)
    assert expected in stdout, stdout[-2000:]
    prefix = out / model
    assert (out / f"{model}.pdmodel").is_file() and (out / f"{model}.pdiparams").is_file()

    import paddle.inference as inference
    predictor = inference.create_predictor(inference.Config(f"{prefix}.pdmodel",
                                                            f"{prefix}.pdiparams"))
    rng = np.random.default_rng(0)
    names = predictor.get_input_names()
    assert len(names) == len(inputs)
    for name, (shape, dtype) in zip(names, inputs):
        handle = predictor.get_input_handle(name)
        if dtype == "int64":  # ids below every example's vocabulary size
            handle.copy_from_cpu(rng.integers(0, 10, shape).astype(dtype))
        else:
            handle.copy_from_cpu(rng.standard_normal(shape).astype(dtype))
    predictor.run()
    output = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    assert output.shape[0] == 2 and np.isfinite(output).all()


def test_lenet_example_writes_its_curves_and_metrics(tmp_path):
    if not os.path.isdir(FASHION_MNIST):
        pytest.skip("needs Debian's dataset-fashion-mnist package")
    out = tmp_path / "lenet"
    run_example("lenet_fashion_mnist/train.py", ["--epochs", "2", "--limit", "256"], out)
    from PIL import Image
    with Image.open(out / "curves.png") as image:
        assert image.size == (840, 300)
    import json
    with open(out / "metrics.json") as f:
        metrics = json.load(f)
    for quantity in ("loss", "accuracy"):
        for split in ("train", "eval"):
            assert len(metrics["curves"][quantity][split]) == 2
    assert 0.0 <= metrics["test accuracy"] <= 1.0


def test_resnet_example_resumes_from_its_checkpoint(tmp_path):
    out = tmp_path / "resnet"
    args = ["--train-size", "128", "--test-size", "64"]
    run_example("resnet_cifar/train.py", ["--epochs", "1", *args], out)
    stdout = run_example("resnet_cifar/train.py", ["--epochs", "2", "--resume", *args], out)
    assert "resumed from" in stdout and "after epoch 1" in stdout
    assert "epoch 1/2" not in stdout and "epoch 2/2" in stdout
