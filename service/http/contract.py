"""The title-dependent half of the OpenAPI contract, built from the games' own JSON Schemas.

Every reply that depends on the title names it (``title``), and is a ``oneOf`` of one named
component per title with a ``discriminator`` on ``title``; inside a title, a move is a ``oneOf``
of one component per move ``type`` with a ``discriminator`` on ``type``. So a generated client
reads a reply into the model of its own title and move type, never into another's.

The games' schemas (``engines/<game>/*.schema.json``) are written for people and validators;
code generators need a little more, added here rather than in every file:

- ``const`` and ``enum`` without a ``type`` get one (``"gedeon"`` in a number-or-constant choice
  is a string), and such a constant becomes a one-value ``enum``: generators misread untyped
  constants, and parse a ``const`` branch of a union without trying the others.
- ``$defs``, move branches and objects nested in a schema become named components
  (``FifthAvenueViewAuction``), so generated models have stable names.
"""

from __future__ import annotations

import http
import json
import re
from pathlib import Path
from typing import Any

from engines import registry
from engines.bots import LEVELS

REF = "#/components/schemas/"


def pascal(text: str) -> str:
    return "".join(word[:1].upper() + word[1:] for word in re.split(r"[^A-Za-z0-9]+", text) if word)


def component_name(game_id: str, part: str) -> str:
    return pascal(game_id) + part


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"oneOf": [schema, {"type": "null"}]}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    raise ValueError(f"no JSON type for {value!r}")


class Components:
    """Named schemas collected while the games' schemas are split into components."""

    def __init__(self) -> None:
        self.schemas: dict[str, dict[str, Any]] = {}

    def add(self, name: str, schema: dict[str, Any]) -> dict[str, str]:
        if name in self.schemas and self.schemas[name] != schema:
            raise ValueError(f"two different schemas want the component name {name}")
        self.schemas[name] = schema
        return ref(name)

    def split(self, name: str, schema: dict[str, Any]) -> dict[str, Any]:
        """Return ``schema`` with its ``$defs`` and nested objects turned into components."""
        return self.nest(name, self.definitions(name, schema), root=True)

    def definitions(self, name: str, schema: dict[str, Any]) -> dict[str, Any]:
        """Return ``schema`` typed, with its ``$defs`` turned into components ``<name><Def>``."""
        schema = {k: v for k, v in schema.items() if k not in ("$schema", "title")}
        definitions = schema.pop("$defs", {})
        def_names = {key: name + pascal(key) for key in definitions}

        def rewrite_refs(node: Any) -> Any:
            if isinstance(node, dict):
                target = node.get("$ref")
                if isinstance(target, str) and target.startswith("#/$defs/"):
                    return {**node, "$ref": REF + def_names[target[len("#/$defs/") :]]}
                return {key: rewrite_refs(value) for key, value in node.items()}
            if isinstance(node, list):
                return [rewrite_refs(item) for item in node]
            return node

        for key, definition in definitions.items():
            self.add(def_names[key], self.nest(def_names[key], typed(rewrite_refs(definition)), root=True))
        return typed(rewrite_refs(schema))

    def nest(self, name: str, node: Any, root: bool = False) -> Any:
        """Hoist every object with properties below the root into a component named by its path."""
        if not isinstance(node, dict):
            return node
        node = dict(node)
        if isinstance(node.get("properties"), dict):
            node["properties"] = {
                key: self.nest(name + pascal(key), value) for key, value in node["properties"].items()
            }
        if isinstance(node.get("items"), dict):
            node["items"] = self.nest(name + "Item", node["items"])
        if isinstance(node.get("additionalProperties"), dict):
            node["additionalProperties"] = self.nest(name + "Value", node["additionalProperties"])
        for keyword in ("oneOf", "anyOf", "allOf"):
            if isinstance(node.get(keyword), list):
                objects = [b for b in node[keyword] if isinstance(b, dict) and "properties" in b]
                node[keyword] = [
                    self.nest(name if len(objects) == 1 else f"{name}{index}", branch)
                    if branch in objects
                    else self.nest(name, branch, root=True)
                    for index, branch in enumerate(node[keyword])
                ]
        if not root and node.get("type") == "object" and "properties" in node:
            return self.add(name, node)
        return node


