"""The loss layers of paddle.nn: Paddle's constructor arguments, defaults and attribute names, the
functional result for the options they hold, a rejected reduction at construction, and a
training step through each op-backed one."""
import inspect

import numpy as np
import pytest

import paddle

F = paddle.nn.functional

# Constructor defaults and the attributes holding them, as PaddlePaddle 3.3.1 has them.
LAYERS = {
    "BCELoss": ({"weight": None, "reduction": "mean", "name": None},
                ["weight", "reduction", "name"]),
    "BCEWithLogitsLoss": ({"weight": None, "reduction": "mean", "pos_weight": None, "name": None},
                          ["weight", "reduction", "pos_weight", "name"]),
    "SmoothL1Loss": ({"reduction": "mean", "delta": 1.0, "is_huber": True, "name": None},
                     ["reduction", "delta", "is_huber", "name"]),
    "KLDivLoss": ({"reduction": "mean", "log_target": False}, ["reduction", "log_target"]),
    "MarginRankingLoss": ({"margin": 0.0, "reduction": "mean", "name": None},
                          ["margin", "reduction", "name"]),
    "HingeEmbeddingLoss": ({"margin": 1.0, "reduction": "mean", "name": None},
                           ["margin", "reduction", "name"]),
    "CosineEmbeddingLoss": ({"margin": 0, "reduction": "mean", "name": None},
                            ["margin", "reduction", "name"]),
    "TripletMarginLoss": ({"margin": 1.0, "p": 2.0, "epsilon": 1e-06, "swap": False,
                           "reduction": "mean", "name": None},
                          ["margin", "p", "epsilon", "swap", "reduction", "name"]),
    "TripletMarginWithDistanceLoss": ({"distance_function": None, "margin": 1.0, "swap": False,
                                       "reduction": "mean", "name": None},
                                      ["distance_function", "margin", "swap", "reduction",
                                       "name"]),
    "SoftMarginLoss": ({"reduction": "mean", "name": None}, ["reduction", "name"]),
    "MultiLabelSoftMarginLoss": ({"weight": None, "reduction": "mean", "name": None},
                                 ["weight", "reduction", "name"]),
    "PoissonNLLLoss": ({"log_input": True, "full": False, "epsilon": 1e-08, "reduction": "mean",
                        "name": None},
                       ["_log_input", "_full", "_epsilon", "_reduction", "_name"]),
    "GaussianNLLLoss": ({"full": False, "epsilon": 1e-06, "reduction": "mean", "name": None},
                        ["full", "epsilon", "reduction", "name"]),
    "NLLLoss": ({"weight": None, "ignore_index": -100, "reduction": "mean", "name": None},
                ["_weight", "_ignore_index", "_reduction"]),
    "L1Loss": ({"reduction": "mean", "name": None}, ["reduction"]),
}


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_constructor_matches_paddle(layer):
    defaults, attributes = LAYERS[layer]
    cls = getattr(paddle.nn, layer)
    parameters = inspect.signature(cls.__init__).parameters
    assert {k: p.default for k, p in parameters.items() if k != "self"} == defaults
    instance = cls()
    for attribute in attributes:
        assert hasattr(instance, attribute), f"{layer}.{attribute}"
    assert layer in paddle.nn.__all__


@pytest.mark.parametrize("layer", sorted(set(LAYERS) - {"NLLLoss", "L1Loss"}))
def test_invalid_reduction_is_rejected_at_construction(layer):
    with pytest.raises(ValueError, match=f"reduction.*{layer}|{layer}.*reduction"):
        getattr(paddle.nn, layer)(reduction="average")


def tensor(rng, shape, low=-1.0, high=1.0):
    return paddle.to_tensor(rng.uniform(low, high, shape))


def signs(rng, shape):
    return paddle.to_tensor(rng.choice([-1.0, 1.0], shape))


