"""The generator versions (see ``conformance.generator``)."""
