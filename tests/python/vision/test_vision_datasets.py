"""paddle.vision.datasets on small files written here in the real formats (idx .gz, the CIFAR
python tar.gz, MAT v5, folder trees), Debian's Fashion-MNIST where installed, the errors for
missing and damaged files, and paddle.vision's image backend."""
import gzip
import io
import os
import pickle
import struct
import tarfile
import zlib

import numpy as np
import pytest

import paddle
from paddle.vision import datasets
from paddle.vision.datasets.matfile import loadmat

Image = pytest.importorskip("PIL.Image")

DEBIAN_FASHION = "/usr/share/datasets/fashion-mnist"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """Paddle's cache (~/.cache/paddle/dataset) under a fresh home, the backend reset."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    yield home
    paddle.vision.set_image_backend("pil")


# ---- MNIST / FashionMNIST ----

def _write_idx(directory, prefix, images, labels):
    image_path = os.path.join(directory, f"{prefix}-images-idx3-ubyte.gz")
    label_path = os.path.join(directory, f"{prefix}-labels-idx1-ubyte.gz")
    with gzip.open(image_path, "wb") as stream:
        stream.write(struct.pack(">IIII", 2051, *images.shape) + images.tobytes())
    with gzip.open(label_path, "wb") as stream:
        stream.write(struct.pack(">II", 2049, len(labels)) + labels.tobytes())
    return image_path, label_path


def _digits(count=250, rows=28, cols=28):
    rng = np.random.RandomState(0)
    return (rng.randint(0, 256, (count, rows, cols)).astype(np.uint8),
            rng.randint(0, 10, count).astype(np.uint8))


def test_mnist_reads_idx_files(tmp_path):
    images, labels = _digits()
    image_path, label_path = _write_idx(tmp_path, "train", images, labels)
    dataset = datasets.MNIST(image_path, label_path, mode="train")
    assert len(dataset) == 250
    for index in (0, 99, 100, 249):
        image, label = dataset[index]
        assert isinstance(image, Image.Image) and image.mode == "L"
        np.testing.assert_array_equal(np.asarray(image), images[index])
        assert label.dtype == np.int64 and label.shape == (1,) and label[0] == labels[index]
    array_dataset = datasets.MNIST(image_path, label_path, backend="cv2")
    image, label = array_dataset[7]
    assert image.dtype == np.float32 and image.shape == (28, 28)
    np.testing.assert_array_equal(image, images[7])


def test_mnist_transform_and_backend_default(tmp_path):
    images, labels = _digits(10, 5, 4)
    paths = _write_idx(tmp_path, "t10k", images, labels)
    paddle.vision.set_image_backend("cv2")
    dataset = datasets.MNIST(*paths, mode="test", transform=paddle.vision.transforms.ToTensor())
    image, label = dataset[3]
    # The cv2 backend hands the transform a float32 array (not scaled by ToTensor).
    assert list(image.shape) == [1, 5, 4] and image.dtype == paddle.float32
    np.testing.assert_array_equal(image.numpy()[0], images[3])


def test_mnist_missing_files_never_download(isolated_home):
    with pytest.raises(FileNotFoundError) as error:
        datasets.MNIST(mode="test")
    message = str(error.value)
    expected = os.path.join(str(isolated_home), ".cache", "paddle", "dataset", "mnist",
                            "t10k-images-idx3-ubyte.gz")
    assert expected in message
    assert "https://dataset.bj.bcebos.com/mnist/t10k-images-idx3-ubyte.gz" in message
    with pytest.raises(ValueError, match="image_path is not set and download=False"):
        datasets.MNIST(mode="test", download=False)
    with pytest.raises(FileNotFoundError, match="image_path='/no/such/file.gz' does not exist"):
        datasets.MNIST("/no/such/file.gz", "/no/such/labels.gz")
    with pytest.raises(ValueError, match="mode should be one of"):
        datasets.MNIST(mode="valid")
    with pytest.raises(ValueError, match="backend should be 'pil' or 'cv2'"):
        datasets.MNIST(backend="tensor")


def test_mnist_found_in_paddle_cache(isolated_home):
    cache = isolated_home / ".cache" / "paddle" / "dataset" / "mnist"
    cache.mkdir(parents=True)
    images, labels = _digits(3)
    _write_idx(cache, "t10k", images, labels)
    assert len(datasets.MNIST(mode="test")) == 3


def test_mnist_damaged_files_name_the_file(tmp_path):
    images, labels = _digits(20)
    image_path, label_path = _write_idx(tmp_path, "train", images, labels)
    data = open(image_path, "rb").read()
    truncated = tmp_path / "truncated.gz"
    truncated.write_bytes(data[:len(data) // 2])
    with pytest.raises(ValueError, match="truncated.gz"):
        datasets.MNIST(str(truncated), label_path)
    short = tmp_path / "short.gz"
    with gzip.open(short, "wb") as stream:
        stream.write(struct.pack(">IIII", 2051, 20, 28, 28) + images.tobytes()[:1000])
    with pytest.raises(ValueError, match=r"short.gz is truncated"):
        datasets.MNIST(str(short), label_path)
    not_gzip = tmp_path / "plain.gz"
    not_gzip.write_bytes(b"not a gzip file at all")
    with pytest.raises(ValueError, match="plain.gz"):
        datasets.MNIST(image_path, str(not_gzip))
    with pytest.raises(ValueError, match="is not an idx1 label file"):
        datasets.MNIST(image_path, image_path)
    huge = tmp_path / "huge.gz"
    with gzip.open(huge, "wb") as stream:
        stream.write(struct.pack(">IIII", 2051, 20, 60000, 60000))
    with pytest.raises(ValueError, match="huge.gz is corrupt: its header claims 20 images"):
        datasets.MNIST(str(huge), label_path)
    _, other_labels = _write_idx(tmp_path, "other", images[:5], labels[:5])
    with pytest.raises(ValueError, match="holds 20 images but the label file holds 5 labels"):
        datasets.MNIST(image_path, other_labels)


@pytest.mark.skipif(not os.path.isdir(DEBIAN_FASHION),
                    reason="Debian's dataset-fashion-mnist package is not installed")
def test_fashion_mnist_found_in_debian_package_before_cache(isolated_home):
    cache = isolated_home / ".cache" / "paddle" / "dataset" / "fashion-mnist"
    cache.mkdir(parents=True)
    _write_idx(cache, "t10k", *_digits(3))
    dataset = datasets.FashionMNIST(mode="test")
    assert dataset.image_path == os.path.join(DEBIAN_FASHION, "t10k-images-idx3-ubyte.gz")
    assert dataset.label_path == os.path.join(DEBIAN_FASHION, "t10k-labels-idx1-ubyte.gz")
    assert len(dataset) == 10000
    image, label = dataset[0]
    assert image.size == (28, 28) and label.tolist() == [9]  # an ankle boot
    counts = np.bincount(dataset.labels[:, 0])
    assert counts.tolist() == [1000] * 10


# ---- Cifar ----

def _cifar_archive(path, members):
    with tarfile.open(path, "w:gz") as archive:
        for name, batch in members.items():
            payload = pickle.dumps(batch, protocol=2)
            info = tarfile.TarInfo(name)
            info.size = len(payload)
            archive.addfile(info, io.BytesIO(payload))
    return str(path)


def _cifar_batch(count, seed, label_key=b"labels", classes=10):
    rng = np.random.RandomState(seed)
    return {b"data": rng.randint(0, 256, (count, 3072)).astype(np.uint8),
            label_key: rng.randint(0, classes, count).tolist(), b"batch_label": b"batch"}


def test_cifar10_reads_the_python_archive(tmp_path):
    batches = {f"cifar-10-batches-py/data_batch_{k}": _cifar_batch(4, k) for k in (2, 1)}
    batches["cifar-10-batches-py/test_batch"] = _cifar_batch(3, 9)
    path = _cifar_archive(tmp_path / "cifar-10-python.tar.gz", batches)
    train = datasets.Cifar10(path, mode="train")
    assert len(train) == 8
    first = batches["cifar-10-batches-py/data_batch_1"]
    image, label = train[1]
    np.testing.assert_array_equal(np.asarray(image), first[b"data"][1].reshape(3, 32, 32)
                                  .transpose(1, 2, 0))
    assert label.dtype == np.int64 and label.shape == () and label == first[b"labels"][1]
    test = datasets.Cifar10(path, mode="test", backend="cv2")
    image, label = test[2]
    assert len(test) == 3 and image.dtype == np.float32 and image.shape == (32, 32, 3)


def test_cifar100_fine_labels(tmp_path):
    path = _cifar_archive(tmp_path / "cifar-100-python.tar.gz", {
        "cifar-100-python/train": _cifar_batch(5, 1, b"fine_labels", 100),
        "cifar-100-python/test": _cifar_batch(2, 2, b"fine_labels", 100),
        "cifar-100-python/meta": {b"fine_label_names": [b"apple"]}})
    dataset = datasets.Cifar100(path, mode="train")
    assert len(dataset) == 5 and 0 <= int(dataset[4][1]) < 100
    assert len(datasets.Cifar100(path, mode="test")) == 2


def test_cifar_errors(tmp_path, isolated_home):
    with pytest.raises(FileNotFoundError, match="cifar-10-python.tar.gz"):
        datasets.Cifar10()
    with pytest.raises(FileNotFoundError, match="https://dataset.bj.bcebos.com/cifar/"
                                                "cifar-100-python.tar.gz"):
        datasets.Cifar100(mode="test")
    corrupt = tmp_path / "corrupt.tar.gz"
    corrupt.write_bytes(b"\x1f\x8b garbage")
    with pytest.raises(ValueError, match="corrupt.tar.gz"):
        datasets.Cifar10(str(corrupt))
    wrong = _cifar_archive(tmp_path / "wrong.tar.gz", {"x/test_batch": _cifar_batch(1, 0)})
    with pytest.raises(ValueError, match="no 'data_batch' batch"):
        datasets.Cifar10(wrong)

    class Evil:
        def __reduce__(self):
            return (os.system, ("echo unsafe",))
    evil = _cifar_archive(tmp_path / "evil.tar.gz", {"x/data_batch_1": {b"data": Evil()}})
    with pytest.raises(ValueError, match="evil.tar.gz.*does not hold"):
        datasets.Cifar10(evil)


# ---- MAT v5 and Flowers ----

_MX_CLASSES = {np.dtype("f8"): 6, np.dtype("f4"): 7, np.dtype("u1"): 9, np.dtype("i4"): 12,
               np.dtype("u2"): 11}
_MI_TYPES = {np.dtype("f8"): 9, np.dtype("f4"): 7, np.dtype("u1"): 2, np.dtype("i4"): 5,
             np.dtype("u2"): 4}


def _element(kind, payload, small=False):
    if small and len(payload) <= 4:
        return struct.pack("<HH", kind, len(payload)) + payload.ljust(4, b"\0")
    return struct.pack("<II", kind, len(payload)) + payload + b"\0" * (-len(payload) % 8)


def _mat_bytes(variables, compress, mx_class=None):
    """A level 5 .mat file; each value is (array, stored dtype) or an array stored as itself."""
    out = b"MATLAB 5.0 MAT-file, written by the paddle.vision tests".ljust(116) + b"\0" * 8
    out += struct.pack("<H", 0x0100) + b"IM"
    for name, value in variables.items():
        array, stored = value if isinstance(value, tuple) else (value, value.dtype)
        array = np.atleast_2d(array)
        cls = mx_class or _MX_CLASSES[np.dtype(array.dtype)]
        body = _element(6, struct.pack("<II", cls, 0))
        body += _element(5, struct.pack(f"<{array.ndim}i", *array.shape))
        body += _element(1, name.encode(), small=True)
        body += _element(_MI_TYPES[np.dtype(stored)],
                         array.astype(stored).tobytes(order="F"), small=True)
        matrix = struct.pack("<II", 14, len(body)) + body
        if compress:
            packed = zlib.compress(matrix)
            out += struct.pack("<II", 15, len(packed)) + packed
        else:
            out += matrix
    return out


@pytest.mark.parametrize("compress", [False, True])
def test_loadmat_numeric_arrays(tmp_path, compress):
    path = tmp_path / "arrays.mat"
    matrix = np.arange(12, dtype=np.float64).reshape(3, 4)
    path.write_bytes(_mat_bytes({"labels": (np.array([[1, 2, 77]], np.float64), np.uint8),
                                 "m": matrix, "ab": np.array([[5]], np.int32),
                                 "f": np.array([[1.5, -2.0]], np.float32)}, compress))
    variables = loadmat(str(path))
    assert variables["labels"].dtype == np.float64 and variables["labels"].tolist() == [[1, 2, 77]]
    np.testing.assert_array_equal(variables["m"], matrix)
    assert variables["ab"].dtype == np.int32 and variables["ab"].tolist() == [[5]]
    assert variables["f"].tolist() == [[1.5, -2.0]]


def test_loadmat_errors(tmp_path):
    good = _mat_bytes({"m": np.ones((2, 2))}, False)
    truncated = tmp_path / "truncated.mat"
    truncated.write_bytes(good[:-12])
    with pytest.raises(ValueError, match="truncated.mat.*truncated"):
        loadmat(str(truncated))
    text = tmp_path / "text.mat"
    text.write_bytes(b"hello" * 40)
    with pytest.raises(ValueError, match="text.mat is not a MATLAB level 5 file"):
        loadmat(str(text))
    cell = tmp_path / "cell.mat"
    cell.write_bytes(_mat_bytes({"c": np.ones((1, 1))}, False, mx_class=1))
    with pytest.raises(ValueError, match="'c' is a cell array"):
        loadmat(str(cell))
    hdf5 = tmp_path / "v73.mat"
    hdf5.write_bytes(b"\0" * 512 + b"\x89HDF\r\n\x1a\n" + b"\0" * 64)
    with pytest.raises(ValueError, match="v7.3"):
        loadmat(str(hdf5))


def _flowers_files(directory, count=6):
    archive_path = os.path.join(directory, "102flowers.tgz")
    rng = np.random.RandomState(0)
    with tarfile.open(archive_path, "w:gz") as archive:
        for index in range(1, count + 1):
            buffer = io.BytesIO()
            Image.fromarray(rng.randint(0, 256, (6 + index, 5, 3)).astype(np.uint8)).save(
                buffer, format="JPEG")
            info = tarfile.TarInfo(f"jpg/image_{index:05}.jpg")
            info.size = buffer.tell()
            buffer.seek(0)
            archive.addfile(info, buffer)
    labels = np.array([[3, 1, 102, 7, 7, 50]], np.float64)
    label_path = os.path.join(directory, "imagelabels.mat")
    with open(label_path, "wb") as stream:
        stream.write(_mat_bytes({"labels": (labels, np.uint8)}, True))
    setid_path = os.path.join(directory, "setid.mat")
    with open(setid_path, "wb") as stream:
        stream.write(_mat_bytes({"trnid": (np.array([[1, 2]], np.float64), np.uint16),
                                 "valid": (np.array([[3]], np.float64), np.uint16),
                                 "tstid": (np.array([[4, 5, 6]], np.float64), np.uint16)}, False))
    return archive_path, label_path, setid_path, labels[0]


def test_flowers_reads_archive_and_mat_files(tmp_path):
    data_file, label_file, setid_file, labels = _flowers_files(str(tmp_path))
    train = datasets.Flowers(data_file, label_file, setid_file, mode="train")
    assert len(train) == 3 and os.path.isdir(tmp_path / "102flowers" / "jpg")
    image, label = train[0]
    assert image.size == (5, 10) and label.dtype == np.int64 and label.tolist() == [7]
    test = datasets.Flowers(data_file, label_file, setid_file, mode="test", backend="cv2")
    image, label = test[1]
    assert image.shape == (7 + 1, 5, 3) and image.dtype == np.float32 and label.tolist() == [1]
    valid = datasets.Flowers(data_file, label_file, setid_file, mode="valid")
    assert [int(valid[0][1][0])] == [102]


def test_flowers_errors(tmp_path, isolated_home):
    with pytest.raises(FileNotFoundError, match="102flowers.tgz.*paddlemodels.bj.bcebos.com"):
        datasets.Flowers()
    data_file, label_file, setid_file, _ = _flowers_files(str(tmp_path))
    with pytest.raises(ValueError, match="has no variable 'labels'"):
        datasets.Flowers(data_file, setid_file, setid_file)
    broken = tmp_path / "broken.tgz"
    broken.write_bytes(b"garbage")
    with pytest.raises(ValueError, match="broken.tgz"):
        datasets.Flowers(str(broken), label_file, setid_file)


# ---- VOC2012 ----

def _voc_archive(path, names_by_split, count=3):
    rng = np.random.RandomState(5)
    members = {}
    for index in range(count):
        name = f"2007_{index:06}"
        image, mask = io.BytesIO(), io.BytesIO()
        Image.fromarray(rng.randint(0, 256, (4 + index, 6, 3)).astype(np.uint8)).save(image, "JPEG")
        Image.fromarray(rng.randint(0, 21, (4 + index, 6)).astype(np.uint8)).save(mask, "PNG")
        members[f"VOCdevkit/VOC2012/JPEGImages/{name}.jpg"] = image.getvalue()
        members[f"VOCdevkit/VOC2012/SegmentationClass/{name}.png"] = mask.getvalue()
    for split, indexes in names_by_split.items():
        members[f"VOCdevkit/VOC2012/ImageSets/Segmentation/{split}.txt"] = \
            "".join(f"2007_{i:06}\n" for i in indexes).encode()
    with tarfile.open(path, "w") as archive:
        for name, payload in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(payload)
            archive.addfile(info, io.BytesIO(payload))
    return str(path)


def test_voc2012_reads_the_archive(tmp_path):
    path = _voc_archive(tmp_path / "VOCtrainval_11-May-2012.tar",
                        {"trainval": [0, 1, 2], "train": [1], "val": [2, 0]})
    train = datasets.VOC2012(path, mode="train")
    assert len(train) == 3
    image, mask = train[1]
    assert image.size == (6, 5) and mask.mode == "L" and mask.size == (6, 5)
    valid = datasets.VOC2012(path, mode="valid", backend="cv2")
    image, mask = valid[0]
    assert image.shape == (6, 6, 3) and image.dtype == np.float32 and mask.shape == (6, 6)
    assert len(datasets.VOC2012(path, mode="test")) == 1
    restored = pickle.loads(pickle.dumps(train))
    assert restored[2][0].size == (6, 6)


def test_voc2012_errors(tmp_path, isolated_home):
    with pytest.raises(FileNotFoundError, match="VOCtrainval_11-May-2012.tar"):
        datasets.VOC2012()
    path = _voc_archive(tmp_path / "partial.tar", {"train": [0]})
    with pytest.raises(ValueError, match="partial.tar has no member .*trainval.txt"):
        datasets.VOC2012(path)


# ---- DatasetFolder / ImageFolder ----

def _image_tree(root):
    rng = np.random.RandomState(1)
    files = {"cat/a.png": (4, 5), "cat/b.jpg": (3, 3), "dog/c.png": (2, 6), "dog/deep/d.bmp": (5, 2)}
    for name, (h, w) in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(rng.randint(0, 256, (h, w, 3)).astype(np.uint8)).save(path)
    (root / "dog" / "notes.txt").write_text("not an image")
    return root


def test_dataset_folder(tmp_path):
    root = _image_tree(tmp_path / "tree")
    dataset = datasets.DatasetFolder(str(root))
    assert dataset.classes == ["cat", "dog"] and dataset.class_to_idx == {"cat": 0, "dog": 1}
    assert [os.path.basename(p) for p, _ in dataset.samples] == ["a.png", "b.jpg", "c.png", "d.bmp"]
    assert dataset.targets == [0, 0, 1, 1]
    image, target = dataset[0]
    assert image.mode == "RGB" and image.size == (5, 4) and target == 0
    paddle.vision.set_image_backend("cv2")
    array, _ = datasets.DatasetFolder(str(root))[2]
    assert isinstance(array, np.ndarray) and array.shape == (2, 6, 3)
    texts = datasets.DatasetFolder(str(root), loader=lambda p: open(p).read(), extensions=(".txt",))
    assert len(texts) == 1 and texts[0] == ("not an image", 1)
    pngs = datasets.DatasetFolder(str(root), is_valid_file=lambda p: p.endswith(".png"))
    assert len(pngs) == 2


def test_image_folder(tmp_path):
    root = _image_tree(tmp_path / "tree")
    dataset = datasets.ImageFolder(str(root), transform=paddle.vision.transforms.Resize((2, 2)))
    assert len(dataset) == 4
    sample = dataset[3]
    assert isinstance(sample, list) and sample[0].size == (2, 2)


def test_folder_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="is not a directory"):
        datasets.DatasetFolder(str(tmp_path / "missing"))
    (tmp_path / "empty" / "class").mkdir(parents=True)
    with pytest.raises(RuntimeError, match="found 0 files"):
        datasets.DatasetFolder(str(tmp_path / "empty"))
    with pytest.raises(RuntimeError, match="found 0 files"):
        datasets.ImageFolder(str(tmp_path / "empty"))
    with pytest.raises(ValueError, match="either extensions or is_valid_file"):
        datasets.ImageFolder(str(tmp_path), extensions=(".png",), is_valid_file=lambda p: True)


def test_datasets_are_paddle_io_datasets(tmp_path):
    assert isinstance(datasets.ImageFolder(str(_image_tree(tmp_path / "tree"))), paddle.io.Dataset)
    images, labels = _digits(10)
    dataset = datasets.MNIST(*_write_idx(tmp_path, "train", images, labels), backend="cv2",
                             transform=paddle.vision.transforms.ToTensor())
    batches = list(paddle.io.DataLoader(dataset, batch_size=4))
    assert len(batches) == 3
    image, label = batches[0]
    assert list(image.shape) == [4, 1, 28, 28] and list(label.shape) == [4, 1]
    np.testing.assert_array_equal(label.numpy()[:, 0], labels[:4])


# ---- the image backend ----

def test_image_load_backends(tmp_path):
    rgb = np.random.RandomState(2).randint(0, 256, (4, 6, 3)).astype(np.uint8)
    path = str(tmp_path / "image.png")
    Image.fromarray(rgb).save(path)
    assert paddle.vision.get_image_backend() == "pil"
    loaded = paddle.vision.image_load(path)
    np.testing.assert_array_equal(np.asarray(loaded.convert("RGB")), rgb)
    np.testing.assert_array_equal(paddle.vision.image_load(path, backend="cv2"), rgb[:, :, ::-1])
    paddle.vision.set_image_backend("tensor")
    tensor = paddle.vision.image_load(path)
    assert tensor.dtype == paddle.uint8
    np.testing.assert_array_equal(tensor.numpy(), rgb.transpose(2, 0, 1))
    with pytest.raises(ValueError, match="set_image_backend\\(\\): backend must be one of"):
        paddle.vision.set_image_backend("opencv")
    with pytest.raises(ValueError, match="image_load\\(\\): backend"):
        paddle.vision.image_load(path, backend="skimage")
    with pytest.raises(FileNotFoundError, match="no image file"):
        paddle.vision.image_load(str(tmp_path / "missing.png"))
