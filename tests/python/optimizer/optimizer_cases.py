"""Training cases of the optimizers Adadelta ... Rprop, run the same way by this framework
(test_more_optimizers.py) and by PaddlePaddle (tools/record_paddle_optimizers.py, which records
paddle_optimizers_reference.npz): a Linear(4, 3) from fixed weights fitted by mean squared error
to STEPS fixed batches, in dygraph or as a static program. Everything is built from the `paddle`
module passed in, so the code runs under either framework."""
import numpy as np

STEPS = 8


def _clip(paddle):
    return paddle.nn.ClipGradByGlobalNorm(0.5)


def _is_bias(param):
    return len(param.shape) == 1


# name -> (optimizer class name, function of the paddle module giving its keyword arguments)
CASES = {
    "adadelta": ("Adadelta", lambda paddle: dict(learning_rate=0.5, rho=0.9)),
    "adadelta_decay": ("Adadelta", lambda paddle: dict(
        learning_rate=0.5, epsilon=1e-4, weight_decay=0.01)),
    "adamax": ("Adamax", lambda paddle: dict(learning_rate=0.05)),
    "adamax_clip": ("Adamax", lambda paddle: dict(
        learning_rate=0.05, beta1=0.8, beta2=0.99, grad_clip=_clip(paddle),
        weight_decay=paddle.regularizer.L2Decay(0.02))),
    "rmsprop": ("RMSProp", lambda paddle: dict(learning_rate=0.01)),
    "rmsprop_centered": ("RMSProp", lambda paddle: dict(
        learning_rate=0.01, rho=0.9, epsilon=1e-4, momentum=0.9, centered=True,
        weight_decay=0.01)),
    "lamb": ("Lamb", lambda paddle: dict(learning_rate=0.05)),
    "lamb_exclude": ("Lamb", lambda paddle: dict(
        learning_rate=0.05, lamb_weight_decay=0.1, beta1=0.8,
        exclude_from_weight_decay_fn=_is_bias, grad_clip=_clip(paddle))),
    "lamb_always_adapt": ("Lamb", lambda paddle: dict(
        learning_rate=0.05, lamb_weight_decay=0.0, always_adapt=True)),
    "nadam": ("NAdam", lambda paddle: dict(learning_rate=0.05)),
    "nadam_decay": ("NAdam", lambda paddle: dict(
        learning_rate=0.05, beta1=0.85, momentum_decay=0.01, weight_decay=0.01)),
    "radam": ("RAdam", lambda paddle: dict(learning_rate=0.05)),
    "radam_decay": ("RAdam", lambda paddle: dict(
        learning_rate=0.05, beta2=0.9, weight_decay=0.01, grad_clip=_clip(paddle))),
    "asgd": ("ASGD", lambda paddle: dict(learning_rate=0.05, batch_num=3)),
    "asgd_decay": ("ASGD", lambda paddle: dict(
        learning_rate=0.05, batch_num=1, weight_decay=0.01)),
    "rprop": ("Rprop", lambda paddle: dict(learning_rate=0.01)),
    "rprop_range": ("Rprop", lambda paddle: dict(
        learning_rate=0.05, learning_rate_range=(0.01, 0.08), etas=(0.3, 1.5))),
}


def data():
    """The initial weight and bias and the STEPS batches (x, y), float32."""
    rng = np.random.default_rng(2024)
    weight = rng.uniform(-0.5, 0.5, (4, 3)).astype("float32")
    bias = rng.uniform(-0.1, 0.1, (3,)).astype("float32")
    true_weight = rng.standard_normal((4, 3)).astype("float32")
    batches = []
    for _ in range(STEPS):
        x = rng.standard_normal((8, 4)).astype("float32")
        batches.append((x, (x @ true_weight + 0.3).astype("float32")))
    return weight, bias, batches


def _model(paddle, weight, bias):
    init = paddle.nn.initializer.Assign
    return paddle.nn.Linear(4, 3, weight_attr=paddle.ParamAttr(initializer=init(weight)),
                            bias_attr=paddle.ParamAttr(initializer=init(bias)))


def run_dygraph(paddle, name):
    """{"losses": [STEPS], "weight", "bias", "state/<accumulator name>": ...} after STEPS steps."""
    class_name, kwargs = CASES[name]
    weight, bias, batches = data()
    model = _model(paddle, weight, bias)
    opt = getattr(paddle.optimizer, class_name)(parameters=model.parameters(),
                                                **kwargs(paddle))
    losses = []
    for x, y in batches:
        loss = paddle.nn.functional.mse_loss(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    result = {"losses": np.array(losses), "weight": model.weight.numpy(),
              "bias": model.bias.numpy()}
    for key, value in opt.state_dict().items():
        result[f"state/{key}"] = np.array(value.numpy())
    return result


def run_static(paddle, name):
    """{"losses", "weight", "bias"} after STEPS runs of a static program that minimizes."""
    class_name, kwargs = CASES[name]
    weight, bias, batches = data()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.static.data("y", [None, 3], "float32")
        model = _model(paddle, weight, bias)
        loss = paddle.nn.functional.mse_loss(model(x), y)
        getattr(paddle.optimizer, class_name)(**kwargs(paddle)).minimize(loss)
    exe = paddle.static.Executor()
    exe.run(startup)
    losses = []
    for bx, by in batches:
        out = exe.run(main, feed={"x": bx, "y": by}, fetch_list=[loss, model.weight, model.bias])
        losses.append(float(out[0]))
    return {"losses": np.array(losses), "weight": np.array(out[1]), "bias": np.array(out[2])}


# LBFGS, closure-driven: name -> its keyword arguments. Each case runs LBFGS_STEPS step() calls
# on the whole data set (all batches in one).
LBFGS_STEPS = 3
LBFGS_CASES = {
    "lbfgs": dict(learning_rate=0.5, max_iter=5, history_size=3),
    "lbfgs_strong_wolfe": dict(learning_rate=0.5, max_iter=5, history_size=3,
                               line_search_fn="strong_wolfe"),
    "lbfgs_defaults": dict(),
}


def run_lbfgs(paddle, name):
    """{"losses": [LBFGS_STEPS], "weight", "bias", "func_evals", "n_iter", "d", "H_diag"}."""
    weight, bias, batches = data()
    model = _model(paddle, weight, bias)
    opt = paddle.optimizer.LBFGS(parameters=model.parameters(), **LBFGS_CASES[name])
    x = paddle.to_tensor(np.concatenate([bx for bx, _ in batches]))
    y = paddle.to_tensor(np.concatenate([by for _, by in batches]))

    def closure():
        opt.clear_grad()
        loss = paddle.nn.functional.mse_loss(model(x), y)
        loss.backward()
        return loss

    losses = [float(opt.step(closure)) for _ in range(LBFGS_STEPS)]
    state = opt.state_dict()["state"]
    return {"losses": np.array(losses), "weight": model.weight.numpy(),
            "bias": model.bias.numpy(), "func_evals": np.array(state["func_evals"]),
            "n_iter": np.array(state["n_iter"]), "d": np.array(state["d"].numpy()),
            "H_diag": np.array(float(state["H_diag"]))}
