"""The losses of paddle.nn.functional, op-backed (bce_loss, sigmoid_cross_entropy_with_logits,
huber_loss, kldiv_loss, log_loss, nll_loss; their ops have harness entries in op_db_losses.py) and
composed (margin_ranking_loss, triplet_margin_loss, gaussian_nll_loss, ...):

- values and the gradients of their sums equal PaddlePaddle 3.3.1's, recorded by
  tools/record_paddle_losses.py on the cases of loss_cases.py;
- values equal NumPy references written from the formulas;
- float64 gradients equal central differences;
- a static program gives the dygraph values and gradients;
- bad arguments raise typed errors naming the function and the argument."""
import math
import os

import numpy as np
import pytest

import paddle
from harness import OpInfo, Sample, check_gradient
from loss_cases import cases, run
from static_testing import static_mode

F = paddle.nn.functional
CASES = cases()
REFERENCE = np.load(os.path.join(os.path.dirname(__file__), "paddle_losses_reference.npz"))

# Gradients this framework gives where Paddle gives none. gaussian_nll_loss clamps the variance
# inside paddle.no_grad(), which cuts the variance off the graph in Paddle; here the clamp is a
# maximum with epsilon, so a learned variance trains (docs/design.md, "Losses").
EXTRA_GRADIENTS = {"gaussian_nll_none": {"grad_2"}, "gaussian_nll_row_variance": {"grad_2"}}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients_match_paddle(name):
    recorded = {key.split("/", 1)[1]: REFERENCE[key] for key in REFERENCE.files
                if key.startswith(name + "/")}
    assert "out" in recorded, f"{name}: no recorded result; rerun tools/record_paddle_losses.py"
    ours = run(paddle, CASES[name])
    assert set(ours) - set(recorded) == EXTRA_GRADIENTS.get(name, set())
    assert set(recorded) <= set(ours), f"{name}: missing {set(recorded) - set(ours)}"
    for key, expected in recorded.items():
        assert ours[key].shape == expected.shape, f"{name} {key}"
        np.testing.assert_allclose(ours[key], expected, rtol=1e-9, atol=1e-12,
                                   err_msg=f"{name} {key}")


# ---------------------------------------------------------------- NumPy references
def softplus(z):
    return np.logaddexp(0.0, z)


def log_sigmoid(z):
    return -softplus(-z)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def reduce(loss, reduction):
    return {"none": loss, "mean": loss.mean(), "sum": loss.sum()}[reduction]


def pairwise(x, y, p=2.0, epsilon=1e-6):
    d = np.abs(x - y + epsilon)
    if p == np.inf:
        return d.max(-1)
    return (d ** p).sum(-1) ** (1.0 / p)


def np_bce_logits(logit, label, weight=None, reduction="mean", pos_weight=None):
    w = 1.0 if pos_weight is None else 1 + (pos_weight - 1) * label
    loss = (1 - label) * logit + w * softplus(-logit)
    return reduce(loss * (1.0 if weight is None else weight), reduction)


def np_smooth_l1(input, label, reduction="mean", delta=1.0, is_huber=True):
    # huber_loss's delta is a float attribute (float32), as in Paddle; the final division by
    # delta happens in Python, in full precision.
    huber_delta = float(np.float32(delta))
    r = np.abs(label - input)
    loss = np.where(r <= huber_delta, 0.5 * r * r, huber_delta * (r - 0.5 * huber_delta))
    return reduce(loss if is_huber else loss / delta, reduction)


def np_kl_div(input, label, reduction="mean", log_target=False):
    if log_target:
        loss = np.exp(label) * (label - input)
    else:
        loss = np.where(label > 0, label * (np.log(np.where(label > 0, label, 1)) - input), 0)
    if reduction == "batchmean":
        return loss.sum() / loss.shape[0]
    return reduce(loss, reduction)


