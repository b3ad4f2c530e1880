"""paddle.vision.transforms on PIL images, NumPy HWC arrays and Tensors, against NumPy and
Pillow references: geometry, colour, the transform classes, seeding and bad input."""
import random

import numpy as np
import pytest

import paddle
from paddle.vision import transforms as T
from paddle.vision.transforms import functional as F

Image = pytest.importorskip("PIL.Image")


def _rgb(h=7, w=9, seed=0):
    return np.random.RandomState(seed).randint(0, 256, (h, w, 3)).astype(np.uint8)


# ---- NumPy arrays give what Pillow gives on the same pixels ----

@pytest.mark.parametrize("interpolation", ["nearest", "bilinear", "bicubic"])
@pytest.mark.parametrize("expand", [False, True])
def test_numpy_rotate_matches_pil(interpolation, expand):
    rng = np.random.RandomState(1)
    for _ in range(6):
        h, w = rng.randint(3, 14, 2)
        array = _rgb(h, w, int(rng.randint(1000)))
        angle = float(rng.uniform(-180, 180))
        expected = np.asarray(F.rotate(Image.fromarray(array), angle, interpolation, expand,
                                       fill=(3, 4, 5)))
        np.testing.assert_array_equal(F.rotate(array, angle, interpolation, expand,
                                               fill=(3, 4, 5)), expected)


@pytest.mark.parametrize("interpolation", ["nearest", "bilinear", "bicubic"])
def test_numpy_affine_and_perspective_match_pil(interpolation):
    array = _rgb(8, 11)
    pil = Image.fromarray(array)
    for args in [(25, (1, -2), 0.8, (5, 3)), (0, (2, 1), 1.3, 0), (-70, (0, 0), 1.0, [12])]:
        np.testing.assert_array_equal(F.affine(array, *args, interpolation=interpolation),
                                      np.asarray(F.affine(pil, *args, interpolation=interpolation)))
    start = [[0, 0], [10, 0], [10, 7], [0, 7]]
    end = [[1, 2], [9, 0], [10, 6], [0, 7]]
    np.testing.assert_array_equal(F.perspective(array, start, end, interpolation, fill=9),
                                  np.asarray(F.perspective(pil, start, end, interpolation, fill=9)))


@pytest.mark.parametrize("factor", [-0.5, -0.23, 0.0, 0.1, 0.37, 0.5])
def test_numpy_hue_matches_pil(factor):
    array = _rgb(16, 16, 3)
    np.testing.assert_array_equal(F.adjust_hue(array, factor),
                                  np.asarray(F.adjust_hue(Image.fromarray(array), factor)))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_pad_modes(mode):
    array = _rgb(4, 5)
    padded = F.pad(array, (1, 2, 3, 1), fill=7, padding_mode=mode)
    widths = ((2, 1), (1, 3), (0, 0))
    expected = np.pad(array, widths, mode, **({"constant_values": 7} if mode == "constant" else {}))
    np.testing.assert_array_equal(padded, expected)
    # Pillow reads an int fill of an RGB image as a packed colour, as in Paddle: pass all three.
    np.testing.assert_array_equal(np.asarray(F.pad(Image.fromarray(array), (1, 2, 3, 1), (7, 7, 7),
                                                   mode)), expected)
    chw = paddle.to_tensor(array.transpose(2, 0, 1).astype(np.float32))
    np.testing.assert_array_equal(F.pad(chw, (1, 2, 3, 1), 7, mode).numpy(),
                                  expected.transpose(2, 0, 1))


def test_pad_two_values_and_fill_per_channel():
    array = _rgb(3, 3)
    padded = F.pad(array, [2, 1], fill=(10, 20, 30))
    assert padded.shape == (5, 7, 3)
    np.testing.assert_array_equal(padded[0, 0], [10, 20, 30])
    np.testing.assert_array_equal(padded[1:4, 2:5], array)


