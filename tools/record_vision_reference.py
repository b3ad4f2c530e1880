"""Records paddle.vision.transforms results of PaddlePaddle 3.3.1 as test data for
tests/python/vision/test_transforms_reference.py.

Run with the real wheel (it has Pillow, not OpenCV, so only Paddle's PIL, Tensor and OpenCV-free
NumPy paths are recorded):

    /opt/venv-paddle/bin/python tools/record_vision_reference.py \
        tests/python/vision/data/paddle_vision_reference.npz

Every case is a name and a function of the module (`paddle`) that returns an array; the test
rebuilds the same inputs (`make_inputs`) and runs the same function under this project's paddle.
"""
import random
import sys

import numpy as np


def make_inputs():
    """A 7 x 9 RGB image with varied colours, its float and gray versions."""
    rng = np.random.RandomState(2024)
    rgb = rng.randint(0, 256, (7, 9, 3)).astype(np.uint8)
    return {"rgb": rgb, "gray": rgb[:, :, 1].copy(), "float_chw": (rgb.transpose(2, 0, 1) / 255.0)
            .astype(np.float32)}


def _pil(array):
    from PIL import Image
    return Image.fromarray(array)


def _seeded(paddle, transform, image, seed=7):
    random.seed(seed)
    np.random.seed(seed)
    return np.asarray(transform(image))