def np_cosine_embedding(input1, input2, label, margin=0, reduction="mean"):
    cos = (input1 * input2).sum(-1) / np.sqrt(((input1 ** 2).sum(-1) + 1e-11)
                                              * ((input2 ** 2).sum(-1) + 1e-11))
    loss = np.where(label == 1, 1 - cos, 0) + np.where(label == -1, np.maximum(cos - margin, 0), 0)
    return reduce(loss, reduction)


def np_triplet(input, positive, negative, margin=1.0, p=2.0, epsilon=1e-6, swap=False,
               reduction="mean"):
    d_pos = pairwise(input, positive, p, epsilon)
    d_neg = pairwise(input, negative, p, epsilon)
    if swap:
        d_neg = np.minimum(d_neg, pairwise(positive, negative, p, epsilon))
    return reduce(np.maximum(d_pos - d_neg + margin, 0), reduction)


def np_focal(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum"):
    p = sigmoid(logit)
    p_t = p * label + (1 - p) * (1 - label)
    alpha_t = alpha * label + (1 - alpha) * (1 - label)
    loss = alpha_t * (1 - p_t) ** gamma * np_bce_logits(logit, label, reduction="none")
    return reduce(loss if normalizer is None else loss / normalizer, reduction)


def np_poisson(input, label, log_input=True, full=False, epsilon=1e-8, reduction="mean"):
    loss = np.exp(input) - label * input if log_input else input - label * np.log(input + epsilon)
    if full:
        safe = np.where(label > 1, label, 2.0)
        stirling = safe * np.log(safe) - safe + 0.5 * np.log(2 * np.pi * safe)
        loss = loss + np.where(label > 1, stirling, 0)
    return reduce(loss, reduction)


def np_gaussian(input, label, variance, full=False, epsilon=1e-6, reduction="mean"):
    if variance.shape != input.shape:
        variance = variance.reshape(input.shape[:-1] + (1,))
    variance = np.maximum(variance, epsilon)
    loss = 0.5 * (np.log(variance) + (input - label) ** 2 / variance)
    return reduce(loss + (0.5 * math.log(2 * math.pi) if full else 0), reduction)


def np_nll(input, label, weight=None, ignore_index=-100, reduction="mean"):
    counted = label != ignore_index
    safe = np.where(counted, label, 0)
    picked = np.take_along_axis(input, np.expand_dims(safe, 1), 1).squeeze(1)
    w = np.where(counted, (np.ones(input.shape[1]) if weight is None else weight)[safe], 0)
    if reduction == "mean":
        return (-w * picked).sum() / w.sum()
    return reduce(-w * picked, reduction)


NUMPY = {
    "binary_cross_entropy": lambda input, label, weight=None, reduction="mean": reduce(
        -(label * np.log(input) + (1 - label) * np.log(1 - input))
        * (1.0 if weight is None else weight), reduction),
    "binary_cross_entropy_with_logits": np_bce_logits,
    "smooth_l1_loss": np_smooth_l1,
    "kl_div": np_kl_div,
    "margin_ranking_loss": lambda input, other, label, margin=0.0, reduction="mean": reduce(
        np.maximum(-label * (input - other) + margin, 0), reduction),
    "hinge_embedding_loss": lambda input, label, margin=1.0, reduction="mean": reduce(
        np.where(label == 1, input, 0) + np.where(label == -1, np.maximum(margin - input, 0), 0),
        reduction),
    "cosine_embedding_loss": np_cosine_embedding,
    "triplet_margin_loss": np_triplet,
    "triplet_margin_with_distance_loss": lambda input, positive, negative, reduction="mean":
        np_triplet(input, positive, negative, reduction=reduction),
    "soft_margin_loss": lambda input, label, reduction="mean": reduce(
        softplus(-label * input), reduction),
    "multi_label_soft_margin_loss": lambda input, label, weight=None, reduction="mean": reduce(
        (-(label * log_sigmoid(input) + (1 - label) * log_sigmoid(-input))
         * (1.0 if weight is None else weight)).mean(-1), reduction),
    "sigmoid_focal_loss": np_focal,
    "square_error_cost": lambda input, label: (input - label) ** 2,
    "poisson_nll_loss": np_poisson,
    "gaussian_nll_loss": np_gaussian,
    "nll_loss": np_nll,
    "l1_loss": lambda input, label, reduction="mean": reduce(np.abs(input - label), reduction),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_values_match_numpy(name, dtype):
    function, args, kwargs = CASES[name]

    def cast(a):
        return a.astype(dtype) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a
    out = getattr(F, function)(*[paddle.to_tensor(cast(a)) for a in args],
                               **{k: paddle.to_tensor(cast(v)) if isinstance(v, np.ndarray) else v
                                  for k, v in kwargs.items()})
    assert out.dtype.name == dtype
    expected = NUMPY[function](*args, **kwargs)
    tol = 1e-12 if dtype == "float64" else 1e-5
    np.testing.assert_allclose(out.numpy(), expected, rtol=tol, atol=tol)


# Arguments with a gradient to check numerically: by default every floating positional one. The
# others are labels that Paddle's ops do not differentiate, or that a loss only compares
# (hinge's and cosine's label == 1), where a finite difference jumps.
PREDICTION_ONLY = {"binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
                   "sigmoid_focal_loss", "hinge_embedding_loss", "nll_loss"}
GRAD_ARGS = {"cosine_embedding_loss": [0, 1]}


@pytest.mark.parametrize("name", sorted(CASES))
def test_float64_gradient_matches_numeric(name):
    function, args, kwargs = CASES[name]
    grad_args = [0] if function in PREDICTION_ONLY else GRAD_ARGS.get(function)
    info = OpInfo(name, getattr(F, function), None, lambda rng: [])
    check_gradient(info, Sample(list(args), dict(kwargs), grad_args))


@pytest.mark.parametrize("name", sorted(CASES))
def test_static_program_matches_dygraph(name):
    function, args, kwargs = CASES[name]
    eager = run(paddle, CASES[name])
    arrays = {f"arg{k}": a for k, a in enumerate(args)}
    arrays.update({k: v for k, v in kwargs.items() if isinstance(v, np.ndarray)})
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            data = {}
            for key, a in arrays.items():
                data[key] = paddle.static.data(key, a.shape, str(a.dtype))
                data[key].stop_gradient = a.dtype.kind != "f"
            out = getattr(F, function)(*[data[f"arg{k}"] for k in range(len(args))],
                                       **{k: data.get(k, v) for k, v in kwargs.items()})
            wrt = [v for v in data.values() if not v.stop_gradient]
            grads = paddle.static.gradients([paddle.sum(out)], wrt)
            fetched = [out] + [g for g in grads if g is not None]
        results = paddle.static.Executor(paddle.CPUPlace()).run(main, feed=arrays,
                                                                fetch_list=fetched)
    # A static program keeps float attributes (scale's bias, a margin) in float32, as Paddle's
    # programs do, where dygraph computes with the Python float.
    tol = {"rtol": 1e-6, "atol": 1e-12}
    np.testing.assert_allclose(results[0], eager["out"], **tol)
    names = [k if k in kwargs else k[3:] for k, v in data.items() if not v.stop_gradient]
    static_grads = dict(zip([n for n, g in zip(names, grads) if g is not None], results[1:]))
    assert set(static_grads) == {k[5:] for k in eager if k.startswith("grad_")}
    for key, value in static_grads.items():
        np.testing.assert_allclose(value, eager[f"grad_{key}"], **tol, err_msg=f"{name} d/d{key}")


def test_static_programs_hold_paddles_loss_ops():
    """The op-backed losses write Paddle's legacy op types and slots; nll_loss of rank 3 goes
    through reshape2 as in Paddle."""
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [3, 4], "float32")
            y = paddle.static.data("y", [3, 4], "float32")
            F.binary_cross_entropy(F.sigmoid(x), y)
            F.binary_cross_entropy_with_logits(x, y, pos_weight=y)
            F.smooth_l1_loss(x, y, delta=2.0)
            F.kl_div(x, y, reduction="batchmean")
            F.log_loss(paddle.static.data("p", [3, 1], "float32"),
                       paddle.static.data("l", [3, 1], "float32"))
            F.nll_loss(paddle.static.data("lp", [3, 4, 5], "float32"),
                       paddle.static.data("c", [3, 5], "int64"), reduction="none")
        ops = {op.type: op for op in main.global_block().ops}
    assert {"bce_loss", "sigmoid_cross_entropy_with_logits", "huber_loss", "kldiv_loss",
            "log_loss", "nll_loss", "reshape2"} <= set(ops)
    assert ops["bce_loss"].input_names == ["X", "Label"] or set(ops["bce_loss"].input_names) == {
        "X", "Label"}
    assert set(ops["sigmoid_cross_entropy_with_logits"].input_names) >= {"X", "Label",
                                                                         "pos_weight"}
    assert set(ops["huber_loss"].output_names) == {"Out", "Residual"}
    assert ops["huber_loss"].attr("delta") == pytest.approx(2.0)
    assert set(ops["kldiv_loss"].input_names) == {"X", "Target"}
    assert ops["kldiv_loss"].attr("reduction") == "batchmean"
    assert set(ops["log_loss"].input_names) == {"Predicted", "Labels"}
    assert set(ops["nll_loss"].output_names) == {"Out", "Total_weight"}
    assert ops["nll_loss"].attr("ignore_index") == -100


# ---------------------------------------------------------------- semantics worth a test of their own
def test_nll_loss_ignore_index_and_all_ignored():
    logp = paddle.to_tensor(np.log(np.full((3, 4), 0.25)))
    labels = paddle.to_tensor(np.array([1, 7, 2]))
    out = F.nll_loss(logp, labels, ignore_index=7, reduction="none")
    np.testing.assert_allclose(out.numpy(), [math.log(4), 0, math.log(4)])
    everything_ignored = F.nll_loss(logp, paddle.to_tensor(np.array([-100] * 3)))
    assert everything_ignored.shape == [] and everything_ignored.item() == 0.0


def test_nll_loss_of_rank_3_with_an_unknown_batch_in_a_static_program():
    logp = np.log(np.random.default_rng(0).dirichlet(np.ones(3), size=(4, 5))).transpose(0, 2, 1)
    classes = np.random.default_rng(1).integers(0, 3, (4, 5))
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            out = F.nll_loss(paddle.static.data("lp", [None, 3, 5], "float64"),
                             paddle.static.data("c", [None, 5], "int64"), reduction="none")
            assert out.shape == [-1, 5]
        got, = paddle.static.Executor().run(main, feed={"lp": logp, "c": classes},
                                            fetch_list=[out])
    np.testing.assert_allclose(got, np_nll(logp, classes, reduction="none"), rtol=1e-12)


def test_bce_clamps_logs_at_minus_100():
    out = F.binary_cross_entropy(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 0.0]),
                                 reduction="none")
    np.testing.assert_allclose(out.numpy(), [100.0, 100.0])


