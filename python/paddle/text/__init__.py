"""paddle.text: Viterbi decoding of linear-chain CRFs (viterbi.py)."""
from .viterbi import ViterbiDecoder, viterbi_decode  # noqa: F401

__all__ = ["ViterbiDecoder", "viterbi_decode"]
