"""exactlin's benchmark suite: every workload of issue 7 against its anchors, in one process.

Run ``python -m benchmarks.run`` (``--smoke`` for a seconds-long check at tiny sizes).
"""
