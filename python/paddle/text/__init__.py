"""paddle.text: the text datasets (datasets/) and Viterbi decoding of linear-chain CRFs
(viterbi.py)."""
from . import datasets  # noqa: F401
from .datasets import Conll05st, Imdb, Imikolov, Movielens, UCIHousing, WMT14, WMT16  # noqa: F401
from .viterbi import ViterbiDecoder, viterbi_decode  # noqa: F401

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "ViterbiDecoder",
           "WMT14", "WMT16", "viterbi_decode"]