def test_kl_div_promotes_a_float32_float64_pair():
    out = F.kl_div(paddle.to_tensor(np.zeros(3, np.float32)), paddle.to_tensor(np.full(3, 0.5)))
    assert out.dtype == paddle.float64
    np.testing.assert_allclose(out.item(), 0.5 * math.log(0.5))


def test_triplet_with_distance_takes_a_distance_function():
    x, p, n = (paddle.to_tensor(np.full((2, 3), v)) for v in (0.0, 1.0, 3.0))

    def manhattan(a, b):
        return paddle.sum(paddle.abs(a - b), axis=-1)
    out = F.triplet_margin_with_distance_loss(x, p, n, distance_function=manhattan, margin=7.0,
                                              reduction="none")
    np.testing.assert_allclose(out.numpy(), [3 - 9 + 7.0] * 2)
    with pytest.raises(ValueError, match="triplet_margin_with_distance_loss.*negative"):
        F.triplet_margin_with_distance_loss(x, p, n, distance_function=lambda a, b: -manhattan(a, b))


def test_sigmoid_focal_loss_defaults_to_sum():
    logit, label = paddle.to_tensor([[0.3, -1.2]]), paddle.to_tensor([[1.0, 0.0]])
    total = F.sigmoid_focal_loss(logit, label)
    parts = F.sigmoid_focal_loss(logit, label, reduction="none")
    assert total.shape == [] and total.item() == pytest.approx(parts.sum().item())


