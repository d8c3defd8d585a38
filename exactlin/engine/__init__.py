"""The engine: each loop of the iterative rules written once, over interchangeable exact representations."""
