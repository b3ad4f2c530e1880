"""paddle.vision.models against PaddlePaddle 3.3.1: the public names and signatures, every
case's state_dict names and shapes in order and its output shapes (recorded by
tools/record_paddle_model_names.py in data/vision_model_params.json), PaddlePaddle-saved state
dicts that load and give PaddlePaddle's outputs, pretrained=True that never downloads, and bad
inputs whose error names the layer.

With PADDLE_REFERENCE_PYTHON naming PaddlePaddle's interpreter, the bigger models are compared
with PaddlePaddle's outputs too, their random state dicts passed through NumPy files, and
inference models (.pdmodel + .pdiparams) saved by either framework run in the other."""
import inspect
import json
import os
import subprocess

import numpy as np
import pytest

import paddle
import paddle.vision.models as models
from paddle.nn.initializer import Constant, set_global_initializer
from paddle.vision.models import _utils, shufflenetv2

from model_cases import CASES, LIVE_REFERENCE_CASES, SAVED_STATE_CASES, build, sample_input

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
TOOL = os.path.join(HERE, "..", "..", "..", "tools", "record_paddle_model_names.py")
REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")

with open(os.path.join(DATA, "vision_model_params.json")) as f:
    RECORDED = json.load(f)


def _eval_outputs(model, x):
    model.eval()
    with paddle.no_grad():
        out = model(paddle.to_tensor(x))
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _assert_close(ours, reference, what):
    # Relative to the output's scale: deep models' logits reach 1e2 and more.
    scale = max(float(np.abs(reference).max()), 1.0)
    np.testing.assert_allclose(ours, reference, rtol=1e-4, atol=1e-4 * scale, err_msg=what)


def test_public_names_are_paddles():
    assert sorted(models.__all__) == RECORDED["all"]
    for name in models.__all__:
        assert getattr(paddle.vision, name) is getattr(models, name)


@pytest.mark.parametrize("name", sorted(RECORDED["signatures"]))
def test_signature_is_paddles(name):
    obj = (paddle.vision.ops.ConvNormActivation if name == "ConvNormActivation"
           else getattr(models, name))
    ours = [[p.name, p.kind.name, None if p.default is p.empty else repr(p.default)]
            for p in inspect.signature(obj).parameters.values()]
    assert ours == RECORDED["signatures"][name]


@pytest.fixture
def constant_initializer():
    """Builds models with every parameter Paddle initializes by default set to zero: these
    tests look at names and shapes, and filling VGG's 138 million parameters with random
    numbers would take most of their time."""
    set_global_initializer(Constant(0.0), Constant(0.0))
    yield
    set_global_initializer(None, None)


@pytest.mark.parametrize("key", list(CASES))
def test_state_dict_names_shapes_and_output_shapes(key, constant_initializer):
    model = build(models, key)
    recorded = RECORDED["cases"][key]
    ours = [[name, list(value.shape)] for name, value in model.state_dict().items()]
    assert ours == recorded["params"]
    outputs = _eval_outputs(model, sample_input(key))
    assert [list(o.shape) for o in outputs] == recorded["output_shapes"]


@pytest.mark.parametrize("key", SAVED_STATE_CASES)
def test_paddle_saved_state_dict_gives_paddles_output(key):
    model = build(models, key)
    state = paddle.load(os.path.join(DATA, f"{key}.pdparams"))
    assert list(state) == list(model.state_dict())
    model.set_state_dict(state)
    reference = np.load(os.path.join(DATA, f"{key}_reference.npz"))
    outputs = _eval_outputs(model, reference["input"])
    for i, out in enumerate(outputs):
        _assert_close(out.numpy(), reference[f"output{i}"], f"{key} output {i}")