def test_flips_and_crops_on_every_image_type():
    array = _rgb()
    tensor = paddle.to_tensor(array.transpose(2, 0, 1).copy())
    pil = Image.fromarray(array)
    np.testing.assert_array_equal(F.hflip(array), array[:, ::-1])
    np.testing.assert_array_equal(F.vflip(array), array[::-1])
    np.testing.assert_array_equal(np.asarray(F.hflip(pil)), array[:, ::-1])
    np.testing.assert_array_equal(F.vflip(tensor).numpy(), array[::-1].transpose(2, 0, 1))
    np.testing.assert_array_equal(F.crop(array, 1, 2, 3, 4), array[1:4, 2:6])
    np.testing.assert_array_equal(F.crop(tensor, 1, 2, 3, 4).numpy(),
                                  array[1:4, 2:6].transpose(2, 0, 1))
    np.testing.assert_array_equal(F.center_crop(array, (3, 5)), array[2:5, 2:7])
    np.testing.assert_array_equal(np.asarray(F.center_crop(pil, 3)), array[2:5, 3:6])
    batch = paddle.to_tensor(np.stack([array, array[::-1]]).transpose(0, 3, 1, 2).copy())
    np.testing.assert_array_equal(F.hflip(batch).numpy(),
                                  np.stack([array, array[::-1]])[:, :, ::-1].transpose(0, 3, 1, 2))


# ---- resize ----

def _bilinear_reference(image, out_h, out_w):
    """Half-pixel-centre bilinear resampling written point by point."""
    in_h, in_w = image.shape[:2]
    out = np.zeros((out_h, out_w) + image.shape[2:])
    for oy in range(out_h):
        sy = max((oy + 0.5) * in_h / out_h - 0.5, 0.0)
        y0 = min(int(np.floor(sy)), in_h - 1)
        y1 = min(y0 + 1, in_h - 1)
        fy = sy - np.floor(sy)
        for ox in range(out_w):
            sx = max((ox + 0.5) * in_w / out_w - 0.5, 0.0)
            x0 = min(int(np.floor(sx)), in_w - 1)
            x1 = min(x0 + 1, in_w - 1)
            fx = sx - np.floor(sx)
            top = image[y0, x0] * (1 - fx) + image[y0, x1] * fx
            bottom = image[y1, x0] * (1 - fx) + image[y1, x1] * fx
            out[oy, ox] = top * (1 - fy) + bottom * fy
    return out


@pytest.mark.parametrize("size", [(5, 13), (3, 4), (14, 9)])
def test_numpy_resize_bilinear(size):
    image = np.random.RandomState(2).rand(7, 9, 2).astype(np.float32)
    np.testing.assert_allclose(F.resize(image, size), _bilinear_reference(image, *size), atol=1e-6)
    uint8 = (image * 255).astype(np.uint8)
    np.testing.assert_array_equal(F.resize(uint8, size),
                                  np.rint(_bilinear_reference(uint8.astype(float), *size)))


