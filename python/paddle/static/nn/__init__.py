"""paddle.static.nn: layers as functions that create their parameters in the program."""
