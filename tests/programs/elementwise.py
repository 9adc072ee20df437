"""Elementwise functions both facades have beyond the case vocabulary's; the torch and the paddle
programs of ``operations.py`` each run all of them."""

MORE_ELEMENTWISE = ("tan", "sinh", "cosh", "atan", "asin", "acos", "log1p", "expm1", "log2", "log10",
                    "reciprocal", "rsqrt", "erf")
