"""Running cases: backends and their dialect adapters, the interpreter that turns a case into a
trace of observations, and the isolated processes that run them."""