def test_gaussian_nll_variance_trains():
    variance = paddle.to_tensor([[0.5, 2.0]], stop_gradient=False)
    F.gaussian_nll_loss(paddle.to_tensor([[1.0, 0.0]]), paddle.to_tensor([[0.0, 0.0]]),
                        variance).backward()
    # d/dvar of 0.5 * (log var + r^2 / var), halved by the mean over two elements.
    np.testing.assert_allclose(variance.grad.numpy(),
                               [[0.25 * (1 / 0.5 - 1 / 0.25), 0.25 * (1 / 2.0)]], rtol=1e-6)


# ---------------------------------------------------------------- errors
TWO_ARG = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "smooth_l1_loss",
           "hinge_embedding_loss", "soft_margin_loss", "multi_label_soft_margin_loss",
           "sigmoid_focal_loss", "poisson_nll_loss", "l1_loss", "kl_div"]


def halves(shape):
    return paddle.to_tensor(np.full(shape, 0.5, np.float32))


WITH_REDUCTION = TWO_ARG + ["nll_loss", "margin_ranking_loss", "cosine_embedding_loss",
                            "triplet_margin_loss", "triplet_margin_with_distance_loss",
                            "gaussian_nll_loss"]


@pytest.mark.parametrize("function", WITH_REDUCTION)
def test_invalid_reduction_names_the_function(function):
    args = {"nll_loss": [halves((2, 3)), paddle.to_tensor([0, 1])],
            "margin_ranking_loss": [halves((2,))] * 3,
            "cosine_embedding_loss": [halves((2, 3)), halves((2, 3)), paddle.to_tensor([1, -1])],
            "triplet_margin_loss": [halves((2, 3))] * 3,
            "triplet_margin_with_distance_loss": [halves((2, 3))] * 3,
            "gaussian_nll_loss": [halves((2, 3))] * 3}.get(function, [halves((2, 3))] * 2)
    with pytest.raises(ValueError, match=r"(?i)reduction.*average|average.*reduction") as error:
        getattr(F, function)(*args, reduction="average")
    name = {"margin_ranking_loss": "MarginRankingLoss", "l1_loss": "L1Loss"}.get(function, function)
    assert name in str(error.value)