def typed(node: Any) -> Any:
    """Give every ``const`` and ``enum`` the JSON type of its values."""
    if isinstance(node, list):
        return [typed(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: typed(value) for key, value in node.items()}
    for keyword in ("oneOf", "anyOf"):
        if isinstance(node.get(keyword), list):
            # A constant among other choices (a seat or "gedeon", a die or "black") as a one-value
            # enum: generators parse a bare const branch without trying the others.
            node[keyword] = [
                {**{k: v for k, v in branch.items() if k != "const"}, "enum": [branch["const"]]}
                if isinstance(branch, dict) and "const" in branch
                else branch
                for branch in node[keyword]
            ]
    if "type" not in node and ("const" in node or "enum" in node):
        values = [node["const"]] if "const" in node else node["enum"]
        types = sorted(
            {_json_type(v) for v in values}, key=["string", "integer", "number", "boolean", "null"].index
        )
        node = {"type": types[0] if len(types) == 1 else types, **node}
    return node


# ---- the games' parts -----------------------------------------------------------------------


def _tagged_by_type(components: Components, game_id: str, part: str, schema: dict[str, Any]) -> None:
    """``<Title><Part>``: one component per ``type`` (``<Title><Type><Part>``), tagged by ``type``."""
    name = component_name(game_id, part)
    schema = components.definitions(name, schema)
    mapping = {}
    branches = []
    for branch in schema.pop("oneOf"):
        kind = branch["properties"]["type"]["const"]
        branch_name = component_name(game_id, pascal(kind) + part)
        branches.append(components.add(branch_name, components.nest(branch_name, branch, root=True)))
        mapping[kind] = REF + branch_name
    components.add(
        name,
        {
            **{k: v for k, v in schema.items() if k != "description"},
            "description": schema.get("description")
            or f"A {part.lower()} of {registry.GAMES[game_id].title}, told apart by its `type`.",
            "oneOf": branches,
            "discriminator": {"propertyName": "type", "mapping": mapping},
        },
    )


def _moves(components: Components, game_id: str) -> None:
    _tagged_by_type(components, game_id, "Move", registry.GAMES[game_id].move_schema)


def _events(components: Components, game_id: str) -> None:
    """``<Title>Event``: the title's events (``engines/<game>/events.schema.json``), by ``type``.

    Fields beyond those described may be added (``additionalProperties``), as the design allows."""
    game = registry.GAMES[game_id]
    own = json.loads((Path(game.folder) / "events.schema.json").read_text(encoding="utf-8"))
    for branch in own["oneOf"]:
        if branch["properties"]["type"].get("const") == "game_over":
            # The result the game ended with: the title's own result component, not a copy.
            branch["properties"]["result"] = ref(component_name(game_id, "Result"))
    _tagged_by_type(components, game_id, "Event", own)
    # The service's own events (seats and time), the same in every title's log.
    union = components.schemas[component_name(game_id, "Event")]
    for kind, name in SERVICE_EVENTS.items():
        union["oneOf"].append(ref(name))
        union["discriminator"]["mapping"][kind] = REF + name


# The service's events, in the log and the stream of every title beside the title's own: seat
# changes have a log entry of their own (no `move`). Webhooks name them `seat.joined`, ... .
SERVICE_EVENTS = {
    "seat_joined": "SeatJoinedEvent",
    "seat_left": "SeatLeftEvent",
    "game_started": "GameStartedEvent",
    "game_aborted": "GameAbortedEvent",
    "game_expired": "GameExpiredEvent",
    "seat_resigned": "SeatResignedEvent",
    "turn_timed_out": "TurnTimedOutEvent",
}


def _service_events(components: Components) -> None:
    seat = {"type": "integer", "minimum": 0}
    shapes: dict[str, tuple[str, dict[str, Any], list[str]]] = {
        "seat_joined": (
            "A player took an open seat.",
            {"seat": seat, "name": {"type": "string", "description": "The player's name, if any."}},
            ["seat"],
        ),
        "seat_left": (
            "A player gave a seat back before the start: it is open again.",
            {"seat": seat},
            ["seat"],
        ),
        "game_started": ("The last open seat was taken: the game is under way.", {}, []),
        "turn_timed_out": (
            "The seat's time ran out: the stand-in bot's move follows in the same entry, or its resignation.",
            {"seat": seat, "deadline": {"type": "string", "format": "date-time"}},
            ["seat"],
        ),
        "seat_resigned": (
            "A player resigned: with two seats the game is over, else a stand-in bot plays the seat.",
            {"seat": seat, "stand_in": {"type": "string", "description": "The stand-in bot's level."}},
            ["seat"],
        ),
        "game_aborted": (
            "A seated player aborted the game: it ends with no result.",
            {"seat": seat},
            ["seat"],
        ),
        "game_expired": (
            "The game was left idle too long (SKYLINE_GAME_TTL_SECONDS after its last move, or the"
            " lobby's lifetime after its creation while it waited): it ends with no result.",
            {"idle_since": {"type": "string", "format": "date-time"}},
            ["idle_since"],
        ),
    }
    for kind, (description, properties, required) in shapes.items():
        components.add(
            SERVICE_EVENTS[kind],
            {
                "type": "object",
                "description": description,
                "required": ["type", *required],
                "properties": {"type": {"type": "string", "enum": [kind]}, **properties},
            },
        )


def _result(components: Components, game_id: str) -> None:
    """``<Title>Result``: the common fields, each seat's breakdown and the title's own facts of the
    end, from ``engines/<game>/result.schema.json``."""
    game = registry.GAMES[game_id]
    own = json.loads((Path(game.folder) / "result.schema.json").read_text(encoding="utf-8"))
    name = component_name(game_id, "Result")
    combined = {
        "$defs": {**own.get("$defs", {}), "breakdown": own["breakdown"]},
        "type": "object",
        "description": "Scores, ranks (1 = best, ties share) and the breakdown of each seat's score.",
        # The title's own facts of the end are there when the rules reached it: a game of two
        # seats ended by a resignation has none (nor scores or a breakdown).
        "required": ["scores", "ranks", "winners", "breakdown", "reason"],
        "properties": {
            "scores": {
                "type": "array",
                "items": {"type": "number"},
                "description": "Per seat; empty when a resignation ended the game before the rules did.",
            },
            "ranks": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1},
                "description": "Per seat; resigned seats last, in the order they resigned.",
            },
            "winners": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "breakdown": {
                "type": "array",
                "items": {"$ref": "#/$defs/breakdown"},
                "description": "Per seat; empty when a resignation ended the game before the rules did.",
            },
            "reason": {
                "type": "string",
                "description": "Why the game ended: the rules' reason, or `resignation` (two seats, "
                "one resigned).",
            },
            "resigned": {
                "type": "array",
                "items": {"type": "boolean"},
                "description": "Per seat: whether its player resigned (only when one did).",
            },
            **own.get("properties", {}),
        },
        "additionalProperties": False,
    }
    components.add(name, components.split(name, combined))


