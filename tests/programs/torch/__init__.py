"""Programs written against torch, one theme per module (see ``tests/programs``)."""
