"""The engine: the loops of the iterative algorithms, each written once, over interchangeable exact arithmetics."""

from exactlin.engine import arith_flint  # noqa: E402,F401  (registers "flint"; python-flint is imported on first use)
