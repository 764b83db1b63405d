"""The RQ side: the job functions RQ runs by their dotted path (jobs.py, webhooks.py), the sweeper
and the archiver (threads of each bot worker), the worker process (runner.py) and its metrics.

services.py holds the process's ``Services``, installed by its entry point (`skyline worker`,
skyline/cli.py) before the first job. May import play/, store/, archive/, watch/ and config; never
http/, run/ or skyline/ (above it)."""
