"""End to end: small MLPs trained with each optimizer reach high accuracy on synthetic
classification tasks (fixed seeds, full-batch, a few hundred steps at most)."""
import numpy as np

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
import paddle.optimizer as optim
import paddle.utils


def circles(n=400, seed=0):
    """Two concentric rings (not linearly separable)."""
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, 2, n)
    radius = np.where(labels == 0, 1.0, 2.5) + rng.randn(n) * 0.2
    angle = rng.uniform(0, 2 * np.pi, n)
    points = np.stack([radius * np.cos(angle), radius * np.sin(angle)], 1)
    return points.astype("float32"), labels.astype("int64")


def blobs(n=300, seed=1):
    """Three Gaussian blobs."""
    rng = np.random.RandomState(seed)
    centers = np.array([[0.0, 3.0], [3.0, -2.0], [-3.0, -2.0]])
    labels = rng.randint(0, 3, n)
    points = centers[labels] + rng.randn(n, 2)
    return points.astype("float32"), labels.astype("int64")


# Hidden widths stay small: the suite runs on 2 shared cores, where BLAS threading makes wider
# matmuls slow.
def mlp(num_classes, hidden=16):
    return nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, num_classes))


def train(model, opt, points, labels, steps, loss_fn=None, scheduler=None):
    x, y = paddle.to_tensor(points), paddle.to_tensor(labels)
    loss_fn = loss_fn or nn.CrossEntropyLoss()
    model.train()
    for _ in range(steps):
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        if scheduler is not None:
            scheduler.step()
    model.eval()
    with paddle.no_grad():
        predicted = model(x).argmax(axis=-1).numpy()
    return float((predicted == labels).mean()), float(loss.item())


def test_adam_learns_circles():
    paddle.seed(0)
    points, labels = circles()
    model = mlp(2)
    opt = optim.Adam(learning_rate=0.01, parameters=model.parameters())
    accuracy, loss = train(model, opt, points, labels, steps=150)
    assert accuracy > 0.95, (accuracy, loss)


def test_sgd_and_momentum_learn_blobs():
    points, labels = blobs()
    for make in (lambda ps: optim.SGD(0.1, parameters=ps),
                 lambda ps: optim.Momentum(0.05, momentum=0.9, parameters=ps,
                                           weight_decay=1e-4)):
        paddle.seed(1)
        model = mlp(3)
        accuracy, loss = train(model, make(model.parameters()), points, labels, steps=100)
        assert accuracy > 0.95, (accuracy, loss)


def test_adamw_with_global_norm_clip_and_schedule():
    paddle.seed(2)
    points, labels = circles(seed=3)
    model = nn.Sequential(nn.Linear(2, 16), nn.GELU(), nn.Dropout(0.1), nn.Linear(16, 16),
                          nn.Tanh(), nn.Linear(16, 2))
    scheduler = optim.lr.LinearWarmup(optim.lr.CosineAnnealingDecay(0.02, T_max=200), 20,
                                      0.0, 0.02)
    opt = optim.AdamW(learning_rate=scheduler, parameters=model.parameters(),
                      weight_decay=0.01, grad_clip=nn.ClipGradByGlobalNorm(1.0),
                      apply_decay_param_fun=lambda name: name.endswith(".w_0"))
    accuracy, loss = train(model, opt, points, labels, steps=220, scheduler=scheduler)
    assert accuracy > 0.95, (accuracy, loss)


def test_label_smoothing_and_functional_training():
    # Soft targets through the functional API, a log_softmax + nll_loss pair in eval.
    paddle.seed(4)
    points, labels = blobs(seed=5)
    model = mlp(3)
    opt = optim.Adam(learning_rate=0.02, parameters=model.parameters())
    accuracy, _ = train(model, opt, points, labels, steps=60,
                        loss_fn=lambda out, y: F.cross_entropy(out, y, label_smoothing=0.1))
    assert accuracy > 0.95
    logp = F.log_softmax(model(paddle.to_tensor(points)))
    nll = F.nll_loss(logp, paddle.to_tensor(labels)).item()
    ce = F.cross_entropy(model(paddle.to_tensor(points)), paddle.to_tensor(labels)).item()
    assert abs(nll - ce) < 1e-5


def test_run_check(capsys):
    paddle.utils.run_check()
    out = capsys.readouterr().out
    assert out.startswith("Running verify PaddlePaddle program ...")
    assert "PaddlePaddle works well on 1 CPU." in out
    assert "PaddlePaddle is installed successfully!" in out
    cpu_line = next(line for line in out.splitlines() if line.startswith("CPU: "))
    assert "oneDNN 2." in cpu_line and "threads" in cpu_line
    with open("/proc/cpuinfo") as f:
        flags = next(line for line in f if line.startswith("flags")).split()
    # The ISA oneDNN reports follows the CPU's features.
    if "avx512f" in flags:
        assert " on avx512_core" in cpu_line and "avx512f" in cpu_line
    elif "avx2" in flags:
        assert " on avx2" in cpu_line
    gpus = paddle.device.cuda.device_count()
    assert ("sees 0 GPUs" in out) if gpus == 0 else (f"works well on {gpus} GPU" in out)
