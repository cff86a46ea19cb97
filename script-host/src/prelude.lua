-- The Lua half of the host: the `ludus` API table and event dispatch. Runs once per VM with
-- one table of what it needs, by name (sandbox.rs `prelude` says what each field is). Everything
-- used after this chunk returns is captured here, as a local: scripts can replace what their
-- own environment holds, never what the host runs.
local HOST = ...
local G, RAW, NO_SUCH = HOST.globals, HOST.api, HOST.no_such_function
local KINDS, TAGBITS, ACTIONS = HOST.kinds, HOST.tag_bits, HOST.actions
local CONSTANTS, ENVS, FREEZE = HOST.constants, HOST.envs, HOST.freeze
local NEWPOOL, DECODE, KINDSPEC = HOST.new_pool, HOST.decode, HOST.event_kinds
local PROFILE = HOST.profile
HOST = nil

local type, pairs, error, select, tostring, next = type, pairs, error, select, tostring, next
local setmetatable, concat, sub = setmetatable, table.concat, string.sub

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

-- Event decoding: the records of each kind follow its layout in KINDSPEC (ludus-core's event
-- list); lua/csrc/events.c fills the tables, writing the fields the script has read so far and
-- decoding any other on its first read.
--
-- Each script has its own event lists and tables, reused from stage to stage (no garbage per
-- event): a handler reads them during its call; a script that wants to keep an event copies
-- the fields it needs. What one script does to its tables never reaches another script.
local POOLS = {}

-- Decodes the `n` records of kind `k` at `pos` into script `s`'s tables (0: skips them);
-- returns the list and the position after the records.
local function decode(s, k, blob, pos, n)
  local spec = KINDSPEC[k]
  if s == 0 then
    return DECODE(blob, pos, n, nil, spec)
  end
  local pools = POOLS[s]
  if pools == nil then
    pools = {}
    POOLS[s] = pools
  end
  local pool = pools[k]
  if pool == nil then
    pool = NEWPOOL(spec, KINDS, ACTIONS, next)
    pools[k] = pool
  end
  local list
  list, pos = DECODE(blob, pos, n, pool)
  if spec.cancellable then
    -- An event an earlier handler of this stage cancelled is not delivered.
    local live, count = RAW.__timer_live, 0
    for i = 1, n do
      local e = list[i]
      if live(e.id) then
        count = count + 1
        list[count] = e
      end
    end
    for i = count + 1, n do
      list[i] = nil
    end
  end
  return list, pos
end

-- One call per gameplay stage: `counts[k]` is the number of events of kind `k` in `blob`
-- (zero for kinds of the other stage and kinds nobody handles), and `present[1..m]` the kinds
-- with events, in KINDSPEC order. Each script's handler is called once with all events of its
-- kind, decoded for that script, in KINDSPEC order.
return function(counts, blob, present, m)
  local pos = 1
  for j = 1, m do
    local k = present[j]
    local n = counts[k]
    local name, single = KINDSPEC[k].handler, KINDSPEC[k].single
    local after
    for i = 1, #ENVS do
      local h = ENVS[i][name]
      if h ~= nil then
        local list
        list, after = decode(i, k, blob, pos, n)
        if #list > 0 then
          local event = list
          if single then
            event = list[1]
          end
          if PROFILE.on then
            local start = PROFILE.now()
            h(event)
            PROFILE.done(i, k, start)
          else
            h(event)
          end
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
