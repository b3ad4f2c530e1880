"""paddle.text.viterbi_decode and paddle.text.ViterbiDecoder: the best tag paths of a
linear-chain CRF, on the `viterbi_decode` op (paddle/ops/yaml/decode.yaml). Written by hand
because Paddle's function takes `name` and checks include_bos_eos_tag's type, and the layer holds
its transitions."""
from .. import _C_ops
from ..nn.layer.layers import Layer

__all__ = ["ViterbiDecoder", "viterbi_decode"]


def viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag=True,
                   name=None):
    """The highest scoring tag sequence of each of B sequences: potentials [B, T, N] (emission
    scores, float32 or float64), transition_params [N, N] (the score of moving from the row tag
    to the column tag), lengths [B] (int64). With include_bos_eos_tag the last two tags are the
    stop and start tags. Returns scores [B] and path [B, max(lengths)] (int64, 0 past each
    sequence's length)."""
    if not isinstance(include_bos_eos_tag, bool):
        raise TypeError("viterbi_decode: argument 'include_bos_eos_tag' must be a bool, received "
                        f"{type(include_bos_eos_tag).__name__}")
    return _C_ops.viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag)


class ViterbiDecoder(Layer):
    """viterbi_decode with fixed transitions [N, N]: forward(potentials, lengths) -> (scores,
    path)."""

    def __init__(self, transitions, include_bos_eos_tag=True, name=None):
        super().__init__()
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potentials, lengths):
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag,
                              self.name)
