"""Layer 7, the lecture content: the worked examples of the five notes with their checks
(:mod:`~exactlin.lectures.examples`), the errata (:mod:`~exactlin.lectures.errata`) and the symbolic
derivations (:mod:`~exactlin.lectures.derivations`)."""
