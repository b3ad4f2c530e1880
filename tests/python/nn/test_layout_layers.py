"""The layout layers (paddle.nn.Pad1D/2D/3D, ZeroPad1D/2D/3D, PixelShuffle, PixelUnshuffle,
ChannelShuffle, Unfold, Fold, Unflatten): Paddle's constructor arguments and defaults, results
equal to their functions, data_format handling, and constructor errors. The ops under them are
checked by the op harness (op_db_layout.py)."""
import inspect

import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from static_testing import static_mode


def _tensor(shape, seed=0):
    return paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype("float32"))


def _signature(cls):
    return [(p.name, p.default) for p in
            list(inspect.signature(cls.__init__).parameters.values())[1:]]


_EMPTY = inspect.Parameter.empty


@pytest.mark.parametrize("cls,expected", [
    (nn.Pad1D, [("padding", _EMPTY), ("mode", "constant"), ("value", 0.0), ("data_format", "NCL"),
                ("name", None)]),
    (nn.Pad2D, [("padding", _EMPTY), ("mode", "constant"), ("value", 0.0),
                ("data_format", "NCHW"), ("name", None)]),
    (nn.Pad3D, [("padding", _EMPTY), ("mode", "constant"), ("value", 0.0),
                ("data_format", "NCDHW"), ("name", None)]),
    (nn.ZeroPad1D, [("padding", _EMPTY), ("data_format", "NCL"), ("name", None)]),
    (nn.ZeroPad2D, [("padding", _EMPTY), ("data_format", "NCHW"), ("name", None)]),
    (nn.ZeroPad3D, [("padding", _EMPTY), ("data_format", "NCDHW"), ("name", None)]),
    (nn.PixelShuffle, [("upscale_factor", _EMPTY), ("data_format", "NCHW"), ("name", None)]),
    (nn.PixelUnshuffle, [("downscale_factor", _EMPTY), ("data_format", "NCHW"), ("name", None)]),
    (nn.ChannelShuffle, [("groups", _EMPTY), ("data_format", "NCHW"), ("name", None)]),
    (nn.Unfold, [("kernel_sizes", _EMPTY), ("dilations", 1), ("paddings", 0), ("strides", 1),
                 ("name", None)]),
    (nn.Fold, [("output_sizes", _EMPTY), ("kernel_sizes", _EMPTY), ("dilations", 1),
               ("paddings", 0), ("strides", 1), ("name", None)]),
    (nn.Unflatten, [("axis", _EMPTY), ("shape", _EMPTY), ("name", None)]),
])
def test_constructor_arguments_and_defaults(cls, expected):
    assert _signature(cls) == expected


@pytest.mark.parametrize("layer,shape,pad,kwargs", [
    (nn.Pad1D(2), (2, 3, 5), [2, 2], {}),
    (nn.Pad1D([1, 2], mode="reflect"), (2, 3, 5), [1, 2], {"mode": "reflect"}),
    (nn.Pad1D((0, 3), mode="replicate", data_format="NLC"), (2, 5, 3), [0, 3],
     {"mode": "replicate", "data_format": "NLC"}),
    (nn.Pad2D(1, value=2.5), (1, 2, 3, 4), [1] * 4, {"value": 2.5}),
    (nn.Pad2D([1, 0, 2, 1], mode="circular", data_format="NHWC"), (1, 3, 4, 2), [1, 0, 2, 1],
     {"mode": "circular", "data_format": "NHWC"}),
    (nn.Pad3D(1, mode="reflect"), (1, 2, 2, 3, 4), [1] * 6, {"mode": "reflect"}),
    (nn.Pad3D([0, 1, 1, 0, 2, 0], value=-1.0, data_format="NDHWC"), (1, 2, 3, 4, 2),
     [0, 1, 1, 0, 2, 0], {"value": -1.0, "data_format": "NDHWC"}),
    (nn.ZeroPad1D([3, 1]), (1, 2, 4), [3, 1], {}),
    (nn.ZeroPad2D(2), (1, 2, 3, 3), [2] * 4, {}),
    (nn.ZeroPad2D([1, 0, 0, 2], data_format="NHWC"), (1, 3, 3, 2), [1, 0, 0, 2],
     {"data_format": "NHWC"}),
    (nn.ZeroPad3D([1, 0, 0, 1, 1, 1]), (1, 1, 2, 2, 2), [1, 0, 0, 1, 1, 1], {}),
])
def test_pad_layers_equal_f_pad(layer, shape, pad, kwargs):
    x = _tensor(shape)
    np.testing.assert_array_equal(layer(x).numpy(), F.pad(x, pad, **kwargs).numpy())