@pytest.mark.parametrize("function", TWO_ARG + ["square_error_cost"])
def test_shape_mismatch_names_the_function_and_argument(function):
    with pytest.raises(ValueError, match="label") as error:
        getattr(F, function)(halves((2, 3)), halves((2, 4)))
    op = {"binary_cross_entropy": "bce_loss", "binary_cross_entropy_with_logits":
          "sigmoid_cross_entropy_with_logits", "smooth_l1_loss": "huber_loss",
          "kl_div": "kldiv_loss", "sigmoid_focal_loss": "sigmoid_cross_entropy_with_logits",
          }.get(function, function)
    assert op in str(error.value)


@pytest.mark.parametrize("function", ["binary_cross_entropy", "binary_cross_entropy_with_logits",
                                      "smooth_l1_loss", "kl_div", "multi_label_soft_margin_loss",
                                      "poisson_nll_loss", "square_error_cost", "l1_loss"])
def test_integer_label_is_a_type_error(function):
    with pytest.raises(TypeError, match=f"{function}.*'label'"):
        getattr(F, function)(halves((2, 3)), paddle.to_tensor(np.ones((2, 3), np.int64)))


def test_nll_loss_errors():
    logp = halves((3, 4))
    with pytest.raises(IndexError, match="nll_loss: argument 'label' holds 4 at flat index 2"):
        F.nll_loss(logp, paddle.to_tensor([0, 1, 4]))
    with pytest.raises(TypeError, match="nll_loss.*'label' must be int64.*int32"):
        F.nll_loss(logp, paddle.to_tensor(np.array([0, 1, 2], np.int32)))
    with pytest.raises(ValueError, match="nll_loss.*'label' must have the shape of 'input'"):
        F.nll_loss(logp, paddle.to_tensor([0, 1]))
    with pytest.raises(ValueError, match="nll_loss.*input_dims - 1 = label_dims"):
        F.nll_loss(logp, paddle.to_tensor(np.zeros((3, 1, 1), np.int64)))
    with pytest.raises(ValueError, match="nll_loss.*'weight' must have shape"):
        F.nll_loss(logp, paddle.to_tensor([0, 1, 2]), weight=halves((3,)))
    with pytest.raises(ValueError, match="nll_loss.*2 or more dimensions"):
        F.nll_loss(halves((4,)), paddle.to_tensor(np.int64(1)))


