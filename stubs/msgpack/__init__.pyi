# The part of msgpack (1.x) Skyline calls: it ships no annotations and has no types-* package.
from typing import Any

def packb(
    o: Any, *, use_bin_type: bool = ..., use_single_float: bool = ..., strict_types: bool = ...
) -> bytes: ...
def unpackb(
    packed: bytes,
    *,
    raw: bool = ...,
    use_list: bool = ...,
    strict_map_key: bool = ...,
) -> Any: ...
