"""Calls of the paddle.nn.functional losses on fixed float64 inputs, shared by
tools/record_paddle_losses.py (which runs them under PaddlePaddle and records the results in
paddle_losses_reference.npz) and test_loss_functions.py (which runs them here and compares).

Each case is (function name, positional args, keyword args). Arrays of floats are differentiated;
integer arrays (class indices) are not. Only NumPy and the `paddle` passed in are used, so the
module runs under either framework."""
import numpy as np


def _inputs():
    rng = np.random.RandomState(0)
    x = rng.uniform(-2, 2, (4, 5))
    unit = rng.uniform(0, 1, (4, 5))
    prob = rng.uniform(0.05, 0.95, (4, 5))
    weight = rng.uniform(0.5, 2, (4, 5))
    pos_weight = rng.uniform(0.5, 3, (5,))
    sign = rng.choice([-1.0, 1.0], (4, 5))
    row_sign = rng.choice([-1.0, 1.0], (4,))
    classes = rng.randint(0, 5, (4,))
    classes[1] = -100
    log_prob = x - np.log(np.exp(x).sum(1, keepdims=True))
    x3 = rng.uniform(-2, 2, (2, 3, 4))
    classes3 = rng.randint(0, 3, (2, 4))
    positive = rng.uniform(0.1, 2, (4, 5))
    binary = (unit > 0.5).astype(np.float64)
    return dict(x=x, unit=unit, prob=prob, weight=weight, pos_weight=pos_weight, sign=sign,
                row_sign=row_sign, classes=classes, log_prob=log_prob, x3=x3, classes3=classes3,
                positive=positive, binary=binary)


def cases():
    v = _inputs()
    return {
        "bce_weight_none": ("binary_cross_entropy", [v["prob"], v["unit"], v["weight"]],
                            {"reduction": "none"}),
        "bce_mean": ("binary_cross_entropy", [v["prob"], v["unit"]], {}),
        "bce_logits_weights_none": ("binary_cross_entropy_with_logits", [v["x"], v["unit"]],
                                    {"weight": v["weight"], "pos_weight": v["pos_weight"],
                                     "reduction": "none"}),
        "bce_logits_sum": ("binary_cross_entropy_with_logits", [v["x"], v["unit"]],
                           {"reduction": "sum"}),
        "smooth_l1_none": ("smooth_l1_loss", [v["x"], v["unit"]],
                           {"reduction": "none", "delta": 0.7}),
        "smooth_l1_not_huber": ("smooth_l1_loss", [v["x"], v["unit"]],
                                {"delta": 0.7, "is_huber": False}),
        "kl_div_none": ("kl_div", [v["x"], v["unit"] - 0.3], {"reduction": "none"}),
        "kl_div_batchmean_log_target": ("kl_div", [v["x"], v["unit"]],
                                        {"reduction": "batchmean", "log_target": True}),
        "kl_div_mean": ("kl_div", [v["x"], v["unit"]], {}),
        "margin_ranking_none": ("margin_ranking_loss", [v["x"], v["unit"], v["sign"]],
                                {"margin": 0.3, "reduction": "none"}),
        "hinge_embedding_none": ("hinge_embedding_loss", [v["x"], v["sign"]],
                                 {"margin": 0.5, "reduction": "none"}),
        "cosine_embedding_none": ("cosine_embedding_loss", [v["x"], v["unit"], v["row_sign"]],
                                  {"margin": 0.1, "reduction": "none"}),
        "triplet_none": ("triplet_margin_loss", [v["x"], v["unit"], v["prob"]],
                         {"margin": 0.5, "reduction": "none"}),
        "triplet_p1_swap": ("triplet_margin_loss", [v["x"], v["unit"], v["prob"]],
                            {"p": 1, "swap": True, "reduction": "none"}),
        "triplet_p_inf": ("triplet_margin_loss", [v["x"], v["unit"], v["prob"]],
                          {"p": float("inf"), "reduction": "sum"}),
        "triplet_distance_none": ("triplet_margin_with_distance_loss",
                                  [v["x"], v["unit"], v["prob"]], {"reduction": "none"}),
        "soft_margin_none": ("soft_margin_loss", [v["x"], v["sign"]], {"reduction": "none"}),
        "multi_label_soft_margin_none": ("multi_label_soft_margin_loss", [v["x"], v["unit"]],
                                         {"weight": v["weight"], "reduction": "none"}),
        "sigmoid_focal_none": ("sigmoid_focal_loss", [v["x"], v["binary"]],
                               {"normalizer": np.array([3.0]), "reduction": "none"}),
        "sigmoid_focal_sum": ("sigmoid_focal_loss", [v["x"], v["binary"]],
                              {"alpha": 0.4, "gamma": 1.5}),
        "square_error_cost": ("square_error_cost", [v["x"], v["unit"]], {}),
        "poisson_nll_none": ("poisson_nll_loss", [v["x"], v["positive"] * 2],
                             {"reduction": "none"}),
        "poisson_nll_full": ("poisson_nll_loss", [v["positive"], v["positive"] * 2],
                             {"log_input": False, "full": True, "reduction": "none"}),
        "gaussian_nll_none": ("gaussian_nll_loss", [v["x"], v["unit"], v["positive"]],
                              {"reduction": "none"}),
        "gaussian_nll_row_variance": ("gaussian_nll_loss", [v["x"], v["unit"],
                                                            v["positive"][:, 0]],
                                      {"full": True, "reduction": "sum"}),
        "nll_weight_none": ("nll_loss", [v["log_prob"], v["classes"]],
                            {"weight": v["weight"][0], "reduction": "none"}),
        "nll_weight_mean": ("nll_loss", [v["log_prob"], v["classes"]],
                            {"weight": v["weight"][0]}),
        "nll_sum": ("nll_loss", [v["log_prob"], v["classes"]], {"reduction": "sum"}),
        "nll_rank3_none": ("nll_loss", [v["x3"], v["classes3"]], {"reduction": "none"}),
        "nll_rank3_mean": ("nll_loss", [v["x3"], v["classes3"]], {}),
        "l1_mean": ("l1_loss", [v["x"], v["unit"]], {}),
    }


def to_tensor(paddle, value):
    """value as a tensor; floating arrays require a gradient."""
    tensor = paddle.to_tensor(value)
    if np.asarray(value).dtype.kind == "f":
        tensor.stop_gradient = False
    return tensor


def run(paddle, case):
    """The loss of `case` in dygraph and the gradients of its sum: ({"out": array,
    "grad_<arg>": array, ...}), arguments named by position (0, 1, ...) or keyword."""
    function, args, kwargs = case
    tensors = {str(k): to_tensor(paddle, a) for k, a in enumerate(args)}
    keywords = {k: to_tensor(paddle, a) if isinstance(a, np.ndarray) else a
                for k, a in kwargs.items()}
    out = getattr(paddle.nn.functional, function)(
        *[tensors[str(k)] for k in range(len(args))], **keywords)
    results = {"out": out.numpy()}
    out.sum().backward()
    named = dict(tensors, **{k: t for k, t in keywords.items() if hasattr(t, "grad")})
    for name, tensor in named.items():
        if tensor.grad is not None:
            results[f"grad_{name}"] = tensor.grad.numpy()
    return results
