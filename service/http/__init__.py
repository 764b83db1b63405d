"""The HTTP contract and its views: everything that knows a request, a status or a header.

- app.py: ``create_app``, the app factory (Flask, flask-smorest) over the process's ``Services``,
  and the contract's errors; services.py: ``services()``, what a view reaches, typed;
- api.py: the routes of games and operations; pictures.py: board pictures and /play
  (static/play/); docs.py: /docs; hooks.py: each request's id, access line and metrics, and
  /metrics;
- schemas.py: the request envelopes (marshmallow); contract.py: the title-dependent half of
  openapi.yaml; openapi.py: the document, generated from the app;
- problems.py: ``Problem``, and the tables giving play's and the engines' errors a status;
  errors.py: every error as problem+json; bearer.py: the seat token's header; jsonbody.py:
  which routes read a body (415 for one not declared JSON), bodies parsed strictly;
  bodylimit.py: chunked bodies bounded; ratelimit.py: which limits apply to a request, and the
  429;
- conditional.py: ETags of the replies' bytes, Cache-Control, Vary and If-None-Match (304);
- fastlane.py: GET moves and POST actions answered ahead of Flask, byte for byte as the views;
- sse.py: the live event stream; draining.py: a stop has begun (the streams end at once);
- cors.py: CORS headers on every answer (the outermost WSGI layer) and preflights;
- seats_api.py: join, leave, resign, abort and ``GET /lobby`` (over ``play.seats``);
- versions_api.py: ``GET /games/{id}/versions/{n}`` and its pictures (over ``play.versions``).

May import play/, store/, watch/, config and the engines. Only run/ imports it.
"""
