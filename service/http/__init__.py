"""The HTTP contract and its views: the app factory, routes, schemas, problem details."""
