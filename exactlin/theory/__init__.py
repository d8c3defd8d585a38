"""Layer 4: margins, radius, the convergence monitor, certificates and their verifiers.

A verifier never reuses the code that produced what it checks.
"""
