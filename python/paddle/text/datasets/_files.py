"""What the text dataset readers share: where a dataset's files are looked for, and the errors
for missing or unreadable files.

Nothing is ever downloaded. A dataset given no path looks for its file where PaddlePaddle's
download would have put it, ~/.cache/paddle/dataset/<module>/<file name of the URL>; when it is
not there the error names the file, that path and the URL PaddlePaddle downloads it from, so that
it can be fetched by hand. An archive that cannot be read (truncated, corrupt, another format)
raises a ValueError naming the file."""
import contextlib
import gzip
import os
import tarfile
import tempfile
import zipfile

__all__ = []


def data_home():
    """PaddlePaddle's dataset cache: ~/.cache/paddle/dataset, under the temporary directory
    when the home directory is not writable (as Paddle decides)."""
    home = os.path.expanduser("~")
    if not os.access(home, os.W_OK):
        home = tempfile.gettempdir()
    return os.path.join(home, ".cache", "paddle", "dataset")


def find_file(path, url, module_name, download, api, argument):
    """The file to read: `path` when given (it must exist), otherwise Paddle's cache path of
    `url`. download=False requires the path, as in Paddle."""
    if path is not None:
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{api}: {argument}={path!r} does not exist")
        return path
    file_name = url.split("/")[-1]
    if not download:
        raise ValueError(f"{api}: {argument} is not set and download=False; pass the path of "
                         f"{file_name} as {argument}")
    cached = os.path.join(data_home(), module_name, file_name)
    if os.path.isfile(cached):
        return cached
    raise FileNotFoundError(
        f"{api}: {file_name} was not found at {cached}. This build does not download datasets: "
        f"fetch {url} and put it at {cached}, or pass its path as {argument}")


def check_mode(mode, modes, api):
    if not isinstance(mode, str) or mode.lower() not in modes:
        raise ValueError(f"{api}: mode should be one of {list(modes)}, but received {mode!r}")
    return mode.lower()


@contextlib.contextmanager
def reading(path, api, what):
    """Turns the errors of reading a damaged or foreign file into a ValueError naming it."""
    try:
        yield
    except (tarfile.TarError, zipfile.BadZipFile, gzip.BadGzipFile, EOFError, OSError,
            UnicodeDecodeError) as error:
        if isinstance(error, FileNotFoundError) and error.filename == path:
            raise
        raise ValueError(f"{api}: cannot read {path} as {what}: {error}") from error
    except KeyError as error:
        raise ValueError(f"{api}: {path} has no member {error}; is it {what}?") from error
