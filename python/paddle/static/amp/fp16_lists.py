"""paddle.static.amp.AutoMixedPrecisionLists: the white and black op lists of static AMP, Paddle's
for the dtype (paddle.amp.amp_lists) with the custom entries moved across."""
from ...amp import amp_lists
from ...amp.auto_cast import _dtype_name

__all__ = ["AutoMixedPrecisionLists", "CustomOpLists"]


class AutoMixedPrecisionLists:
    """The op types an AMP program runs in the low dtype (white_list) and in float32
    (black_list); the others follow their inputs. custom_white_list / custom_black_list move op
    types from one list to the other (both naming one is a ValueError). custom_black_varnames
    names variables whose ops stay in float32."""

    def __init__(self, custom_white_list=None, custom_black_list=None,
                 custom_black_varnames=None, dtype="float16"):
        self.amp_dtype = _dtype_name(dtype)
        self._custom_white_list = custom_white_list
        self._custom_black_list = custom_black_list
        self.white_list = set(amp_lists.white_list()[self.amp_dtype]["O1"])
        self.black_list = set(amp_lists.black_list()[self.amp_dtype]["O1"])
        self.gray_list = set()
        self.unsupported_list = set()
        self.black_varnames = set(custom_black_varnames or ())
        self._update_list()

    def _update_list(self):
        white = set(self._custom_white_list or ())
        black = set(self._custom_black_list or ())
        overlap = white & black
        if overlap:
            raise ValueError(f"The given custom_white_list overlaps custom_black_list with "
                             f"< {sorted(overlap)[0]} >!")
        self.white_list = (self.white_list - black) | white
        self.black_list = (self.black_list - white) | black
        self.unsupported_list |= black


CustomOpLists = AutoMixedPrecisionLists
