"""The paddle.vision.models cases that tools/record_paddle_model_names.py records under
PaddlePaddle and test_vision_models.py checks here: each is a factory (or class) of
paddle.vision.models, its keyword arguments and an input shape it accepts.

The input sizes are the smallest convenient ones each architecture takes: AlexNet's classifier
needs the 6x6 map that 224x224 gives and GoogLeNet's auxiliary heads the 3x3 maps of 189 to 236
pixels; the models with an adaptive pool before the classifier run at 32 or 64 pixels, and
InceptionV3 from 75."""
import numpy as np

# key -> (factory, kwargs, input shape)
CASES = {
    "LeNet": ("LeNet", {}, [2, 1, 28, 28]),
    "LeNet_features": ("LeNet", {"num_classes": 0}, [2, 1, 28, 28]),
    "alexnet": ("alexnet", {}, [1, 3, 224, 224]),
    "alexnet_features": ("alexnet", {"num_classes": 0}, [1, 3, 224, 224]),
    "googlenet": ("googlenet", {}, [1, 3, 201, 201]),
    "googlenet_10": ("googlenet", {"num_classes": 10}, [1, 3, 224, 224]),
    "googlenet_features": ("googlenet", {"num_classes": 0, "with_pool": False},
                           [1, 3, 201, 201]),
    "inception_v3": ("inception_v3", {}, [1, 3, 75, 75]),
    "inception_v3_10_nopool": ("inception_v3", {"num_classes": 10, "with_pool": False},
                               [1, 3, 75, 75]),
    "squeezenet1_0": ("squeezenet1_0", {}, [2, 3, 64, 64]),
    "squeezenet1_1": ("squeezenet1_1", {}, [2, 3, 64, 64]),
    "squeezenet1_1_10_nopool": ("squeezenet1_1", {"num_classes": 10, "with_pool": False},
                                [2, 3, 64, 64]),
    "SqueezeNet_1.0_10": ("SqueezeNet", {"version": "1.0", "num_classes": 10}, [1, 3, 64, 64]),
    "mobilenet_v1": ("mobilenet_v1", {}, [2, 3, 32, 32]),
    "mobilenet_v1_x0.5_10": ("mobilenet_v1", {"scale": 0.5, "num_classes": 10}, [2, 3, 32, 32]),
    "mobilenet_v2": ("mobilenet_v2", {}, [2, 3, 32, 32]),
    "mobilenet_v2_x0.5_nopool": ("mobilenet_v2", {"scale": 0.5, "with_pool": False,
                                                  "num_classes": 0}, [2, 3, 32, 32]),
    "MobileNetV2_x1.4_10": ("MobileNetV2", {"scale": 1.4, "num_classes": 10}, [1, 3, 32, 32]),
    "mobilenet_v3_small": ("mobilenet_v3_small", {}, [2, 3, 32, 32]),
    "mobilenet_v3_large": ("mobilenet_v3_large", {}, [2, 3, 32, 32]),
    "mobilenet_v3_small_x0.35_10": ("mobilenet_v3_small", {"scale": 0.35, "num_classes": 10},
                                    [2, 3, 32, 32]),
    "MobileNetV3Large_x0.75_nopool": ("MobileNetV3Large", {"scale": 0.75, "with_pool": False,
                                                           "num_classes": 0}, [2, 3, 32, 32]),
    "shufflenet_v2_x0_25": ("shufflenet_v2_x0_25", {}, [2, 3, 32, 32]),
    "shufflenet_v2_x0_33": ("shufflenet_v2_x0_33", {}, [2, 3, 32, 32]),
    "shufflenet_v2_x0_5": ("shufflenet_v2_x0_5", {}, [2, 3, 32, 32]),
    "shufflenet_v2_x1_0": ("shufflenet_v2_x1_0", {}, [2, 3, 32, 32]),
    "shufflenet_v2_x1_5": ("shufflenet_v2_x1_5", {}, [1, 3, 32, 32]),
    "shufflenet_v2_x2_0": ("shufflenet_v2_x2_0", {}, [1, 3, 32, 32]),
    "shufflenet_v2_swish": ("shufflenet_v2_swish", {}, [2, 3, 32, 32]),
    "shufflenet_v2_x0_25_10": ("shufflenet_v2_x0_25", {"num_classes": 10}, [2, 3, 32, 32]),
    "ShuffleNetV2_x0.5_noact": ("ShuffleNetV2", {"scale": 0.5, "act": None, "num_classes": 0,
                                                 "with_pool": False}, [2, 3, 32, 32]),
    "densenet121": ("densenet121", {}, [1, 3, 32, 32]),
    "densenet161": ("densenet161", {}, [1, 3, 32, 32]),
    "densenet169": ("densenet169", {}, [1, 3, 32, 32]),
    "densenet201": ("densenet201", {}, [1, 3, 32, 32]),
    "densenet264": ("densenet264", {}, [1, 3, 32, 32]),
    "DenseNet_121_bn2_drop_10": ("DenseNet", {"layers": 121, "bn_size": 2, "dropout": 0.2,
                                              "num_classes": 10}, [2, 3, 32, 32]),
    "resnet18": ("resnet18", {}, [2, 3, 32, 32]),
    "resnet18_10_nopool": ("resnet18", {"num_classes": 10, "with_pool": False},
                           [2, 3, 32, 32]),
    "resnet34": ("resnet34", {}, [1, 3, 32, 32]),
    "resnet50": ("resnet50", {}, [1, 3, 32, 32]),
    "resnet50_features": ("resnet50", {"num_classes": 0}, [1, 3, 32, 32]),
    "resnet101": ("resnet101", {}, [1, 3, 32, 32]),
    "resnet152": ("resnet152", {}, [1, 3, 32, 32]),
    "resnext50_32x4d": ("resnext50_32x4d", {}, [1, 3, 32, 32]),
    "resnext50_64x4d": ("resnext50_64x4d", {}, [1, 3, 32, 32]),
    "resnext101_32x4d": ("resnext101_32x4d", {}, [1, 3, 32, 32]),
    "resnext101_64x4d": ("resnext101_64x4d", {}, [1, 3, 32, 32]),
    "resnext152_32x4d": ("resnext152_32x4d", {}, [1, 3, 32, 32]),
    "resnext152_64x4d": ("resnext152_64x4d", {}, [1, 3, 32, 32]),
    "wide_resnet50_2": ("wide_resnet50_2", {}, [1, 3, 32, 32]),
    "wide_resnet101_2": ("wide_resnet101_2", {}, [1, 3, 32, 32]),
    "vgg11": ("vgg11", {}, [1, 3, 32, 32]),
    "vgg13": ("vgg13", {}, [1, 3, 32, 32]),
    "vgg16": ("vgg16", {}, [1, 3, 32, 32]),
    "vgg19": ("vgg19", {}, [1, 3, 32, 32]),
    "vgg11_bn": ("vgg11", {"batch_norm": True}, [1, 3, 32, 32]),
    "vgg13_bn": ("vgg13", {"batch_norm": True}, [1, 3, 32, 32]),
    "vgg16_bn": ("vgg16", {"batch_norm": True}, [1, 3, 32, 32]),
    "vgg19_bn": ("vgg19", {"batch_norm": True}, [1, 3, 32, 32]),
    "vgg11_bn_features": ("vgg11", {"batch_norm": True, "num_classes": 0, "with_pool": False},
                          [1, 3, 32, 32]),
}