def test_other_argument_errors():
    with pytest.raises(ValueError, match="bce_loss: argument 'input' must hold probabilities"):
        F.binary_cross_entropy(paddle.to_tensor([1.5]), paddle.to_tensor([1.0]))
    with pytest.raises(ValueError, match="binary_cross_entropy_with_logits.*'pos_weight'"):
        F.binary_cross_entropy_with_logits(halves((2, 3)), halves((2, 3)), pos_weight=halves((4,)))
    with pytest.raises(ValueError, match="log_loss: argument 'input' must have shape \\[N, 1\\]"):
        F.log_loss(halves((2, 3)), halves((2, 3)))
    with pytest.raises(ValueError, match="cosine_embedding_loss.*'label' must be 1-D"):
        F.cosine_embedding_loss(halves((2, 3)), halves((2, 3)), halves((2, 1)))
    with pytest.raises(TypeError, match="cosine_embedding_loss.*'input1'"):
        F.cosine_embedding_loss(paddle.ones([2, 3], "int64"), paddle.ones([2, 3], "int64"),
                                paddle.to_tensor([1, 1]))
    with pytest.raises(ValueError, match="triplet_margin_loss.*'negative' must have the shape"):
        F.triplet_margin_loss(halves((2, 3)), halves((2, 3)), halves((2, 4)))
    with pytest.raises(ValueError, match="triplet_margin_loss.*'margin'"):
        F.triplet_margin_loss(halves((2, 3)), halves((2, 3)), halves((2, 3)), margin=-1.0)
    with pytest.raises(ValueError, match="poisson_nll_loss.*'epsilon'"):
        F.poisson_nll_loss(halves((2, 3)), halves((2, 3)), epsilon=0.0)
    with pytest.raises(ValueError, match="gaussian_nll_loss.*'variance' must have the shape"):
        F.gaussian_nll_loss(halves((2, 3)), halves((2, 3)), halves((3, 2)))
    with pytest.raises(ValueError, match="gaussian_nll_loss.*negative"):
        F.gaussian_nll_loss(halves((2, 3)), halves((2, 3)), paddle.to_tensor([-1.0, 1.0]))
    with pytest.raises(ValueError, match="sigmoid_focal_loss.*'normalizer'"):
        F.sigmoid_focal_loss(halves((2, 3)), halves((2, 3)), normalizer=halves((1, 1)))
    with pytest.raises(ValueError, match="kldiv_loss.*'label' must have the shape"):
        F.kl_div(halves((2, 3)), halves((3, 2)))
