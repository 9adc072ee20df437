"""Torch- and paddle-shaped frameworks the project judges as built-in backends (subjects)."""
