"""The use cases: create, show, list, act, record (and, to come, the lobby and the clocks).

- games.py: ``Games``, every use case over a ``GameStore``; the worker plays bot seats through
  ``act`` exactly as a client does;
- versions.py: ``Versions``, any version as it stood (replayed through the engine from the
  setup, a checkpoint or the archive's snapshot), redacted for its reader as a read then was;
- seats.py: ``Seats``, open seats: join, leave, resign (stand-in bots), abort, and the lobby;
- results.py: a game's result with its resignations (the resigned ranked last);
- deadlines.py: a game's clock and its seats' deadlines, computed; clocks.py: ``Clocks``, what
  the workers' sweeper does when a deadline passes (a stand-in move, or a resignation);
- times.py: ``rfc3339``, the one spelling of a time in a reply or a notice (UTC, ``Z``);
- auth.py: seat tokens, made, hashed and matched to a seat;
- webhooks.py: which URLs may receive notices, their secrets, what a committed version announces;
  webhook_addresses.py: which addresses may (an IPv6 judged by the IPv4 it embeds);
- repository.py: ``GameRepository``, the one place that reads a game wherever it lives (Redis,
  then the archive once Redis has let it go): the game, its log, the archive's snapshots;
- replay.py: the one replay, a game's setup and its log's moves through its own rules;
- archiving.py: an ended game as the archive keeps it (``ArchivedGame``), snapshots replayed;
- replays.py: an archived game replayed by its engine: its record, and the states an import
  keeps, checked against the result it is said to reach (`skyline import`);
- services.py: ``Services``, a process's use cases and stores as one typed value (built by
  skyline/compose.py; named here, so that http/ and worker/ can be given it);
- errors.py: the refusals, one class per reason (not found, stale version, bad token, ...),
  each with a stable code. The engines' ``RulesError`` (an illegal move, not your turn, game
  over) passes through as it is.

No Flask and no HTTP: a refusal is an exception, never a status (http/ gives it one). May import
store/, archive/, watch/, config and the engines.
"""
