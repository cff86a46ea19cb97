-- The Lua half of the host: the `ludus` API table and event dispatch.
-- Runs once per VM with: the shared sandbox globals, the API's Rust functions (by name; the
-- internal ones start with `__`), the function that names the closest API function to a
-- misspelt one, archetype names, tag bits, action names, constants, the list of script
-- environments (filled as scripts load), the event decoder and the function that makes a
-- table read-only.
--
-- Everything used after this chunk returns is captured here, as a local: scripts can replace
-- what their own environment holds, never what the host runs.
local G, RAW, NO_SUCH, KINDS, TAGBITS, ACTIONS, CONSTANTS, ENVS, DECODE, FREEZE = ...

local type, pairs, error, select, tostring = type, pairs, error, select, tostring
local setmetatable, concat, unpack, sub = setmetatable, table.concat, string.unpack, string.sub

local ludus = {}

-- Commands and reads: Rust functions that convert their arguments and hand them to the stage
-- (a malformed one faults the game with the calling script's location).
for name, f in pairs(RAW) do
  if sub(name, 1, 2) ~= "__" then
    ludus[name] = f
  end
end

--- Whether a tag set (an event's `tags`, `a_tags`...) contains the named tag.
function ludus.has(tags, name)
  local bit = TAGBITS[name]
  if bit == nil then
    error("ludus.has: unknown tag `" .. tostring(name) .. "`", 2)
  end
  return tags & bit ~= 0
end

local log = RAW.__log
function ludus.log(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do
    parts[i] = tostring((select(i, ...)))
  end
  log(concat(parts, "\t"))
end

-- Read-only constants from the game's TOML: writes fail, rawset included.
ludus.const = setmetatable({}, {
  __index = function(_, k)
    local v = CONSTANTS[k]
    if v == nil then
      error("ludus.const: no constant named `" .. tostring(k) .. "`", 2)
    end
    return v
  end,
  __newindex = function() error("ludus.const is read-only", 2) end,
  __metatable = false,
})
FREEZE(ludus.const)

-- Any other name is a mistake: say which function was meant.
setmetatable(ludus, {
  __index = function(_, k)
    error(NO_SUCH(tostring(k)), 2)
  end,
  __metatable = false,
})

G.ludus = ludus
G.print = ludus.log
G.warn = function(...) ludus.log("warning:", ...) end
G.math.random = ludus.random
G.math.randomseed = function()
  error("math.randomseed is not available: randomness comes from the game's seed", 2)
end

-- Event decoding. Field layouts mirror src/encode.rs.
--
-- Each script has its own event lists and tables, reused from stage to stage (no garbage per
-- event): a handler reads them during its call; a script that wants to keep an event copies
-- the fields it needs. What one script does to its tables never reaches another script.
local POOLS = {}

-- The reusable list and event tables of script `s` and kind `k`, sized for `n` events.
local function acquire(s, k, n)
  local pools = POOLS[s]
  if pools == nil then
    pools = {}
    POOLS[s] = pools
  end
  local p = pools[k]
  if p == nil then
    p = { list = {}, tables = {}, n = 0 }
    pools[k] = p
  end
  local list, tables = p.list, p.tables
  for i = n + 1, p.n do
    list[i] = nil
  end
  p.n = n
  for i = #tables + 1, n do
    tables[i] = {}
  end
  return list, tables
end

-- Spawn, action, contact, expire and damage records are decoded by C (csrc/events.c) into the
-- pooled tables; field names are listed in docs/scripting.md.
local function pooled(s, k, blob, pos, n)
  local list, tables = acquire(s, k, n)
  return list, DECODE(k - 1, blob, pos, n, list, tables, KINDS, ACTIONS)
end

local function timers(_, _, blob, pos, n)
  -- Timers are few; they get fresh tables, and one cancelled by an earlier handler of this
  -- stage is not delivered.
  local list, live = {}, RAW.__timer_live
  local count = 0
  for _ = 1, n do
    local tick, id, due, data, has, target, tk, tt, x, y, name
    tick, id, due, data, has, target, tk, tt, x, y, name, pos = unpack("<jjjdI1jI2jffs2", blob, pos)
    if live(id) then
      count = count + 1
      local e = { tick = tick, id = id, name = name, due = due, data = data }
      if has == 1 then
        e.target, e.target_kind, e.target_tags, e.x, e.y = target, KINDS[tk], tt, x, y
      end
      list[count] = e
    end
  end
  return list, pos
end

-- Handler name and decoder per event kind, in the order Rust encodes them.
local KIND_ORDER = {
  { "on_spawn", pooled },
  { "on_action", pooled },
  { "on_collision_enter", pooled },
  { "on_collision_stay", pooled },
  { "on_collision_exit", pooled },
  { "on_trigger_enter", pooled },
  { "on_trigger_stay", pooled },
  { "on_trigger_exit", pooled },
  { "on_expire", pooled },
  { "on_timer", timers },
  { "on_damage", pooled },
}

-- One call per gameplay stage: `start` is the level name on the level's first tick, `counts`
-- the number of events of each kind in `blob`. Each script's handler is called once with all
-- events of its kind, decoded for that script; kinds without events are skipped.
return function(start, tick, counts, blob)
  if start then
    for i = 1, #ENVS do
      local h = ENVS[i].on_start
      if h ~= nil then
        h({ tick = tick, level = start })
      end
    end
  end
  local pos = 1
  for k = 1, #KIND_ORDER do
    local n = counts[k]
    if n > 0 then
      local name, decode = KIND_ORDER[k][1], KIND_ORDER[k][2]
      local after
      for i = 1, #ENVS do
        local h = ENVS[i][name]
        if h ~= nil then
          local list
          list, after = decode(i, k, blob, pos, n)
          if #list > 0 then
            h(list)
          end
        end
      end
      if after == nil then
        -- Nobody handles the kind any more (a handler removed itself): skip its records.
        local _
        _, after = decode(0, k, blob, pos, n)
      end
      pos = after
    end
  end
end
