"""What the game waits for: the stage names shared by the modules of the engine."""

from __future__ import annotations

PILES = "piles"  # setup: choose a starting pile
PICK = "pick"  # Phase I: a turn of taking a pair (and Phase I characters)
BID = "bid"  # Phase II: a player's one chance to bid
CHARACTER = "character"  # Characters action: choose a character
PRESTIGE = "prestige"  # Prestige action: the bonus (tile, vehicle, skyscraper)
BUILD = "build"  # Skyscrapers action: where the skyscrapers come from
REPLACE = "replace"  # after a bidding round: character 22
PHASE3 = "phase3"  # Phase III: characters 23–27
OVER = "over"
STAGES = (PILES, PICK, BID, CHARACTER, PRESTIGE, BUILD, REPLACE, PHASE3, OVER)