def test_numpy_resize_nearest_area_and_shorter_side():
    image = np.arange(8 * 6, dtype=np.float32).reshape(8, 6)
    nearest = F.resize(image, (4, 12), "nearest")
    np.testing.assert_array_equal(nearest, image[np.arange(4) * 2][:, np.arange(12) // 2])
    area = F.resize(image, (4, 3), "area")
    np.testing.assert_allclose(area, image.reshape(4, 2, 3, 2).mean(axis=(1, 3)))
    assert F.resize(_rgb(10, 20), 5).shape == (5, 10, 3)
    assert F.resize(_rgb(20, 10), 5).shape == (10, 5, 3)
    assert F.resize(Image.fromarray(_rgb(20, 10)), 5).size == (5, 10)
    same = _rgb(5, 8)
    assert F.resize(same, 5) is same
    for interpolation in ["bicubic", "lanczos"]:
        constant = np.full((6, 5, 3), 77, np.uint8)
        np.testing.assert_array_equal(F.resize(constant, (9, 4), interpolation), 77)


def test_tensor_resize_matches_numpy_path():
    image = np.random.RandomState(3).rand(7, 9, 3).astype(np.float32)
    tensor = paddle.to_tensor(image.transpose(2, 0, 1).copy())
    for interpolation in ["nearest", "bilinear", "bicubic"]:
        np.testing.assert_allclose(F.resize(tensor, (4, 11), interpolation).numpy(),
                                   F.resize(image, (4, 11), interpolation).transpose(2, 0, 1),
                                   atol=1e-6)


# ---- colour ----

def test_numpy_colour_adjustments():
    array = _rgb(5, 6)
    table = np.clip(np.arange(256) * 1.5, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(F.adjust_brightness(array, 1.5), table[array])
    contrast = np.clip((np.arange(256) - 74) * 0.5 + 74, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(F.adjust_contrast(array, 0.5), contrast[array])
    gray = array.astype(float) @ [0.299, 0.587, 0.114]
    saturated = np.clip(array * 1.5 + gray[..., None] * -0.5, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(F.adjust_saturation(array, 1.5), saturated)
    np.testing.assert_array_equal(F.adjust_saturation(array, 1.0), array)
    np.testing.assert_array_equal(F.to_grayscale(array)[..., 0], np.rint(gray).astype(np.uint8))
    three = F.to_grayscale(array, 3)
    assert three.shape == (5, 6, 3) and (three == three[..., :1]).all()


def test_tensor_colour_adjustments():
    image = np.random.RandomState(4).rand(3, 5, 6).astype(np.float32)
    tensor = paddle.to_tensor(image)
    np.testing.assert_allclose(F.adjust_brightness(tensor, 0.5).numpy(), image * 0.5, rtol=1e-6)
    gray = np.tensordot([0.2989, 0.587, 0.114], image, axes=1)
    np.testing.assert_allclose(F.adjust_contrast(tensor, 2.0).numpy(),
                               np.clip(2 * image - gray.mean(), 0, 1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(F.adjust_saturation(tensor, 0.0).numpy(),
                               np.broadcast_to(gray, image.shape), rtol=1e-5)
    np.testing.assert_allclose(F.adjust_hue(tensor, 0.0).numpy(), image, atol=1e-6)
    np.testing.assert_allclose(F.to_grayscale(tensor, 3).numpy(),
                               np.broadcast_to(gray, image.shape), rtol=1e-5)


def test_hue_of_a_pure_colour_turns():
    red = np.zeros((1, 1, 3), np.uint8)
    red[..., 0] = 255
    np.testing.assert_array_equal(F.adjust_hue(red, 1 / 3)[0, 0], [0, 255, 0])
    assert F.adjust_hue(red[..., :1], 0.3) is not None


# ---- to_tensor, normalize, erase ----

def test_to_tensor_layouts_and_dtypes():
    array = _rgb(4, 5)
    chw = F.to_tensor(array)
    assert chw.dtype == paddle.float32 and list(chw.shape) == [3, 4, 5]
    np.testing.assert_allclose(chw.numpy(), array.transpose(2, 0, 1) / 255.0, rtol=1e-6)
    hwc = T.ToTensor("HWC")(Image.fromarray(array))
    np.testing.assert_allclose(hwc.numpy(), array / 255.0, rtol=1e-6)
    gray = F.to_tensor(array[..., 0])
    assert list(gray.shape) == [1, 4, 5]
    floats = array.astype(np.float64)
    assert F.to_tensor(floats).dtype == paddle.float64
    binary = F.to_tensor(Image.fromarray(array[..., 0] > 128))
    np.testing.assert_allclose(binary.numpy()[0], (array[..., 0] > 128).astype(np.float32))


def test_normalize_every_image_type():
    array = _rgb(4, 5).astype(np.float32)
    mean, std = [10.0, 20.0, 30.0], [2.0, 4.0, 8.0]
    expected = (array - np.array(mean, np.float32)) / np.array(std, np.float32)
    np.testing.assert_allclose(F.normalize(array, mean, std, "HWC"), expected, rtol=1e-6)
    np.testing.assert_allclose(F.normalize(array.transpose(2, 0, 1), mean, std),
                               expected.transpose(2, 0, 1), rtol=1e-6)
    np.testing.assert_allclose(F.normalize(array[..., ::-1].copy(), mean, std, "HWC", to_rgb=True),
                               expected, rtol=1e-6)
    tensor = paddle.to_tensor(array.transpose(2, 0, 1).copy())
    np.testing.assert_allclose(T.Normalize(mean, std)(tensor).numpy(), expected.transpose(2, 0, 1),
                               rtol=1e-6)
    gray = paddle.to_tensor(array[None, :, :, 0].copy())
    np.testing.assert_allclose(T.Normalize(0.5, 2.0)(gray).numpy(), (array[None, :, :, 0] - 0.5) / 2)


def test_erase():
    array = _rgb(5, 6)
    erased = F.erase(array, 1, 2, 2, 3, np.array([1, 2, 3]))
    assert (erased[1:3, 2:5] == [1, 2, 3]).all() and (erased[0] == array[0]).all()
    assert not (array[1:3, 2:5] == [1, 2, 3]).all()
    tensor = paddle.to_tensor(array.transpose(2, 0, 1).astype(np.float32))
    out = F.erase(tensor, 0, 0, 2, 2, paddle.to_tensor([[[9.0]]]))
    assert (out.numpy()[:, :2, :2] == 9).all() and (tensor.numpy()[:, :2, :2] != 9).any()


# ---- the transform classes ----

def test_keys_apply_to_named_inputs_and_pass_the_rest():
    array = _rgb(6, 6)
    flip = T.RandomHorizontalFlip(prob=1.0, keys=["image", "image"])
    left, right, extra = flip((array, array[::-1], "label"))
    np.testing.assert_array_equal(left, array[:, ::-1])
    np.testing.assert_array_equal(right, array[::-1, ::-1])
    assert extra == "label"
    with pytest.raises(NotImplementedError, match="unsupported"):
        T.Resize(4, keys=["pixels"])
    with pytest.raises(ValueError, match="keys"):
        T.Resize(4, keys="image")


def test_compose_chains():
    pipeline = T.Compose([T.Resize((4, 6)), T.CenterCrop(4), T.ToTensor(),
                          T.Normalize([0.5] * 3, [0.5] * 3)])
    out = pipeline(Image.fromarray(_rgb(8, 12)))
    assert list(out.shape) == [3, 4, 4] and out.dtype == paddle.float32
    assert float(out.numpy().min()) >= -1 and float(out.numpy().max()) <= 1
    assert "Resize" in repr(pipeline)


def test_random_crop_padding_and_pad_if_needed():
    array = _rgb(4, 5)
    random.seed(0)
    out = T.RandomCrop((6, 7), pad_if_needed=True, fill=9)(array)
    assert out.shape == (6, 7, 3)
    out = T.RandomCrop(3, padding=2, padding_mode="reflect")(Image.fromarray(array))
    assert out.size == (3, 3)
    with pytest.raises(ValueError, match="RandomCrop.*exceeds"):
        T.RandomCrop(8)(array)
    assert T.RandomCrop((4, 5))(array) is not None


def test_random_transforms_follow_python_random_seed():
    array = _rgb(10, 12)
    transform = T.Compose([T.RandomResizedCrop(5), T.RandomHorizontalFlip(), T.RandomRotation(30),
                           T.ColorJitter(0.3, 0.3, 0.3, 0.1), T.RandomErasing(value="random")])
    outputs = []
    for _ in range(2):
        random.seed(5)
        np.random.seed(5)
        outputs.append(transform(array))
    np.testing.assert_array_equal(outputs[0], outputs[1])


def test_random_resized_crop_and_rotation_shapes():
    tensor = paddle.rand([3, 20, 16])
    assert list(T.RandomResizedCrop((8, 6))(tensor).shape) == [3, 8, 6]
    assert T.RandomRotation((90, 90), expand=True)(_rgb(4, 7)).shape == (7, 4, 3)
    assert list(T.RandomAffine(10, shear=5)(tensor).shape) == [3, 20, 16]
    assert T.RandomPerspective(prob=1.0)(_rgb(9, 9)).shape == (9, 9, 3)


def test_transpose_grayscale_pad_and_colour_transforms():
    array = _rgb(4, 5)
    assert T.Transpose()(array).shape == (3, 4, 5)
    assert T.Transpose()(array[..., 0]).shape == (1, 4, 5)
    assert T.Grayscale(3)(Image.fromarray(array)).mode == "RGB"
    assert T.Pad([1, 2])(array).shape == (8, 7, 3)
    for transform in [T.BrightnessTransform(0.4), T.ContrastTransform(0.4),
                      T.SaturationTransform(0.4), T.HueTransform(0.4)]:
        assert transform(array).shape == array.shape
    assert T.BrightnessTransform(0)(array) is array


def test_random_erasing_values():
    array = np.zeros((20, 20, 3), np.uint8)
    np.random.seed(0)
    random.seed(0)
    out = T.RandomErasing(prob=1.0, value=(1, 2, 3))(array)
    erased = (out != 0).any(-1)
    assert erased.any() and (out[erased] == [1, 2, 3]).all()
    assert (array == 0).all()
    tensor = paddle.zeros([3, 20, 20])
    out = T.RandomErasing(prob=1.0, value=5)(tensor).numpy()
    assert set(np.unique(out)) == {0.0, 5.0}
    assert T.RandomErasing(prob=0.0)(array) is array
    gray = Image.fromarray(np.zeros((20, 20), np.uint8))
    out = np.asarray(T.RandomErasing(prob=1.0, value=7)(gray))
    assert out.shape == (20, 20) and set(np.unique(out)) == {0, 7}
    out = T.RandomErasing(prob=1.0, value="random")(np.zeros((20, 20), np.float32))
    assert out.shape == (20, 20) and (out != 0).any()


# ---- bad input ----

@pytest.mark.parametrize("transform", [T.Resize(4), T.CenterCrop(2), T.ToTensor(), T.Grayscale(),
                                       T.RandomHorizontalFlip(), T.Pad(1), T.RandomCrop(2)])
def test_wrong_image_type_names_the_transform(transform):
    name = type(transform).__name__
    with pytest.raises(TypeError, match=f"{name}: img should be .* but received list"):
        transform([[1, 2], [3, 4]])
    with pytest.raises(TypeError, match=r"received numpy.ndarray of shape \(2, 2, 2, 2\)"):
        transform(np.zeros((2, 2, 2, 2), np.uint8))


@pytest.mark.parametrize("function", [lambda img: F.resize(img, 3), F.hflip, F.to_tensor,
                                      lambda img: F.rotate(img, 10), F.to_grayscale,
                                      lambda img: F.pad(img, 1)])
def test_empty_and_non_numeric_images_are_refused(function):
    with pytest.raises(ValueError, match="img should not be empty"):
        function(np.zeros((0, 4, 3), np.uint8))
    with pytest.raises(ValueError, match="img should not be empty"):
        function(paddle.zeros([3, 4, 0]))
    with pytest.raises(TypeError, match="bool, integer or float pixels"):
        function(np.full((2, 2), "a"))


def test_bad_arguments_raise_typed_errors():
    array = _rgb(4, 5)
    with pytest.raises(ValueError, match="CenterCrop: the crop size"):
        T.CenterCrop(6)(array)
    with pytest.raises(ValueError, match="crop: the region"):
        F.crop(array, 2, 2, 4, 4)
    with pytest.raises(TypeError, match="resize: size"):
        F.resize(array, (1, 2, 3))
    with pytest.raises(ValueError, match="resize: interpolation"):
        F.resize(array, 3, "hamming")
    with pytest.raises(ValueError, match="pad: padding"):
        F.pad(array, (1, 2, 3))
    with pytest.raises(ValueError, match="padding_mode"):
        F.pad(array, 1, padding_mode="wrap")
    with pytest.raises(ValueError, match="adjust_hue: hue_factor"):
        F.adjust_hue(array, 0.7)
    with pytest.raises(ValueError, match="adjust_brightness: brightness_factor"):
        F.adjust_brightness(array, -1)
    with pytest.raises(ValueError, match=r"Normalize: normalize: mean should have one value per "
                                         r"channel \(3\)"):
        T.Normalize([1, 2], [1, 2], data_format="HWC")(array)
    with pytest.raises(ValueError, match="to_tensor: data_format"):
        F.to_tensor(array, "NCHW")
    with pytest.raises(ValueError, match="RandomRotation: degrees"):
        T.RandomRotation(-3)
    with pytest.raises(ValueError, match="HueTransform"):
        T.HueTransform(0.8)
    with pytest.raises(ValueError, match="RandomErasing: a string value"):
        T.RandomErasing(value="noise")
    with pytest.raises(ValueError, match="Grayscale: num_output_channels"):
        T.Grayscale(2)
    with pytest.raises(TypeError, match="Resize: size"):
        T.Resize("big")
    with pytest.raises(ValueError, match="perspective: startpoints"):
        F.perspective(array, [[0, 0]], [[0, 0]] * 4)
    with pytest.raises(ValueError, match="rotate: angle should be finite"):
        F.rotate(array, float("nan"))
    with pytest.raises(ValueError, match="pad: fill should be finite"):
        F.pad(array, 1, fill=float("inf"))
    with pytest.raises(ValueError, match="affine: translate and shear should be finite"):
        F.affine(array, 0, (0, 0), 1.0, float("nan"))
    with pytest.raises(ValueError, match="adjust_contrast: contrast_factor should be a finite"):
        F.adjust_contrast(array, float("nan"))
    with pytest.raises(ValueError, match="erase: the value does not fit"):
        F.erase(array, 0, 0, 1, 1, -1)
    with pytest.raises(ValueError, match="RandomErasing: value should hold finite numbers"):
        T.RandomErasing(value=float("nan"))
    with pytest.raises(ValueError, match="Transpose: order should be a permutation of the 3 axes"):
        T.Transpose((1, 2, 3))(paddle.zeros([3, 4, 5]))
