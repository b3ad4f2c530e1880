"""What the dataset readers share: the Dataset base class (paddle.io's), where a dataset's files
are looked for, and the errors for missing or unreadable files.

This build never downloads. A dataset given no path looks for its file in the places listed for
it (Debian's dataset packages first where one exists, then PaddlePaddle's cache,
~/.cache/paddle/dataset/<name>/<file>); when the file is in none of them the error names the
file, the expected path and the URL PaddlePaddle would download it from, so that it can be
fetched by hand. Nothing waits on the network."""
import os
import tempfile

from ...io import Dataset  # noqa: F401  (the base class of the readers)

__all__ = []


def data_home():
    """PaddlePaddle's dataset cache: ~/.cache/paddle/dataset, under the temporary directory
    when the home directory is not writable (as Paddle decides)."""
    home = os.path.expanduser("~")
    if not os.access(home, os.W_OK):
        home = tempfile.gettempdir()
    return os.path.join(home, ".cache", "paddle", "dataset")


def cache_path(module_name, url):
    return os.path.join(data_home(), module_name, url.split("/")[-1])


def find_file(path, url, module_name, download, api, argument, candidates=()):
    """The file to read: `path` when given (it must exist), otherwise the first existing one of
    `candidates` and Paddle's cache path. `download` only says whether a missing path may be
    looked up (Paddle's download=False requires an explicit path)."""
    if path:
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{api}: {argument}={path!r} does not exist")
        return path
    if not download:
        raise ValueError(f"{api}: {argument} is not set and download=False; pass the path of "
                         f"{url.split('/')[-1]} as {argument}")
    cached = cache_path(module_name, url)
    searched = list(candidates) + [cached]
    for candidate in searched:
        if os.path.isfile(candidate):
            return candidate
    raise FileNotFoundError(
        f"{api}: {url.split('/')[-1]} was not found (looked at {', '.join(searched)}). This build "
        f"does not download datasets: fetch {url} and put it at {cached}, or pass its path as "
        f"{argument}")


def check_backend(backend, api):
    from ..image import get_image_backend
    if backend is None:
        backend = get_image_backend()
    if backend not in ("pil", "cv2"):
        raise ValueError(f"{api}: backend should be 'pil' or 'cv2', but received {backend!r}")
    return backend


def check_mode(mode, modes, api):
    if not isinstance(mode, str) or mode.lower() not in modes:
        raise ValueError(f"{api}: mode should be one of {list(modes)}, but received {mode!r}")
    return mode.lower()
