"""Programs written against paddle, one theme per module (see ``tests/programs``)."""
