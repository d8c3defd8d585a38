"""Layer 3, the records: the :class:`~exactlin.model.run.Run` every algorithm returns, its trace steps,
the declared parameter tables (:mod:`~exactlin.model.params`), prediction models and typed certificates."""
