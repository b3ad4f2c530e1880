"""Cases shared by tools/record_paddle_hapi.py (run under PaddlePaddle to record the reference)
and the tests here (run under this framework): learning-rate schedules stepped a number of
times, and the networks whose paddle.summary / paddle.flops output is compared."""
import contextlib
import io

LR_STEPS = 24


def lr_cases(paddle):
    """name -> a function building a fresh scheduler."""
    lr = paddle.optimizer.lr
    return {
        "OneCycleLR": lambda: lr.OneCycleLR(max_learning_rate=1.0, total_steps=LR_STEPS),
        "OneCycleLR_linear_three_phase": lambda: lr.OneCycleLR(
            max_learning_rate=0.5, total_steps=LR_STEPS, divide_factor=10.0, end_learning_rate=0.001,
            phase_pct=0.25, anneal_strategy="linear", three_phase=True),
        "CyclicLR_triangular": lambda: lr.CyclicLR(0.1, 1.0, step_size_up=4),
        "CyclicLR_triangular2": lambda: lr.CyclicLR(0.1, 1.0, step_size_up=3, step_size_down=5,
                                                    mode="triangular2"),
        "CyclicLR_exp_range": lambda: lr.CyclicLR(0.1, 1.0, step_size_up=4, mode="exp_range",
                                                  exp_gamma=0.9),
        "LinearLR": lambda: lr.LinearLR(0.5, total_steps=10),
        "LinearLR_decreasing": lambda: lr.LinearLR(0.5, total_steps=6, start_factor=1.0,
                                                   end_factor=0.2),
        "CosineAnnealingWarmRestarts": lambda: lr.CosineAnnealingWarmRestarts(0.5, T_0=5),
        "CosineAnnealingWarmRestarts_mult": lambda: lr.CosineAnnealingWarmRestarts(
            0.5, T_0=3, T_mult=2, eta_min=0.01),
        "CosineAnnealingDecay": lambda: lr.CosineAnnealingDecay(0.5, T_max=6, eta_min=0.05),
        "PolynomialDecay_cycle": lambda: lr.PolynomialDecay(0.5, decay_steps=5, cycle=True),
        "LinearWarmup_of_StepDecay": lambda: lr.LinearWarmup(
            lr.StepDecay(0.5, step_size=3), warmup_steps=4, start_lr=0.0, end_lr=0.5),
        "NoamDecay": lambda: lr.NoamDecay(d_model=16, warmup_steps=5),
    }


def run_lr(scheduler, steps=LR_STEPS):
    """The learning rate before each of `steps` step() calls."""
    values = []
    for _ in range(steps):
        values.append(float(scheduler()))
        scheduler.step()
    return values


def run_lr_epochs(scheduler, epochs):
    """The learning rate after step(epoch) for each epoch given (the closed-form path)."""
    values = []
    for epoch in epochs:
        scheduler.step(epoch)
        values.append(float(scheduler()))
    return values


JUMP_EPOCHS = [0, 1, 2, 7, 3, 12, 20]


def _lenet(paddle):
    nn = paddle.nn

    class LeNet(nn.Layer):
        """paddle.vision.models.LeNet's layers."""

        def __init__(self, num_classes=10):
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
                nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84),
                                    nn.Linear(84, num_classes))

        def forward(self, x):
            return self.fc(paddle.flatten(self.features(x), 1))

    return LeNet()


def _small_cnn(paddle):
    nn = paddle.nn

    class SmallCNN(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(3, 8, 3, padding=1)
            self.bn = nn.BatchNorm2D(8)
            self.relu = nn.ReLU()
            self.pool = nn.AdaptiveAvgPool2D(1)
            self.dropout = nn.Dropout(0.5)
            self.fc = nn.Linear(8, 4)
            self.fc.bias.stop_gradient = True

        def forward(self, x):
            x = self.pool(self.relu(self.bn(self.conv(x))))
            return self.fc(self.dropout(paddle.flatten(x, 1)))

    return SmallCNN()


def _two_inputs(paddle):
    nn = paddle.nn

    class TwoInputs(nn.Layer):
        def __init__(self):
            super().__init__()
            self.left = nn.Linear(6, 3)
            self.right = nn.Linear(5, 3)
            self.act = nn.LeakyReLU()

        def forward(self, a, b):
            return self.act(self.left(a) + self.right(b))

    return TwoInputs()


# name -> (network builder, summary input_size, flops input_size or None when flops does not
# apply to the network's call signature)
NETS = {
    "lenet": (_lenet, (1, 1, 28, 28), [1, 1, 28, 28]),
    "small_cnn": (_small_cnn, (2, 3, 8, 8), [2, 3, 8, 8]),
    "two_inputs": (_two_inputs, [(4, 6), (4, 5)], None),
}


def capture(function):
    """(printed text, return value) of function()."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        result = function()
    return buffer.getvalue(), result


def run_nets(paddle):
    """name -> {summary text and params, flops text and total} for each of NETS; every network
    is built under a fresh unique_name scope so its layer names start from 0."""
    results = {}
    for name, (build, summary_size, flops_size) in NETS.items():
        with paddle.utils.unique_name.guard():
            net = build(paddle)
        text, params = capture(lambda: paddle.summary(net, summary_size))
        entry = {"summary": text, "total_params": int(params["total_params"]),
                 "trainable_params": int(params["trainable_params"])}
        if flops_size is not None:
            text, total = capture(lambda: paddle.flops(net, flops_size, print_detail=True))
            entry["flops"] = text
            entry["total_flops"] = int(total)
        results[name] = entry
    return results


def static_flops_program(paddle):
    """A static program with the op types paddle.flops counts (conv2d with bias, batch_norm,
    pool2d, elementwise ops) and one it does not (matmul_v2 of Linear); call in static mode."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [None, 3, 8, 8], "float32")
        conv = paddle.nn.Conv2D(3, 4, 3, padding=1)
        y = paddle.nn.functional.relu(paddle.nn.BatchNorm2D(4)(conv(x)))
        y = paddle.flatten(paddle.nn.functional.max_pool2d(y, 2), 1)
        paddle.nn.Linear(64, 5)(y)
    return main


def run_static_flops(paddle):
    paddle.enable_static()
    try:
        program = static_flops_program(paddle)
        text, total = capture(lambda: paddle.flops(program, None, print_detail=True))
    finally:
        paddle.disable_static()
    return {"flops": text, "total_flops": int(total)}
