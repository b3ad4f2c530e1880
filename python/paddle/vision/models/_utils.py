"""What the model files share: channel rounding and the pretrained=True path.

This framework never downloads. pretrained=True loads PaddlePaddle's weights file from the
directory where PaddlePaddle caches it (~/.cache/paddle/hapi/weights, checked against the same
MD5), and otherwise stops with an error that names the file, its URL and how to load a copy."""
import hashlib
import os

WEIGHTS_HOME = os.path.expanduser(os.path.join("~", ".cache", "paddle", "hapi", "weights"))


def _make_divisible(v, divisor=8, min_value=None):
    """Rounds v to the nearest multiple of divisor (at least min_value), going one step up when
    rounding down would lose more than 10%: the channel counts of the MobileNets."""
    if min_value is None:
        min_value = divisor
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if rounded < 0.9 * v:
        rounded += divisor
    return rounded


def _md5_of(path):
    digest = hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def pretrained_weights(arch, model_urls, factory):
    """PaddlePaddle's pretrained state dict of `arch`, read from its local cache, checked
    before the model is built so that a missing file fails at once. Raises FileNotFoundError
    when the file is not there and ValueError when PaddlePaddle has no weights for `arch`;
    `factory` is the call that builds the model, for the message."""
    if arch not in model_urls:
        known = ", ".join(sorted(model_urls))
        raise ValueError(
            f"{factory}(pretrained=True): PaddlePaddle publishes no pretrained weights for "
            f"'{arch}' (it has them for: {known}); build it with pretrained=False")
    url, md5 = model_urls[arch]
    file_name = url.rsplit("/", 1)[-1]
    cached = os.path.join(WEIGHTS_HOME, file_name)
    if os.path.isfile(cached) and _md5_of(cached) == md5:
        from ...framework.io import load
        return load(cached)
    raise FileNotFoundError(
        f"{factory}(pretrained=True): this framework does not download weights, and "
        f"PaddlePaddle's weights file {file_name} (md5 {md5}) is not in {WEIGHTS_HOME}. "
        f"Download it from {url} and put it there, or load it yourself: "
        f"model = {factory}(); model.set_state_dict(paddle.load('/path/to/{file_name}'))")


def _with_state(model, state):
    """`model` with `state` set into it, unless state is None."""
    if state is not None:
        model.set_state_dict(state)
    return model