# The cases whose PaddlePaddle-saved state dict (random values, batch-norm statistics included)
# and eval-mode output are committed: small enough to keep in the repository.
SAVED_STATE_CASES = ["LeNet", "shufflenet_v2_x0_25_10"]

# The cases compared with PaddlePaddle's output at test time (PADDLE_REFERENCE_PYTHON), their
# state dicts passed through NumPy files rather than committed.
LIVE_REFERENCE_CASES = [
    "alexnet", "googlenet_10", "inception_v3", "squeezenet1_0", "squeezenet1_1",
    "mobilenet_v1", "mobilenet_v2", "mobilenet_v3_small", "mobilenet_v3_large",
    "shufflenet_v2_x1_0", "shufflenet_v2_swish", "densenet121", "resnet18", "resnet50",
    "resnext50_32x4d", "vgg11_bn",
]


def build(models, key):
    """The model of case `key` from the module `models` (paddle.vision.models of either
    framework)."""
    factory, kwargs, _ = CASES[key]
    return getattr(models, factory)(**kwargs)


def sample_input(key, seed=0):
    """A fixed float32 input of case `key`'s shape."""
    shape = CASES[key][2]
    return np.random.RandomState(seed).standard_normal(shape).astype("float32")


def random_state(names_and_shapes, seed=0):
    """Random values for a state dict, given as (name, shape) pairs: He-scaled weights,
    batch-norm scales near 1 and variances positive, small signed biases and means, so that
    activations neither vanish nor blow up through deep models."""
    rng = np.random.RandomState(seed)
    state = {}
    for name, shape in names_and_shapes:
        if name.endswith("_variance"):
            value = rng.uniform(0.5, 1.5, shape)
        elif len(shape) == 1 and name.endswith("weight"):
            value = rng.uniform(0.8, 1.2, shape)
        elif len(shape) <= 1:
            value = rng.uniform(-0.1, 0.1, shape)
        else:
            fan_in = int(np.prod(shape[1:])) if len(shape) == 4 else shape[0]
            value = rng.standard_normal(shape) * np.sqrt(2.0 / max(fan_in, 1))
        state[name] = value.astype("float32")
    return state