def test_pad_layers_pad_the_spatial_dims_of_their_data_format():
    x = _tensor((2, 3, 4, 5))
    assert nn.Pad2D([1, 2, 3, 4])(x).shape == [2, 3, 11, 8]
    assert nn.Pad2D([1, 2, 3, 4], data_format="NHWC")(x).shape == [2, 10, 7, 5]
    assert nn.Pad1D([1, 2], data_format="NLC")(_tensor((2, 3, 4))).shape == [2, 6, 4]
    assert nn.ZeroPad3D(1, data_format="NDHWC")(_tensor((1, 2, 3, 4, 5))).shape == [1, 4, 5, 6, 5]


def test_pad_layers_reject_bad_arguments_when_called():
    with pytest.raises(ValueError, match="mode"):
        nn.Pad2D(1, mode="wrap")(_tensor((1, 1, 3, 3)))
    with pytest.raises(ValueError, match="data_format"):
        nn.Pad2D(1, data_format="NCL")(_tensor((1, 1, 3, 3)))
    with pytest.raises(ValueError, match="less than the size"):
        nn.Pad1D(3, mode="reflect")(_tensor((1, 1, 3)))
    with pytest.raises(ValueError, match="4 values"):
        nn.Pad2D([1, 1], mode="replicate")(_tensor((1, 1, 3, 3)))


def test_pad_layer_repr():
    assert repr(nn.Pad2D(1)) == ("Pad2D(padding=[1, 1, 1, 1], mode=constant, value=0.0, "
                                 "data_format=NCHW)")
    assert repr(nn.ZeroPad1D([1, 2], name="z")) == "ZeroPad1D(padding=[1, 2], data_format=NCL, name=z)"


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_shuffle_layers_equal_their_functions(data_format):
    x = _tensor((2, 8, 4, 6) if data_format == "NCHW" else (2, 4, 6, 8))
    np.testing.assert_array_equal(nn.PixelShuffle(2, data_format)(x).numpy(),
                                  F.pixel_shuffle(x, 2, data_format).numpy())
    np.testing.assert_array_equal(nn.PixelUnshuffle(2, data_format)(x).numpy(),
                                  F.pixel_unshuffle(x, 2, data_format).numpy())
    np.testing.assert_array_equal(nn.ChannelShuffle(4, data_format)(x).numpy(),
                                  F.channel_shuffle(x, 4, data_format).numpy())
    # pixel_unshuffle undoes pixel_shuffle; shuffling 4 groups of 2 is undone with 2 groups of 4.
    np.testing.assert_array_equal(
        nn.PixelUnshuffle(2, data_format)(nn.PixelShuffle(2, data_format)(x)).numpy(), x.numpy())
    np.testing.assert_array_equal(
        nn.ChannelShuffle(2, data_format)(nn.ChannelShuffle(4, data_format)(x)).numpy(), x.numpy())


@pytest.mark.parametrize("cls,arg", [(nn.PixelShuffle, "upscale_factor"),
                                     (nn.PixelUnshuffle, "downscale_factor"),
                                     (nn.ChannelShuffle, "groups")])
def test_shuffle_layers_check_their_arguments(cls, arg):
    with pytest.raises(TypeError, match=arg):
        cls(2.0)
    with pytest.raises(ValueError, match=arg):
        cls(0)
    with pytest.raises(ValueError, match="data_format"):
        cls(2, "NCDHW")


