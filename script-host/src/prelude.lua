-- The Lua half of the host: sandbox touches, the `ludus` API table and event dispatch.
-- Runs once per VM with: the shared sandbox globals, the per-stage context table (filled by
-- Rust before each gameplay stage and emptied after), archetype names, tag bits, action
-- names, constants, and the list of script environments (filled as scripts load).
local G, CTX, RAW, KINDS, TAGBITS, ACTIONS, CONSTANTS, ENVS, DECODE = ...

local type, pairs, ipairs, error, select = type, pairs, ipairs, error, select
local raw_tostring, getmetatable, setmetatable = tostring, getmetatable, setmetatable
local unpack = string.unpack

-- Values must never reveal addresses: they differ between processes and would break replays.
local function safe_tostring(v)
  local t = type(v)
  if t == "table" or t == "function" or t == "thread" or t == "userdata" then
    local mt = getmetatable(v)
    if type(mt) == "table" and mt.__tostring ~= nil then
      return raw_tostring(v)
    end
    return t
  end
  return raw_tostring(v)
end
G.tostring = safe_tostring

local raw_format = string.format
string.format = function(fmt, ...)
  if type(fmt) == "string" and fmt:find("%%p") then
    error("string.format: %p is not available to scripts (addresses differ between runs)", 2)
  end
  local n = select("#", ...)
  if n == 0 then
    return raw_format(fmt)
  end
  local args = { ... }
  for i = 1, n do
    local t = type(args[i])
    if t == "table" or t == "function" or t == "thread" or t == "userdata" then
      args[i] = safe_tostring(args[i])
    end
  end
  return raw_format(fmt, table.unpack(args, 1, n))
end

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
    error("ludus.has: unknown tag `" .. safe_tostring(name) .. "`", 2)
  end
  return tags & bit ~= 0
end

function ludus.log(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do
    parts[i] = safe_tostring((select(i, ...)))
  end
  CTX.__log(table.concat(parts, "\t"))
end

-- Read-only constants from the game's TOML.
ludus.const = setmetatable({}, {
  __index = function(_, k)
    local v = CONSTANTS[k]
    if v == nil then
      error("ludus.const: no constant named `" .. safe_tostring(k) .. "`", 2)
    end
    return v
  end,
  __newindex = function() error("ludus.const is read-only", 2) end,
  __metatable = false,
})

G.ludus = ludus
G.print = ludus.log
G.warn = function(...) ludus.log("warning:", ...) end
math.random = ludus.random
math.randomseed = function()
  error("math.randomseed is not available: randomness comes from the game's seed", 2)
end

-- Event decoding. Field layouts mirror src/encode.rs.
--
-- Event lists and event tables are reused from stage to stage (no garbage per event): a handler
-- reads them during its call; a script that wants to keep an event copies the fields it needs.
local ON = { "press", "hold", "release" }
local REASON = { "lifetime", "bounds" }
local POOLS = {}

-- The reusable list and event tables of kind `k`, sized for `n` events.
local function acquire(k, n)
  local p = POOLS[k]
  if p == nil then
    p = { list = {}, tables = {}, n = 0 }
    POOLS[k] = p
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
local function pooled(k, blob, pos, n)
  local list, tables = acquire(k, n)
  return list, DECODE(k - 1, blob, pos, n, list, tables, KINDS, ACTIONS)
end

local function timers(k, blob, pos, n)
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

local function call_all(name, arg)
  for i = 1, #ENVS do
    local h = ENVS[i][name]
    if h ~= nil then
      h(arg)
    end
  end
end

-- One call per gameplay stage: `start` is the level name on the level's first tick, `counts`
-- the number of events of each kind in `blob`. Each handler is called once with all events of
-- its kind; kinds without events are skipped.
return function(start, tick, counts, blob)
  if start then
    call_all("on_start", { tick = tick, level = start })
  end
  local pos = 1
  for k = 1, #KIND_ORDER do
    local n = counts[k]
    if n > 0 then
      local entry = KIND_ORDER[k]
      local list
      list, pos = entry[2](k, blob, pos, n)
      if #list > 0 then
        call_all(entry[1], list)
      end
    end
  end
end
