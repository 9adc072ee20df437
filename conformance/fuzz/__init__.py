"""The fuzzer: fresh programs beyond the fixed corpus (``explore``), each new kind of failure
shrunk to a minimal case (``shrink``) and saved (``conformance.fuzz.report``)."""