def layer_calls(rng):
    """(layer result, functional result for the same options)."""
    x, y = tensor(rng, (4, 3)), tensor(rng, (4, 3), 0.05, 0.95)
    p, w = tensor(rng, (4, 3), 0.05, 0.95), tensor(rng, (4, 3), 0.5, 2.0)
    pos_weight, var = tensor(rng, (3,), 0.5, 2.0), tensor(rng, (4, 3), 0.1, 2.0)
    logp, classes = F.log_softmax(x, axis=1), paddle.to_tensor([0, 2, -100, 1])
    sign, row_sign = signs(rng, (4, 3)), signs(rng, (4,))
    nn = paddle.nn
    return [
        (nn.BCELoss(weight=w, reduction="sum")(p, y),
         F.binary_cross_entropy(p, y, weight=w, reduction="sum")),
        (nn.BCEWithLogitsLoss(weight=w, reduction="none", pos_weight=pos_weight)(x, y),
         F.binary_cross_entropy_with_logits(x, y, w, "none", pos_weight)),
        (nn.SmoothL1Loss(reduction="none", delta=0.5, is_huber=False)(x, y),
         F.smooth_l1_loss(x, y, "none", 0.5, False)),
        (nn.KLDivLoss(reduction="batchmean", log_target=True)(x, y),
         F.kl_div(x, y, "batchmean", True)),
        (nn.MarginRankingLoss(margin=0.2)(x, y, sign), F.margin_ranking_loss(x, y, sign, 0.2)),
        (nn.HingeEmbeddingLoss(margin=0.4, reduction="sum")(x, sign),
         F.hinge_embedding_loss(x, sign, 0.4, "sum")),
        (nn.CosineEmbeddingLoss(margin=0.3, reduction="none")(x, y, row_sign),
         F.cosine_embedding_loss(x, y, row_sign, 0.3, "none")),
        (nn.TripletMarginLoss(margin=0.3, p=1.0, swap=True, reduction="none")(x, y, p),
         F.triplet_margin_loss(x, y, p, 0.3, 1.0, swap=True, reduction="none")),
        (nn.TripletMarginWithDistanceLoss(margin=0.3, swap=True)(x, y, p),
         F.triplet_margin_with_distance_loss(x, y, p, margin=0.3, swap=True)),
        (nn.SoftMarginLoss(reduction="sum")(x, sign), F.soft_margin_loss(x, sign, "sum")),
        (nn.MultiLabelSoftMarginLoss(weight=w, reduction="none")(x, y),
         F.multi_label_soft_margin_loss(x, y, w, "none")),
        (nn.PoissonNLLLoss(log_input=False, full=True, epsilon=1e-6)(p, w),
         F.poisson_nll_loss(p, w, False, True, 1e-6)),
        (nn.GaussianNLLLoss(full=True, epsilon=1e-3, reduction="sum")(x, y, var),
         F.gaussian_nll_loss(x, y, var, True, 1e-3, "sum")),
        (nn.NLLLoss(weight=paddle.to_tensor([1.0, 2.0, 0.5], dtype="float64"), ignore_index=-100,
                    reduction="sum")(logp, classes),
         F.nll_loss(logp, classes, paddle.to_tensor([1.0, 2.0, 0.5], dtype="float64"),
                    reduction="sum")),
    ]


def test_layers_give_the_functional_result():
    for layer_result, functional_result in layer_calls(np.random.default_rng(0)):
        assert layer_result.dtype == paddle.float64
        np.testing.assert_allclose(layer_result.numpy(), functional_result.numpy())


def test_margin_layers_match_their_formulas():
    x = paddle.to_tensor([[0.5, -0.2], [1.5, 0.1]])
    y = paddle.to_tensor([[0.1, 0.3], [0.2, -0.4]])
    label = paddle.to_tensor([[1.0, -1.0], [-1.0, 1.0]])
    out = paddle.nn.MarginRankingLoss(margin=0.2, reduction="none")(x, y, label)
    np.testing.assert_allclose(out.numpy(), np.maximum(-label.numpy() * (x.numpy() - y.numpy())
                                                       + 0.2, 0), rtol=1e-6)
    out = paddle.nn.HingeEmbeddingLoss(margin=0.4, reduction="none")(x, label)
    np.testing.assert_allclose(out.numpy(), np.where(label.numpy() == 1, x.numpy(),
                                                     np.maximum(0.4 - x.numpy(), 0)), rtol=1e-6)
    out = paddle.nn.SoftMarginLoss(reduction="none")(x, label)
    np.testing.assert_allclose(out.numpy(), np.log1p(np.exp(-label.numpy() * x.numpy())),
                               rtol=1e-6)


def test_cosine_embedding_margin_out_of_range():
    with pytest.raises(ValueError, match="margin.*CosineEmbeddingLoss"):
        paddle.nn.CosineEmbeddingLoss(margin=1.5)


def test_poisson_epsilon_must_be_positive():
    with pytest.raises(ValueError, match="epsilon.*PoissonNLLLoss"):
        paddle.nn.PoissonNLLLoss(epsilon=0.0)


@pytest.mark.parametrize("loss, target", [
    (paddle.nn.BCEWithLogitsLoss(pos_weight=paddle.to_tensor([2.0])), "binary"),
    (paddle.nn.SmoothL1Loss(), "real"),
    (paddle.nn.KLDivLoss(reduction="batchmean"), "distribution"),
    (paddle.nn.NLLLoss(), "class"),
])
def test_a_training_step_lowers_the_loss(loss, target):
    """A linear model trained a few SGD steps through each op-backed loss (bce via the sigmoid
    of its logits)."""
    paddle.seed(0)
    rng = np.random.default_rng(0)
    model = paddle.nn.Linear(4, 3)
    optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    x = paddle.to_tensor(rng.standard_normal((8, 4)).astype(np.float32))
    labels = {
        "binary": paddle.to_tensor((rng.uniform(size=(8, 3)) > 0.5).astype(np.float32)),
        "real": paddle.to_tensor(rng.standard_normal((8, 3)).astype(np.float32)),
        "distribution": F.softmax(paddle.to_tensor(rng.standard_normal((8, 3)).astype(np.float32))),
        "class": paddle.to_tensor(rng.integers(0, 3, 8)),
    }
    label = labels[target]

    def step():
        out = model(x)
        if target in ("distribution", "class"):
            out = F.log_softmax(out, axis=-1)
        value = loss(out, label)
        value.backward()
        optimizer.step()
        optimizer.clear_grad()
        return value.item()
    first = step()
    for _ in range(10):
        last = step()
    assert last < first
