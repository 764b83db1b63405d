"""Information-set Monte Carlo tree search (single observer, Cowling, Powley & Whitehouse 2012).

One tree over the seat's information set: each iteration takes a determinization (a guess
of the hidden facts consistent with what the seat knows), walks the tree choosing among
the moves legal in that guess (UCB1 with availability counts), adds one node, plays a
short random rollout, and scores the position for every seat. Each node keeps the reward
of the seat that made its move, so opponents are modelled as playing for themselves.

Guesses are drawn once into a small pool and cycled, since drawing one costs more than an
iteration. A rollout stops after ``rollout_depth`` moves and the position is scored by the
game's evaluate (each seat's margin over its best rival, squashed to 0..1 on a scale learnt
during the search), or exactly from the result when the game ends.

Several independent trees may share the iterations and vote on the move with all their root
visits (root parallelisation): each has its own guesses and prior, so what one tree's few
guesses make it believe is averaged out (the hard level, docs/bots.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import orjson

from ..core import Move, State
from .greedy import best_reply
from .values import final_values, margins

_POOL_SIZE = 24
_PRIOR_WORLDS = 3
# Children are found by their move's text; every legal move of every node on the path is
# looked up at each iteration, and orjson writes a move five times faster than repr.
_key = orjson.dumps


class Node:
    __slots__ = ("avail", "children", "move", "reward", "sealed", "seat", "visits")

    def __init__(self, seat: int, move: Move | None) -> None:
        self.seat = seat
        self.move = move
        self.children: dict[bytes, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        # Where a round of simultaneous sealed choices begins here: per seat, the statistics
        # of its choice, shared by every path through the round (see _iterate).
        self.sealed: dict[int, Node] | None = None

    def sealed_choice(self, seat: int) -> Node:
        if self.sealed is None:
            self.sealed = {}
        chooser = self.sealed.get(seat)
        if chooser is None:
            chooser = self.sealed[seat] = Node(seat, None)
        return chooser


class _Scale:
    """The typical size of evaluate margins in this search, to squash them to 0..1.

    With ``centre`` (each seat's margin in the position searched), a margin is judged by how
    far it moves from there, on the typical size of such moves; without, from an even game
    on the typical size of the margins themselves.
    """

    __slots__ = ("centre", "count", "total")

    def __init__(self, centre: list[float] | None = None) -> None:
        self.total = 0.0
        self.count = 0
        self.centre = centre

    def observe(self, margin_values: list[float]) -> None:
        centre = self.centre
        for seat, value in enumerate(margin_values):
            self.total += abs(value - centre[seat]) if centre else abs(value)
            self.count += 1

    def squash(self, margin_values: list[float]) -> list[float]:
        scale = self.total / self.count if self.count and self.total else 1.0
        centre = self.centre
        if centre:
            return [
                0.5 + 0.5 * math.tanh((value - centre[seat]) / scale)
                for seat, value in enumerate(margin_values)
            ]
        return [0.5 + 0.5 * math.tanh(value / scale) for value in margin_values]


def _centre(worlds: list[State], judge: Callable[[State], list[float]]) -> list[float]:
    """Each seat's margin now, averaged over guesses of the hidden facts."""
    rows = [judge(world) for world in worlds]
    return [sum(column) / len(rows) for column in zip(*rows, strict=True)]


def _search_moves(state: State, seat: int) -> list[Move]:
    """The seat's legal moves, less those its game leaves out of searches (Game.search_moves)."""
    moves = state.legal_moves(seat)
    keep = state.game.search_moves
    return (keep(state, seat, moves) or moves) if keep is not None else moves


def _actor(state: State, root_seat: int, at_root: bool) -> int:
    acting = state.to_act()
    if at_root and root_seat in acting:
        return root_seat
    return acting[0]


def ismcts_move(
    state: State,
    seat: int,
    rng: random.Random,
    *,
    iterations: int = 400,
    out_of_time: Callable[[], bool] | None = None,
    rollout_depth: int = 4,
    exploration: float = 0.7,
    prior_visits: int = 0,
    centred: bool = False,
    searches: int = 1,
    greedy_rollouts: bool = False,
    sharp: bool = False,
    stats: dict[str, int] | None = None,
) -> Move:
    """The most visited move at the root after ``iterations``, or when ``out_of_time()``.

    ``centred`` judges every line by how far it moves each seat's margin from the position
    searched (``_Scale``), rather than from an even game. With ``searches`` above one, that
    many independent trees (each its own guesses of the hidden facts, its own prior) share
    the iterations in turn, and the move with most visits over all of them is played: a
    vote that averages out what one tree's few guesses make it believe. ``greedy_rollouts``
    plays each rollout move as the greedy bot would on the guess (one ply, the game's
    evaluate) rather than at random: rivals answer as players do, at several times the cost
    of an iteration. ``sharp`` judges positions with the game's sharper evaluation
    (values.margins), where it has one.
    """
    first = state.determinize(seat, rng)
    root_moves = first.legal_moves(seat)
    if len(root_moves) == 1:
        if stats is not None:
            stats["iterations"] = 0
        return root_moves[0]
    judge = _sharp_margins if sharp else margins
    trees = [_Tree(state, seat, rng, root_moves, first, prior_visits, centred, judge)]
    # Each tree seeds its prior over every root move; where there are hundreds, building
    # seven costs a good part of a turn, so the clock may leave fewer trees to vote.
    while len(trees) < searches and not (out_of_time is not None and out_of_time()):
        trees.append(_Tree(state, seat, rng, root_moves, None, prior_visits, centred, judge))
    done = 0
    while done < max(iterations, 1):
        if out_of_time is not None and done and out_of_time():
            break
        tree = trees[done % len(trees)]
        tree.iterate(done // len(trees), rng, rollout_depth, exploration, greedy_rollouts)
        done += 1
    if stats is not None:
        stats["iterations"] = done
    return _vote([tree.root for tree in trees])


def _sharp_margins(state: State) -> list[float]:
    return margins(state, sharp=True)


def _vote(roots: list[Node]) -> Move:
    """The root move with the most visits over all trees (ties: the most reward)."""
    votes: dict[bytes, tuple[int, float, Move | None]] = {}
    for root in roots:
        for key, child in root.children.items():
            visits, reward, move = votes.get(key, (0, 0.0, child.move))
            votes[key] = (visits + child.visits, reward + child.reward, move)
    move = max(votes.values(), key=lambda tally: (tally[0], tally[1]))[2]
    assert move is not None, "a root's child is a move"
    return move


class _Tree:
    """One search: its root, its pool of guesses of the hidden facts and its scale."""

    __slots__ = ("judge", "pool", "root", "scale", "seat", "state")

    def __init__(
        self,
        state: State,
        seat: int,
        rng: random.Random,
        root_moves: list[Move],
        first: State | None,
        prior_visits: int,
        centred: bool,
        judge: Callable[[State], list[float]] = margins,
    ) -> None:
        self.state = state
        self.judge = judge
        self.seat = seat
        self.pool = [first if first is not None else state.determinize(seat, rng)]
        self.root = Node(seat, None)
        if prior_visits or centred:
            while len(self.pool) < _PRIOR_WORLDS:
                self.pool.append(state.determinize(seat, rng))
        self.scale = _Scale(_centre(self.pool[:_PRIOR_WORLDS], judge) if centred else None)
        if prior_visits:
            moves = self.pool[0].legal_moves(seat) if first is None else root_moves
            worlds = self.pool[:_PRIOR_WORLDS]
            _seed_root(self.root, worlds, seat, moves, self.scale, prior_visits, rng, judge)

    def iterate(
        self, done: int, rng: random.Random, rollout_depth: int, exploration: float, greedy_rollouts: bool
    ) -> None:
        pool = self.pool
        if len(pool) < _POOL_SIZE:
            pool.append(self.state.determinize(self.seat, rng))
        world = pool[done % len(pool)].clone()
        _iterate(
            world,
            self.root,
            self.seat,
            rng,
            rollout_depth,
            exploration,
            self.scale,
            greedy_rollouts,
            self.judge,
        )


def _seed_root(
    root: Node,
    worlds: list[State],
    seat: int,
    moves: list[Move],
    scale: _Scale,
    visits: int,
    rng: random.Random,
    judge: Callable[[State], list[float]] = margins,
) -> None:
    """Start every root move with the greedy bot's opinion of it, worth ``visits`` visits.

    With a few hundred iterations spread over dozens of moves, UCB alone barely separates
    them; seeding each child with its one-ply value (averaged over a few guesses of the
    hidden facts) makes the search at least as good as the greedy bot and lets the
    iterations spend themselves on what follows.
    """
    # Per move, per world: the seat's final value where the move ends the game, else every
    # seat's margins, squashed once the scale has seen them all.
    outcomes: list[list[float | list[float]]] = []
    for move in moves:
        per_world: list[float | list[float]] = []
        for world in worlds:
            after = world.clone()
            after.apply_listed(seat, move)
            if after.is_over():
                per_world.append(final_values(after)[seat])
            else:
                values = judge(after)
                scale.observe(values)
                per_world.append(values)
        outcomes.append(per_world)
    for move, per_world in zip(moves, outcomes, strict=True):
        rewards = [
            scale.squash(outcome)[seat] if isinstance(outcome, list) else outcome for outcome in per_world
        ]
        child = Node(seat, move)
        child.visits = child.avail = visits
        # A speck of noise breaks ties at random, as the greedy bot does, not by listing order.
        child.reward = visits * (sum(rewards) / len(rewards) + 1e-9 * rng.random())
        root.children[_key(move)] = child
    root.visits = visits * len(moves)


def _iterate(
    world: State,
    root: Node,
    seat: int,
    rng: random.Random,
    rollout_depth: int,
    exploration: float,
    scale: _Scale,
    greedy_rollouts: bool = False,
    judge: Callable[[State], list[float]] = margins,
) -> None:
    node = root
    path = [root]
    # Simultaneous sealed choices (several seats to act, each blind to the others' choices):
    # a seat choosing after others in the same round must not choose knowing theirs, as it
    # would below their moves in the tree. Its statistics live at the round's first node,
    # shared by every path through the round; the tree below still follows each path.
    # Without this, the longer the search, the better rivals answer the searching seat's
    # sealed bid, as if they saw it.
    round_start: Node | None = None
    still_to_choose: set[int] = set()
    shared: list[Node] = []
    # Selection and expansion: descend while every legal move here has a child.
    while True:
        acting = world.to_act()
        if not acting:
            break
        if round_start is not None and set(acting) != still_to_choose:
            round_start = None
        if round_start is None and len(acting) > 1:
            round_start, still_to_choose = node, set(acting)
        actor = _actor(world, seat, node is root)
        moves = world.legal_moves(actor) if node is root else _search_moves(world, actor)
        chooser = node
        if round_start is not None:
            still_to_choose.discard(actor)
            if node is not round_start:
                chooser = round_start.sealed_choice(actor)
        children = chooser.children
        untried = []
        available = []
        for move in moves:
            key = _key(move)
            child = children.get(key)
            if child is None:
                untried.append((key, move))
            else:
                available.append(child)
        for child in available:
            child.avail += 1
        if untried:
            key, move = untried[rng.randrange(len(untried))]
            child = Node(actor, move)
            child.avail = 1
            children[key] = child
            world.apply_listed(actor, move)
            if chooser is not node:
                shared.append(child)
                child = node.children.get(key) or node.children.setdefault(key, Node(actor, move))
            path.append(child)
            break
        best, best_score = None, -1.0
        for child in available:
            score = child.reward / child.visits + exploration * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if score > best_score:
                best, best_score = child, score
        # Every move here has a child (none untried), each scoring above -1.
        assert best is not None and best.move is not None
        world.apply_listed(actor, best.move)
        if chooser is not node:
            shared.append(best)
            key = _key(best.move)
            best = node.children.get(key) or node.children.setdefault(key, Node(actor, best.move))
        node = best
        path.append(best)
    # Rollout: a few random (or greedy) moves — or, with ``rollout_depth`` negative, until
    # the searching seat is to act again (at most -rollout_depth moves) — then judge.
    depth = 0
    limit = abs(rollout_depth)
    while depth < limit:
        acting = world.to_act()
        if not acting or (rollout_depth < 0 and seat in acting):
            break
        actor = acting[rng.randrange(len(acting))]
        moves = _search_moves(world, actor)
        if greedy_rollouts and len(moves) > 1:
            move = best_reply(world, actor, moves, rng)
        else:
            move = moves[rng.randrange(len(moves))]
        world.apply_listed(actor, move)
        depth += 1
    if world.is_over():
        values = final_values(world)
    else:
        values = judge(world)
        scale.observe(values)
        values = scale.squash(values)
    for visited in path:
        visited.visits += 1
        if visited is not root:
            visited.reward += values[visited.seat]
    for visited in shared:
        visited.visits += 1
        visited.reward += values[visited.seat]
