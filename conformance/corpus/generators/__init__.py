"""The generator versions (see ``conformance.corpus.generator``)."""
