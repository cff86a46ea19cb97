-- The Lua half of the host: the `ludus` API table and event dispatch.
-- Runs once per VM with: the shared sandbox globals, the per-stage context table (filled by
-- Rust before each gameplay stage and emptied after), the permanent command functions,
-- archetype names, tag bits, action names, constants, the list of script environments (filled
-- as scripts load), the event decoder and the function that makes a table read-only.
--
-- Everything used after this chunk returns is captured here, as a local: scripts can replace
-- what their own environment holds, never what the host runs.
local G, CTX, RAW, KINDS, TAGBITS, ACTIONS, CONSTANTS, ENVS, DECODE, FREEZE = ...

local type, ipairs, error, select, tostring = type, ipairs, error, select, tostring
local setmetatable, concat, unpack = setmetatable, table.concat, string.unpack

local ludus = {}

local function ctx(name)
  local f = CTX[name]
  if f == nil then
    error("ludus." .. name .. " can only be used inside event handlers", 3)
  end
  return f
end

-- Commands: Rust functions that validate and buffer (a malformed one faults the game with
-- the calling script's location); and reads.
for _, name in ipairs({
  "damage", "heal", "add_score", "set", "set_state", "spawn", "destroy", "teleport",
  "velocity", "effect", "sound", "game_over", "tick", "score", "random",
}) do
  ludus[name] = RAW[name]
end
function ludus.after(delay, name, opts) return ctx("after")(delay, name, opts, false) end
function ludus.every(period, name, opts) return ctx("after")(period, name, opts, true) end
function ludus.cancel(id) return ctx("cancel")(id) end

-- Reads of the world, available while a stage runs.
function ludus.get(name) return ctx("get")(name) end
function ludus.state(id, key) return ctx("state")(id, key) end
function ludus.alive(id) return ctx("alive")(id) end
function ludus.health(id) return ctx("health")(id) end

--- Whether a tag set (an event's `tags`, `a_tags`...) contains the named tag.
function ludus.has(tags, name)
  local bit = TAGBITS[name]
  if bit == nil then
    error("ludus.has: unknown tag `" .. tostring(name) .. "`", 2)
  end
  return tags & bit ~= 0
end

local log = RAW.log
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
  local list, live = {}, CTX.timer_live
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