def test_shuffle_layer_repr():
    assert repr(nn.PixelShuffle(3)) == "PixelShuffle(upscale_factor=3)"
    assert repr(nn.PixelUnshuffle(2, "NHWC")) == "PixelUnshuffle(downscale_factor=2, data_format=NHWC)"
    assert repr(nn.ChannelShuffle(2, name="c")) == "ChannelShuffle(groups=2, name=c)"


def test_unfold_and_fold_layers_equal_their_functions():
    x = _tensor((2, 3, 5, 6))
    unfold = nn.Unfold([2, 3], dilations=[1, 2], paddings=1, strides=[2, 1])
    cols = unfold(x)
    np.testing.assert_array_equal(
        cols.numpy(), F.unfold(x, [2, 3], strides=[2, 1], paddings=1, dilations=[1, 2]).numpy())
    fold = nn.Fold([5, 6], [2, 3], dilations=[1, 2], paddings=1, strides=[2, 1])
    np.testing.assert_array_equal(
        fold(cols).numpy(),
        F.fold(cols, [5, 6], [2, 3], strides=[2, 1], paddings=1, dilations=[1, 2]).numpy())
    assert repr(unfold) == "Unfold(kernel_size=[2, 3], dilation=[1, 2], padding=1, stride=[2, 1])"


def test_fold_of_unfold_counts_the_blocks_covering_each_pixel():
    # Non-overlapping blocks cover each pixel once: fold(unfold(x)) is x.
    x = _tensor((1, 2, 4, 6))
    np.testing.assert_allclose(nn.Fold([4, 6], 2, strides=2)(nn.Unfold(2, strides=2)(x)).numpy(),
                               x.numpy())
    # Stride 1 blocks of 2 x 2 cover the inner pixels 4 times, edges twice, corners once.
    ones = paddle.ones([1, 1, 3, 3])
    counts = nn.Fold([3, 3], 2)(nn.Unfold(2)(ones)).numpy()[0, 0]
    np.testing.assert_array_equal(counts, [[1, 2, 1], [2, 4, 2], [1, 2, 1]])


def test_layers_have_no_parameters_and_train_through():
    model = nn.Sequential(nn.Pad2D(1, mode="replicate"), nn.PixelUnshuffle(2),
                          nn.ChannelShuffle(2), nn.PixelShuffle(2), nn.Unflatten(1, [1, 2]))
    assert model.parameters() == []
    x = paddle.to_tensor(np.arange(32.0).reshape(1, 2, 4, 4), stop_gradient=False)
    out = model(x)
    assert out.shape == [1, 1, 2, 6, 6]
    out.sum().backward()
    # Replicate padding by one: corners are read 4 times, other edge elements twice.
    expected = np.ones((4, 4))
    expected[[0, -1], :] *= 2
    expected[:, [0, -1]] *= 2
    np.testing.assert_array_equal(x.grad.numpy()[0, 0], expected)


def test_unflatten_layer():
    x = _tensor((2, 12, 3))
    layer = nn.Unflatten(1, [2, -1, 3])
    assert layer(x).shape == [2, 2, 2, 3, 3]
    np.testing.assert_array_equal(layer(x).numpy(), paddle.unflatten(x, 1, [2, -1, 3]).numpy())
    assert repr(nn.Unflatten(-1, (3, 1))) == "Unflatten(axis=-1, shape=(3, 1))"


def test_layers_in_a_static_program():
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [None, 2, 4, 4], "float32")
            out = nn.Unfold(2, strides=2)(nn.Pad2D([0, 0, 1, 1], mode="reflect")(x))
            assert out.shape == [-1, 8, 6]
        got, = paddle.static.Executor().run(main, feed={"x": np.ones((3, 2, 4, 4), "float32")},
                                            fetch_list=[out])
    np.testing.assert_array_equal(got, np.ones((3, 8, 6), "float32"))
