"""paddle.onnx.export op by op: each mapping (and its opset-dependent forms) runs in
onnxruntime as the op runs in dygraph, or, for legacy op forms that the dygraph API does not
write, as the static Executor runs the program."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from paddle import nn
from paddle.static import InputSpec

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


class Function(nn.Layer):
    def __init__(self, function):
        super().__init__()
        self.function = function

    def forward(self, *inputs):
        return self.function(*inputs)


def _depthwise(x):
    weight = paddle.to_tensor(np.random.default_rng(5).normal(size=(3, 1, 3, 3)).astype("f4"))
    return F.conv2d(x, weight, stride=2, padding=[1, 0, 2, 1], dilation=1, groups=3)


CASES = [
    ("softmax_axis1", lambda x: F.softmax(x, axis=1), [(2, 3, 4)]),
    ("gelu_tanh", lambda x: F.gelu(x, approximate=True), [(2, 6)]),
    ("scale_bias_first", lambda x: paddle.scale(x, 2.0, 0.5, bias_after_scale=False), [(3, 4)]),
    ("scale_bias_after", lambda x: paddle.scale(x, 3.0, -1.0), [(3, 4)]),
    ("dropout_downscale", lambda x: F.dropout(x, 0.25, training=False,
                                              mode="downscale_in_infer"), [(3, 4)]),
    ("sub_div_broadcast", lambda x, y: (x - y) / (y * y + 1.0), [(2, 3, 4), (4,)]),
    ("slice_decrease", lambda x: x[:, 1, 1:3] * 2.0, [(2, 3, 4)]),
    ("flatten_middle", lambda x: paddle.flatten(x, 1, 2), [(2, 3, 4, 5)]),
    ("flatten_all", lambda x: paddle.flatten(x), [(2, 3, 4)]),
    ("split_sections", lambda x: paddle.concat(paddle.split(x, [1, -1, 2], axis=-1)[::-1],
                                               axis=-1), [(2, 6)]),
    ("cast_full", lambda x: x.astype("int64").astype("float32") + paddle.full([2, 1], 1.5),
     [(2, 3)]),
    ("squeeze_all", lambda x: paddle.squeeze(x), [(1, 3, 1, 2)]),
    ("unsqueeze_negative", lambda x: paddle.unsqueeze(x, [-1, 0]), [(2, 3)]),
    ("layer_norm_two_dims", lambda x: F.layer_norm(
        x, [3, 4], paddle.full([3, 4], 2.0), paddle.full([3, 4], 0.5)), [(2, 3, 4)]),
    ("layer_norm_no_affine", lambda x: F.layer_norm(x, [4]), [(2, 3, 4)]),
    ("avg_pool_same_inclusive", lambda x: F.avg_pool2d(x, 3, 2, padding="SAME",
                                                       exclusive=False), [(1, 2, 7, 7)]),
    ("avg_pool_padded_exclusive", lambda x: F.avg_pool2d(x, 3, 1, padding=1), [(1, 2, 5, 5)]),
    ("max_pool_valid", lambda x: F.max_pool2d(x, 2, 1, padding="VALID"), [(1, 2, 5, 5)]),
    ("adaptive_avg_pool", lambda x: F.adaptive_avg_pool2d(x, 2), [(1, 2, 6, 4)]),
    ("depthwise_conv", _depthwise, [(1, 3, 8, 7)]),
    ("transpose_matmul", lambda x, y: paddle.matmul(x, y, transpose_x=True), [(2, 4, 3),
                                                                              (2, 4, 5)]),
    ("reduce_sum_keepdim", lambda x: paddle.sum(x, axis=[0, -1], keepdim=True), [(2, 3, 4)]),
    ("mean_all_and_axis", lambda x: paddle.mean(x, axis=1) + paddle.mean(x), [(2, 3, 4)]),
    ("matmul_vector", lambda x, y: paddle.matmul(x, y), [(3, 4), (4,)]),
]


@pytest.mark.parametrize("opset", [9, 11, 13, 18])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_op_matches_dygraph(tmp_path, case, opset):
    _, function, shapes = case
    layer = Function(function)
    rng = np.random.default_rng(0)
    inputs = [rng.normal(size=s).astype("float32") for s in shapes]
    expected = layer(*[paddle.to_tensor(x) for x in inputs]).numpy()
    specs = [InputSpec(s, "float32", f"in{i}") for i, s in enumerate(shapes)]
    path = str(tmp_path / "op")
    try:
        paddle.onnx.export(layer, path, input_spec=specs, opset_version=opset)
    except NotImplementedError as error:
        pytest.fail(f"not exported: {error}")
    session = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
    (got,) = session.run(None, {f"in{i}": x for i, x in enumerate(inputs)})
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def _legacy_program():
    """A program with the legacy op forms of older .pdmodel files: Paddle's `axis` broadcasting
    of elementwise ops, the fc op `mul` and global pooling."""
    from paddle.static import data

    program = paddle.static.Program()
    with paddle.static.program_guard(program, paddle.static.Program()):
        x, bias = data("x", [2, 3, 4]), data("bias", [3])
        rows, weight = data("rows", [2, 3]), data("weight", [4, 5])
        image = data("image", [2, 3, 5, 5])
        block = program.global_block()

        def append(op_type, inputs, shape, **attrs):
            out = block.create_var(name=f"{op_type}_{len(block.ops)}", shape=shape,
                                   dtype="float32")
            block.append_op(op_type, inputs, {"Out": [out]}, attrs)
            return out

        shifted = append("elementwise_add", {"X": [x], "Y": [bias]}, [2, 3, 4], axis=1)
        scaled = append("elementwise_mul", {"X": [shifted], "Y": [rows]}, [2, 3, 4], axis=0)
        projected = append("mul", {"X": [scaled], "Y": [weight]}, [2, 3, 5], x_num_col_dims=2,
                           y_num_col_dims=1)
        pooled = block.create_var(name="pooled", shape=[2, 3, 1, 1], dtype="float32")
        block.append_op("pool2d", {"X": [image]}, {"Out": [pooled]},
                        {"pooling_type": "max", "ksize": [2, 2], "global_pooling": True,
                         "strides": [1, 1], "paddings": [0, 0]})
    feeds = ["x", "bias", "rows", "weight", "image"]
    return program, feeds, [projected.name, "pooled"]


@pytest.mark.parametrize("opset", [9, 13])
def test_legacy_op_forms_match_the_executor(opset):
    from paddle.onnx.converter import convert_program

    program, feeds, fetches = _legacy_program()
    rng = np.random.default_rng(6)
    values = {name: rng.normal(size=program.global_block().var(name).shape).astype("float32")
              for name in feeds}
    paddle.enable_static()
    try:
        expected = paddle.static.Executor().run(program, feed=values, fetch_list=fetches)
    finally:
        paddle.disable_static()
    model = convert_program(onnx, program, feeds, fetches, {}, opset, "legacy")
    onnx.checker.check_model(model, full_check=True)
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    for got, want in zip(session.run(None, values), expected):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