STATUS = {
    "type": "string",
    "enum": ["waiting", "active", "finished", "aborted", "expired"],
    "description": "`waiting` for players to join open seats, `active`, `finished`, `aborted` "
    "(no result), or `expired` (left idle too long: no result).",
}
SEATS_LIST = {"type": "array", "items": {"type": "integer", "minimum": 0}}


def _replies(components: Components, game_id: str) -> None:
    """The per-title replies: each names its title and holds that title's moves, views, events."""

    def c(part: str) -> str:
        return component_name(game_id, part)

    title = {"type": "string", "const": game_id, "description": "The game's title (catalog id)."}
    options = ref(c("Options"))
    result = nullable(ref(c("Result")))
    replies: dict[str, tuple[list[str], dict[str, Any]]] = {
        "GameCreated": (
            ["id", "title", "version", "status", "to_act", "options", "seats", "human_seats"],
            {
                "id": {"type": "string"},
                "title": title,
                "version": {"type": "integer", "minimum": 0},
                "status": STATUS,
                "to_act": SEATS_LIST,
                "options": options,
                "seats": {"type": "array", "items": ref("NewSeat")},
                "human_seats": {
                    "type": "array",
                    "items": ref("HumanSeat"),
                    "description": "The human seats in seat order, each with its token (also in `seats`).",
                },
                "webhook_secret": {
                    "type": "string",
                    "pattern": "^whsec_",
                    "description": "With `webhooks`: the secret that signs their notices, shown once; "
                    "also the credential of GET /games/{id}/webhooks/deliveries for them.",
                },
            },
        ),
        "LobbyGame": (
            ["id", "title", "options", "seats", "open_seats", "created"],
            {
                "id": {"type": "string"},
                "title": title,
                "options": options,
                "seats": {"type": "array", "items": ref("Seat")},
                "open_seats": {**SEATS_LIST, "description": "The seats one may join."},
                "created": {
                    "type": "string",
                    "format": "date-time",
                    "description": "When the game was created (RFC 3339, UTC, with `Z`).",
                },
            },
        ),
        "Game": (
            ["id", "title", "rules_version", "version", "status", "to_act", "you", "options", "seats", "view"]
            + ["result"],
            {
                "id": {"type": "string"},
                "title": title,
                "rules_version": {"type": "integer"},
                "version": {"type": "integer", "minimum": 0},
                "status": STATUS,
                "to_act": SEATS_LIST,
                "you": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "Your seat; null = spectator.",
                },
                "options": options,
                "seats": {"type": "array", "items": ref("Seat")},
                "view": {**ref(c("View")), "description": "What you may see."},
                "result": result,
                "clock": {
                    **ref("GameClock"),
                    "description": "Games with a clock: the clock as set at creation, defaults filled in.",
                },
                "deadlines": ref("Deadlines"),
                "rematch": {
                    "type": "string",
                    "description": "A finished game whose rematch a player asked for: the rematch's id "
                    "(POST /games/{id}/rematch with your seat token takes your seat in it).",
                },
            },
        ),
        "ListedMove": (
            ["move", "label"],
            {"move": ref(c("Move")), "label": {"type": "string", "description": "For display."}},
        ),
        "Moves": (
            ["title", "version", "seat", "to_act", "moves"],
            {
                "title": title,
                "version": {"type": "integer", "minimum": 0},
                "seat": {"type": ["integer", "null"], "minimum": 0, "description": "Your seat."},
                "to_act": SEATS_LIST,
                "moves": {"type": "array", "items": ref(c("ListedMove"))},
                "deadlines": ref("Deadlines"),
            },
        ),
        "ActionResult": (
            ["title", "version", "seat"],
            {
                "title": title,
                "version": {"type": "integer", "minimum": 0},
                "seat": {"type": "integer", "minimum": 0},
                "move": {
                    **ref(c("Move")),
                    "description": "The move as applied: the one sent, or the listed move it is the "
                    "rules' equivalent of (Property: a 10 played beside the 9 of its suit is the 9).",
                },
                "status": STATUS,
                "to_act": SEATS_LIST,
                "events": {"type": "array", "items": ref(c("Event"))},
                "view": ref(c("View")),
                "result": result,
                "replayed": {"type": "boolean", "description": "True when an Idempotency-Key replay."},
                "valid": {"type": "boolean", "description": "Dry runs: the move would be accepted."},
            },
        ),
        "LogEntry": (
            ["version", "seat", "events"],
            {
                "version": {"type": "integer", "minimum": 1},
                "seat": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "The seat that made the entry; null: the service (an idle game's expiry).",
                },
                "move": {
                    **ref(c("Move")),
                    "description": "Shown to the seat that moved, and to all once the game is over.",
                },
                "events": {"type": "array", "items": ref(c("Event"))},
                "deadlines": {
                    **ref("Deadlines"),
                    "description": "Games with a clock: as this entry left them.",
                },
            },
        ),
        "Events": (
            ["title", "version", "status", "events"],
            {
                "title": title,
                "version": {"type": "integer", "minimum": 0},
                "status": STATUS,
                "events": {"type": "array", "items": ref(c("LogEntry"))},
            },
        ),
        "RecordMove": (
            ["seat", "move"],
            {"seat": {"type": "integer", "minimum": 0}, "move": ref(c("Move"))},
        ),
        "Record": (
            ["id", "title", "rules_version", "seats", "options", "seed", "moves", "result"],
            {
                "id": {"type": "string"},
                "title": title,
                "rules_version": {"type": "integer"},
                "seats": {"type": "array", "items": ref("Seat")},
                "options": options,
                "seed": {"type": "integer", "minimum": 0},
                "moves": {"type": "array", "items": ref(c("RecordMove"))},
                "result": ref(c("Result")),
            },
        ),
    }
    game_required, game_properties = replies["Game"]
    replies["GameVersion"] = (
        [*game_required, "entry"],
        {
            **{k: v for k, v in game_properties.items() if k != "rematch"},  # of now, not of then
            "entry": {
                **nullable(ref(c("LogEntry"))),
                "description": "The log entry that made this version, as you saw it then (null: version 0).",
            },
        },
    )
    for part, (required, properties) in replies.items():
        components.add(
            c(part),
            {"type": "object", "required": required, "properties": properties, "additionalProperties": False},
        )