@pytest.fixture(scope="module")
def live_reference(tmp_path_factory):
    out_dir = tmp_path_factory.mktemp("vision_models_reference")
    subprocess.run([REFERENCE, TOOL, "--live", str(out_dir)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=900)
    return out_dir


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
@pytest.mark.parametrize("key", LIVE_REFERENCE_CASES)
def test_output_matches_paddle_with_the_same_state(key, live_reference):
    recorded = np.load(os.path.join(live_reference, f"{key}.npz"))
    state = {name[len("state/"):]: recorded[name] for name in recorded.files
             if name.startswith("state/")}
    model = build(models, key)
    model.set_state_dict({name: paddle.to_tensor(value) for name, value in state.items()})
    for i, out in enumerate(_eval_outputs(model, recorded["input"])):
        _assert_close(out.numpy(), recorded[f"output{i}"], f"{key} output {i}")


# ---- inference models exchanged with PaddlePaddle -----------------------------------------------
INFERENCE_CASES = ["shufflenet_v2_x0_25_10", "mobilenet_v3_small_x0.35_10", "squeezenet1_1",
                   "googlenet_10", "inception_v3", "densenet121", "resnet18"]

# PaddlePaddle's side, run in PADDLE_REFERENCE_PYTHON with FLAGS_enable_pir_api=0 (the .pdmodel
# programs this framework reads and writes): "export DIR" saves each case's inference model,
# input and outputs under DIR/<case>; "run DIR" runs the models saved here in DIR/<case> on
# their inputs and writes the outputs.
PADDLE_SIDE = r"""
import sys
import numpy as np
import paddle
sys.path.insert(0, sys.argv[3])
import paddle.vision.models as models
from model_cases import CASES, build, sample_input
mode, root, _, keys = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
for key in keys:
    prefix = f"{root}/{key}/model"
    if mode == "export":
        model = build(models, key)
        model.eval()
        spec = paddle.static.InputSpec([None] + CASES[key][2][1:], "float32")
        paddle.jit.save(model, prefix, input_spec=[spec])
        outputs = model(paddle.to_tensor(sample_input(key)))
    else:
        paddle.enable_static()
        exe = paddle.static.Executor(paddle.CPUPlace())
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        outputs = exe.run(program, feed={feeds[0]: sample_input(key)}, fetch_list=fetches)
        paddle.disable_static()
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    np.savez(f"{root}/{key}/paddle_outputs.npz", *[np.asarray(o) for o in outputs])
"""


def _paddle_side(mode, root):
    env = dict(os.environ, FLAGS_enable_pir_api="0", GLOG_minloglevel="2")
    subprocess.run([REFERENCE, "-c", PADDLE_SIDE, mode, str(root), HERE] + INFERENCE_CASES,
                   check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                   timeout=900)


def _paddle_outputs(root, key):
    recorded = np.load(os.path.join(root, key, "paddle_outputs.npz"))
    return [recorded[f"arr_{i}"] for i in range(len(recorded.files))]


@pytest.fixture(scope="module")
def paddle_inference_models(tmp_path_factory):
    root = tmp_path_factory.mktemp("paddle_inference_models")
    _paddle_side("export", root)
    return root


@pytest.fixture(scope="module")
def our_inference_models_run_by_paddle(tmp_path_factory):
    root = tmp_path_factory.mktemp("our_inference_models")
    for key in INFERENCE_CASES:
        model = build(models, key)
        model.eval()
        spec = paddle.static.InputSpec([None] + CASES[key][2][1:], "float32")
        paddle.jit.save(model, str(root / key / "model"), input_spec=[spec])
        np.savez(root / key / "our_outputs.npz",
                 *[o.numpy() for o in _eval_outputs(model, sample_input(key))])
    _paddle_side("run", root)
    return root


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
@pytest.mark.parametrize("key", INFERENCE_CASES)
def test_paddles_inference_model_runs_here_with_paddles_output(key, paddle_inference_models):
    exe = paddle.static.Executor(paddle.CPUPlace())
    paddle.enable_static()
    try:
        program, feeds, fetches = paddle.static.load_inference_model(
            str(paddle_inference_models / key / "model"), exe)
        outputs = exe.run(program, feed={feeds[0]: sample_input(key)}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    expected = _paddle_outputs(paddle_inference_models, key)
    assert len(outputs) == len(expected)
    for i, (out, ref) in enumerate(zip(outputs, expected)):
        _assert_close(np.asarray(out), ref, f"{key} output {i}")


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
@pytest.mark.parametrize("key", INFERENCE_CASES)
def test_inference_model_saved_here_runs_in_paddle_with_our_output(
        key, our_inference_models_run_by_paddle):
    root = our_inference_models_run_by_paddle
    ours = np.load(root / key / "our_outputs.npz")
    expected = [ours[f"arr_{i}"] for i in range(len(ours.files))]
    outputs = _paddle_outputs(root, key)
    assert len(outputs) == len(expected)
    for i, (out, ref) in enumerate(zip(outputs, expected)):
        _assert_close(out, ref, f"{key} output {i}")


# ---- pretrained=True ---------------------------------------------------------------------------
@pytest.fixture
def empty_weights_home(tmp_path, monkeypatch):
    monkeypatch.setattr(_utils, "WEIGHTS_HOME", str(tmp_path))
    return tmp_path


PRETRAINED = [("alexnet", {}, "AlexNet_pretrained.pdparams"),
              ("resnet18", {}, "resnet18.pdparams"),
              ("wide_resnet101_2", {}, "wide_resnet101_2.pdparams"),
              ("vgg16", {}, "vgg16.pdparams"),
              ("mobilenet_v2", {}, "mobilenet_v2_x1.0.pdparams"),
              ("mobilenet_v3_large", {}, "mobilenet_v3_large_x1.0.pdparams"),
              ("shufflenet_v2_swish", {}, "shufflenet_v2_swish.pdparams"),
              ("squeezenet1_1", {}, "SqueezeNet1_1_pretrained.pdparams"),
              ("densenet264", {}, "DenseNet264_pretrained.pdparams"),
              ("googlenet", {}, "GoogLeNet_pretrained.pdparams"),
              ("inception_v3", {}, "inception_v3.pdparams")]


@pytest.mark.parametrize("factory,kwargs,file_name", PRETRAINED,
                         ids=[case[0] for case in PRETRAINED])
def test_pretrained_without_the_file_names_it_and_how_to_load_it(
        factory, kwargs, file_name, empty_weights_home):
    with pytest.raises(FileNotFoundError) as raised:
        getattr(models, factory)(pretrained=True, **kwargs)
    message = str(raised.value)
    assert "bcebos.com/" in message and file_name in message
    assert str(empty_weights_home) in message
    assert "paddle.load(" in message and "set_state_dict(" in message


@pytest.mark.parametrize("call", [lambda: models.vgg11(pretrained=True),
                                  lambda: models.vgg16(pretrained=True, batch_norm=True),
                                  lambda: models.mobilenet_v1(pretrained=True, scale=0.5),
                                  lambda: models.mobilenet_v3_small(pretrained=True, scale=0.75)],
                         ids=["vgg11", "vgg16_bn", "mobilenet_v1_x0.5", "mobilenet_v3_small_x0.75"])
def test_pretrained_that_paddle_does_not_publish_is_a_value_error(call):
    with pytest.raises(ValueError, match="publishes no pretrained weights"):
        call()


def test_pretrained_loads_the_file_from_paddles_cache(empty_weights_home, monkeypatch):
    # The committed PaddlePaddle-saved state of shufflenet_v2_x0_25(num_classes=10), put where
    # PaddlePaddle caches its downloads, under a URL entry with that file's MD5.
    key = "shufflenet_v2_x0_25_10"
    source = os.path.join(DATA, f"{key}.pdparams")
    cached = empty_weights_home / "shufflenet_v2_x0_25.pdparams"
    cached.write_bytes(open(source, "rb").read())
    url = "https://paddle-hapi.bj.bcebos.com/models/shufflenet_v2_x0_25.pdparams"
    monkeypatch.setitem(shufflenetv2.model_urls, "shufflenet_v2_x0_25",
                        (url, _utils._md5_of(source)))
    model = models.shufflenet_v2_x0_25(pretrained=True, num_classes=10)
    reference = np.load(os.path.join(DATA, f"{key}_reference.npz"))
    _assert_close(_eval_outputs(model, reference["input"])[0].numpy(), reference["output0"], key)

    # A file with another MD5 (a partial download) is not loaded.
    cached.write_bytes(b"truncated")
    with pytest.raises(FileNotFoundError, match="shufflenet_v2_x0_25.pdparams"):
        models.shufflenet_v2_x0_25(pretrained=True, num_classes=10)


# ---- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize("factory,shape,layer,config,layer_input", [
    ("LeNet", [2, 3, 28, 28], "features.0 of LeNet", "Conv2D(1, 6, kernel_size=[3, 3]",
     [2, 3, 28, 28]),
    # 32x32 images leave a 16x6x6 map, which the first linear layer cannot take.
    ("LeNet", [2, 1, 32, 32], "fc.0 of LeNet", "Linear(in_features=400, out_features=120",
     [2, 576]),
    ("resnet18", [1, 3, 32], "conv1 of ResNet", "Conv2D(3, 64, kernel_size=[7, 7]",
     [1, 3, 32]),
    ("mobilenet_v2", [1, 4, 32, 32], "features.0.0 of MobileNetV2", "Conv2D(3, 32",
     [1, 4, 32, 32]),
])
def test_wrong_input_shape_names_the_layer_and_the_shapes(factory, shape, layer, config,
                                                          layer_input, constant_initializer):
    model = getattr(models, factory)()
    with pytest.raises(ValueError) as raised:
        model(paddle.zeros(shape))
    message = str(raised.value)
    assert f"in layer {layer}: {config}" in message
    assert f"given input of shape {layer_input}" in message


