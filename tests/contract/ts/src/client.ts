// Compiled by tests/contract/test_typescript.py against types generated from openapi.yaml.
import type { components } from "../generated/skyline";

type Schemas = components["schemas"];

// Fifth Avenue: a move of one type, the listing and the view of the title.
export const bid: Schemas["FifthAvenueBidMove"] = { type: "bid" };
export const build: Schemas["FifthAvenueMove"] = { type: "build", count: 2 };

export function fifthAvenueOwners(game: Schemas["FifthAvenueGame"]): Array<number | "gedeon" | null> {
  return game.view.districts.flatMap((district) => district.plots.map((plot) => plot.owner));
}

// Wettstreit: its own `bid` move, and the die that is a number or "black".
export const wettstreitBid: Schemas["WettstreitMove"] = { type: "bid", amount: 3 };

export function die(view: Schemas["WettstreitView"]): number | "black" | null {
  return view.die;
}

// Wettstreit: a saboteur is taken from a seat (a number) or from the centre.
export function saboteurSource(event: Schemas["WettstreitSaboteurTakenEvent"]): string {
  return event.source === "centre" ? "the centre" : `seat ${event.source + 1}`;
}

// @ts-expect-error a seat is a number, not a string of digits
export const wrongSource: Schemas["WettstreitSaboteurTakenEvent"] = { type: "saboteur_taken", seat: 0, source: "2" };

// Any reply: the title tells the shapes apart.
export function firstMoveType(listing: Schemas["Moves"]): string | null {
  switch (listing.title) {
    case "fifth-avenue":
      return listing.moves.length ? listing.moves[0].move.type : null;
    case "wettstreit":
      return listing.moves.length ? listing.moves[0].move.type : null;
    default:
      return null;
  }
}

export const request: Schemas["ActionRequest"] = { move: wettstreitBid, version: 0 };

// The types tell the titles apart: Fifth Avenue's bid carries no amount (Wettstreit's does).
// @ts-expect-error an amount is no part of a Fifth Avenue bid
export const wrongTitle: Schemas["FifthAvenueMove"] = { type: "bid", amount: 3 };