TAGGED_REPLIES = (
    "GameCreated",
    "Game",
    "GameVersion",
    "Moves",
    "ActionResult",
    "Events",
    "Record",
    "LobbyGame",
)


def _tagged(part: str) -> dict[str, Any]:
    ids = sorted(registry.GAMES)
    return {
        "description": "Told apart by `title`.",
        "oneOf": [ref(component_name(g, part)) for g in ids],
        "discriminator": {
            "propertyName": "title",
            "mapping": {g: REF + component_name(g, part) for g in ids},
        },
    }


def _shared(components: Components) -> None:
    seat = {
        "seat": {"type": "integer", "minimum": 0},
        "kind": {"type": "string", "enum": ["human", "bot", "open"], "description": "`open`: not taken yet."},
        "name": {"type": "string"},
        "bot": {"type": "string", "description": "Bot seats: the strategy."},
        "level": {"type": "string", "description": "Bot seats: the level."},
        "resigned": {
            "type": "boolean",
            "description": "Its player resigned: a stand-in bot plays it (kind `bot`), or the game ended.",
        },
    }
    components.add(
        "Seat",
        {"type": "object", "required": ["seat", "kind"], "properties": seat, "additionalProperties": False},
    )
    components.add(
        "NewSeat",
        {
            "type": "object",
            "required": ["seat", "kind"],
            "properties": {
                **seat,
                "token": {"type": "string", "description": "Secret seat token (human seats); shown once."},
            },
            "additionalProperties": False,
        },
    )
    components.add(
        "HumanSeat",
        {
            "type": "object",
            "required": ["seat", "token"],
            "properties": {
                "seat": {"type": "integer", "minimum": 0},
                "token": {
                    "type": "string",
                    "description": "`Authorization: Bearer <token>` plays this seat.",
                },
            },
            "additionalProperties": False,
        },
    )


