"""The rate limit's sliding-window check, in Lua: the limiter's script.

A limit of ``N`` requests per ``W`` seconds keeps one counter per fixed window and weighs the
previous window's count by how much of it still overlaps the last ``W`` seconds. ``admit``
checks every limit given and, only when all admit the request, counts it under each: a
refused request is counted under none. It returns ``{allowed, refused_by, remaining, wait_ms}``.

The limiter (service.store.ratelimit) runs it at each request's edge, before the request reads
or writes anything.
"""

ADMIT = """
-- Limit i of count: KEYS[key0 + 2i - 2] its window's counter, KEYS[key0 + 2i - 1] the previous
-- window's; ARGV[arg0 + 3i - 3] the limit, ARGV[arg0 + 3i - 2] the window (ms),
-- ARGV[arg0 + 3i - 1] the time elapsed in the window (ms).
local function admit(key0, arg0, count)
  local remaining = nil
  for i = 1, count do
    local limit = tonumber(ARGV[arg0 + 3 * i - 3])
    local window = tonumber(ARGV[arg0 + 3 * i - 2])
    local elapsed = tonumber(ARGV[arg0 + 3 * i - 1])
    local current = tonumber(redis.call('GET', KEYS[key0 + 2 * i - 2]) or '0')
    local previous = tonumber(redis.call('GET', KEYS[key0 + 2 * i - 1]) or '0')
    local used = previous * (window - elapsed) / window + current
    if used + 1 > limit then
      -- Refused: how long until the estimate falls below the limit again.
      local wait
      if current + 1 <= limit then
        -- Still in this window: wait until enough of the previous window has slid out.
        wait = window - elapsed - (limit - 1 - current) * window / previous
      else
        -- Only in a later window: this window then weighs as the previous one.
        wait = (window - elapsed) + window * (1 - (limit - 1) / current)
      end
      if wait < 1 then wait = 1 end
      return {0, i, 0, math.ceil(wait)}
    end
    local left = math.floor(limit - used - 1)
    if remaining == nil or left < remaining then remaining = left end
  end
  for i = 1, count do
    redis.call('INCR', KEYS[key0 + 2 * i - 2])
    redis.call('PEXPIRE', KEYS[key0 + 2 * i - 2], 2 * tonumber(ARGV[arg0 + 3 * i - 2]))
  end
  return {1, 0, remaining, 0}
end
"""

# The limiter's own script: every key is a limit's counter.
ADMIT_ALL = ADMIT + "return admit(1, 1, #KEYS / 2)\n"
