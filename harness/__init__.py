"""What the tests and the benchmarks both need to run Skyline for real: free ports, waiting for a
server, child processes with their output in files, gunicorn's command line. Development only
(neither packaged nor in the image); it imports nothing of tests/ or bench/.
"""
