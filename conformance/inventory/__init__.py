"""The API inventory: which torch and paddle APIs real code calls, and what the facades do with
each (``scan`` counts them in bodies of code, ``status`` classifies them, ``coverage`` writes
``docs/api-coverage.md``)."""
