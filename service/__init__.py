"""Skyline's HTTP service, in rooms: http/, play/, store/, run/, watch/ (docs/architecture.md)."""
