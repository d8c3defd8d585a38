"""The engine: the loops of the iterative algorithms, each written once, over interchangeable exact arithmetics."""
