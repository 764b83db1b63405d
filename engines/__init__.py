"""Skyline's game engines: pure rules, no I/O. See engines/registry.py for the games."""