def game_components() -> dict[str, dict[str, Any]]:
    components = Components()
    _shared(components)
    components.add("Deadlines", DEADLINES)
    _service_events(components)
    for game_id in sorted(registry.GAMES):
        game = registry.GAMES[game_id]
        _moves(components, game_id)
        view, view_name = game.view_schema, component_name(game_id, "View")
        if "options" in view.get("properties", {}):
            # A view's options are the title's options: the component requests use too.
            options = ref(component_name(game_id, "Options"))
            view = {**view, "properties": {**view["properties"], "options": options}}
        components.add(view_name, components.split(view_name, view))
        components.add(
            component_name(game_id, "Options"),
            components.split(component_name(game_id, "Options"), game.options_schema),
        )
        _events(components, game_id)
        _result(components, game_id)
        _replies(components, game_id)
    for part in TAGGED_REPLIES:
        components.add(part, _tagged(part))
    return components.schemas


def add_game_schemas(spec: Any) -> None:
    for name, schema in game_components().items():
        spec.components.schema(name, schema)


def use_items(spec: Any, component: str, field: str, items: str) -> None:
    """Point a list field of a marshmallow component at a contract component (a tagged union)."""
    spec.components.schemas[component]["properties"][field]["items"] = ref(items)


def use_results(spec: Any, component: str, field: str) -> None:
    """Point a result field of a marshmallow component at the titles' results (any one of them,
    or null): a listing of games of every title ("my games")."""
    results = [ref(component_name(game_id, "Result")) for game_id in sorted(registry.GAMES)]
    spec.components.schemas[component]["properties"][field] = {"anyOf": [*results, {"type": "null"}]}