@pytest.mark.parametrize("call,error,match", [
    (lambda: models.ResNet(models.resnet.BasicBlock, depth=20), ValueError, "depth"),
    (lambda: models.DenseNet(layers=100), ValueError, "layers"),
    (lambda: models.ShuffleNetV2(scale=0.75), NotImplementedError, "scale"),
    (lambda: models.ShuffleNetV2(act="gelu"), ValueError, "act"),
    (lambda: models.SqueezeNet("1.2"), ValueError, "version"),
])
def test_bad_configuration_is_a_typed_error(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_forward_at_imagenet_size():
    """The architectures at the size they were designed for (resnet50 at 224x224) also give
    [N, 1000], with the default initialization."""
    model = models.resnet50()
    assert _eval_outputs(model, np.zeros([1, 3, 224, 224], "float32"))[0].shape == [1, 1000]


def test_training_step_runs():
    """A backward pass through batch norm, depthwise and grouped convolutions, channel shuffle
    and dropout: every trainable parameter gets a gradient (the batch-norm statistics are
    parameters that are not trained, as in PaddlePaddle)."""
    model = models.shufflenet_v2_x0_25(num_classes=10)
    model.train()
    loss = model(paddle.to_tensor(sample_input("shufflenet_v2_x0_25_10"))).mean()
    loss.backward()
    missing = [name for name, p in model.named_parameters()
               if not p.stop_gradient and p.grad is None]
    assert not missing


@pytest.mark.parametrize("key", ["shufflenet_v2_x0_25_10", "mobilenet_v3_small_x0.35_10"])
def test_jit_save_and_load_give_the_dygraph_output(key, tmp_path):
    """The models trace into a static program (split sizes taken from the input's shape,
    channel shuffle, squeeze-excitation) that saves, loads and runs at another batch size."""
    model = build(models, key)
    model.eval()
    shape = CASES[key][2]
    path = str(tmp_path / "model")
    paddle.jit.save(model, path,
                    input_spec=[paddle.static.InputSpec([None] + shape[1:], "float32")])
    loaded = paddle.jit.load(path)
    x = np.concatenate([sample_input(key), sample_input(key, seed=1)])
    _assert_close(loaded(paddle.to_tensor(x)).numpy(), _eval_outputs(model, x)[0].numpy(), key)
