"""Running the processes: supervisor, embedded Redis, gunicorn settings, CLI, WSGI entry point."""