def use_replies(spec: Any, replies: dict[tuple[str, str, str], str]) -> None:
    """Point responses at the tagged unions: ``{(path, method, status): component}``."""
    for (path, method, status), name in replies.items():
        response = spec._paths[path][method]["responses"][status]
        # JSON first: generators type an operation by its first media type (the event stream
        # of GET /events is the alternative).
        others = {k: v for k, v in response.get("content", {}).items() if k != "application/json"}
        response["content"] = {"application/json": {"schema": ref(name)}, **others}


def add_links(spec: Any, path: str, method: str, status: str, links: dict[str, Any]) -> None:
    """Attach OpenAPI links to a response (flask-smorest's doc merge would drop its content)."""
    spec._paths[path][method]["responses"][status]["links"] = links


def name_error_responses(spec: Any, names: dict[int, str]) -> None:
    """Point flask-smorest's automatic error responses (named after ``http.HTTPStatus``, whose
    names change between Python versions) at our fixed, version-independent names."""
    by_status_name = {http.HTTPStatus(code).name: name for code, name in names.items()}
    for operations in spec._paths.values():
        for operation in operations.values():
            responses = operation.get("responses", {}) if isinstance(operation, dict) else {}
            for status, response in list(responses.items()):
                if isinstance(response, str) and response in by_status_name:
                    responses[status] = by_status_name[response]
                elif isinstance(response, dict) and "$ref" in response:
                    name = response["$ref"].rsplit("/", 1)[-1]
                    if name in by_status_name:
                        responses[status] = {"$ref": f"#/components/responses/{by_status_name[name]}"}