def cases():
    """{name: function(paddle, inputs) -> numpy array}."""
    def T(paddle):
        return paddle.vision.transforms

    def F(paddle):
        return paddle.vision.transforms.functional

    def tensor(paddle, x):
        return paddle.to_tensor(x)

    return {
        # PIL paths.
        "pil_to_tensor_rgb": lambda p, x: F(p).to_tensor(_pil(x["rgb"])).numpy(),
        "pil_to_tensor_gray_hwc": lambda p, x: F(p).to_tensor(_pil(x["gray"]), "HWC").numpy(),
        "pil_to_tensor_float": lambda p, x: F(p).to_tensor(
            _pil(x["gray"].astype(np.float32) / 3)).numpy(),
        "pil_resize_int": lambda p, x: np.asarray(F(p).resize(_pil(x["rgb"]), 4)),
        "pil_resize_bicubic": lambda p, x: np.asarray(
            F(p).resize(_pil(x["rgb"]), (10, 5), "bicubic")),
        "pil_pad_reflect": lambda p, x: np.asarray(F(p).pad(_pil(x["rgb"]), (1, 2, 3, 2),
                                                            padding_mode="reflect")),
        "pil_pad_fill": lambda p, x: np.asarray(F(p).pad(_pil(x["rgb"]), 2, fill=(9, 8, 7))),
        "pil_center_crop": lambda p, x: np.asarray(F(p).center_crop(_pil(x["rgb"]), (4, 5))),
        "pil_hue": lambda p, x: np.asarray(F(p).adjust_hue(_pil(x["rgb"]), 0.3)),
        "pil_saturation": lambda p, x: np.asarray(F(p).adjust_saturation(_pil(x["rgb"]), 0.4)),
        "pil_contrast": lambda p, x: np.asarray(F(p).adjust_contrast(_pil(x["rgb"]), 1.7)),
        "pil_brightness": lambda p, x: np.asarray(F(p).adjust_brightness(_pil(x["rgb"]), 0.6)),
        "pil_rotate_expand": lambda p, x: np.asarray(F(p).rotate(_pil(x["rgb"]), 35, expand=True)),
        "pil_affine": lambda p, x: np.asarray(F(p).affine(_pil(x["rgb"]), 20, (1, -1), 1.1,
                                                          (10, 5), "bilinear")),
        "pil_perspective": lambda p, x: np.asarray(F(p).perspective(
            _pil(x["rgb"]), [[0, 0], [8, 0], [8, 6], [0, 6]], [[1, 1], [7, 0], [8, 5], [0, 6]])),
        "pil_grayscale3": lambda p, x: np.asarray(F(p).to_grayscale(_pil(x["rgb"]), 3)),
        "pil_normalize": lambda p, x: F(p).normalize(_pil(x["rgb"]), [10, 20, 30], [2, 3, 4],
                                                     "HWC"),
        # Tensor paths.
        "tensor_resize_bilinear": lambda p, x: F(p).resize(tensor(p, x["float_chw"]),
                                                           (5, 13)).numpy(),
        "tensor_resize_nearest": lambda p, x: F(p).resize(tensor(p, x["float_chw"]), (11, 4),
                                                          "nearest").numpy(),
        "tensor_resize_bicubic": lambda p, x: F(p).resize(tensor(p, x["float_chw"]), (10, 6),
                                                          "bicubic").numpy(),
        "tensor_pad_edge": lambda p, x: F(p).pad(tensor(p, x["float_chw"]), (2, 1),
                                                 padding_mode="edge").numpy(),
        "tensor_pad_reflect": lambda p, x: F(p).pad(tensor(p, x["float_chw"]), [1, 2, 0, 1],
                                                    padding_mode="reflect").numpy(),
        "tensor_brightness": lambda p, x: F(p).adjust_brightness(tensor(p, x["float_chw"]),
                                                                 1.6).numpy(),
        "tensor_contrast": lambda p, x: F(p).adjust_contrast(tensor(p, x["float_chw"]),
                                                             0.5).numpy(),
        "tensor_saturation": lambda p, x: F(p).adjust_saturation(tensor(p, x["float_chw"]),
                                                                 1.8).numpy(),
        "tensor_hue": lambda p, x: F(p).adjust_hue(tensor(p, x["float_chw"]), -0.2).numpy(),
        "tensor_grayscale": lambda p, x: F(p).to_grayscale(tensor(p, x["float_chw"])).numpy(),
        "tensor_normalize": lambda p, x: F(p).normalize(tensor(p, x["float_chw"]),
                                                        [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]).numpy(),
        "tensor_hflip": lambda p, x: F(p).hflip(tensor(p, x["float_chw"])).numpy(),
        "tensor_center_crop": lambda p, x: F(p).center_crop(tensor(p, x["float_chw"]),
                                                            3).numpy(),
        "tensor_hue_uint8": lambda p, x: F(p).adjust_hue(
            tensor(p, x["rgb"].transpose(2, 0, 1).copy()), 0.2).numpy(),
        "tensor_rotate_expand": lambda p, x: F(p).rotate(tensor(p, x["float_chw"]), 30,
                                                         expand=True).numpy(),
        "tensor_rotate_bilinear_fill": lambda p, x: F(p).rotate(
            tensor(p, x["float_chw"]), 25, "bilinear", fill=[0.1, 0.2, 0.3]).numpy(),
        "tensor_rotate_center": lambda p, x: F(p).rotate(tensor(p, x["float_chw"]), -40,
                                                         "bilinear", center=(2, 3)).numpy(),
        "tensor_affine": lambda p, x: F(p).affine(tensor(p, x["float_chw"]), 20, (1, -1), 1.1,
                                                  (10, 5)).numpy(),
        "tensor_affine_bilinear": lambda p, x: F(p).affine(tensor(p, x["float_chw"]), -30, (1, 2),
                                                           0.9, (4, 3), "bilinear").numpy(),
        "tensor_perspective_bilinear": lambda p, x: F(p).perspective(
            tensor(p, x["float_chw"]), [[0, 0], [8, 0], [8, 6], [0, 6]],
            [[1, 1], [7, 0], [8, 5], [0, 6]], "bilinear", fill=0.5).numpy(),
        # NumPy paths that do not need OpenCV.
        "numpy_to_tensor": lambda p, x: F(p).to_tensor(x["rgb"]).numpy(),
        "numpy_normalize_hwc": lambda p, x: F(p).normalize(x["rgb"].astype(np.float32),
                                                           [1, 2, 3], [4, 5, 6], "HWC"),
        "numpy_crop": lambda p, x: F(p).crop(x["rgb"], 1, 2, 3, 4),
        "numpy_erase": lambda p, x: F(p).erase(x["rgb"], 1, 2, 3, 4, np.array([5, 6, 7])),
        # Seeded random transforms (Python's random and numpy.random, as Paddle draws them).
        "seeded_random_crop": lambda p, x: _seeded(p, T(p).RandomCrop(5, padding=1),
                                                   _pil(x["rgb"])),
        "seeded_random_resized_crop": lambda p, x: _seeded(p, T(p).RandomResizedCrop(
            (4, 6), scale=(0.3, 0.9)), _pil(x["rgb"])),
        "seeded_flips": lambda p, x: _seeded(p, T(p).Compose(
            [T(p).RandomHorizontalFlip(), T(p).RandomVerticalFlip(), T(p).RandomHorizontalFlip(),
             T(p).RandomVerticalFlip()]), _pil(x["rgb"]), seed=3),
        "seeded_rotation": lambda p, x: _seeded(p, T(p).RandomRotation(40), _pil(x["rgb"])),
        "seeded_color_jitter": lambda p, x: _seeded(p, T(p).ColorJitter(0.4, 0.4, 0.4, 0.2),
                                                    _pil(x["rgb"])),
        "seeded_affine": lambda p, x: _seeded(p, T(p).RandomAffine(
            15, translate=(0.2, 0.1), scale=(0.8, 1.2), shear=(-5, 5, -3, 3)), _pil(x["rgb"])),
        "seeded_perspective": lambda p, x: _seeded(p, T(p).RandomPerspective(1.0, 0.6),
                                                   _pil(x["rgb"])),
        "seeded_erasing_numpy": lambda p, x: _seeded(p, T(p).RandomErasing(
            1.0, value=(1, 2, 3)), x["rgb"]),
    }


def main(path):
    import paddle
    inputs = make_inputs()
    results = {name: np.asarray(case(paddle, inputs)) for name, case in cases().items()}
    np.savez_compressed(path, paddle_version=np.array(paddle.__version__), **results)
    print(f"recorded {len(results)} cases with paddle {paddle.__version__} in {path}")


if __name__ == "__main__":
    main(sys.argv[1])