def create_game_schema() -> dict[str, Any]:
    """The body of POST /games, exact per title: its seat counts and its options."""
    variants = {}
    for game_id in sorted(registry.GAMES):
        game = registry.GAMES[game_id]
        variants[component_name(game_id, "CreateGameRequest")] = {
            "type": "object",
            "description": f"A new game of {game.title}.",
            "required": ["title", "seats"],
            "additionalProperties": False,
            "properties": {
                "title": {"type": "string", "const": game_id},
                "seats": {
                    "type": "array",
                    "minItems": game.min_seats,
                    "maxItems": game.max_seats,
                    "items": ref("SeatRequest"),
                },
                "options": ref(component_name(game_id, "Options")),
                "seed": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 2**63 - 1,
                    "description": "Seed of all chance; random when omitted. Secret until the end. "
                    "Refused in a game with open seats (422 seed_with_open_seats).",
                },
                "clock": ref("GameClock"),
                "webhooks": {
                    "type": "array",
                    "maxItems": 5,
                    "items": ref("WebhookRequest"),  # service/http/schemas.py
                    "description": "Endpoints told of the game's notices (signed, Standard Webhooks); the "
                    "reply's `webhook_secret` (shown once) signs them. docs/notify-your-app.md.",
                },
                "stand_in": {
                    "type": "string",
                    "enum": list(LEVELS),
                    "description": "Level of the bot that plays a resigned seat to the end (default greedy).",
                },
                "listed": {
                    "type": "boolean",
                    "default": False,
                    "description": "Show the game in GET /lobby while it waits for players (else it is "
                    "joined by its id, a link).",
                },
            },
        }
    return variants


CLOCK = {
    "type": "object",
    "description": "Turn deadlines: every human seat to act has `turn_seconds` to act; when they run out, "
    "with no client request, the server plays the turn with the stand-in bot or resigns the seat.",
    "required": ["turn_seconds"],
    "additionalProperties": False,
    "properties": {
        "turn_seconds": {"type": "integer", "minimum": 10, "maximum": 14 * 24 * 3600},
        "on_timeout": {
            "type": "string",
            "enum": ["stand_in", "resign"],
            "default": "stand_in",
            "description": "`stand_in`: the stand-in bot plays that one turn (the seat stays human; "
            "after `timeouts_to_resign` timeouts in a row it resigns). `resign`: the seat resigns.",
        },
        "timeouts_to_resign": {"type": "integer", "minimum": 1, "maximum": 100, "default": 3},
    },
    "example": {"turn_seconds": 86400, "on_timeout": "stand_in", "timeouts_to_resign": 3},
}
DEADLINES = {
    "type": "object",
    "description": "Games with a clock: each human seat to act (by number) and when its time runs out "
    "(RFC 3339, UTC, with `Z`: `2026-12-02T14:25:39Z`).",
    "additionalProperties": {"type": "string", "format": "date-time"},
    "example": {"1": "2026-12-02T14:25:39Z"},
}


def document_requests(spec: Any) -> None:
    spec.components.schema("GameClock", CLOCK)
    variants = create_game_schema()
    for name, schema in variants.items():
        spec.components.schema(name, schema)
    spec.components.schema(
        "CreateGameRequest",
        {
            "description": "Told apart by `title`.",
            "oneOf": [ref(name) for name in variants],
            "discriminator": {
                "propertyName": "title",
                "mapping": {g: REF + component_name(g, "CreateGameRequest") for g in sorted(registry.GAMES)},
            },
        },
    )
    body = spec._paths["/games"]["post"]["requestBody"]["content"]["application/json"]
    body["schema"] = ref("CreateGameRequest")
    spec.components.schema(
        "ActionRequest",
        {
            "type": "object",
            "required": ["move"],
            "additionalProperties": False,
            "properties": {
                "move": {
                    "description": "One move, exactly as listed by GET /games/{id}/moves (a move of the "
                    "game's title).",
                    "anyOf": [ref(component_name(g, "Move")) for g in sorted(registry.GAMES)],
                },
                "version": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "The version the move was chosen at; a stale one gets 409. "
                    "Without it the move is judged against the current state.",
                },
            },
        },
    )
    body = spec._paths["/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"]
    body["schema"] = ref("ActionRequest")
    # The marshmallow schemas that validate these bodies, replaced above by exact ones.
    for name in ("CreateGame", "Action", "Clock"):
        spec.components.schemas.pop(name, None)
